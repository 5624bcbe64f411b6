package ui

import (
	"fmt"
	"hash/fnv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/latch-app/latch/app"
	"github.com/latch-app/latch/internal/heapmeter"
)

// The budget for one assistant line is 4x its text at the peak,
// decoder and window together. The decoder holds at most 2x at once (the
// line with its fragments, then the line with the unescaped text:
// core/stream's TestHugeLineMemory); the window, holding the text itself,
// may add at most 1x on top of it. After the turn it keeps the text (Copy
// Last Answer needs all of it) and little else.
const (
	lineWindowPeak = 2.0
	floodPeak      = 3.0 // the bound for a flood, queue and rows together
	keptAfterTurn  = 1.5
)

// checkRows asserts what every split must keep: rows of prose at most
// softRowText (unless one line that arrived whole, which is not broken),
// never cut inside a character, and Copy Last Answer giving back exactly
// what arrived (want, or its length and FNV-1a hash).
func checkRows(t *testing.T, tr *transcript, want string, wantLen int, wantHash uint64) {
	t.Helper()
	for i, e := range tr.entries {
		if e.kind != rowAssistant {
			continue
		}
		s := e.text.String()
		oneLine := !strings.Contains(strings.Trim(s, "\n"), "\n")
		if len(s) > softRowText && !oneLine && !strings.HasPrefix(strings.TrimSpace(s), "```") {
			t.Fatalf("row %d holds %d bytes of prose", i, len(s))
		}
		if !utf8.ValidString(s) {
			t.Fatalf("row %d was cut inside a character", i)
		}
	}
	got := tr.lastAnswer()
	if want != "" && got != want {
		t.Fatalf("Copy Last Answer gives %d bytes, want %d; they differ at %d", len(got), len(want), firstDiff(got, want))
	}
	h := fnv.New64a()
	h.Write([]byte(got))
	if want == "" && (len(got) != wantLen || h.Sum64() != wantHash) {
		t.Fatalf("Copy Last Answer gives %d bytes, not the %d sent", len(got), wantLen)
	}
}

// checkHeap compares the measured figures with their bounds. -race adds
// allocations of its own but leaves the peak and what is kept as they are,
// so the bounds hold under it too.
func checkHeap(t *testing.T, what string, text int, peak, allocated, kept uint64, peakMax float64) {
	t.Helper()
	x := func(n uint64) float64 { return float64(n) / float64(text) }
	in := heapmeter.InUse()
	t.Logf("%s: %.1f MB of text; peak growth %.2fx, allocated %.2fx, kept after the turn %.2fx (whole heap %d MB)",
		what, float64(text)/(1<<20), x(peak), x(allocated), x(kept), in>>20)
	if x(peak) > peakMax {
		t.Errorf("%s: the heap grew to %.2fx the text, over %.1fx", what, x(peak), peakMax)
	}
	if x(kept) > keptAfterTurn {
		t.Errorf("%s: after the turn the heap holds %.2fx the text, over %.1fx", what, x(kept), keptAfterTurn)
	}
}

// One assistant line carrying a huge text block reaches the transcript as
// one EvText. Splitting it into rows must cost its length, not its length
// squared: each split used to copy the rest of the text into a new row, and
// the joiner cut out of that copy kept it alive, so a 4 MB answer held GBs.
func TestHugeAnswerMemory(t *testing.T) {
	shapes := []struct {
		name string
		make func(n int) string
	}{
		{"markdown", func(n int) string { return markdownText(n, 3) }},
		{"lines", func(n int) string { return strings.Repeat(strings.Repeat("y", 78)+"\n", n/79) }},
		{"one word", func(n int) string { return strings.Repeat("é", n/2) }},
		{"code block", func(n int) string {
			var b strings.Builder
			b.Grow(n + 16)
			b.WriteString("```go\n")
			for b.Len() < n {
				b.WriteString("fmt.Println(\"hello\")\n")
			}
			b.WriteString("```\n")
			return b.String()
		}},
	}
	for _, size := range []int{4 << 20, 16 << 20} {
		for _, sh := range shapes {
			t.Run(fmt.Sprintf("%dMB %s", size>>20, sh.name), func(t *testing.T) {
				b := newBare()
				m := heapmeter.Start(max(512<<20, 64*uint64(size)), testGOGC)
				text := sh.make(size) // stands for the decoder's string
				b.s.Show(app.Event{Kind: app.EvText, BlockID: "msg:line2", Text: text})
				b.flush()
				b.s.Show(app.Event{Kind: app.EvTurnEnd, Turn: &app.TurnInfo{}})
				b.flush()
				peak, allocated := m.Finish()
				kept := m.Retained()
				checkHeap(t, "one line", len(text), peak, allocated, kept, lineWindowPeak)
				if len(b.tr.entries) < 2 {
					t.Fatalf("%d rows", len(b.tr.entries))
				}
				checkRows(t, b.tr, text, 0, 0)
			})
		}
	}
}

// 16 MB of deltas of a few bytes each: applied at 30 frames, or all in one
// frame after the UI was busy for the whole flood, or a frame per delta or
// two (a trickle, as a steady stream arrives). The queue gathers the deltas
// of a block instead of holding an event per delta, and the rows keep about
// their text.
func TestDeltaFloodMemory(t *testing.T) {
	for _, tc := range []struct {
		name          string
		total, frames int
	}{
		{"30 frames", 16 << 20, 30},
		{"stalled", 16 << 20, 1},
		{"trickle", 16 << 20, 1 << 19},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBare()
			m := heapmeter.Start(max(512<<20, 64*uint64(tc.total)), testGOGC)
			sent, hash := flood(b.s.Show, b.flush, 4, tc.total, tc.frames)
			peak, allocated := m.Finish()
			kept := m.Retained()
			checkHeap(t, tc.name, sent, peak, allocated, kept, floodPeak)
			checkRows(t, b.tr, "", sent, hash)
		})
	}
}

// Show gathers the consecutive deltas of one block into one queued event
// of at most mergeMax bytes; anything else keeps its place in the queue.
func TestShowGathersDeltas(t *testing.T) {
	s := newSurface(nil, nil)
	var want strings.Builder
	for i := 0; i < 20_000; i++ {
		d := fmt.Sprintf("delta %d; ", i)
		want.WriteString(d)
		s.Show(app.Event{Kind: app.EvText, BlockID: "a", Text: d})
	}
	s.Show(app.Event{Kind: app.EvThinking, BlockID: "a", Text: "thought"})
	s.Show(app.Event{Kind: app.EvText, BlockID: "b", Text: "other block"})
	s.Show(app.Event{Kind: app.EvNotice, Text: "notice"})
	s.Show(app.Event{Kind: app.EvText, BlockID: "b", Text: "after the notice"})
	s.Show(app.Event{Kind: app.EvText, BlockID: "b", Text: ", more"})
	batch := s.take()
	var a strings.Builder
	var rest []string
	for _, ev := range batch {
		if len(ev.Text) > mergeMax {
			t.Errorf("a queued event holds %d bytes", len(ev.Text))
		}
		if ev.Kind == app.EvText && ev.BlockID == "a" {
			a.WriteString(ev.Text)
			continue
		}
		rest = append(rest, fmt.Sprintf("%v/%s/%s", ev.Kind, ev.BlockID, ev.Text))
	}
	if a.String() != want.String() {
		t.Errorf("block a: %d bytes queued, want %d", a.Len(), want.Len())
	}
	if n, most := len(batch)-len(rest), want.Len()/(mergeMax-32)+1; n > most {
		t.Errorf("%d deltas of block a queued as %d events, want at most %d", 20_000, n, most)
	}
	wantRest := []string{
		fmt.Sprintf("%v/a/thought", app.EvThinking), fmt.Sprintf("%v/b/other block", app.EvText),
		fmt.Sprintf("%v//notice", app.EvNotice), fmt.Sprintf("%v/b/after the notice, more", app.EvText),
	}
	if strings.Join(rest, "|") != strings.Join(wantRest, "|") {
		t.Errorf("queue %q, want %q", rest, wantRest)
	}
	if len(s.take()) != 0 {
		t.Error("the queue was not emptied")
	}
	// What was taken stays as it was while Show goes on.
	s.Show(app.Event{Kind: app.EvText, BlockID: "b", Text: "x"})
	s.Show(app.Event{Kind: app.EvText, BlockID: "b", Text: "y"})
	if got := batch[len(batch)-1].Text; got != "after the notice, more" {
		t.Errorf("a taken event changed to %q", got)
	}
}

// A row's height is estimated for every row added, so the estimate reads at
// most what the row shows and allocates nothing, however big the row.
func TestEstimateIsBoundedAndAllocatesNothing(t *testing.T) {
	tr := newTranscript()
	code := "```\n" + strings.Repeat("fmt.Println(\"hello\")\n", 400_000) + "```\n"
	tr.apply(app.Event{Kind: app.EvText, BlockID: "b", Text: code})
	tr.apply(app.Event{Kind: app.EvPrompt, Text: strings.Repeat("a prompt line\n", 100_000)})
	if len(tr.entries) != 2 {
		t.Fatalf("%d rows", len(tr.entries))
	}
	for id := range tr.entries {
		var h float32
		if n := testing.AllocsPerRun(20, func() { h = tr.estimate(id, 800) }); n != 0 {
			t.Errorf("row %d: the estimate allocates %.0f times", id, n)
		}
		if shown := 16 + 22*float32(maxRowText/21+4); h <= 22 || h > shown {
			t.Errorf("row %d: estimated %.0f px, want at most what the first %d bytes take", id, h, maxRowText)
		}
	}
}
