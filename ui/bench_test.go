package ui

import (
	"context"
	"fmt"
	"testing"

	"github.com/latch-app/latch/app"
	"github.com/latch-app/latch/internal/heapmeter"
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
	h.mw.applyTo(h.mw.tab, nil)
	i := n
	b.ResetTimer()
	for b.Loop() {
		h.mw.applyTo(h.mw.tab, benchEvents(i))
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
	h.mw.applyTo(h.mw.tab, nil)
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
		h.mw.applyTo(h.mw.tab, frame)
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

// memBench runs step once per iteration, through a fresh window (window)
// or through a surface and a transcript never laid out, and reports per byte
// of text: bytes allocated (B/inputB; the text itself counts 1), the peak
// heap growth (peakMB, peakX) and what is still held after the turn and a
// GC (keptMB, keptX). The window's figures include Fyne's layout of the
// rows in view, a cost per frame that the text's size does not change: a
// 4 KB row's word wrap allocates ~100 MB. GOGC is left at its default.
func memBench(b *testing.B, window bool, step func(show func(app.Event), flush func()) int) {
	if window {
		warmUp(b)
	}
	var allocated, peak, kept uint64
	text, rows := 0, 0
	for b.Loop() {
		b.StopTimer()
		var tr *transcript
		var show func(app.Event)
		var flush func()
		if window {
			h := newHarness(b)
			tr, show, flush = h.mw.tr, h.mw.surf.Show, h.mw.surf.flush
		} else {
			w := newBare()
			tr, show, flush = w.tr, w.s.Show, w.flush
		}
		b.StartTimer()
		m := heapmeter.Start(20<<30, 0)
		text = step(show, flush)
		p, a := m.Finish()
		b.StopTimer()
		allocated += a
		peak = max(peak, p)
		kept = max(kept, m.Retained())
		rows = len(tr.entries)
		tr.entries = nil // a window's cleanup keeps it until the end
		b.StartTimer()
	}
	in := float64(text)
	b.ReportMetric(float64(allocated)/float64(b.N)/in, "B/inputB")
	b.ReportMetric(float64(peak)/(1<<20), "peakMB")
	b.ReportMetric(float64(peak)/in, "peakX")
	b.ReportMetric(float64(kept)/(1<<20), "keptMB")
	b.ReportMetric(float64(kept)/in, "keptX")
	b.ReportMetric(float64(rows), "rows")
}

// BenchmarkHugeLine is one assistant line's text block of 1–64 MB of
// markdown reaching the window as app hands it over, one EvText, then the
// end of the turn. The text is made in the step, standing for the decoder's
// string; core/stream's BenchmarkHugeLine measures the decoder's share.
// `make bench` runs these once each (a 64 MB iteration takes seconds).
func BenchmarkHugeLine(b *testing.B) {
	for _, mb := range []int{1, 4, 16, 64} {
		for _, window := range []bool{true, false} {
			b.Run(fmt.Sprintf("%dMB/%s", mb, pathName(window)), func(b *testing.B) {
				memBench(b, window, func(show func(app.Event), flush func()) int {
					text := markdownText(mb<<20, 1)
					show(app.Event{Kind: app.EvText, BlockID: "msg_huge:line2", Text: text})
					flush()
					show(app.Event{Kind: app.EvTurnEnd, Turn: &app.TurnInfo{OutputTokens: len(text) / 4}})
					flush()
					return len(text)
				})
			})
		}
	}
}

// BenchmarkDeltaFlood is 200 MB of text deltas (1–64 bytes each) in one
// second: 30 frames of the pump, or one frame when the UI was busy the whole
// second (stalled).
func BenchmarkDeltaFlood(b *testing.B) {
	const total = 200 << 20
	for _, frames := range []int{30, 1} {
		for _, window := range []bool{true, false} {
			name := "30frames"
			if frames == 1 {
				name = "stalled"
			}
			b.Run(name+"/"+pathName(window), func(b *testing.B) {
				memBench(b, window, func(show func(app.Event), flush func()) int {
					sent, _ := flood(show, flush, 2, total, frames)
					return sent
				})
			})
		}
	}
}

func pathName(window bool) string {
	if window {
		return "window"
	}
	return "transcript"
}
