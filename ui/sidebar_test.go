package ui

import (
	"fmt"
	"image/color"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

// historyNow is the sidebar tests' clock: Thursday 10 December 2026, 15:00.
var historyNow = time.Date(2026, 12, 10, 15, 0, 0, 0, time.UTC)

// historyBox is a sidebar in a window of its own, with what it reported.
type historyBox struct {
	h       *historyPanel
	w       fyne.Window
	c       fyne.Canvas
	opened  []string // IDs, in the order opened
	news    int
	escapes int
}

func newHistoryBox(t testing.TB) *historyBox {
	t.Helper()
	a := test.NewTempApp(t)
	b := &historyBox{}
	b.h = newHistoryPanel(func(s app.SessionSummary) { b.opened = append(b.opened, s.ID) }, func() { b.news++ })
	b.h.onEscape = func() { b.escapes++ }
	b.h.now = func() time.Time { return historyNow }
	b.w = a.NewWindow("history")
	b.w.SetContent(b.h.object())
	b.w.Resize(fyne.NewSize(300, 600))
	b.w.Show()
	b.c = b.w.Canvas()
	t.Cleanup(b.w.Close)
	return b
}

// historySessions are n sessions, newest first, an hour apart: "s0" titled
// "Session 0" is the newest.
func historySessions(n int) []app.SessionSummary {
	out := make([]app.SessionSummary, n)
	for i := range out {
		at := historyNow.Add(-time.Duration(i+1) * time.Hour)
		out[i] = app.SessionSummary{ID: fmt.Sprintf("s%d", i), Title: fmt.Sprintf("Session %d", i),
			Started: at.Add(-time.Minute), Updated: at, Prompts: i % 4}
	}
	return out
}

// rows are the rows in view, by title.
func (b *historyBox) rows() map[string]*historyRow {
	out := map[string]*historyRow{}
	visit(b.h.list, func(o fyne.CanvasObject) {
		if r, ok := o.(*historyRow); ok && r.Visible() && r.Size().Height > 0 {
			out[r.title.Text] = r
		}
	})
	return out
}

func (b *historyBox) row(t *testing.T, title string) *historyRow {
	t.Helper()
	r, ok := b.rows()[title]
	if !ok {
		t.Fatalf("no row %q in view", title)
	}
	return r
}

// tapRow clicks the row titled title, through the list's own row widget.
func (b *historyBox) tapRow(t *testing.T, title string) {
	t.Helper()
	r := b.row(t, title)
	var item fyne.Tappable
	visit(b.h.list, func(o fyne.CanvasObject) {
		w, ok := o.(fyne.Widget)
		tp, tappable := o.(fyne.Tappable)
		if !ok || !tappable {
			return
		}
		if slices.Contains(test.WidgetRenderer(w).Objects(), fyne.CanvasObject(r)) {
			item = tp
		}
	})
	if item == nil {
		t.Fatalf("row %q has no tappable list item", title)
	}
	test.Tap(item)
}

func (b *historyBox) shownIDs() []string {
	var ids []string
	for i := range b.h.shown {
		ids = append(ids, b.h.idAt(i))
	}
	return ids
}

func TestHistoryRowShowsSession(t *testing.T) {
	day := func(d, h, m int) time.Time { return time.Date(2026, 12, d, h, m, 0, 0, time.UTC) }
	tests := []struct {
		name     string
		s        app.SessionSummary
		title    string
		low      bool // the title in low importance
		when     string
		prompts  string
		refused  string // "" when no mark
		wantHint bool
	}{
		{name: "today", s: app.SessionSummary{Title: "Fix the cart tests", Updated: day(10, 14, 2), Prompts: 3},
			title: "Fix the cart tests", when: "Today 14:02", prompts: "3 prompts"},
		{name: "yesterday", s: app.SessionSummary{Title: "Refactor", Updated: day(9, 9, 15), Prompts: 1},
			title: "Refactor", when: "Yesterday 09:15", prompts: "1 prompt"},
		{name: "this week", s: app.SessionSummary{Title: "Docs", Updated: day(7, 14, 2)},
			title: "Docs", when: "Mon 14:02", prompts: "0 prompts"},
		{name: "six days ago", s: app.SessionSummary{Title: "Docs", Updated: day(4, 10, 0)},
			title: "Docs", when: "Fri 10:00", prompts: "0 prompts"},
		{name: "a week ago", s: app.SessionSummary{Title: "Old", Updated: day(3, 14, 2), Prompts: 12},
			title: "Old", when: "3 Dec 2026", prompts: "12 prompts"},
		{name: "started only", s: app.SessionSummary{Title: "Old", Started: day(9, 23, 59)},
			title: "Old", when: "Yesterday 23:59", prompts: "0 prompts"},
		{name: "no prompt", s: app.SessionSummary{Updated: day(10, 8, 0)},
			title: "(no prompt)", low: true, when: "Today 08:00", prompts: "0 prompts"},
		{name: "bidi override", s: app.SessionSummary{Title: "rm -rf \u202Etxt.exe", Updated: day(10, 8, 0)},
			title: "rm -rf ⟨U+202E⟩txt.exe", when: "Today 08:00", prompts: "0 prompts"},
		{name: "ANSI escape", s: app.SessionSummary{Title: "\x1b[31mred\x1b[0m text", Updated: day(10, 8, 0)},
			title: `\x1b[31mred\x1b[0m text`, when: "Today 08:00", prompts: "0 prompts"},
		{name: "newline", s: app.SessionSummary{Title: "one\ntwo", Updated: day(10, 8, 0)},
			title: "one⏎two", when: "Today 08:00", prompts: "0 prompts"},
		{name: "refused", s: app.SessionSummary{Title: "Deploy", Updated: day(10, 8, 0), Prompts: 2, Unresolved: 2},
			title: "Deploy", when: "Today 08:00", prompts: "2 prompts", refused: "⚠ 2 refused", wantHint: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newHistoryBox(t)
			tc.s.ID = "id-1"
			b.h.set("/home/ada/shop", []app.SessionSummary{tc.s})
			r := b.row(t, tc.title)
			if low := r.title.Importance == widget.LowImportance; low != tc.low {
				t.Errorf("title importance %v", r.title.Importance)
			}
			if r.when.Text != tc.when || r.prompts.Text != tc.prompts {
				t.Errorf("caption %q · %q, want %q · %q", r.when.Text, r.prompts.Text, tc.when, tc.prompts)
			}
			switch {
			case tc.refused == "" && r.refused.Visible():
				t.Errorf("refused mark %q shown", r.refused.Text)
			case tc.refused != "" && (!r.refused.Visible() || r.refused.Text != tc.refused || r.refused.Importance != widget.WarningImportance):
				t.Errorf("refused mark %q (shown %v, %v), want %q", r.refused.Text, r.refused.Visible(), r.refused.Importance, tc.refused)
			}
			// The mark's meaning: under the list while the pointer is on
			// it, or the keyboard on its row.
			if tc.refused != "" {
				r.refused.MouseIn(nil)
				if !b.h.hint.Visible() || !strings.Contains(b.h.hint.Text, "refused tool calls that can be granted") {
					t.Error("pointing at the mark does not say what it means")
				}
				r.refused.MouseOut()
			}
			if b.h.hint.Visible() {
				t.Error("the hint shows with nothing pointed at")
			}
			b.h.focus(b.c)
			if b.h.hint.Visible() != tc.wantHint {
				t.Errorf("hint shown %v with the keyboard on the row", b.h.hint.Visible())
			}
		})
	}
}

func TestHistoryWhen(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Skip(err)
	}
	now := time.Date(2026, 3, 30, 0, 30, 0, 0, paris) // the day after the clocks went forward
	tests := []struct {
		t    time.Time
		want string
	}{
		{time.Time{}, ""},
		{time.Date(2026, 3, 29, 23, 0, 0, 0, paris), "Yesterday 23:00"},
		{time.Date(2026, 3, 29, 22, 0, 0, 0, time.UTC), "Today 00:00"}, // shown in now's zone
		{time.Date(2026, 3, 24, 1, 0, 0, 0, paris), "Tue 01:00"},
		{time.Date(2026, 3, 23, 23, 0, 0, 0, paris), "23 Mar 2026"},
		{time.Date(2026, 3, 31, 9, 0, 0, 0, paris), "31 Mar 2026"}, // the future
	}
	for _, tc := range tests {
		if got := sessionWhen(tc.t, now); got != tc.want {
			t.Errorf("sessionWhen(%v) = %q, want %q", tc.t, got, tc.want)
		}
	}
}

func TestHistoryHeaderAndNewSession(t *testing.T) {
	b := newHistoryBox(t)
	b.h.set("/home/ada/shop\u202E", historySessions(3))
	if got := b.h.folderLbl.Text; got != "shop⟨U+202E⟩" {
		t.Errorf("folder %q", got)
	}
	if w := b.h.object().MinSize().Width; w < historyWidth {
		t.Errorf("panel %v wide, want at least %v", w, historyWidth)
	}
	if b.h.newBtn.Text != "New session" || b.h.newBtn.Icon == nil || b.h.newBtn.Icon.Name() != theme.ContentAddIcon().Name() {
		t.Errorf("button %q with icon %v", b.h.newBtn.Text, b.h.newBtn.Icon)
	}
	test.Tap(b.h.newBtn)
	if b.news != 1 || len(b.opened) != 0 {
		t.Errorf("New session: %d new, %v opened", b.news, b.opened)
	}
}

// Clicking a row opens it, every time; the row chosen stays tinted; a
// session open in a tab is marked.
func TestHistoryOpenOnTap(t *testing.T) {
	b := newHistoryBox(t)
	b.h.set("/w", historySessions(5))
	b.tapRow(t, "Session 2")
	b.tapRow(t, "Session 2")
	b.tapRow(t, "Session 0")
	if got := strings.Join(b.opened, " "); got != "s2 s2 s0" {
		t.Fatalf("opened %q", got)
	}
	if b.c.Focused() != fyne.Focusable(b.h.list) {
		t.Error("a click does not give the list the keyboard")
	}
	rows := b.rows()
	if !rowTinted(rows["Session 0"].bg) || rowTinted(rows["Session 2"].bg) {
		t.Error("the chosen row is not the one tinted")
	}
	b.h.setOpen(map[string]bool{"s1": true, "s3": false})
	rows = b.rows()
	for title, r := range rows {
		open := title == "Session 1"
		if r.dot.Visible() != open || r.title.TextStyle.Bold != open {
			t.Errorf("%s: open mark %v, bold %v", title, r.dot.Visible(), r.title.TextStyle.Bold)
		}
	}
}

func rowTinted(bg *canvas.Rectangle) bool {
	return bg.FillColor != nil && bg.FillColor != color.Transparent
}

func TestHistoryKeyboard(t *testing.T) {
	b := newHistoryBox(t)
	b.h.set("/w", historySessions(40))
	b.h.focus(b.c)
	if b.c.Focused() != fyne.Focusable(b.h.list) || b.h.cur != 0 {
		t.Fatalf("focus: %v, row %d", b.c.Focused(), b.h.cur)
	}
	if r := b.row(t, "Session 0"); !ringShown(r.ring) {
		t.Error("the keyboard's row is not outlined")
	}
	press(b.c, fyne.KeyUp) // at the top: stays
	press(b.c, fyne.KeyDown)
	press(b.c, fyne.KeyDown)
	press(b.c, fyne.KeyReturn)
	press(b.c, fyne.KeyDown)
	b.c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	if got := strings.Join(b.opened, " "); got != "s2 s3" {
		t.Fatalf("Enter and Space opened %q, want s2 s3", got)
	}
	if r := b.rows(); !ringShown(r["Session 3"].ring) || ringShown(r["Session 2"].ring) {
		t.Error("the outline did not follow the keyboard")
	}
	press(b.c, fyne.KeyEnd)
	if b.h.cur != 39 {
		t.Errorf("End: row %d", b.h.cur)
	}
	if _, ok := b.rows()["Session 39"]; !ok {
		t.Error("End did not scroll to the last row")
	}
	press(b.c, fyne.KeyHome)
	press(b.c, fyne.KeyPageDown)
	if p := b.h.page(); b.h.cur != p || p < 2 {
		t.Errorf("PgDn: row %d, page %d", b.h.cur, p)
	}
	press(b.c, fyne.KeyEscape)
	if b.escapes != 1 {
		t.Error("Esc did not call onEscape")
	}
	b.c.Unfocus()
	if anyRing(b) {
		t.Error("an outline stays without the keyboard")
	}
}

func ringShown(r *canvas.Rectangle) bool {
	return r.StrokeColor != nil && r.StrokeColor != color.Transparent && r.StrokeWidth > 0
}

func anyRing(b *historyBox) bool {
	for _, r := range b.rows() {
		if ringShown(r.ring) {
			return true
		}
	}
	return false
}

// Set again every 2 s, the list keeps the chosen session, the keyboard's
// row and the rows in view with their sessions.
func TestHistorySetKeepsSelectionByID(t *testing.T) {
	b := newHistoryBox(t)
	items := historySessions(200)
	b.h.set("/w", items)
	b.tapRow(t, "Session 2")
	press(b.c, fyne.KeyDown) // the keyboard on Session 3

	fresh := append([]app.SessionSummary{{ID: "new", Title: "Brand new", Updated: historyNow}}, items...)
	b.h.set("/w", fresh)
	if b.h.chosen != "s2" || b.h.idAt(b.h.cur) != "s3" || b.h.cur != 4 {
		t.Fatalf("chosen %q, keyboard on %q (row %d)", b.h.chosen, b.h.idAt(b.h.cur), b.h.cur)
	}
	rows := b.rows()
	if !rowTinted(rows["Session 2"].bg) || rowTinted(rows["Session 1"].bg) {
		t.Error("the tint did not move with the chosen session")
	}
	if _, ok := rows["Brand new"]; !ok {
		t.Error("at the top, a new session does not show")
	}

	// Scrolled down, the rows in view stay put when sessions come on top.
	p := b.h.pitch()
	b.h.list.ScrollToOffset(100 * p)
	top := b.h.idAt(b.h.firstInView())
	before := b.h.list.GetScrollOffset()
	fresh = append([]app.SessionSummary{{ID: "n2", Title: "Newer"}, {ID: "n3", Title: "Newest"}}, fresh...)
	b.h.set("/w", fresh)
	if got := b.h.list.GetScrollOffset(); got != before+2*p {
		t.Errorf("offset %v, want %v", got, before+2*p)
	}
	if got := b.h.idAt(b.h.firstInView()); got != top {
		t.Errorf("top row %q, was %q", got, top)
	}

	// A session that went away takes the keyboard's row with it: its
	// neighbour has it.
	b.h.list.ScrollToOffset(0)
	gone := slices.DeleteFunc(slices.Clone(fresh), func(s app.SessionSummary) bool { return s.ID == "s3" })
	b.h.set("/w", gone)
	if b.h.cur != 6 || b.h.idAt(6) != "s4" {
		t.Errorf("keyboard on row %d (%q)", b.h.cur, b.h.idAt(b.h.cur))
	}

	// Another folder starts afresh.
	b.h.list.ScrollToOffset(50 * p)
	b.h.set("/elsewhere", historySessions(100))
	if b.h.chosen != "" || b.h.list.GetScrollOffset() != 0 {
		t.Errorf("another folder: chosen %q, offset %v", b.h.chosen, b.h.list.GetScrollOffset())
	}
	// Fewer rows than the view: all of them show.
	b.h.list.ScrollToOffset(80 * p)
	b.h.set("/elsewhere", historySessions(3))
	if len(b.rows()) != 3 {
		t.Errorf("%d rows in view of 3", len(b.rows()))
	}
}

func TestHistoryFilter(t *testing.T) {
	b := newHistoryBox(t)
	items := []app.SessionSummary{
		{ID: "a", Title: "Fix the cart tests"}, {ID: "b", Title: "Refactor payments"},
		{ID: "c", Title: "FIX flaky CI"}, {ID: "d", Title: ""}, {ID: "e", Title: "Écrire la doc"},
	}
	b.h.set("/w", items)
	tests := []struct {
		q    string
		want string
		msg  string
	}{
		{"fix", "a c", ""},
		{"FIX", "a c", ""},
		{"écrire", "e", ""},
		{"payments", "b", ""},
		{"nothing like it", "", "No session matches “nothing like it”"},
		{"", "a b c d e", ""},
	}
	for _, tc := range tests {
		b.h.setFilter(tc.q)
		if got := strings.Join(b.shownIDs(), " "); got != tc.want {
			t.Errorf("filter %q shows %q, want %q", tc.q, got, tc.want)
		}
		if b.h.filter.Text != tc.q {
			t.Errorf("filter field %q", b.h.filter.Text)
		}
		if shown := b.h.msg.Visible(); shown != (tc.msg != "") || (shown && b.h.msg.Text != tc.msg) {
			t.Errorf("filter %q: message %q (shown %v), want %q", tc.q, b.h.msg.Text, shown, tc.msg)
		}
	}
	// Typing filters; Down goes to the list; Esc empties the field, then
	// leaves.
	b.c.Focus(b.h.filter)
	typeRunes(b.c, "Refac")
	if got := strings.Join(b.shownIDs(), " "); got != "b" {
		t.Errorf("typed: %q", got)
	}
	press(b.c, fyne.KeyEscape)
	if b.h.filter.Text != "" || len(b.h.shown) != 5 || b.escapes != 0 {
		t.Errorf("Esc: field %q, %d rows, %d escapes", b.h.filter.Text, len(b.h.shown), b.escapes)
	}
	press(b.c, fyne.KeyEscape)
	if b.escapes != 1 {
		t.Error("Esc in an empty filter did not leave")
	}
	b.c.Focus(b.h.filter)
	typeRunes(b.c, "fix")
	press(b.c, fyne.KeyDown)
	press(b.c, fyne.KeyDown)
	press(b.c, fyne.KeyReturn)
	if b.c.Focused() != fyne.Focusable(b.h.list) || strings.Join(b.opened, " ") != "c" {
		t.Errorf("from the filter: focus %v, opened %q", b.c.Focused(), b.opened)
	}
	// The list refreshed with the filter on keeps it.
	b.h.set("/w", append(slices.Clone(items), app.SessionSummary{ID: "f", Title: "fix again"}))
	if got := strings.Join(b.shownIDs(), " "); got != "a c f" {
		t.Errorf("after set: %q", got)
	}
}

func TestHistoryEmptyAndError(t *testing.T) {
	b := newHistoryBox(t)
	b.h.set("/w", nil)
	if !b.h.msg.Visible() || b.h.msg.Text != "No sessions in this folder yet." {
		t.Errorf("empty: %q", b.h.msg.Text)
	}
	msg := "The sessions of this folder could not be listed: " + app.Visible("open /home/ada/.claude/projects/-w: permission denied\x1b[2J")
	b.h.setError(msg)
	if !b.h.msg.Visible() || b.h.msg.Importance != widget.DangerImportance ||
		b.h.msg.Text != `The sessions of this folder could not be listed: open /home/ada/.claude/projects/-w: permission denied\x1b[2J` {
		t.Errorf("error: %q (%v)", b.h.msg.Text, b.h.msg.Importance)
	}
	b.h.set("/w", historySessions(2))
	if b.h.msg.Visible() || len(b.rows()) != 2 {
		t.Errorf("listed again: message %q shown %v, %d rows", b.h.msg.Text, b.h.msg.Visible(), len(b.rows()))
	}
	b.h.setError("gone")
	if !b.h.msg.Visible() || len(b.rows()) != 2 {
		t.Error("an error hides the rows listed before, or says nothing")
	}
	b.h.set("/w", historySessions(2)) // the same sessions: the error is over
	if b.h.msg.Visible() {
		t.Error("the error stays after the folder was listed")
	}
}

// The same 1,000 sessions set again (every 2 s, with the sessions open in
// tabs) cost a comparison; a changed list rebinds only the rows in view.
func BenchmarkHistorySet1000(b *testing.B) {
	for _, changed := range []bool{false, true} {
		name := "same"
		if changed {
			name = "changed"
		}
		b.Run(name, func(b *testing.B) {
			box := newHistoryBox(b)
			one, two := historySessions(1000), historySessions(1000)
			two[500].Prompts++
			open := map[string]bool{"s3": true, "s700": true}
			box.h.set("/w", one)
			box.h.setOpen(open)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				if changed && i%2 == 1 {
					box.h.set("/w", two)
				} else {
					box.h.set("/w", one)
				}
				box.h.setOpen(open)
			}
		})
	}
}

// TestHistoryGoldenImages renders the sidebar in both themes: a session
// open in a tab, the chosen one, one with refused calls under the
// keyboard (and the hint), one without a prompt
// (testdata/sidebar_light.png, sidebar_dark.png).
func TestHistoryGoldenImages(t *testing.T) {
	for _, v := range themeVariants {
		t.Run(v.name, func(t *testing.T) {
			b := newHistoryBox(t)
			fyne.CurrentApp().Settings().SetTheme(latchTheme(v.v))
			b.w.Resize(fyne.NewSize(280, 460))
			items := historySessions(6)
			items[0].Title = "Fix the failing cart tests and make the CI green again"
			items[0].Prompts = 3
			items[1].Title = "Deploy to staging"
			items[1].Unresolved = 2
			items[2].Title = ""
			items[3].Title = "rm -rf \u202Etxt.exe"
			items[4].Updated = historyNow.Add(-30 * time.Hour)
			items[5].Updated = historyNow.Add(-300 * time.Hour)
			b.h.set("/home/ada/shop", items)
			b.h.setOpen(map[string]bool{"s3": true})
			b.tapRow(t, items[0].Title)
			press(b.c, fyne.KeyDown)
			test.AssertImageMatches(t, "sidebar_"+v.name+".png", b.c.Capture())
		})
	}
}

// The list can take the keyboard before its first listing arrives (Ctrl+B
// lists off the UI goroutine): Enter then opens the newest session.
func TestHistoryKeyboardBeforeTheListing(t *testing.T) {
	w := test.NewTempWindow(t, nil)
	var opened []string
	h := newHistoryPanel(func(s app.SessionSummary) { opened = append(opened, s.ID) }, func() {})
	w.SetContent(h.object())
	w.Resize(fyne.NewSize(300, 500))
	h.focus(w.Canvas())
	h.set("/w", []app.SessionSummary{{ID: "newest", Title: "a"}, {ID: "older", Title: "b"}})
	w.Canvas().Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if len(opened) != 1 || opened[0] != "newest" {
		t.Errorf("Enter opened %q, want the newest session", opened)
	}
}
