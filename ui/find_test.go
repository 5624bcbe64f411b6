package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"github.com/latch-app/latch/app"
)

// findBox is a transcript with the find bar above it in a window of its
// own, the bar wired to a findState as the window wires it.
type findBox struct {
	f       *findBar
	tr      *transcript
	st      findState
	w       fyne.Window
	c       fyne.Canvas
	queries []string
	steps   []bool
	closes  int
}

func newFindBox(t testing.TB) *findBox {
	t.Helper()
	a := test.NewTempApp(t)
	b := &findBox{tr: newTranscript(), st: findState{at: -1}}
	b.f = newFindBar(func(q string) {
		b.queries = append(b.queries, q)
		b.f.setResult(b.st.search(b.tr, q))
	}, func(back bool) {
		b.steps = append(b.steps, back)
		b.f.setResult(b.st.step(b.tr, back))
	}, func() {
		b.closes++
		b.st.clear(b.tr)
	})
	b.w = a.NewWindow("find")
	b.w.SetContent(container.NewBorder(b.f.object(), nil, nil, nil, b.tr.list))
	b.w.Resize(fyne.NewSize(800, 600))
	b.w.Show()
	b.c = b.w.Canvas()
	t.Cleanup(b.w.Close)
	return b
}

func (b *findBox) apply(evs ...app.Event) {
	for _, ev := range evs {
		b.tr.apply(ev)
	}
	b.tr.list.Sync()
}

func (b *findBox) notices(n int, text func(i int) string) {
	for i := 0; i < n; i++ {
		b.tr.addNotice(text(i))
	}
	b.tr.list.Sync()
}

// markedRow is the row showMatch marked, or -1.
func markedRow(t *transcript) int {
	if t.found == nil {
		return -1
	}
	return t.found.row
}

func shiftKey(c fyne.Canvas, down bool) {
	k, ok := c.Focused().(desktop.Keyable)
	if !ok {
		return
	}
	if down {
		k.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	} else {
		k.KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	}
}

// Typing gives the count; Enter/Down and Shift+Enter/Up step round the
// matches; Esc closes the bar and takes the mark away.
func TestFindBarTypingAndStepping(t *testing.T) {
	b := newFindBox(t)
	b.notices(6, func(i int) string { return []string{"an apple", "a pear", "APPLE pie", "plum", "apple tart", "fig"}[i] })
	if b.f.object().Visible() {
		t.Fatal("the bar shows before Ctrl+F")
	}
	b.f.open(b.c)
	if !b.f.object().Visible() || b.c.Focused() != fyne.Focusable(b.f.entry) {
		t.Fatalf("open: shown %v, focus %T", b.f.object().Visible(), b.c.Focused())
	}
	typeRunes(b.c, "apple")
	if got := strings.Join(b.queries, "|"); got != "a|ap|app|appl|apple" {
		t.Errorf("queries %q", got)
	}
	expect := func(what, count string, row int) {
		t.Helper()
		if b.f.count.Text != count || markedRow(b.tr) != row {
			t.Errorf("%s: %q on row %d, want %q on row %d", what, b.f.count.Text, markedRow(b.tr), count, row)
		}
	}
	expect("typed", "1 of 3", 0)
	press(b.c, fyne.KeyReturn)
	expect("Enter", "2 of 3", 2)
	press(b.c, fyne.KeyDown)
	expect("Down", "3 of 3", 4)
	press(b.c, fyne.KeyReturn)
	expect("Enter past the last", "1 of 3", 0)
	press(b.c, fyne.KeyUp)
	expect("Up past the first", "3 of 3", 4)
	shiftKey(b.c, true)
	press(b.c, fyne.KeyReturn)
	shiftKey(b.c, false)
	expect("Shift+Enter", "2 of 3", 2)
	if got := fmt.Sprint(b.steps); got != "[false false false true true]" {
		t.Errorf("steps %s", got)
	}
	test.Tap(b.f.next)
	expect("the next button", "3 of 3", 4)
	test.Tap(b.f.prev)
	expect("the previous button", "2 of 3", 2)

	// Typing on narrows the search; the match stays while it matches.
	typeRunes(b.c, " pie")
	expect("narrowed", "1 of 1", 2)
	typeRunes(b.c, "s")
	expect("no match", "No matches", -1)
	if !b.f.next.Disabled() || !b.f.prev.Disabled() {
		t.Error("the step buttons work with no match")
	}
	for range "apple pies" {
		press(b.c, fyne.KeyBackspace)
	}
	expect("empty", "", -1)
	press(b.c, fyne.KeyReturn) // nothing to find
	if len(b.steps) != 7 {
		t.Errorf("an empty query stepped (%d steps)", len(b.steps))
	}

	typeRunes(b.c, "PLUM")
	expect("upper case", "1 of 1", 3)
	press(b.c, fyne.KeyEscape)
	if b.f.object().Visible() || b.closes != 1 || markedRow(b.tr) != -1 || b.c.Focused() != nil {
		t.Errorf("Esc: shown %v, %d closes, mark on %d, focus %T", b.f.object().Visible(), b.closes, markedRow(b.tr), b.c.Focused())
	}

	// Opened again, the text is selected; the window finds it again.
	asked := len(b.queries)
	b.f.open(b.c)
	if len(b.queries) != asked {
		t.Errorf("open reported the query (%d queries)", len(b.queries))
	}
	b.f.onQuery(b.f.query())
	if b.f.entry.SelectedText() != "PLUM" || b.f.query() != "PLUM" || markedRow(b.tr) != 3 {
		t.Errorf("opened again: selected %q, mark on %d", b.f.entry.SelectedText(), markedRow(b.tr))
	}
	typeRunes(b.c, "fig") // replaces the selection
	expect("typed over the selection", "1 of 1", 5)
	// Ctrl+F in the bar selects the text again.
	b.f.entry.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyF, Modifier: fyne.KeyModifierControl})
	if b.f.entry.SelectedText() != "fig" {
		t.Errorf("Ctrl+F selected %q", b.f.entry.SelectedText())
	}
	test.Tap(b.f.shut)
	if b.f.object().Visible() || b.closes != 2 {
		t.Error("the close button did not close the bar")
	}
	// close (the window's) hides it without onClose.
	b.f.open(b.c)
	b.f.close()
	if b.f.object().Visible() || b.closes != 2 || b.c.Focused() != nil {
		t.Error("close called onClose or left the keyboard in the hidden bar")
	}
}

func TestFindBarResult(t *testing.T) {
	f := newFindBar(nil, nil, nil)
	tests := []struct {
		q          string
		cur, total int
		want       string
		steps      bool
	}{
		{"", 0, 0, "", false},
		{"", 1, 3, "", false},
		{"x", 0, 0, "No matches", false},
		{"x", 3, 17, "3 of 17", true},
		{"x", 0, 17, "17 matches", true},
		{"x", 1, 1, "1 of 1", true},
	}
	for _, tc := range tests {
		f.entry.SetText(tc.q)
		f.setResult(tc.cur, tc.total)
		if f.count.Text != tc.want || f.next.Disabled() == tc.steps {
			t.Errorf("%q %d of %d: %q (steps %v)", tc.q, tc.cur, tc.total, f.count.Text, !f.next.Disabled())
		}
	}
}

// everyKind is a turn with a row of every kind (the retry row last: it
// ends when the API answers).
func everyKind() []app.Event {
	long := strings.Repeat("ok line\n", 45) + "HIDDEN past the lines a card shows\n"
	return []app.Event{
		{Kind: app.EvPrompt, Text: "Fix the failing ÉCOLE tests"},                                     // 0 user
		{Kind: app.EvThinking, BlockID: "t", Text: "Run the suite first, then read cart.go"},          // 1 thinking
		{Kind: app.EvText, BlockID: "a", Text: "I'll run the tests to see **what fails** in Σίσυφος"}, // 2 assistant
		{Kind: app.EvToolCall, Tool: &app.ToolCall{ID: "1", Name: "Bash", Summary: "go test ./...",
			Input: "{\n  \"command\": \"go test ./...\",\n  \"description\": \"Run every package's tests\"\n}"}}, // 3 tool
		{Kind: app.EvToolResult, Tool: &app.ToolCall{ID: "1", Result: "FAIL shop/cart 0.2s\n" + long, IsError: true}},
		{Kind: app.EvToolCall, Tool: &app.ToolCall{ID: "2", Name: "Write", Summary: "/srv/shared/money.go",
			Diff: &app.FileDiff{Path: "/srv/shared/money.go", Summary: "money.go: 3 lines added"}}}, // 4 tool
		{Kind: app.EvToolResult, Tool: &app.ToolCall{ID: "2", Denial: "blocked: permission channel closed", Grantable: true, IsError: true}},
		{Kind: app.EvNotice, Text: "Resuming with the \u212Aelvin sign"},                                                                           // 5 notice
		{Kind: app.EvError, Err: &app.ErrorInfo{Title: "API error 529", Detail: "Anthropic's API is overloaded.", Hint: "Try again in a minute."}}, // 6 error
		{Kind: app.EvGrant, Grant: &app.GrantInfo{ID: "g1", Text: "Saved Bash(npm test:*) to /w/.claude/settings.local.json"}},                     // 7 grant
		{Kind: app.EvTurnEnd, Turn: &app.TurnInfo{CostUSD: 0.04, InputTokens: 12840, OutputTokens: 912}},                                           // 8 turn
		{Kind: app.EvPrompt, Text: "again"},                                                              // 9 user
		{Kind: app.EvText, BlockID: "b", Text: "Half an answer"},                                         // 10 assistant
		{Kind: app.EvTurnEnd, Turn: &app.TurnInfo{Incomplete: true, InputTokens: 7}},                     // 11 incomplete, 12 turn
		{Kind: app.EvTurnEnd, Turn: &app.TurnInfo{Stopped: true, Note: "The process was ended."}},        // 13 stopped
		{Kind: app.EvRetry, Retry: &app.RetryInfo{Text: "Retrying in 8 s — attempt 3 of 10 (HTTP 529)"}}, // 14 retry
	}
}

func TestFindMatchesEveryRowKind(t *testing.T) {
	b := newFindBox(t)
	b.apply(everyKind()...)
	if got := kinds(b.tr); got != "user thinking assistant tool tool notice error grant turn user assistant incomplete turn stopped retry" {
		t.Fatalf("rows %q", got)
	}
	tests := []struct {
		q    string
		rows []int
	}{
		{"", nil},
		{"failing école", []int{0}},      // a prompt, folded
		{"CART.GO", []int{1}},            // thinking
		{"what fails", []int{2}},         // an answer (its text)
		{"ΣΊΣΥΦΟΣ", []int{2}},            // final sigma folds with sigma
		{"bash", []int{3, 7}},            // a tool's name; a grant
		{"go test ./", []int{3}},         // a tool's summary and input
		{"every package", []int{3}},      // a tool's input
		{"fail shop/cart", []int{3}},     // a tool's result
		{"HIDDEN past", nil},             // past the lines a card shows
		{"3 lines added", []int{4}},      // a diff's summary
		{"channel closed", []int{4}},     // a denial
		{"kelvin", []int{5}},             // the Kelvin sign folds with k
		{"error 529", []int{6}},          // an error's title
		{"overloaded", []int{6}},         // an error's detail
		{"in a minute", []int{6}},        // an error's hint
		{"settings.local", []int{7}},     // a grant
		{"12840", nil},                   // a turn's figures are not searched
		{"answer incomplete", []int{11}}, // the marker
		{"process was ended", []int{13}}, // a stop's note
		{"stopped by you", []int{13}},
		{"attempt 3 of 10", []int{14}}, // the retry row
		{"t", []int{0, 1, 2, 3, 4, 5, 6, 7, 11, 13, 14}},
		{"nowhere at all", nil},
	}
	for _, tc := range tests {
		if got := b.tr.matches(tc.q); !slices.Equal(got, tc.rows) {
			t.Errorf("matches(%q) = %v, want %v", tc.q, got, tc.rows)
		}
	}
}

func TestFindFoldQuery(t *testing.T) {
	tests := []struct {
		q, s string
		want bool
	}{
		{"", "anything", false},
		{"abc", "xxABCxx", true},
		{"abc", "xxABxx", false},
		{"ab", "a", false},
		{"K", "\u212A", true},
		{"\u212A", "k", true},
		{"s", "ſ", true},
		{"ǅ", "ǆ", true},
		{"straße", "STRASSE", false}, // simple folding only
		{"été", "ÉTÉ", true},
		{"日本", "こんにちは日本語", true},
		{"本日", "こんにちは日本語", false},
		{"a\nb", "A\nB", true},
		{"x", "\xff\xfex", true}, // invalid UTF-8 is passed over
		{"é", "e\u0301", false},  // no normalisation
		{"ok", strings.Repeat("o", 1000) + "k", true},
		{"a1", "xA1", true}, // the anchor (the digit) is not the first rune
		{"a1", "1a1", true},
		{"a1", "1", false},      // nothing before the anchor
		{"ü1", "Ü1", true},      // a two-byte rune before the anchor
		{"\u212A1", "k1", true}, // a three-byte rune folding to a one-byte one
		{"k1", "\u212A1", true},
		{"xé1z", "XÉ1Z", true},
		{"xé1z", "XÉ1", false},
	}
	for _, tc := range tests {
		q := newFoldQuery(tc.q)
		if got := q.in(tc.s); got != tc.want {
			t.Errorf("%q in %q = %v, want %v", tc.q, tc.s, got, tc.want)
		}
	}
}

// showMatch scrolls the row into view and marks it, over later layouts,
// until showMatch(-1).
func TestFindShowMatch(t *testing.T) {
	b := newFindBox(t)
	b.notices(2000, func(i int) string { return fmt.Sprintf("notice %d", i) })
	l := b.tr.list
	mark := func() (fyne.CanvasObject, bool) {
		for _, o := range l.content.Objects {
			if o == fyne.CanvasObject(b.tr.found.rect) {
				return o, true
			}
		}
		return nil, false
	}
	if got := b.tr.matches("NOTICE 1500"); !slices.Equal(got, []int{1500}) {
		t.Fatalf("matches %v", got)
	}
	for _, row := range []int{1500, 3, 1999, 1000} {
		b.tr.showMatch(row)
		if !l.rowInView(row) {
			t.Fatalf("row %d not in view (offset %v)", row, l.Offset())
		}
		o, bound := l.visible[row]
		m, marked := mark()
		if !bound || !marked || m.Position() != o.Position().AddXY(1, 1) || m.Size() != o.Size().SubtractWidthHeight(2, 2) || markedRow(b.tr) != row {
			t.Fatalf("row %d: bound %v, marked %v", row, bound, marked)
		}
	}
	// The list goes on: the mark stays on its row, in view or not.
	b.notices(50, func(i int) string { return "later" })
	l.ScrollToTop()
	if _, marked := mark(); marked || markedRow(b.tr) != 1000 {
		t.Error("the mark shows away from its row")
	}
	b.tr.showMatch(1000)
	if _, marked := mark(); !marked {
		t.Error("the mark is gone after scrolling")
	}
	b.tr.showMatch(-1)
	if _, marked := mark(); marked || markedRow(b.tr) != -1 {
		t.Error("showMatch(-1) left the mark")
	}
	l.Sync()
	if _, marked := mark(); marked {
		t.Error("the mark came back")
	}
	b.tr.showMatch(5000) // no such row
	if markedRow(b.tr) != -1 {
		t.Error("a row that is not there is marked")
	}
}

// A row put in above the mark (the incomplete-answer marker) moves it
// down with its row.
func TestFindMarkMovesWithItsRow(t *testing.T) {
	b := newFindBox(t)
	b.apply(app.Event{Kind: app.EvPrompt, Text: "go"}, app.Event{Kind: app.EvText, BlockID: "a", Text: "half"},
		app.Event{Kind: app.EvNotice, Text: "the marked notice"})
	b.tr.showMatch(2)
	b.apply(app.Event{Kind: app.EvTurnEnd, Turn: &app.TurnInfo{Incomplete: true}})
	if got := kinds(b.tr); got != "user assistant incomplete notice turn" {
		t.Fatalf("rows %q", got)
	}
	if markedRow(b.tr) != 3 {
		t.Errorf("mark on row %d, want 3", markedRow(b.tr))
	}
}

// A new search starts from the view: the first match from its top down.
func TestFindStartsFromTheView(t *testing.T) {
	b := newFindBox(t)
	b.notices(3000, func(i int) string {
		if i%100 == 0 {
			return fmt.Sprintf("needle %d", i)
		}
		return "hay"
	})
	b.tr.list.ScrollToRow(1550)
	top := b.tr.list.firstInView()
	cur, total := b.st.search(b.tr, "needle")
	if total != 30 || markedRow(b.tr) != (top+99)/100*100 || cur != markedRow(b.tr)/100+1 {
		t.Errorf("top %d: match %d (%d of %d)", top, markedRow(b.tr), cur, total)
	}
	// Past the last match, the last one (nearest above).
	b.tr.list.ScrollToBottom()
	b.st.clear(b.tr)
	if cur, total := b.st.search(b.tr, "needle"); cur != 30 || total != 30 || markedRow(b.tr) != 2900 {
		t.Errorf("at the end: %d of %d on row %d", cur, total, markedRow(b.tr))
	}
	// Rows added since the search are stepped to.
	b.notices(1, func(int) string { return "needle late" })
	if cur, total := b.st.step(b.tr, false); cur != 31 || total != 31 || markedRow(b.tr) != 3000 {
		t.Errorf("a new row: %d of %d on row %d", cur, total, markedRow(b.tr))
	}
}

// findRows is a long transcript: turns of a prompt, a streamed answer of
// paragraphs, tool calls with results, notices — n rows.
func findRows(n int) *transcript {
	tr := newTranscript()
	para := "Let me look at **cart.go** and run the tests again; the totals are rounded before the discount is applied, which is why the test expects 9.99 and sees 10.00.\n\n"
	for i := 0; len(tr.entries) < n; i++ {
		id := fmt.Sprint(i)
		tr.apply(app.Event{Kind: app.EvPrompt, Text: "Fix the failing cart tests, turn " + id})
		tr.apply(app.Event{Kind: app.EvText, BlockID: id, Text: para + para + para + "Done."})
		tr.apply(app.Event{Kind: app.EvToolCall, Tool: &app.ToolCall{ID: id, Name: "Bash", Summary: "go test ./...",
			Input: "{\n  \"command\": \"go test ./...\"\n}"}})
		tr.apply(app.Event{Kind: app.EvToolResult, Tool: &app.ToolCall{ID: id, Result: "ok  shop/cart 0.004s\nok  shop/money 0.002s\n"}})
		tr.apply(app.Event{Kind: app.EvNotice, Text: "resuming"})
	}
	tr.entries = tr.entries[:n]
	return tr
}

// BenchmarkFind100k searches 100,000 rows: a query that matches a
// row in five, one that matches one row, one that matches none, and one
// that is not ASCII.
func BenchmarkFind100k(b *testing.B) {
	test.NewTempApp(b)
	tr := findRows(100_000)
	for _, q := range []struct{ name, q string }{
		{"many", "Discount"}, {"one", "turn 12345"}, {"none", "left-pad"}, {"unicode", "Σίσυφος"},
	} {
		b.Run(q.name, func(b *testing.B) {
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				n = len(tr.matches(q.q))
			}
			b.ReportMetric(float64(n), "matches")
		})
	}
}

// TestFindGoldenImages renders the bar over a transcript, its match
// marked, in both themes (testdata/find_light.png, find_dark.png).
func TestFindGoldenImages(t *testing.T) {
	for _, v := range themeVariants {
		t.Run(v.name, func(t *testing.T) {
			b := newFindBox(t)
			fyne.CurrentApp().Settings().SetTheme(latchTheme(v.v))
			b.w.Resize(fyne.NewSize(560, 220))
			b.notices(3, func(i int) string {
				return []string{"Resuming the session", "Saved the grant to settings.local.json", "Resuming with the grant"}[i]
			})
			b.f.open(b.c)
			typeRunes(b.c, "resuming")
			press(b.c, fyne.KeyReturn)
			if b.f.count.Text != "2 of 2" {
				t.Fatalf("count %q", b.f.count.Text)
			}
			test.AssertImageMatches(t, "find_"+v.name+".png", b.c.Capture())
		})
	}
}
