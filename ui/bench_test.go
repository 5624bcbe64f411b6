package ui

import (
	"context"
	"fmt"
	"testing"

	"github.com/latch-app/latch/app"
)

// benchEvents is a turn's worth of rows: text, a tool call with its result, a
// notice.
func benchEvents(i int) []app.Event {
	id := fmt.Sprint(i)
	return []app.Event{
		{Kind: app.EvText, BlockID: id, Text: "Let me look at **cart.go** and run the tests again."},
		{Kind: app.EvToolCall, Tool: &app.ToolCall{ID: id, Name: "Bash", Summary: "go test ./..."}},
		{Kind: app.EvToolResult, Tool: &app.ToolCall{ID: id, Result: "ok  shop/cart 0.004s"}},
		{Kind: app.EvNotice, Text: "resuming"},
	}
}

// benchmarkAppend measures appending one batch of rows to a transcript that
// already holds n rows and drawing the result, as the pump does each frame.
func benchmarkAppend(b *testing.B, n int) {
	h := newHarness(b)
	for i := 0; len(h.mw.tr.entries) < n; i++ {
		for _, ev := range benchEvents(i) {
			h.mw.tr.apply(ev)
		}
	}
	h.mw.apply(nil)
	i := n
	b.ResetTimer()
	for b.Loop() {
		h.mw.apply(benchEvents(i))
		i++
	}
	b.ReportMetric(float64(len(h.mw.tr.entries)), "rows")
}

func BenchmarkAppend10k(b *testing.B)  { benchmarkAppend(b, 10_000) }
func BenchmarkAppend100k(b *testing.B) { benchmarkAppend(b, 100_000) }

// BenchmarkStreamDelta measures one frame that grows the last row of one
// long streamed answer: paragraphs of ~500 characters, 10 deltas a frame.
func BenchmarkStreamDelta(b *testing.B) {
	h := newHarness(b)
	for i := 0; i < 10_000; i++ {
		h.mw.tr.apply(app.Event{Kind: app.EvNotice, Text: "x"})
	}
	h.mw.apply(nil)
	frame := make([]app.Event, 10)
	n := 0
	for b.Loop() {
		for j := range frame {
			text := "more words "
			if n++; n%45 == 0 {
				text = "end of the paragraph.\n\n"
			}
			frame[j] = app.Event{Kind: app.EvText, BlockID: "s", Text: text}
		}
		h.mw.apply(frame)
	}
}

// The bounds: a live question takes keys, and the grant dialog is up
// and focused, within 1 s. These measure the UI's share: from the Session's
// call to a dialog on screen with the keyboard focus in it.
func BenchmarkAskToFocusedDialog(b *testing.B) {
	q := app.Question{Tool: "Bash", Command: "touch made.txt", Rule: "Bash(touch made.txt)"}
	benchFocusedDialog(b, func(s *surface, ctx context.Context) app.Decision { return s.Ask(ctx, q) })
}

func BenchmarkGrantsToFocusedDialog(b *testing.B) {
	r := app.GrantRequest{Tools: []app.ToolGrant{{Rule: "Bash", Tool: "Bash"}}, Folders: []app.FolderGrant{{Path: "/srv/far", Tool: "Read"}}}
	benchFocusedDialog(b, func(s *surface, ctx context.Context) app.Decision { return s.AskGrants(ctx, r) })
}

// benchFocusedDialog times open: from the call to a dialog up with the
// focus in it, then withdraws it.
func benchFocusedDialog(b *testing.B, open func(*surface, context.Context) app.Decision) {
	h := newHarness(b)
	for i := 0; i < b.N; i++ {
		ctx, cancel := context.WithCancel(context.Background())
		res := make(chan app.Decision, 1)
		go func() { res <- open(h.mw.surf, ctx) }()
		h.q.waitOne(b)
		if !overlayUp(h.c) || h.c.Focused() == nil || h.c.Focused() == h.mw.prompt {
			b.Fatal("no focused dialog")
		}
		cancel()
		h.q.waitOne(b)
		<-res
	}
}
