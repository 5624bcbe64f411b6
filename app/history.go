package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/latch-app/latch/core/sessions"
)

// SessionSummary is one past session of a folder as the history lists it.
// Title, Cwd, GitBranch and Version are the file's text: untrusted.
type SessionSummary struct {
	ID         string    // the session id (what --resume takes)
	Path       string    // the session file
	Title      string    // its summary, else its first prompt; one line
	Started    time.Time // the first timestamp
	Updated    time.Time // the last
	Prompts    int       // prompts typed
	Unresolved int       // grantable denials in its last turn
	Cwd        string
	GitBranch  string
	Version    string // the CLI version that wrote it
	Size       int64
}

// ModelChoice is one model the CLI offers (its initialize answer).
// Every field is the CLI's text, untrusted.
type ModelChoice struct {
	Value       string // what set_model and --model take: "default", "sonnet", …
	DisplayName string
	Description string
}

// History lists the sessions Claude Code kept for a folder: the files in
// its config folder's projects/<slug>/, read as little as their listing
// needs and again only when they change. Safe for concurrent use.
type History struct {
	configDir string
	lister    *sessions.Lister
}

// NewHistory lists the sessions of the CLI run with env (nil: Latch's
// own environment).
func NewHistory(env []string) *History {
	return &History{configDir: claudeConfigDir(env), lister: sessions.NewLister()}
}

// List returns workdir's sessions, newest first. A folder Claude Code
// never ran in has none.
func (h *History) List(workdir string) ([]SessionSummary, error) {
	if h.configDir == "" {
		return nil, errors.New("the home folder is not known, so Claude Code's sessions cannot be found")
	}
	list, err := h.lister.List(sessions.Dir(h.configDir, cliFolder(workdir)))
	if err != nil {
		return nil, err
	}
	out := make([]SessionSummary, len(list))
	for i, s := range list {
		out[i] = SessionSummary{ID: s.ID, Path: s.Path, Title: s.Title, Started: s.Started, Updated: s.Updated,
			Prompts: s.Prompts, Unresolved: s.Unresolved, Cwd: s.Cwd, GitBranch: s.GitBranch, Version: s.Version, Size: s.Size}
	}
	return out, nil
}

// cliFolder is workdir as the CLI started there sees it (its cwd has its
// symlinks resolved), which names its sessions' folder.
func cliFolder(workdir string) string {
	if real, err := filepath.EvalSymlinks(workdir); err == nil {
		return real
	}
	return workdir
}

// claudeConfigDir is where the CLI run with env keeps its settings and
// sessions: $CLAUDE_CONFIG_DIR, else ~/.claude. A nil env is Latch's own.
func claudeConfigDir(env []string) string {
	if env == nil {
		env = os.Environ()
	}
	dir, home := envValue(env, "CLAUDE_CONFIG_DIR"), envValue(env, "HOME")
	switch {
	case dir != "":
		return dir
	case home != "":
		return filepath.Join(home, ".claude")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".claude")
	}
	return ""
}

// Continue makes this session the continuation of session id, which
// Claude Code kept in the file at path: the file's transcript is shown
// (prompts, answers, tool calls with their results, refusals that can be
// granted from their cards), and the next prompt resumes it (--resume).
// It reads the whole file before it returns; call it before the first
// prompt, off the UI goroutine. ctx stops the reading.
func (s *Session) Continue(ctx context.Context, id, path string) error {
	s.mu.Lock()
	switch {
	case s.closed:
		s.mu.Unlock()
		return ErrClosed
	case s.state != Idle || s.live != nil || s.cur != nil || (s.established && s.sessionID != id):
		s.mu.Unlock()
		return errors.New("this tab already runs a session; open the history's session in a new tab")
	}
	s.sessionID, s.established = id, true
	s.mu.Unlock()
	s.emitStatus()

	h := historyReader{s: s}
	info, err := sessions.Read(ctx, path, h.item)
	h.foldEnd()
	if err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	s.mu.Lock()
	if info.Model != "" && s.model == "" {
		s.model = info.Model
	}
	s.mu.Unlock()
	if info.Malformed > 0 {
		s.notice(fmt.Sprintf("%s of the session file could not be read and were skipped (a session being written ends in a torn line).", plural(info.Malformed, "line")))
	}
	s.notice("Earlier session, read from Claude Code's session file. The next prompt continues it.")
	s.emitStatus()
	return nil
}

// historyReader turns a session file's items into the transcript's events,
// by the live stream's own paths where they apply. Nothing of it reaches
// the audit log: it happened before, and was logged then if Latch ran it.
type historyReader struct {
	s *Session
	// A run of subagent traffic is folded into one notice.
	foldCalls int
	foldSteps int
}

func (h *historyReader) item(it sessions.Item) error {
	s := h.s
	if it.Sidechain {
		h.foldSteps++
		if it.Kind == sessions.ItemEvent && it.Event.Block != nil && it.Event.Block.ToolUse != nil {
			h.foldCalls++
		}
		return nil
	}
	h.foldEnd()
	switch it.Kind {
	case sessions.ItemPrompt:
		s.show(Event{Kind: EvPrompt, Text: it.Text, Auto: it.Text == RetryMessage})
	case sessions.ItemNotice:
		s.notice(it.Text)
	case sessions.ItemTurnEnd:
		t := &TurnInfo{Earlier: true}
		if it.Turn != nil {
			t.Denials = len(it.Turn.Denials)
		}
		s.show(Event{Kind: EvTurnEnd, Turn: t})
	case sessions.ItemEvent:
		ev := it.Event
		switch {
		case ev.Block != nil && ev.Block.APIError:
			s.show(Event{Kind: EvError, Err: &ErrorInfo{Title: "The Anthropic API failed", Detail: ev.Block.Text}})
		case ev.Block != nil && ev.Block.Type == "tool_use" && ev.Block.ToolUse != nil:
			u := ev.Block.ToolUse
			// The file has changed since: the diff is of the call's own text.
			s.showCall(u.ID, u.Name, u.Input, historyDiff(u.Name, u.Input))
		case ev.Block != nil:
			s.assistant(ev.Block, ev.Line)
		case ev.ToolResult != nil:
			s.show(Event{Kind: EvToolResult, Tool: s.resultCall(ev.ToolResult, historyDiff(ev.ToolResult.Tool, ev.ToolResult.Input))})
		}
	}
	return nil
}

// foldEnd shows the subagent traffic just read as one line.
func (h *historyReader) foldEnd() {
	if h.foldSteps == 0 {
		return
	}
	h.s.notice(fmt.Sprintf("A subagent worked here: %s, %s (folded).", plural(h.foldSteps, "step"), plural(h.foldCalls, "tool call")))
	h.foldSteps, h.foldCalls = 0, 0
}

// historyDiff is the diff of a file change read from a session file: of
// the call's own text, since the file has changed since.
func historyDiff(name string, input json.RawMessage) *FileDiff {
	if !changesFile(name) {
		return nil
	}
	return computeDiff(name, input, "", false).fd
}
