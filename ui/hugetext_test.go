package ui

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/latch-app/latch/app"
)

// The CLI passes a 1 MB answer through in one event (fixture huge-text-line).
// It is broken into rows small enough to lay out quickly, and nothing of it
// is lost.
func TestHugeAnswerIsSplitIntoRows(t *testing.T) {
	tests := []struct{ name, text string }{
		{"one long word", strings.Repeat("x", 1_000_000)},
		{"words", strings.Repeat("word ", 200_000)},
		{"lines", strings.Repeat("a line of text\n", 60_000)},
		{"multibyte", strings.Repeat("—", 400_000)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			h.mw.surf.Show(app.Event{Kind: app.EvText, BlockID: "b", Text: tc.text})
			h.mw.surf.flush()
			var all strings.Builder
			for i, e := range h.mw.tr.entries {
				if e.text.Len() > softRowText {
					t.Fatalf("row %d holds %d bytes", i, e.text.Len())
				}
				if !utf8.ValidString(e.text.String()) {
					t.Fatalf("row %d was cut inside a character", i)
				}
				all.WriteString(e.text.String())
			}
			strip := func(s string) string { return strings.NewReplacer("\n", "", " ", "").Replace(s) }
			if strip(all.String()) != strip(tc.text) {
				t.Errorf("the rows do not add up to the answer (%d vs %d bytes)", all.Len(), len(tc.text))
			}
			visibleRow(t, h.mw.tr, len(h.mw.tr.entries)-1) // the end shows
		})
	}
}

func TestHugeCodeBlockIsShownCapped(t *testing.T) {
	h := newHarness(t)
	code := "```\n" + strings.Repeat("fmt.Println(\"hello\")\n", 5000) + "```\n"
	h.mw.surf.Show(app.Event{Kind: app.EvText, BlockID: "b", Text: code})
	h.mw.surf.flush()
	if n := len(h.mw.tr.entries); n != 1 {
		t.Fatalf("a code block was split into %d rows", n)
	}
	shown := mdText(visibleRow(t, h.mw.tr, 0).assistant)
	if len(shown) > maxRowText+100 || !strings.Contains(shown, "more lines not shown") {
		t.Errorf("row shows %d bytes", len(shown))
	}
}

func TestCapText(t *testing.T) {
	if s := capText("short"); s != "short" {
		t.Errorf("short text changed: %q", s)
	}
	s := capText(strings.Repeat("é", maxRowText))
	head, _, _ := strings.Cut(s, "\n\n…")
	if !strings.HasSuffix(head, "é") || strings.ContainsRune(head, '\uFFFD') {
		t.Errorf("cut inside a rune: %q", head[len(head)-8:])
	}
	if !strings.Contains(s, "8.2k more characters not shown") {
		t.Errorf("count: %q", s[len(s)-40:])
	}
}

// Streaming scans each delta once: the scan position only moves forward, a
// blank line starts a row, and prose past softRowText breaks at a line end.
func TestStreamingScansIncrementally(t *testing.T) {
	h := newHarness(t)
	tr := h.mw.tr
	for i := 0; i < 20; i++ {
		h.mw.surf.Show(app.Event{Kind: app.EvText, BlockID: "b", Text: "a line of a paragraph\n"})
	}
	h.mw.surf.flush()
	if len(tr.entries) != 1 || tr.entries[0].scanned != tr.entries[0].text.Len() {
		t.Fatalf("%d rows; scanned %d of %d bytes", len(tr.entries), tr.entries[0].scanned, tr.entries[0].text.Len())
	}
	h.mw.surf.Show(app.Event{Kind: app.EvText, BlockID: "b", Text: "\n"})
	h.mw.surf.flush()
	h.mw.surf.Show(app.Event{Kind: app.EvText, BlockID: "b", Text: "next paragraph"})
	h.mw.surf.flush()
	if len(tr.entries) != 2 || tr.entries[1].text.String() != "next paragraph" {
		t.Fatalf("rows after a blank line: %d, last %q", len(tr.entries), tr.entries[len(tr.entries)-1].text.String())
	}
	for i := 0; i < 2000; i++ {
		h.mw.surf.Show(app.Event{Kind: app.EvText, BlockID: "b", Text: " and more\n"})
	}
	h.mw.surf.flush()
	for i, e := range tr.entries {
		if e.text.Len() > softRowText {
			t.Errorf("row %d holds %d bytes", i, e.text.Len())
		}
		if i > 0 && strings.HasPrefix(e.text.String(), "more") {
			t.Errorf("row %d starts mid-line: %q", i, e.text.String()[:20])
		}
	}
}

// A pasted prompt of 100 KB goes to Claude whole; its row shows a part.
func TestLongPromptRowIsCapped(t *testing.T) {
	h := newHarness(t)
	long := strings.Repeat("log line\n", 12_000)
	h.mw.surf.Show(app.Event{Kind: app.EvPrompt, Text: long})
	h.mw.surf.flush()
	rv := visibleRow(t, h.mw.tr, 0)
	if got := rv.user.body.Text; len(got) > softRowText+100 || !strings.Contains(got, "more characters not shown") {
		t.Errorf("prompt row shows %d bytes", len(got))
	}
	if h.mw.tr.entries[0].text.Len() != len(long) {
		t.Error("the transcript did not keep the whole prompt")
	}
}

// Copy Last Answer puts the answer back together however it was split.
func TestCopyLastAnswer(t *testing.T) {
	h := newHarness(t)
	s := h.mw.surf
	s.Show(app.Event{Kind: app.EvPrompt, Text: "first"})
	s.Show(app.Event{Kind: app.EvText, BlockID: "a", Text: "old answer"})
	s.Show(app.Event{Kind: app.EvPrompt, Text: "second"})
	answer := "Para one.\n\n" + strings.Repeat("a long line of prose\n", 250) + strings.Repeat("word ", 1000) + "\n\n```\ncode\n```"
	for i := 0; i < len(answer); i += 7 {
		s.Show(app.Event{Kind: app.EvText, BlockID: "b", Text: answer[i:min(i+7, len(answer))]})
	}
	s.Show(app.Event{Kind: app.EvToolCall, Tool: &app.ToolCall{ID: "t", Name: "Bash"}})
	s.Show(app.Event{Kind: app.EvText, BlockID: "c", Text: "Done."})
	s.flush()
	if len(h.mw.tr.entries) < 5 {
		t.Fatalf("the answer was not split (%d rows); the test proves nothing", len(h.mw.tr.entries))
	}
	h.mw.copyLastAnswer()
	if got, want := h.mw.app.Clipboard().Content(), answer+"\n\nDone."; got != want {
		t.Errorf("clipboard holds %d bytes, want %d; differs at %d", len(got), len(want), firstDiff(got, want))
	}
}

func firstDiff(a, b string) int {
	for i := 0; i < min(len(a), len(b)); i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
