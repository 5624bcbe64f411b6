package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

// shownText is the text of the visible labels, buttons and rich texts
// under o, in order.
func shownText(o fyne.CanvasObject) string {
	var out []string
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if !o.Visible() {
			return
		}
		switch w := o.(type) {
		case *widget.Label:
			out = append(out, w.Text)
			return
		case *widget.Button:
			out = append(out, w.Text)
			return
		case *widget.RichText:
			out = append(out, w.String())
			return
		case *fyne.Container:
			for _, c := range w.Objects {
				walk(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(w).Objects() {
				walk(c)
			}
		}
	}
	walk(o)
	return strings.Join(out, "\n")
}

// TestStopIsOneNeutralRow: a turn the person stopped is one row that says
// so, with the note and the figures, and never an error or a failure.
func TestStopIsOneNeutralRow(t *testing.T) {
	for _, note := range []string{"", "Claude Code did not end the turn in time, so its process was ended; the next prompt resumes the session."} {
		t.Run(fmt.Sprintf("note %v", note != ""), func(t *testing.T) {
			h := newHarness(t)
			s := h.mw.surf
			s.Show(app.Event{Kind: app.EvPrompt, Text: "refactor the cart"})
			s.Show(app.Event{Kind: app.EvText, BlockID: "a", Text: "Let me look"})
			s.Show(app.Event{Kind: app.EvTurnEnd, Turn: &app.TurnInfo{Stopped: true, Note: note, CostUSD: 0.0123, InputTokens: 1200, OutputTokens: 34,
				Duration: 3 * time.Second, SessionCostUSD: 0.0123}})
			s.flush()
			if got := kinds(h.mw.tr); got != "user assistant stopped" {
				t.Fatalf("rows = %q, want one row for the stop", got)
			}
			text := shownText(visibleRow(t, h.mw.tr, 2))
			for _, want := range []string{"Stopped by you", "$0.01", "1.2k in / 34 out", note} {
				if !strings.Contains(text, want) {
					t.Errorf("stop row %q lacks %q", text, want)
				}
			}
			for _, bad := range []string{"fail", "error", "Error"} {
				if strings.Contains(text, bad) {
					t.Errorf("stop row %q says %q", text, bad)
				}
			}
			if rv := visibleRow(t, h.mw.tr, 2); rv.stopNote.Visible() != (note != "") {
				t.Errorf("note shown %v", rv.stopNote.Visible())
			}
		})
	}
	t.Run("in the background", func(t *testing.T) {
		h := newHarness(t)
		h.mw.foreground = false
		test.AssertNotificationSent(t, fyne.NewNotification("Latch", "The turn was stopped."), func() {
			h.mw.surf.Show(app.Event{Kind: app.EvTurnEnd, Turn: &app.TurnInfo{Stopped: true}})
			h.mw.surf.flush()
		})
	})
}

// TestRetriesAreOneRow: the CLI's API retries are one row, updated in
// place, that goes into what follows them: the error card, the answer, or
// nothing.
func TestRetriesAreOneRow(t *testing.T) {
	retries := func(s *surface, n int) {
		for i := 1; i <= n; i++ {
			s.Show(app.Event{Kind: app.EvRetry, Retry: &app.RetryInfo{Attempt: i, Max: 10, Delay: 8 * time.Second, Status: 529,
				Text: fmt.Sprintf("Retrying in 8 s — attempt %d of 10 (HTTP 529)\x1b[2J", i)}})
			if i%3 == 0 {
				s.flush() // over several frames
			}
		}
	}
	t.Run("then an error", func(t *testing.T) {
		h := newHarness(t)
		s := h.mw.surf
		s.Show(app.Event{Kind: app.EvPrompt, Text: "hi"})
		retries(s, 10)
		s.flush()
		if got := kinds(h.mw.tr); got != "user retry" {
			t.Fatalf("rows = %q after ten retries, want one retry row", got)
		}
		rv := visibleRow(t, h.mw.tr, 1)
		if got := rv.retry.Text; !strings.HasPrefix(got, "Retrying in 8 s — attempt 10 of 10 (HTTP 529)") || strings.Contains(got, "\x1b") {
			t.Errorf("retry row = %q, want the last attempt, escaped", got)
		}
		if rv.retry.Importance != widget.LowImportance {
			t.Error("the retry row is not low importance")
		}
		s.Show(app.Event{Kind: app.EvError, Err: &app.ErrorInfo{Title: "The Anthropic API failed (HTTP 529)", Detail: "Overloaded",
			Hint: "The API is overloaded or rate-limited. Try again in a minute.", Retry: true}})
		s.Show(app.Event{Kind: app.EvTurnEnd, Turn: &app.TurnInfo{IsError: true, ErrorText: "Overloaded"}})
		s.flush()
		if got := kinds(h.mw.tr); got != "user error turn" {
			t.Fatalf("rows = %q, want the retries gone into one error card", got)
		}
		card := visibleRow(t, h.mw.tr, 1)
		if !card.errHint.Visible() || card.errHint.Text != "The API is overloaded or rate-limited. Try again in a minute." || !card.errRetry.Visible() {
			t.Errorf("error card: hint %v %q, Retry %v", card.errHint.Visible(), card.errHint.Text, card.errRetry.Visible())
		}
		if l := h.mw.tr.list; l.heights.total() < float64(card.MinSize().Height) {
			t.Errorf("heights %v < the card's %v", l.heights.total(), card.MinSize().Height)
		}
	})
	t.Run("then the answer", func(t *testing.T) {
		h := newHarness(t)
		s := h.mw.surf
		s.Show(app.Event{Kind: app.EvPrompt, Text: "hi"})
		retries(s, 4)
		s.Show(app.Event{Kind: app.EvText, BlockID: "a", Text: "Hello"})
		s.Show(app.Event{Kind: app.EvTurnEnd, Turn: &app.TurnInfo{}})
		s.flush()
		if got := kinds(h.mw.tr); got != "user assistant turn" {
			t.Fatalf("rows = %q", got)
		}
	})
	t.Run("with a notice between", func(t *testing.T) {
		h := newHarness(t)
		s := h.mw.surf
		s.Show(app.Event{Kind: app.EvPrompt, Text: "hi"})
		retries(s, 2)
		s.Show(app.Event{Kind: app.EvNotice, Text: "a notice"})
		retries(s, 3) // the same row
		s.flush()
		if got := kinds(h.mw.tr); got != "user retry notice" {
			t.Fatalf("rows = %q", got)
		}
		s.Show(app.Event{Kind: app.EvText, BlockID: "a", Text: "Hello"})
		s.flush()
		// Not the last row: it stays, taking no room and showing nothing.
		if got := kinds(h.mw.tr); got != "user retry notice assistant" {
			t.Fatalf("rows = %q", got)
		}
		if rv := visibleRow(t, h.mw.tr, 1); rv.MinSize().Height != 0 || shownText(rv) != "" || h.mw.tr.list.heights.at(1) != 0 {
			t.Errorf("ended retry row shows %q, %v tall", shownText(rv), rv.MinSize().Height)
		}
		// The next turn's retries have a row of their own.
		s.Show(app.Event{Kind: app.EvPrompt, Text: "again"})
		retries(s, 1)
		s.flush()
		if got := kinds(h.mw.tr); got != "user retry notice assistant user retry" {
			t.Fatalf("rows = %q", got)
		}
	})
}

// retryRunner is a session that can send its last prompt again.
type retryRunner struct {
	*fakeRunner
	mu      sync.Mutex
	retries int
}

func (r *retryRunner) Retry() error {
	r.mu.Lock()
	r.retries++
	r.mu.Unlock()
	return nil
}

func (r *retryRunner) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.retries
}

// TestRetryButtonResendsThePrompt: Retry on the card of a failed turn
// asks the session to send the prompt again; once a new prompt went, no
// card offers it.
func TestRetryButtonResendsThePrompt(t *testing.T) {
	h := newHarness(t)
	r := &retryRunner{fakeRunner: h.r}
	h.mw.mu.Lock()
	h.mw.runner = r
	h.mw.mu.Unlock()
	s := h.mw.surf
	s.Show(app.Event{Kind: app.EvPrompt, Text: "hi"})
	s.Show(app.Event{Kind: app.EvError, Err: &app.ErrorInfo{Title: "The Anthropic API failed (HTTP 401)", Detail: "invalid x-api-key",
		Hint: "Log in with claude in a terminal (claude /login), or set ANTHROPIC_API_KEY for Latch.", Retry: true}})
	s.Show(app.Event{Kind: app.EvTurnEnd, Turn: &app.TurnInfo{IsError: true}})
	s.flush()
	card := visibleRow(t, h.mw.tr, 1)
	if !card.errRetry.Visible() || !strings.Contains(shownText(card), "Log in with claude") {
		t.Fatalf("card shows %q", shownText(card))
	}
	test.Tap(card.errRetry)
	if !h.mw.sendBtn.Disabled() {
		t.Error("Send is enabled while the prompt is sent again")
	}
	waitFor(t, "Retry", func() bool { return r.count() == 1 })
	h.q.waitOne(t) // Retry returned
	if h.mw.sending || h.mw.sendBtn.Disabled() {
		t.Error("the window still waits for the retry")
	}
	s.Show(app.Event{Kind: app.EvPrompt, Text: "hi"})
	s.flush()
	if card := visibleRow(t, h.mw.tr, 1); card.errRetry.Visible() {
		t.Error("the old card still offers Retry after the prompt was sent again")
	}
	if !strings.Contains(shownText(visibleRow(t, h.mw.tr, 1)), "Log in with claude") {
		t.Error("the hint went with the Retry")
	}
	// A card without Retry or hint shows neither.
	s.Show(app.Event{Kind: app.EvError, Err: &app.ErrorInfo{Title: "Claude Code exited", Detail: "x"}})
	s.flush()
	if card := visibleRow(t, h.mw.tr, 4); card.errRetry.Visible() || card.errHint.Visible() {
		t.Error("a card with nothing to offer shows Retry or a hint")
	}
}

// TestIncompleteAnswerIsMarked: an answer cut off when Claude Code ended
// is marked right under it; rows after it keep working.
func TestIncompleteAnswerIsMarked(t *testing.T) {
	h := newHarness(t)
	s := h.mw.surf
	s.Show(app.Event{Kind: app.EvPrompt, Text: "hi"})
	s.Show(app.Event{Kind: app.EvText, BlockID: "a", Text: "The first part\n\nof an answer"})
	s.Show(app.Event{Kind: app.EvToolCall, Tool: &app.ToolCall{ID: "t1", Name: "Bash", Summary: "make"}})
	s.Show(app.Event{Kind: app.EvGrant, Grant: &app.GrantInfo{ID: "g1", Text: "Saved Bash(make) to x"}})
	s.Show(app.Event{Kind: app.EvError, Err: &app.ErrorInfo{Title: "Claude Code stopped in the middle of the turn", Detail: "exit 1", Retry: true}})
	s.Show(app.Event{Kind: app.EvTurnEnd, Turn: &app.TurnInfo{IsError: true, ErrorText: "Claude Code exited", Incomplete: true}})
	s.flush()
	if got := kinds(h.mw.tr); got != "user assistant assistant incomplete tool grant error turn" {
		t.Fatalf("rows = %q", got)
	}
	if rv := visibleRow(t, h.mw.tr, 3); !strings.Contains(shownText(rv), "Answer incomplete") {
		t.Errorf("marker shows %q", shownText(rv))
	}
	// The moved rows are still found by their calls and grants.
	s.Show(app.Event{Kind: app.EvToolResult, Tool: &app.ToolCall{ID: "t1", Result: "ok"}})
	s.Show(app.Event{Kind: app.EvGrant, Grant: &app.GrantInfo{ID: "g1", Text: "Removed Bash(make)", Undone: true}})
	s.flush()
	if got := kinds(h.mw.tr); got != "user assistant assistant incomplete tool grant error turn notice" {
		t.Fatalf("rows = %q", got)
	}
	if e := h.mw.tr.entries[4]; !e.finished || e.tool.Result != "ok" {
		t.Error("the tool result did not reach its moved card")
	}
	if !h.mw.tr.entries[5].grant.Undone {
		t.Error("the undo did not reach its moved row")
	}
	if got := h.mw.tr.lastAnswer(); got != "The first part\n\nof an answer" {
		t.Errorf("last answer = %q", got)
	}
	l := h.mw.tr.list
	for id := range h.mw.tr.entries {
		if o, ok := l.visible[id]; ok && float64(o.Size().Height) != l.heights.at(id) {
			t.Errorf("row %d laid out %v tall, its height is %v", id, o.Size().Height, l.heights.at(id))
		}
	}
	// No answer in the turn: nothing to mark.
	s.Show(app.Event{Kind: app.EvPrompt, Text: "again"})
	s.Show(app.Event{Kind: app.EvTurnEnd, Turn: &app.TurnInfo{IsError: true, Incomplete: true}})
	s.flush()
	if got := kinds(h.mw.tr); !strings.HasSuffix(got, "notice user error turn") {
		t.Errorf("rows = %q", got)
	}
}

// TestCopyLastAnswerSaysCopied: Copy Last Answer says so for a moment.
func TestCopyLastAnswerSaysCopied(t *testing.T) {
	old := copiedFor
	copiedFor = 30 * time.Millisecond
	t.Cleanup(func() { copiedFor = old })
	h := newHarness(t)
	h.mw.copyLastAnswer()
	if !h.mw.flashLbl.Visible() || h.mw.flashLbl.Text != "No answer to copy yet" {
		t.Errorf("with no answer: %v %q", h.mw.flashLbl.Visible(), h.mw.flashLbl.Text)
	}
	h.q.waitOne(t)
	h.mw.surf.Show(app.Event{Kind: app.EvText, BlockID: "a", Text: "the **answer**"})
	h.mw.surf.flush()
	h.mw.copyLastAnswer()
	if got := h.mw.app.Clipboard().Content(); got != "the **answer**" {
		t.Errorf("clipboard = %q", got)
	}
	if !h.mw.flashLbl.Visible() || h.mw.flashLbl.Text != "Copied" {
		t.Fatalf("after copying: %v %q", h.mw.flashLbl.Visible(), h.mw.flashLbl.Text)
	}
	h.q.waitOne(t) // the moment passed
	if h.mw.flashLbl.Visible() {
		t.Error("Copied stays")
	}
	// A second copy within the moment keeps it up for its own moment.
	copiedFor = 10 * time.Millisecond
	h.mw.copyLastAnswer()
	copiedFor = 400 * time.Millisecond
	h.mw.copyLastAnswer()
	h.q.waitOne(t) // the first copy's moment
	if !h.mw.flashLbl.Visible() {
		t.Error("the first copy's timer hid the second's Copied")
	}
	h.q.waitOne(t)
	if h.mw.flashLbl.Visible() {
		t.Error("Copied stays")
	}
}

// TestStatusFitsAt980: at 980 px, with a long model, session id and
// folder, the status line still shows the state, the mode and the cost
// whole, and the folder bar the folder's own name.
func TestStatusFitsAt980(t *testing.T) {
	h := newHarness(t)
	h.mw.win.Resize(fyne.NewSize(980, 720))
	dir := "/home/ada/work/clients/acme-corporation/projects/2026/storefronts/web/shop-frontend-with-a-long-name"
	h.mw.workdir = dir
	h.mw.surf.Show(app.Event{Kind: app.EvStatus, Status: &app.Status{State: app.Running, SessionID: "4f1c2a9e-77b0-4b7e-9a51-0c3e8d2f6a11",
		Model: "claude-opus-4-1-20250805[1m]-with-a-very-long-experimental-suffix", Prompts: app.PromptsAfterTurn,
		PermissionMode: "acceptEdits", Workdir: dir}})
	h.mw.surf.Show(app.Event{Kind: app.EvTurnEnd, Turn: &app.TurnInfo{CostUSD: 0.0412, InputTokens: 1284000, OutputTokens: 91200,
		SessionCostUSD: 12.3456, SessionInputTokens: 98765432, SessionOutputTokens: 1234567}})
	h.mw.surf.flush()
	h.mw.win.Content().Refresh()

	lbl := h.mw.statusLbl
	t.Logf("status %q (%v of %v px), folder %q", lbl.Text, textWidth(lbl, lbl.Text), lbl.Size().Width, h.mw.folderLbl.Text)
	for _, want := range []string{"Running", "after the turn", "$0.04", "$12.35"} {
		if !strings.Contains(lbl.Text, want) {
			t.Errorf("status line %q lacks %q", lbl.Text, want)
		}
	}
	if need, have := textWidth(lbl, lbl.Text), lbl.Size().Width; need > have {
		t.Errorf("status line needs %v px, has %v: it is cut", need, have)
	}
	if have := h.mw.statusFit.Size().Width; have < 300 {
		t.Errorf("the status line has only %v px", have)
	}
	box := h.mw.modeSel.box
	if !box.Visible() || box.Size().Width < box.MinSize().Width || h.mw.modeSel.sel.Selected == "" {
		t.Errorf("mode selector %v wide, needs %v, shows %q", box.Size().Width, box.MinSize().Width, h.mw.modeSel.sel.Selected)
	}
	if sel := h.mw.modeSel.sel; sel.Size().Width < sel.MinSize().Width {
		t.Errorf("mode selector cut: %v < %v", sel.Size().Width, sel.MinSize().Width)
	}

	folder := h.mw.folderLbl
	if !strings.HasSuffix(folder.Text, "/shop-frontend-with-a-long-name") || !strings.Contains(folder.Text, "…") || !strings.HasPrefix(folder.Text, "/home") {
		t.Errorf("folder bar shows %q, want the middle elided", folder.Text)
	}
	if need, have := textWidth(folder, folder.Text), folder.Size().Width; need > have {
		t.Errorf("folder needs %v px, has %v: it is cut", need, have)
	}
	// Wide enough, everything shows.
	h.mw.win.Resize(fyne.NewSize(2400, 720))
	h.mw.win.Content().Refresh()
	if !strings.Contains(lbl.Text, "4f1c2a9e") || !strings.Contains(lbl.Text, "very-long-experimental-suffix") || folder.Text != dir {
		t.Errorf("at 2400 px: status %q, folder %q", lbl.Text, folder.Text)
	}
}

func TestElidePath(t *testing.T) {
	under := func(n int) func(string) bool {
		return func(s string) bool { return len([]rune(s)) <= n }
	}
	for _, tc := range []struct {
		path string
		max  int
		want string
	}{
		{"/home/ada/shop", 40, "/home/ada/shop"},
		{"/home/ada/work/clients/projects/shop-frontend", 36, "/home/ada/…/projects/shop-frontend"},
		{"/home/ada/work/clients/projects/shop-frontend", 30, "/home/…/projects/shop-frontend"},
		{"/home/ada/work/clients/projects/shop-frontend", 22, "/home/…/shop-frontend"},
		{"/home/ada/work/clients/projects/shop-frontend", 16, "…/shop-frontend"},
		{"/home/ada/work/clients/projects/shop-frontend", 8, "…rontend"},
		{"relative/a/b/c/name", 17, "relative/…/c/name"},
		{"relative/a/b/c/name", 12, "…/name"},
		{`C:\Users\ada\work\shop`, 14, `C:\…\work\shop`},
	} {
		if got := elidePath(tc.path, under(tc.max)); got != tc.want {
			t.Errorf("elidePath(%q, %d) = %q, want %q", tc.path, tc.max, got, tc.want)
		}
	}
}

// TestPrefsThemeSavesAndApplies: the theme chosen in Preferences shows at
// once, is saved with Save, and one tried but not saved goes when the
// window closes.
func TestPrefsThemeSavesAndApplies(t *testing.T) {
	h, home := prefsHarness(t, `{"last_workdir": "/w"}`)
	path := filepath.Join(home, ".config", "latch", "config.json")
	bg := func() fyne.ThemeVariant {
		c := h.mw.app.Settings().Theme().Color(theme.ColorNameBackground, 2)
		if c == lightColors[theme.ColorNameBackground] {
			return theme.VariantLight
		}
		return theme.VariantDark
	}
	p := openPrefs(t, h)
	if !p.theme.items[0].Selected {
		t.Fatal("Follow the desktop is not the default")
	}
	p.win.Canvas().Focus(p.theme.items[1])
	press(p.win.Canvas(), fyne.KeySpace) // Light
	if bg() != theme.VariantLight {
		t.Fatal("Light did not apply at once")
	}
	p.save.OnTapped()
	h.q.waitOne(t) // saved
	data, _ := os.ReadFile(path)
	if !strings.Contains(string(data), `"theme": "light"`) || !strings.Contains(string(data), `"last_workdir": "/w"`) {
		t.Errorf("saved %s", data)
	}
	p.theme.pick(2) // Dark, tried
	if bg() != theme.VariantDark {
		t.Fatal("Dark did not apply at once")
	}
	p.Dismiss()
	if bg() != theme.VariantLight {
		t.Error("a theme tried and not saved stayed after Preferences closed")
	}
	if got := savedSettings(t).Prefs().Theme; got != app.ThemeLight {
		t.Errorf("saved theme %q", got)
	}
	// The next window starts in the saved theme, and shows it chosen.
	h2 := newHarness(t)
	if c := h2.mw.app.Settings().Theme().Color(theme.ColorNameBackground, theme.VariantDark); c != lightColors[theme.ColorNameBackground] {
		t.Error("a new window did not start in the saved theme")
	}
	if p2 := openPrefs(t, h2); !p2.theme.items[1].Selected {
		t.Error("Preferences does not show the saved theme")
	}
}

// After a theme switch the tool cards and the Bypass frame take the new
// theme's colours.
func TestThemeSwitchRecoloursCards(t *testing.T) {
	h := newHarness(t)
	h.mw.surf.Show(app.Event{Kind: app.EvToolCall, Tool: &app.ToolCall{ID: "1", Name: "Bash", Summary: "ls"}})
	h.mw.surf.flush()
	var card *toolCard
	for _, r := range h.mw.tr.list.visible {
		if rv, ok := r.(*rowView); ok && rv.tool != nil {
			card = rv.tool
		}
	}
	if card == nil {
		t.Fatal("no tool card shown")
	}
	for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		h.mw.app.Settings().SetTheme(latchTheme(v))
		h.mw.themeChanged()
		want := latchTheme(v).Color(theme.ColorNameInputBackground, v)
		if card.bg.FillColor != want {
			t.Errorf("variant %d: card background %v, want %v", v, card.bg.FillColor, want)
		}
		if got, want := h.mw.modeSel.bg.FillColor, latchTheme(v).Color(theme.ColorNameError, v); got != want {
			t.Errorf("variant %d: Bypass frame %v, want %v", v, got, want)
		}
	}
}
