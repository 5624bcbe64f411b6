package app

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/latch-app/latch/app/cliproc"
	"github.com/latch-app/latch/core/stream"
)

// turn is the driver of one prompt: its runs (one user line to one CLI
// process, up to the result) and the grant-and-retry rounds between them.
// Only the turn's goroutine touches a turn; what it shares with other
// goroutines (state, grants, the live process) is in Session, under
// Session.mu.
type turn struct {
	s *Session
	// cfg is the session's configuration when the turn began. Reconfigure
	// changes the session's own between turns only, so a turn never sees
	// its flags change under it.
	cfg Config

	// The current run: its process, the person's answers to its questions,
	// and done, closed when the run ends (an answer after that is dropped).
	p       *cliproc.Proc
	answers chan answer
	done    chan struct{}
	sawInit bool
}

// prompt runs one prompt and then the grant-and-retry rounds it needs.
func (t *turn) prompt(prompt string) {
	s := t.s
	defer s.idle()
	s.watchGrants()
	s.syncGrants() // a settings file edited since the last prompt counts now
	s.checkTrust() // a folder trusted in a terminal since counts now
	t.rounds(prompt, 1)
}

// rounds sends msg, then offers what the turn was refused and retries,
// up to MaxRounds.
func (t *turn) rounds(msg string, round int) {
	s := t.s
	for ; ; round++ {
		res := t.run(msg)
		if res == nil || res.Turn == nil || s.isClosed() || s.isStopping() {
			return
		}
		denials := res.Turn.Grantable()
		if len(denials) == 0 {
			return
		}
		if round > MaxRounds {
			s.notice(fmt.Sprintf("Some tool calls are still blocked after %d rounds of grants; Latch stops retrying.", MaxRounds))
			return
		}
		req := grantRequest(denials, s.allowedTools(), s.dirs(), s.workdir, round)
		if req.empty() || !t.askAndGrant(req) {
			return
		}
		msg = RetryMessage
		s.show(Event{Kind: EvPrompt, Text: msg, Auto: true})
	}
}

// askAndGrant puts a grant request to the person and puts what they grant
// in force: saved where they said, in the running CLI at once, or on the
// command line of a resumed process. It reports whether anything was
// granted.
func (t *turn) askAndGrant(req GrantRequest) bool {
	s := t.s
	s.setState(Asking)
	d := s.surf.AskGrants(s.ctx, req)
	s.setState(Running)
	if d.Action != Grant || s.isClosed() {
		s.notice("Nothing granted; the blocked tool calls stay undone. “Grant…” on a refused call offers it again.")
		return false
	}
	rules, dirs, err := saveGrants(d, s.userSettings, s.workdir)
	if err != nil {
		s.fail("Some grants were not saved", err.Error()+"\nWhat could be checked is granted for this session only.")
	}
	if len(rules)+len(dirs) == 0 {
		return false
	}
	saved := err == nil && (d.Scope == ScopeUser || d.Scope == ScopeProject)
	file := s.savedFile(d.Scope, saved)
	what := VisibleLine(strings.Join(append(append([]string(nil), rules...), dirs...), ", "))
	if file != "" {
		s.grantMade("Saved "+what+" to "+file, rules, dirs, file)
	} else {
		s.grantMade("Allowed "+what+" for this session", rules, dirs, "")
	}
	if !s.grantRules(rules, dirs, saved) {
		s.mu.Lock()
		s.extraTools = dedupe(s.extraTools, rules)
		s.extraDirs = dedupe(s.extraDirs, dirs)
		// New grants go on the command line: the live process makes way
		// for one resumed with them.
		s.group.Retire(s.live, retireGrace)
		s.live = nil
		s.mu.Unlock()
	}
	return true
}

// run sends msg to a CLI process and handles its events until the turn's
// result. It returns nil when the turn ended without one.
func (t *turn) run(msg string) *stream.Result {
	s := t.s
	p, err := s.process(t.cfg)
	if err != nil {
		t.startFailed(err)
		return nil
	}
	s.mu.Lock()
	s.cur = p
	s.turnStart = time.Now() // a retry round is a turn of its own
	stopping := s.stopping
	s.mu.Unlock()
	// Between runs (a grant dialog may be open) there is nothing to stop.
	defer func() {
		s.mu.Lock()
		s.cur = nil
		s.mu.Unlock()
	}()
	if stopping {
		return nil
	}
	// A failed write means the process is gone; why is read from its
	// output and exit below.
	_ = p.Write(stream.UserMessage(msg))
	if t.cfg.Prompts == PromptsAfterTurn {
		p.CloseStdin()
	}

	t.p, t.answers, t.done, t.sawInit = p, make(chan answer), make(chan struct{}), false
	defer close(t.done)
	defer s.withdrawAll()
	for {
		select {
		case ev, ok := <-p.Events():
			if !ok {
				<-p.Done()
				t.processEnded()
				return nil
			}
			if ev.Kind == stream.KindInit {
				t.sawInit = true
			}
			if r := t.handle(ev); r != nil {
				if t.cfg.Prompts == PromptsAfterTurn {
					p.Discard() // whatever it prints after its result is nobody's, but is read
					<-p.Done()
				}
				return r
			}
		case a := <-t.answers:
			t.answer(a)
		}
	}
}

// startFailed explains a process that could not be started at all.
func (t *turn) startFailed(err error) {
	if errors.Is(err, ErrClosed) {
		return
	}
	name := "claude"
	if len(t.cfg.Command) > 0 {
		name = t.cfg.Command[0]
	}
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
		where := "on your PATH"
		if strings.ContainsRune(name, os.PathSeparator) {
			where = "there"
		}
		t.s.fail("Claude Code CLI not found",
			fmt.Sprintf("Latch found no program %q %s.\nInstall Claude Code (npm install -g @anthropic-ai/claude-code) or set the claude command in Preferences (Ctrl+,).", name, where))
		return
	}
	t.s.fail("Claude Code could not be started", fmt.Sprintf("%s: %v\nCheck the claude command in Preferences (Ctrl+,).", name, err))
}

// processEnded explains a process whose stdout ended before the turn's result.
func (t *turn) processEnded() {
	s, p := t.s, t.p
	s.mu.Lock()
	if s.live == p {
		s.live = nil
	}
	stopping, closed := s.stopping, s.closed
	s.mu.Unlock()
	if closed {
		return
	}
	if stopping {
		ti := s.turnInfo(nil, false, "")
		ti.Stopped = true
		if t.cfg.Prompts == PromptsAfterTurn {
			ti.Note = "In after-the-turn mode Claude Code has no input channel to interrupt, so its process was ended; the next prompt resumes the session."
		} else {
			ti.Note = "Claude Code did not end the turn in time, so its process was ended; the next prompt resumes the session."
		}
		s.show(Event{Kind: EvTurnEnd, Turn: ti})
		return
	}
	// The reason is at the end of stderr: Detail shows its last lines, short
	// enough to be shown whole; Full keeps all of it for copying.
	head := fmt.Sprintf("%s (%s).", clipCommand(t.cfg.Command), p.ExitMsg())
	info := &ErrorInfo{Title: "Claude Code stopped in the middle of the turn", Detail: head, Full: head, Retry: true}
	if short, full := p.Stderr(); short != "" {
		info.Detail += "\n\n" + short
		info.Full += "\n\n" + full
	}
	if !t.sawInit {
		info.Title = "Claude Code exited before it started the turn"
		info.Hint = "Check the claude command in Preferences (Ctrl+,)."
		info.Retry = false
	}
	s.show(Event{Kind: EvError, Err: info})
	ti := s.turnInfo(nil, true, "Claude Code exited")
	ti.Incomplete = t.sawInit // what it answered so far may be cut off
	s.show(Event{Kind: EvTurnEnd, Turn: ti})
}
