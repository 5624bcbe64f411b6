// Package surfacetest is the one fake app.Surface of the tests: it records
// what a Session shows and asks, answers from scripts, and waits for what a
// test expects to see.
package surfacetest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/latch-app/latch/app"
)

// Surface records every event, question and grant request, and answers
// questions and grant requests with the functions set by OnAsk and
// OnAskGrants. Its methods are safe for concurrent use.
type Surface struct {
	// Timeout bounds every WaitFor; 0 means 20 s. Set it before the
	// Session starts.
	Timeout time.Duration

	mu        sync.Mutex
	events    []app.Event
	questions []app.Question
	grants    []app.GrantRequest
	ask       func(context.Context, app.Question) app.Decision
	askGrants func(app.GrantRequest) app.Decision
	changed   chan struct{} // closed and replaced on every record
}

var _ app.Surface = (*Surface)(nil)

// New is a Surface that denies every question and grants nothing.
func New() *Surface { return &Surface{changed: make(chan struct{})} }

// OnAsk sets how Ask answers; nil denies (app.Deny with Latch's words).
func (s *Surface) OnAsk(f func(ctx context.Context, q app.Question) app.Decision) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ask = f
}

// OnAskGrants sets how AskGrants answers; nil answers app.NotNow.
func (s *Surface) OnAskGrants(f func(r app.GrantRequest) app.Decision) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.askGrants = f
}

// bump wakes WaitFor; s.mu is held.
func (s *Surface) bump() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// Show records ev.
func (s *Surface) Show(ev app.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.events = append(s.events, ev)
	s.bump()
}

// Ask records q and answers it with the OnAsk function.
func (s *Surface) Ask(ctx context.Context, q app.Question) app.Decision {
	s.mu.Lock()
	s.questions = append(s.questions, q)
	s.bump()
	f := s.ask
	s.mu.Unlock()
	if f == nil {
		return app.Decision{Action: app.Deny}
	}
	return f(ctx, q)
}

// AskGrants records r and answers it with the OnAskGrants function.
func (s *Surface) AskGrants(ctx context.Context, r app.GrantRequest) app.Decision {
	s.mu.Lock()
	s.grants = append(s.grants, r)
	s.bump()
	f := s.askGrants
	s.mu.Unlock()
	if f == nil {
		return app.Decision{Action: app.NotNow}
	}
	return f(r)
}

// Events are the events shown so far, oldest first.
func (s *Surface) Events() []app.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.events)
}

// Questions are the questions asked so far, oldest first.
func (s *Surface) Questions() []app.Question {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.questions)
}

// GrantRequests are the grant requests made so far, oldest first.
func (s *Surface) GrantRequests() []app.GrantRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.grants)
}

// WaitFor waits until cond holds for the events shown so far and returns
// them, or fails the test with what it waited for and the events. cond is
// tried on every event and every 20 ms, so it may also look at things
// other than the events.
func (s *Surface) WaitFor(tb testing.TB, what string, cond func([]app.Event) bool) []app.Event {
	tb.Helper()
	timeout := s.Timeout
	if timeout == 0 {
		timeout = 20 * time.Second
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		s.mu.Lock()
		evs := slices.Clone(s.events)
		ch := s.changed
		s.mu.Unlock()
		if cond(evs) {
			return evs
		}
		select {
		case <-ch:
		case <-tick.C:
		case <-deadline.C:
			tb.Fatalf("timed out after %v waiting for %s; %d questions, %d grant requests; events:\n%s",
				timeout, what, len(s.Questions()), len(s.GrantRequests()), Dump(evs))
		}
	}
}

// WaitIdle waits for the end of the n-th turn: the n-th return to Idle
// after Running.
func (s *Surface) WaitIdle(tb testing.TB, n int) []app.Event {
	tb.Helper()
	return s.WaitFor(tb, fmt.Sprintf("idle after turn %d", n), func(evs []app.Event) bool {
		running, idles := false, 0
		for _, e := range evs {
			if e.Kind != app.EvStatus || e.Status == nil {
				continue
			}
			switch e.Status.State {
			case app.Running:
				running = true
			case app.Idle:
				if running {
					idles++
					running = false
				}
			}
		}
		return idles >= n
	})
}

var kinds = map[app.EventKind]string{
	app.EvStatus: "status", app.EvPrompt: "prompt", app.EvText: "text", app.EvThinking: "thinking",
	app.EvToolCall: "tool call", app.EvToolUpdate: "tool update", app.EvToolResult: "tool result",
	app.EvTurnEnd: "turn end", app.EvNotice: "notice", app.EvError: "ERROR", app.EvGrant: "grant",
}

// Dump is evs one a line, for failure messages.
func Dump(evs []app.Event) string {
	var b strings.Builder
	for _, e := range evs {
		kind := kinds[e.Kind]
		if kind == "" {
			kind = fmt.Sprintf("kind%d", e.Kind)
		}
		switch {
		case e.Status != nil:
			fmt.Fprintf(&b, "  %s %s session=%s model=%s mode=%s\n", kind, e.Status.State,
				e.Status.SessionID, e.Status.Model, e.Status.PermissionMode)
		case e.Err != nil:
			fmt.Fprintf(&b, "  %s %q: %q\n", kind, e.Err.Title, clip(e.Err.Detail))
		case e.Tool != nil:
			fmt.Fprintf(&b, "  %s %s %s %q err=%v denial=%q grantable=%v result=%q\n", kind, e.Tool.ID, e.Tool.Name,
				e.Tool.Summary, e.Tool.IsError, e.Tool.Denial, e.Tool.Grantable, clip(e.Tool.Result))
		case e.Turn != nil:
			fmt.Fprintf(&b, "  %s %+v\n", kind, *e.Turn)
		case e.Grant != nil:
			fmt.Fprintf(&b, "  %s %s %q undone=%v\n", kind, e.Grant.ID, e.Grant.Text, e.Grant.Undone)
		default:
			if e.Auto {
				kind += " (Latch's)"
			}
			fmt.Fprintf(&b, "  %s %q\n", kind, clip(e.Text))
		}
	}
	return b.String()
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}
