package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/latch-app/latch/app"
)

// The tool card's Details show the input whole, with the invisible made
// visible, however long its lines.
func TestToolCardShowsHostileInputWhole(t *testing.T) {
	cmd := "git status" + strings.Repeat(" ", 400) + hiddenTail + "\u202e" + strings.Repeat("z", 3000) + "END"
	input, _ := json.MarshalIndent(map[string]string{"command": cmd}, "", "  ")
	h := newHarness(t)
	s := h.mw.surf
	s.Show(app.Event{Kind: app.EvToolCall, Tool: &app.ToolCall{ID: "x", Name: "Bash", Summary: "git status⟨400 spaces⟩…", Input: string(input)}})
	s.flush()
	visibleRow(t, h.mw.tr, 0).tool.toggle.OnTapped()
	rv := visibleRow(t, h.mw.tr, 0)
	got := strings.Join(allText(rv.tool.input), "")
	for _, want := range []string{"git status⟨400 spaces⟩" + hiddenTail + "⟨U+202E⟩", strings.Repeat("z", 3000) + "END"} {
		if !strings.Contains(got, want) {
			t.Errorf("Details do not show %.60q… whole", want)
		}
	}
	if strings.ContainsRune(got, '\u202e') {
		t.Error("Details show a raw bidi override")
	}
}
