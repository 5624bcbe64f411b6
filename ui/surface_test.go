package ui

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/latch-app/latch/app"
)

func TestShowFromManyGoroutines(t *testing.T) {
	h := newHarness(t)
	const writers, each = 8, 300
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				h.mw.surf.Show(app.Event{Kind: app.EvNotice, Text: fmt.Sprintf("%d/%d", w, i)})
				h.mw.surf.Show(app.Event{Kind: app.EvToolCall, Tool: &app.ToolCall{ID: fmt.Sprintf("%d/%d", w, i), Name: "Bash"}})
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		h.mw.surf.flush() // the UI goroutine applies while writers write
	}
	h.mw.surf.flush()
	if n := len(h.mw.tr.entries); n != 2*writers*each {
		t.Fatalf("%d rows, want %d", n, 2*writers*each)
	}
	// Each writer's events arrive in its own order.
	next := make([]int, writers)
	for _, e := range h.mw.tr.entries {
		if e.kind != rowNotice {
			continue
		}
		var w, i int
		fmt.Sscanf(e.text.String(), "%d/%d", &w, &i)
		if i != next[w] {
			t.Fatalf("writer %d: got event %d, want %d", w, i, next[w])
		}
		next[w]++
	}
}

// TestPumpSendsOneBatchPerFrame: while a batch is on its way to a busy UI
// goroutine the pump sends no other, however many frames pass and events
// arrive; that batch shows them all when it runs; then the pump sends again.
func TestPumpSendsOneBatchPerFrame(t *testing.T) {
	h := newHarness(t)
	var calls atomic.Int32
	q := h.q
	h.mw.do = func(f func()) { calls.Add(1); q.do(f) }
	show := func(n int) {
		for range n {
			h.mw.surf.Show(app.Event{Kind: app.EvText, BlockID: "b", Text: "x"})
		}
	}
	show(1000)
	go h.mw.surf.pump()
	waitFor(t, "the first batch", func() bool { return calls.Load() > 0 })
	// The UI goroutine is busy for ten frames, while more deltas arrive.
	for range 10 {
		show(100)
		time.Sleep(frame)
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("%d calls onto the UI goroutine while the first batch waited, want 1", n)
	}
	q.waitOne(t) // the batch runs, with all that arrived meanwhile
	if n := len(h.mw.tr.entries); n != 1 || h.mw.tr.entries[0].text.Len() != 2000 {
		t.Fatalf("%d rows, want one with every delta", n)
	}
	show(1)
	q.waitOne(t) // the next frame's batch
	if n := calls.Load(); n != 2 || h.mw.tr.entries[0].text.Len() != 2001 {
		t.Fatalf("%d calls, %d bytes shown; want 2 calls and every delta", n, h.mw.tr.entries[0].text.Len())
	}
}

func ask(h *harness, ctx context.Context, q app.Question) chan app.Decision {
	res := make(chan app.Decision, 1)
	go func() { res <- h.mw.surf.Ask(ctx, q) }()
	return res
}

func answer(t *testing.T, res chan app.Decision) app.Decision {
	t.Helper()
	select {
	case d := <-res:
		return d
	case <-time.After(5 * time.Second):
		t.Fatal("Ask did not return")
	}
	return app.Decision{}
}

func TestAskReturnsWhenCancelledAndClosesDialog(t *testing.T) {
	h := newHarness(t)
	ctx, cancel := context.WithCancel(context.Background())
	res := ask(h, ctx, app.Question{Tool: "Bash", Command: "rm -rf build"})
	h.q.waitOne(t)
	if !overlayUp(h.c) {
		t.Fatal("no dialog")
	}
	cancel()
	h.q.waitOne(t) // the withdrawal
	if d := answer(t, res); d.Action != app.NoAnswer {
		t.Errorf("withdrawn question answered %+v", d)
	}
	if overlayUp(h.c) {
		t.Error("dialog still up after the CLI withdrew the question")
	}
	if h.c.Focused() != h.mw.prompt {
		t.Error("prompt box did not get the keyboard back")
	}
}

func TestAskGrantsReturnsWhenCancelled(t *testing.T) {
	h := newHarness(t)
	ctx, cancel := context.WithCancel(context.Background())
	res := make(chan app.Decision, 1)
	go func() {
		res <- h.mw.surf.AskGrants(ctx, app.GrantRequest{Tools: []app.ToolGrant{{Rule: "Bash", Tool: "Bash"}}})
	}()
	h.q.waitOne(t)
	cancel()
	h.q.waitOne(t)
	if d := answer(t, res); d.Action != app.NoAnswer {
		t.Errorf("got %+v", d)
	}
	if overlayUp(h.c) {
		t.Error("dialog still up")
	}
}

func TestQuestionsWaitTheirTurn(t *testing.T) {
	h := newHarness(t)
	first := ask(h, context.Background(), app.Question{Tool: "Bash", Command: "one"})
	h.q.waitOne(t)
	second := ask(h, context.Background(), app.Question{Tool: "Write", Path: "/tmp/two"})
	h.q.waitOne(t)
	if n := len(h.c.Overlays().List()); n != 1 {
		t.Fatalf("%d dialogs up at once", n)
	}
	typeRunes(h.c, "1")
	if d := answer(t, first); d.Action != app.AllowOnce {
		t.Fatalf("first = %+v", d)
	}
	if !overlayUp(h.c) {
		t.Fatal("second question not shown after the first was answered")
	}
	press(h.c, "Escape")
	if d := answer(t, second); d.Action != app.DenyStop {
		t.Fatalf("second = %+v", d)
	}
}

func TestWithdrawQueuedQuestion(t *testing.T) {
	h := newHarness(t)
	first := ask(h, context.Background(), app.Question{Tool: "Bash"})
	h.q.waitOne(t)
	ctx, cancel := context.WithCancel(context.Background())
	second := ask(h, ctx, app.Question{Tool: "Write"})
	h.q.waitOne(t)
	cancel()
	h.q.waitOne(t)
	if d := answer(t, second); d.Action != app.NoAnswer {
		t.Fatalf("second = %+v", d)
	}
	typeRunes(h.c, "3")
	if d := answer(t, first); d.Action != app.Deny {
		t.Fatalf("first = %+v", d)
	}
	if overlayUp(h.c) {
		t.Error("withdrawn question was shown")
	}
}

func TestAskReturnsWhenWindowCloses(t *testing.T) {
	h := newHarness(t)
	res := ask(h, context.Background(), app.Question{Tool: "Bash"})
	h.q.waitOne(t)
	h.mw.surf.close()
	if d := answer(t, res); d.Action != app.NoAnswer {
		t.Errorf("got %+v", d)
	}
}

// Show keeps its own copy of what an event points at: a session that
// reuses its structs after Show cannot change what the window shows.
func TestShowCopiesWhatEventsPointAt(t *testing.T) {
	h := newHarness(t)
	tool := &app.ToolCall{ID: "1", Name: "Bash", Summary: "ls"}
	turn := &app.TurnInfo{CostUSD: 1}
	errInfo := &app.ErrorInfo{Title: "boom"}
	grant := &app.GrantInfo{ID: "g1", Text: "Saved Bash(ls) to x"}
	retry := &app.RetryInfo{Attempt: 1, Max: 3, Text: "Retrying in 1s — attempt 1 of 3 (HTTP 500)"}
	for _, ev := range []app.Event{
		{Kind: app.EvToolCall, Tool: tool}, {Kind: app.EvRetry, Retry: retry}, {Kind: app.EvGrant, Grant: grant},
		{Kind: app.EvError, Err: errInfo}, {Kind: app.EvTurnEnd, Turn: turn},
	} {
		h.mw.surf.Show(ev)
	}
	*tool, *turn, *errInfo = app.ToolCall{ID: "1", Summary: "rm -rf /"}, app.TurnInfo{CostUSD: 99}, app.ErrorInfo{Title: "changed"}
	*grant, *retry = app.GrantInfo{ID: "g1", Text: "changed"}, app.RetryInfo{Text: "changed"}
	batch := h.mw.surf.take()
	for _, ev := range batch {
		switch {
		case ev.Tool != nil && ev.Tool.Summary != "ls",
			ev.Turn != nil && ev.Turn.CostUSD != 1,
			ev.Err != nil && ev.Err.Title != "boom",
			ev.Grant != nil && ev.Grant.Text != "Saved Bash(ls) to x",
			ev.Retry != nil && ev.Retry.Attempt != 1:
			t.Errorf("the window's copy changed with the session's struct: %+v", ev)
		}
	}
	if len(batch) != 5 {
		t.Errorf("%d events queued, want 5", len(batch))
	}
}
