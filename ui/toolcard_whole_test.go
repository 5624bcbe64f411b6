package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

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

// Golden images of a card with an open Edit diff, a new file's Write and a
// failed Bash call's Details, in Latch's light and dark themes (on a
// mismatch fyne writes testdata/failed/*.png).
func TestToolCardGoldens(t *testing.T) {
	fd, newIn := newFileDiff()
	cards := []struct {
		name   string
		height float32
		e      *entry
	}{
		{"diff", 330, &entry{kind: rowTool, finished: true, diffOpen: true, tool: &app.ToolCall{ID: "1", Name: "Edit", Summary: "shop/cart.go",
			Input: editInput, Diff: editDiff(), Result: "The file shop/cart.go has been updated."}}},
		{"newfile", 560, &entry{kind: rowTool, finished: true, diffOpen: true, tool: &app.ToolCall{ID: "2", Name: "Write", Summary: "shop/NOTES.md",
			Input: newIn, Diff: fd, Result: "File created successfully at: shop/NOTES.md"}}},
		{"bash", 440, &entry{kind: rowTool, finished: true, expanded: true, tool: &app.ToolCall{ID: "3", Name: "Bash", Summary: "go test ./shop/...",
			Input:  "{\n  \"command\": \"go test ./shop/...\",\n  \"description\": \"Run the cart tests\",\n  \"timeout\": 120000\n}",
			Result: "Exit code 1\n--- FAIL: TestTotal (0.00s)\n    cart_test.go:14: got 10, want 12\nFAIL\tshop/cart\t0.004s", IsError: true}}},
	}
	for _, v := range []struct {
		name    string
		variant fyne.ThemeVariant
	}{{"light", theme.VariantLight}, {"dark", theme.VariantDark}} {
		for _, card := range cards {
			t.Run(card.name+"_"+v.name, func(t *testing.T) {
				a := test.NewTempApp(t)
				a.Settings().SetTheme(latchTheme(v.variant))
				c := newToolCard(newRowView().(*rowView))
				c.set(card.e)
				w := test.NewTempWindow(t, c.root)
				w.SetPadded(false)
				w.Resize(fyne.NewSize(640, card.height))
				// A second pass, as the transcript's list makes: wrapped
				// texts measure their height at their width.
				c.root.Refresh()
				test.AssertImageMatches(t, "toolcard_"+card.name+"_"+v.name+".png", w.Canvas().Capture())
			})
		}
	}
}
