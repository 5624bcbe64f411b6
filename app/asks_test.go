package app_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/latch-app/latch/app"
)

// stormScript asks n questions at once, optionally withdraws the first
// `withdraw` of them, then waits for the answer to the last one.
func stormScript(n, withdraw int) string {
	steps := []string{initLine, `wait "user"`}
	for i := range n {
		steps = append(steps, fmt.Sprintf(`print {"type":"control_request","request_id":"req-%d","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"echo %d"},"tool_use_id":"toolu_%d"}}`, i, i, i))
	}
	for i := range withdraw {
		steps = append(steps, fmt.Sprintf(`print {"type":"control_cancel_request","request_id":"req-%d"}`, i))
	}
	steps = append(steps, fmt.Sprintf(`wait "request_id":"req-%d"`, n-1), resultLine, "waiteof")
	return strings.Join(steps, "\n")
}

// answersOnStdin are the request ids Latch answered, in order.
func answersOnStdin(stdin string) []string {
	var ids []string
	for _, l := range strings.Split(stdin, "\n") {
		if !strings.Contains(l, "control_response") {
			continue
		}
		_, rest, _ := strings.Cut(l, `"request_id":"`)
		id, _, _ := strings.Cut(rest, `"`)
		ids = append(ids, id)
	}
	return ids
}

// 1,000 questions at once are put to the person one at a time, in order.
func TestQuestionStormIsAskedInOrderOneAtATime(t *testing.T) {
	const n = 1000
	r := newRig(t, app.Config{}, stormScript(n, 0))
	var mu sync.Mutex
	open, most := 0, 0
	r.surf.OnAsk(func(_ context.Context, q app.Question) app.Decision {
		mu.Lock()
		open++
		most = max(most, open)
		mu.Unlock()
		defer func() { mu.Lock(); open--; mu.Unlock() }()
		return app.Decision{Action: app.Deny, Message: "no"}
	})
	r.send("go")
	r.surf.WaitIdle(t, 1)
	if most != 1 {
		t.Errorf("%d questions were with the person at once", most)
	}
	if len(r.surf.Questions()) != n {
		t.Fatalf("asked %d questions, want %d", len(r.surf.Questions()), n)
	}
	for i, q := range r.surf.Questions() {
		if q.RequestID != fmt.Sprintf("req-%d", i) {
			t.Fatalf("question %d was %s: out of order", i, q.RequestID)
		}
	}
	got := answersOnStdin(r.file("stdin", 1))
	if len(got) != n || got[0] != "req-0" || got[n-1] != fmt.Sprintf("req-%d", n-1) {
		t.Errorf("answered %d (%v … ), want %d in order", len(got), got[:min(3, len(got))], n)
	}
}

// Esc (deny and stop) on the first of 1,000 questions denies the rest
// without showing them.
func TestQuestionStormStopsOnDenyAndStop(t *testing.T) {
	const n = 1000
	r := newRig(t, app.Config{}, stormScript(n, 0))
	r.surf.OnAsk(func(context.Context, app.Question) app.Decision { return app.Decision{Action: app.DenyStop} })
	r.send("go")
	r.surf.WaitIdle(t, 1)
	if len(r.surf.Questions()) != 1 {
		t.Errorf("%d questions shown after deny and stop, want 1", len(r.surf.Questions()))
	}
	got := answersOnStdin(r.file("stdin", 1))
	if len(got) != n {
		t.Fatalf("%d of %d questions answered", len(got), n)
	}
	for _, l := range strings.Split(r.file("stdin", 1), "\n") {
		if strings.Contains(l, "control_response") && strings.Contains(l, `"behavior":"allow"`) {
			t.Fatalf("allowed after deny and stop: %s", l)
		}
	}
}

// A CLI that withdraws 999 questions at once gets one notice, and the
// withdrawn questions are never answered.
func TestQuestionStormWithdrawnInOneNotice(t *testing.T) {
	const n = 1000
	r := newRig(t, app.Config{}, stormScript(n, n-1))
	// A person takes longer than the CLI: a question up when the CLI
	// withdraws it goes away unanswered; only the last one is answered.
	r.surf.OnAsk(func(ctx context.Context, q app.Question) app.Decision {
		if q.RequestID == fmt.Sprintf("req-%d", n-1) {
			return app.Decision{Action: app.AllowOnce}
		}
		<-ctx.Done()
		return app.Decision{}
	})
	r.send("go")
	evs := r.surf.WaitIdle(t, 1)
	var notices []string
	for _, e := range ofKind(evs, app.EvNotice) {
		if strings.Contains(e.Text, "withdrew") {
			notices = append(notices, e.Text)
		}
	}
	if len(notices) != 1 || !strings.Contains(notices[0], "withdrew 999 questions") {
		t.Errorf("withdrawal notices %q, want one for 999", notices)
	}
	if got := answersOnStdin(r.file("stdin", 1)); len(got) != 1 || got[0] != fmt.Sprintf("req-%d", n-1) {
		t.Errorf("answered %v, want only the question left", got)
	}
}
