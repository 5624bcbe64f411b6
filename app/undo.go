package app

import (
	"errors"
	"fmt"
	"strings"

	"github.com/latch-app/latch/core/audit"
	"github.com/latch-app/latch/core/grants"
	"github.com/latch-app/latch/core/stream"
)

// grantRecord is what one grant added, so Undo removes exactly that.
type grantRecord struct {
	rules, dirs []string
	file        string // the settings file it was saved to; "" for this session only
}

// grantMade shows a grant in the transcript with an Undo for it.
func (s *Session) grantMade(text string, rules, dirs []string, file string) {
	s.mu.Lock()
	if s.grantLog == nil {
		s.grantLog = map[string]grantRecord{}
	}
	s.grantNo++
	id := fmt.Sprintf("g%d", s.grantNo)
	s.grantLog[id] = grantRecord{rules: rules, dirs: dirs, file: file}
	s.mu.Unlock()
	s.auditAdd(audit.Entry{Kind: audit.KindGrant, Rules: rules, Folders: dirs, File: file, Scope: s.scopeOf(file), Decider: audit.ByPerson})
	s.show(Event{Kind: EvGrant, Grant: &GrantInfo{ID: id, Text: text}})
}

// scopeOf names where a grant saved to file lives.
func (s *Session) scopeOf(file string) string {
	switch file {
	case "":
		return "session"
	case s.userSettings:
		return "user"
	}
	return "project"
}

// ErrUndone is returned by Undo for a grant already taken back.
var ErrUndone = errors.New("that grant was undone already")

// Undo takes back exactly what grant id added: from its settings file
// (byte-safe, as the file was before, other edits kept) and from the running
// session, before the next tool call. It does file I/O: call it off the UI
// goroutine.
func (s *Session) Undo(id string) error {
	s.mu.Lock()
	rec, ok := s.grantLog[id]
	delete(s.grantLog, id)
	s.mu.Unlock()
	if !ok {
		return ErrUndone
	}
	var errs []error
	if rec.file != "" {
		s.forget(rec.file, rec.rules, rec.dirs)
		st := grants.NewStore(rec.file)
		if len(rec.rules) > 0 {
			errs = append(errs, st.RemoveRules(rec.rules...))
		}
		if len(rec.dirs) > 0 {
			errs = append(errs, st.RemoveDirs(rec.dirs...))
		}
	}
	s.revoke(rec.rules, rec.dirs, rec.file != "")
	what := VisibleLine(strings.Join(append(append([]string(nil), rec.rules...), rec.dirs...), ", "))
	if err := errors.Join(errs...); err != nil {
		s.fail("The grant could not be removed from "+rec.file, err.Error()+"\nIt is taken back from this session.")
		return err
	}
	s.auditAdd(audit.Entry{Kind: audit.KindUndo, Rules: rec.rules, Folders: rec.dirs, File: rec.file, Scope: s.scopeOf(rec.file), Decider: audit.ByPerson})
	text := "Undone: " + what + " is no longer allowed"
	if rec.file != "" {
		text += " (removed from " + rec.file + ")"
	}
	s.show(Event{Kind: EvGrant, Grant: &GrantInfo{ID: id, Text: text + ".", Undone: true}})
	return nil
}

// noteDenial keeps a refused call, so it can be granted after the turn.
func (s *Session) noteDenial(d *stream.Denial) {
	if d == nil || d.ToolUseID == "" || d.Class == stream.Interrupted {
		return
	}
	s.mu.Lock()
	if s.denied == nil {
		s.denied = map[string]stream.Denial{}
	}
	s.denied[d.ToolUseID] = *d
	s.mu.Unlock()
}

// GrantLater offers the grant dialog for a call refused earlier — also
// one the person denied, or left after "Not now" — saves what is granted
// and resumes the session with the retry message. It returns at once.
func (s *Session) GrantLater(toolUseID string) error {
	var d stream.Denial
	return s.startTurn(func() error {
		var ok bool
		if d, ok = s.denied[toolUseID]; !ok {
			return errors.New("no refused call with that id is known")
		}
		return nil
	}, func() {}, func(t *turn) {
		defer s.idle()
		req := grantRequestOf([]stream.Denial{d}, s.allowedTools(), s.dirs(), s.workdir, 1, false)
		if req.empty() {
			s.notice("That call is allowed now; Latch retries it.")
		} else if !t.askAndGrant(req) {
			return
		}
		s.mu.Lock()
		delete(s.denied, toolUseID)
		s.mu.Unlock()
		s.show(Event{Kind: EvPrompt, Text: RetryMessage, Auto: true})
		t.rounds(RetryMessage, 2)
	})
}
