package ui

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

// tabKey presses Tab (Shift+Tab when shift) as the desktop driver does:
// Shift's key-down goes to the focused widget, a focused widget that
// accepts Tab gets it, otherwise the focus moves on; Shift's key-up goes
// to the widget focused then.
func tabKey(c fyne.Canvas, shift bool) {
	if k, ok := c.Focused().(desktop.Keyable); ok && shift {
		k.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	}
	switch f := c.Focused(); {
	case f != nil && accepts(f):
		f.TypedKey(&fyne.KeyEvent{Name: fyne.KeyTab})
	case shift:
		c.FocusPrevious()
	default:
		c.FocusNext()
	}
	if k, ok := c.Focused().(desktop.Keyable); ok && shift {
		k.KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	}
}

func accepts(f fyne.Focusable) bool {
	t, ok := f.(fyne.Tabbable)
	return ok && t.AcceptsTab()
}

// shortcut types s as the desktop driver does (after the main menu): to the
// focused widget if it takes shortcuts, else to the canvas.
func shortcut(c fyne.Canvas, s fyne.Shortcut) {
	if f, ok := c.Focused().(fyne.Shortcutable); ok {
		f.TypedShortcut(s)
		return
	}
	c.(fyne.Shortcutable).TypedShortcut(s)
}

func ctrlKey(k fyne.KeyName) fyne.Shortcut {
	return &desktop.CustomShortcut{KeyName: k, Modifier: fyne.KeyModifierControl}
}

// longTranscript fills the window's transcript with n notices, laid out,
// scrolled to the bottom (following).
func longTranscript(t *testing.T, h *harness, n int) *vlist {
	t.Helper()
	for i := 0; i < n; i++ {
		h.mw.tr.addNotice(fmt.Sprintf("notice %d", i))
	}
	h.mw.tr.list.Sync()
	h.mw.refresh()
	l := h.mw.tr.list
	if l.Len() != n || l.maxOffset() <= 0 || l.Offset() != l.maxOffset() || !l.follow {
		t.Fatalf("%d rows, offset %v of %v, following %v", l.Len(), l.Offset(), l.maxOffset(), l.follow)
	}
	return l
}

// PgUp/PgDn scroll by the view but a line, Home/End and Ctrl+Home/Ctrl+End
// to the ends; End follows new rows again, PgUp stops following.
func TestTranscriptScrollKeys(t *testing.T) {
	h := newHarness(t)
	l := longTranscript(t, h, 2000)
	step := l.pageStep()
	if view := l.scroll.Size().Height; step != view-lineHeight() || step <= 0 {
		t.Fatalf("page step %v, view %v", step, view)
	}
	expect := func(what string, want float32, follow bool) {
		t.Helper()
		if got := l.Offset(); got != want || l.follow != follow {
			t.Fatalf("%s: offset %v following %v, want %v following %v", what, got, l.follow, want, follow)
		}
	}

	h.c.Unfocus() // the keys go to the window
	bottom := l.Offset()
	press(h.c, fyne.KeyPageUp)
	expect("PgUp", bottom-step, false)
	press(h.c, fyne.KeyPageUp)
	expect("PgUp twice", bottom-2*step, false)
	h.mw.tr.addNotice("one more")
	l.Sync()
	expect("a row added while not following", bottom-2*step, false)
	press(h.c, fyne.KeyPageDown)
	press(h.c, fyne.KeyPageDown)
	press(h.c, fyne.KeyPageDown)
	expect("PgDn to the end", l.maxOffset(), true)
	press(h.c, fyne.KeyHome)
	expect("Home", 0, false)
	press(h.c, fyne.KeyPageUp)
	expect("PgUp at the top", 0, false)
	press(h.c, fyne.KeyPageDown)
	expect("PgDn", step, false)
	press(h.c, fyne.KeyEnd)
	expect("End", l.maxOffset(), true)
	h.mw.tr.addNotice("and another")
	l.Sync()
	expect("a row added while following", l.maxOffset(), true)
	shortcut(h.c, ctrlKey(fyne.KeyHome))
	expect("Ctrl+Home", 0, false)
	shortcut(h.c, ctrlKey(fyne.KeyEnd))
	expect("Ctrl+End", l.maxOffset(), true)

	t.Run("in the prompt", func(t *testing.T) {
		h.c.Focus(h.mw.prompt)
		typeRunes(h.c, "fix it")
		press(h.c, fyne.KeyHome) // the text's own
		expect("Home in the prompt", l.maxOffset(), true)
		if h.mw.prompt.CursorColumn != 0 {
			t.Errorf("Home left the cursor at column %d", h.mw.prompt.CursorColumn)
		}
		press(h.c, fyne.KeyEnd)
		if h.mw.prompt.CursorColumn != len("fix it") {
			t.Errorf("End left the cursor at column %d", h.mw.prompt.CursorColumn)
		}
		shortcut(h.c, ctrlKey(fyne.KeyHome))
		expect("Ctrl+Home in the prompt", 0, false)
		shortcut(h.c, ctrlKey(fyne.KeyEnd))
		expect("Ctrl+End in the prompt", l.maxOffset(), true)
		press(h.c, fyne.KeyPageUp) // a short prompt has nothing to page through
		expect("PgUp in a short prompt", l.maxOffset()-step, false)
		press(h.c, fyne.KeyPageDown)
		expect("PgDn in a short prompt", l.maxOffset(), true)
		if h.c.Focused() != h.mw.prompt || h.mw.prompt.Text != "fix it" {
			t.Fatalf("focus %T, prompt %q", h.c.Focused(), h.mw.prompt.Text)
		}

		// A prompt longer than its box pages through its own text.
		h.mw.prompt.SetText(strings.Repeat("line\n", 20) + "end")
		press(h.c, fyne.KeyPageUp)
		expect("PgUp in a long prompt", l.maxOffset(), true)
		if h.mw.prompt.CursorRow != 0 {
			t.Errorf("PgUp in a long prompt: cursor row %d", h.mw.prompt.CursorRow)
		}
		press(h.c, fyne.KeyPageDown)
		if h.mw.prompt.CursorRow != 20 {
			t.Errorf("PgDn in a long prompt: cursor row %d", h.mw.prompt.CursorRow)
		}
		// Ctrl+Enter still sends.
		ctrlEnter(h.mw.prompt)
		waitFor(t, "the prompt to reach the session", func() bool { return len(h.r.sentCopy()) == 1 })
		h.q.waitOne(t)
	})

	t.Run("in the transcript", func(t *testing.T) {
		h.c.Focus(l)
		press(h.c, fyne.KeyHome)
		expect("Home in the transcript", 0, false)
		press(h.c, fyne.KeyPageDown)
		expect("PgDn in the transcript", step, false)
		press(h.c, fyne.KeyEnd)
		expect("End in the transcript", l.maxOffset(), true)
		press(h.c, fyne.KeyPageUp)
		expect("PgUp in the transcript", l.maxOffset()-step, false)
		shortcut(h.c, ctrlKey(fyne.KeyHome))
		expect("Ctrl+Home in the transcript", 0, false)
	})

	t.Run("nothing scrolls under a dialog", func(t *testing.T) {
		h.c.Unfocus()
		press(h.c, fyne.KeyEnd)
		u, _ := url.Parse("https://example.com/")
		h.mw.confirmLink(u)
		if !h.mw.modals.active() {
			t.Fatal("no dialog")
		}
		at := l.Offset()
		h.c.Unfocus()
		press(h.c, fyne.KeyHome)
		shortcut(h.c, ctrlKey(fyne.KeyHome))
		if l.Offset() != at {
			t.Errorf("the transcript scrolled under the dialog to %v", l.Offset())
		}
	})
}

// focusHarness is a transcript of about 2,000 rows with a refused call
// far above the view, a grant half way, and a finished call near the end,
// seen from the bottom; the prompt has the keyboard.
func focusHarness(t *testing.T) (*harness, *granterRunner, *vlist, map[string]int) {
	t.Helper()
	h, g := granterHarness(t)
	tr := h.mw.tr
	rows := map[string]int{}
	notices := func(n int) {
		for i := 0; i < n; i++ {
			tr.addNotice(fmt.Sprintf("notice %d", i))
		}
	}
	notices(3)
	tr.apply(app.Event{Kind: app.EvToolCall, Tool: &app.ToolCall{ID: "toolu_far", Name: "Bash", Summary: "rm -rf build", Input: `{"command":"rm -rf build"}`}})
	tr.apply(app.Event{Kind: app.EvToolResult, Tool: &app.ToolCall{ID: "toolu_far", Denial: "needs approval", Grantable: true, IsError: true}})
	rows["far"] = len(tr.entries) - 1
	notices(1000)
	tr.apply(app.Event{Kind: app.EvGrant, Grant: &app.GrantInfo{ID: "g1", Text: "Saved Bash(make:*)"}})
	rows["grant"] = len(tr.entries) - 1
	notices(990)
	tr.apply(app.Event{Kind: app.EvToolCall, Tool: &app.ToolCall{ID: "toolu_near", Name: "Read", Summary: "go.mod"}})
	tr.apply(app.Event{Kind: app.EvToolResult, Tool: &app.ToolCall{ID: "toolu_near", Result: "module x"}})
	rows["near"] = len(tr.entries) - 1
	notices(2)
	tr.list.Sync()
	h.mw.refresh()
	l := tr.list
	if !l.rowInView(rows["near"]) || l.rowInView(rows["far"]) || l.rowInView(rows["grant"]) {
		t.Fatalf("the view does not show what the test expects (offset %v)", l.Offset())
	}
	h.mw.focusPrompt()
	return h, g, l, rows
}

// focusedAction is the label of the transcript's focused action.
func focusedAction(t *testing.T, l *vlist) string {
	t.Helper()
	f := l.keys
	if f.row < 0 {
		t.Fatal("no row focused")
	}
	acts := f.actions(f.row)
	if f.act >= len(acts) {
		t.Fatalf("action %d of %d", f.act, len(acts))
	}
	if f.lit != acts[f.act] {
		t.Errorf("the focused action %T is not drawn focused", acts[f.act])
	}
	if b, ok := acts[f.act].(*widget.Button); ok {
		return b.Text
	}
	return fmt.Sprintf("%T", acts[f.act])
}

// From the prompt, Shift+Tab reaches the transcript and walks its actions
// up to a refused call far above the view: scrolled into view, outlined;
// Enter on Details opens it, Space on Grant… grants later, Esc goes back to
// the prompt.
func TestTabReachesToolCardOutOfView(t *testing.T) {
	h, g, l, rows := focusHarness(t)
	var path []string
	for i := 0; i < 12 && (l.keys.row != rows["far"] || h.c.Focused() != l); i++ {
		tabKey(h.c, true)
		if h.c.Focused() == l && l.keys.row >= 0 {
			path = append(path, fmt.Sprintf("row %d %s", l.keys.row, focusedAction(t, l)))
		} else {
			path = append(path, fmt.Sprintf("%T", h.c.Focused()))
		}
	}
	if h.c.Focused() != l || l.keys.row != rows["far"] {
		t.Fatalf("Shift+Tab went %q; want it to reach row %d", path, rows["far"])
	}
	t.Logf("Shift+Tab from the prompt: %q", path)
	// On its way: the call in view, then the grant's Undo.
	want := []string{fmt.Sprintf("row %d Details", rows["near"]), fmt.Sprintf("row %d Undo", rows["grant"]), fmt.Sprintf("row %d Details", rows["far"])}
	if got := path[len(path)-3:]; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Shift+Tab went %q, ending %q", path, want)
	}
	if !l.rowInView(rows["far"]) || l.follow {
		t.Errorf("the focused row is not in view (offset %v), following %v", l.Offset(), l.follow)
	}
	if _, bound := l.visible[rows["far"]]; !bound {
		t.Fatal("the focused row has no view")
	}
	if l.keys.outlined() != rows["far"] || !l.keys.ring.Visible() {
		t.Fatalf("outlined row %d", l.keys.outlined())
	}
	if o := l.visible[rows["far"]]; l.keys.ring.Position().Y < o.Position().Y || l.keys.ring.Position().Y > o.Position().Y+2 {
		t.Errorf("the outline is at %v, the row at %v", l.keys.ring.Position(), o.Position())
	}

	press(h.c, fyne.KeyReturn) // Details
	if !h.mw.tr.entries[rows["far"]].expanded {
		t.Fatal("Enter on Details did not open them")
	}
	if got := focusedAction(t, l); got != "Hide" || !l.rowInView(rows["far"]) || l.keys.outlined() != rows["far"] {
		t.Errorf("after Details: focused %q, in view %v", got, l.rowInView(rows["far"]))
	}
	press(h.c, fyne.KeyEnter) // Hide
	if h.mw.tr.entries[rows["far"]].expanded {
		t.Fatal("Enter on Hide did not close them")
	}
	tabKey(h.c, true)
	if got := focusedAction(t, l); got != "Grant…" || l.keys.row != rows["far"] {
		t.Fatalf("Shift+Tab in the card reached %q on row %d", got, l.keys.row)
	}
	press(h.c, fyne.KeySpace)
	if id := <-g.later; id != "toolu_far" {
		t.Errorf("Grant… granted %q", id)
	}
	if h.mw.prompt.Text != "" {
		t.Errorf("Space typed into the prompt: %q", h.mw.prompt.Text)
	}
	tabKey(h.c, false) // Details again
	if got := focusedAction(t, l); got != "Details" {
		t.Errorf("Tab in the card reached %q", got)
	}

	press(h.c, fyne.KeyEscape)
	if h.c.Focused() != h.mw.prompt {
		t.Fatalf("Esc left the focus on %T", h.c.Focused())
	}
	if l.keys.outlined() >= 0 || l.keys.lit != nil {
		t.Error("the outline stays after the transcript lost the keyboard")
	}
	for _, o := range l.content.Objects {
		if o == l.keys.ring {
			t.Error("the outline is still drawn")
		}
	}
}

// Up/Down move row to row, Right/Left within a row; Tab past the last
// action leaves the transcript, and the window's Tab order comes round to
// the prompt again.
func TestTranscriptArrowsAndTabOut(t *testing.T) {
	h, _, l, rows := focusHarness(t)
	h.c.Focus(l)
	if l.keys.row != rows["near"] || l.keys.outlined() != rows["near"] {
		t.Fatalf("entering focused row %d, want the call in view %d", l.keys.row, rows["near"])
	}
	press(h.c, fyne.KeyUp)
	if l.keys.row != rows["grant"] || !l.rowInView(rows["grant"]) {
		t.Fatalf("Up reached row %d (in view %v)", l.keys.row, l.rowInView(l.keys.row))
	}
	press(h.c, fyne.KeyUp)
	if l.keys.row != rows["far"] || focusedAction(t, l) != "Grant…" {
		t.Fatalf("Up reached row %d", l.keys.row)
	}
	press(h.c, fyne.KeyRight)
	if got := focusedAction(t, l); got != "Details" {
		t.Errorf("Right reached %q", got)
	}
	press(h.c, fyne.KeyUp) // nothing above: it stays
	if l.keys.row != rows["far"] {
		t.Errorf("Up at the first row moved to %d", l.keys.row)
	}
	press(h.c, fyne.KeyDown)
	press(h.c, fyne.KeyDown)
	if l.keys.row != rows["near"] {
		t.Fatalf("Down reached row %d", l.keys.row)
	}
	// A row scrolled away: the keys start again from the view.
	press(h.c, fyne.KeyHome)
	if l.rowInView(rows["near"]) || l.Offset() != 0 {
		t.Fatal("Home did not scroll")
	}
	press(h.c, fyne.KeyDown)
	if l.keys.row != rows["far"] {
		t.Errorf("Down after Home reached row %d, want the first below the top", l.keys.row)
	}
	press(h.c, fyne.KeyEnd)

	// Tab out at the end, and round again to the prompt.
	l.keys.row = -1
	h.c.Focus(h.mw.prompt)
	h.c.Focus(l)
	tabKey(h.c, false)
	if h.c.Focused() == l {
		t.Fatalf("Tab on the last action stayed in the transcript (row %d)", l.keys.row)
	}
	for i := 0; i < 20 && h.c.Focused() != h.mw.prompt; i++ {
		tabKey(h.c, false)
		if h.c.Focused() == l {
			t.Fatal("Tab went back into the transcript before the prompt")
		}
	}
	if h.c.Focused() != h.mw.prompt {
		t.Fatalf("Tab never came to the prompt")
	}
	// And on from the prompt, Tab comes round to the transcript.
	for i := 0; i < 20 && h.c.Focused() != l; i++ {
		tabKey(h.c, false)
	}
	if h.c.Focused() != l || l.keys.outlined() < 0 {
		t.Fatalf("Tab from the prompt never reached the transcript")
	}
}

// A transcript with nothing to act on is still a stop: the view is
// outlined and Tab leaves at once.
func TestTranscriptWithoutActions(t *testing.T) {
	h := newHarness(t)
	l := longTranscript(t, h, 50)
	h.c.Focus(l)
	if l.keys.row != -1 {
		t.Fatalf("row %d focused", l.keys.row)
	}
	drawn := false
	for _, o := range l.content.Objects {
		drawn = drawn || o == l.keys.ring
	}
	if !drawn {
		t.Error("no outline")
	}
	tabKey(h.c, false)
	if h.c.Focused() == l {
		t.Error("Tab stayed")
	}
}

// PgUp/Home/End on the window's own buttons scroll the transcript; Space
// still presses the button.
func TestScrollKeysOnWindowButtons(t *testing.T) {
	h := newHarness(t)
	l := longTranscript(t, h, 500)
	at := l.Offset()
	h.c.Focus(h.mw.changeBtn)
	press(h.c, fyne.KeyPageUp)
	if l.Offset() >= at {
		t.Errorf("PgUp on Change folder…: offset %v, was %v", l.Offset(), at)
	}
	press(h.c, fyne.KeyHome)
	if l.Offset() != 0 {
		t.Errorf("Home on Change folder…: offset %v, want 0", l.Offset())
	}
	h.c.Focus(h.mw.sendBtn)
	press(h.c, fyne.KeyEnd)
	if l.Offset() == 0 {
		t.Error("End on Send did not scroll to the bottom")
	}
}

// An error card's Copy is reached and pressed by keyboard.
func TestTranscriptErrorCopyByKeyboard(t *testing.T) {
	h := newHarness(t)
	h.mw.surf.Show(app.Event{Kind: app.EvError, Err: &app.ErrorInfo{Title: "Claude Code failed", Detail: "…the reason", Full: "all of stderr\nthe reason"}})
	h.mw.surf.flush()
	l := h.mw.tr.list
	h.mw.focusPrompt()
	for i := 0; i < 10 && h.c.Focused() != l; i++ {
		tabKey(h.c, true)
	}
	if h.c.Focused() != l || l.keys.outlined() != 0 {
		t.Fatalf("Shift+Tab: focus %T, outlined row %d", h.c.Focused(), l.keys.outlined())
	}
	for i := 0; i < 5 && focusedAction(t, l) != "Copy"; i++ {
		press(h.c, fyne.KeyRight)
	}
	if got := focusedAction(t, l); got != "Copy" {
		t.Fatalf("the error card's action is %q", got)
	}
	press(h.c, fyne.KeyReturn)
	if got := h.mw.app.Clipboard().Content(); got != "all of stderr\nthe reason" {
		t.Errorf("copied %q", got)
	}
}

// outlined is the row outlined, -1 none (tests).
func (f *listFocus) outlined() int {
	if !f.on || f.row < 0 || !f.ring.Visible() {
		return -1
	}
	for _, o := range f.l.content.Objects {
		if o == f.ring {
			return f.row
		}
	}
	return -1
}
