package ui

import (
	"fmt"
	"image/color"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Find in the transcript: the bar the window shows above the transcript
// (Ctrl+F), the search over the transcript's rows, and the mark on the
// row of the current match.
//
// The bar only reports: onQuery on every change of its text, onStep for
// the next or previous match, onClose when the person closes it. The
// window searches (transcript.matches, cheap enough for every key) and
// shows the match (transcript.showMatch), then says where it is
// (findBar.setResult).

// findBar is the find bar. UI goroutine only.
type findBar struct {
	onQuery func(q string)
	onStep  func(back bool)
	onClose func()

	root   *fyne.Container
	line   *fyne.Container // the field, the count and the buttons
	tail   *fyne.Container // the count and the buttons
	entry  *findEntry
	count  *widget.Label
	prev   *kButton
	next   *kButton
	shut   *kButton
	canvas fyne.Canvas // where open put the keyboard
}

// newFindBar builds the bar, hidden. onQuery: the text changed; onStep:
// Enter or Down (next match), Shift+Enter or Up (back: the previous);
// onClose: Esc or the close button (the bar has closed itself already).
func newFindBar(onQuery func(q string), onStep func(back bool), onClose func()) *findBar {
	f := &findBar{onQuery: onQuery, onStep: onStep, onClose: onClose}
	f.entry = &findEntry{bar: f}
	f.entry.ExtendBaseWidget(f.entry)
	f.entry.SetPlaceHolder("Find in the transcript")
	f.entry.OnChanged = func(q string) {
		if f.onQuery != nil {
			f.onQuery(q)
		}
	}
	f.count = widget.NewLabel("")
	f.count.Importance = widget.LowImportance
	// The step buttons leave the keyboard in the field, to type on.
	f.prev = newKButton("", theme.MoveUpIcon(), f, func() { f.step(true); f.refocus() })
	f.next = newKButton("", theme.MoveDownIcon(), f, func() { f.step(false); f.refocus() })
	f.shut = newKButton("", theme.CancelIcon(), f, f.dismiss)
	for _, b := range []*kButton{f.prev, f.next, f.shut} {
		b.Importance = widget.LowImportance
	}
	f.prev.Disable()
	f.next.Disable()
	f.tail = container.NewHBox(f.count, f.prev, f.next, f.shut)
	f.line = container.NewBorder(nil, nil, widget.NewIcon(theme.SearchIcon()), f.tail, f.entry)
	f.root = container.NewVBox(container.NewPadded(f.line), widget.NewSeparator())
	f.root.Hide()
	return f
}

// object is the bar, for the window to put above the transcript.
func (f *findBar) object() fyne.CanvasObject { return f.root }

// open shows the bar, selects its text and gives it the keyboard. It
// reports nothing: the window searches query() again itself, for the
// transcript may have changed since the bar was last open.
func (f *findBar) open(c fyne.Canvas) {
	if !f.root.Visible() {
		f.root.Show()
		f.canvas = c
		f.relayoutParent()
	}
	f.canvas = c
	if c != nil {
		c.Focus(f.entry)
	}
	f.entry.TypedShortcut(&fyne.ShortcutSelectAll{})
}

// close hides the bar and takes the keyboard out of it; it does not call
// onClose.
func (f *findBar) close() {
	if f.canvas != nil && f.canvas.Focused() == fyne.Focusable(f.entry) {
		f.canvas.Unfocus()
	}
	if f.root.Visible() {
		f.root.Hide()
		f.relayoutParent()
	}
}

// relayoutParent lays out the container the bar is in again, now that the bar
// comes or goes: it takes room, or gives it back, at once (the driver's
// own pass may leave a hidden bar's room empty).
func (f *findBar) relayoutParent() {
	if f.canvas == nil {
		return
	}
	if p := containerHolding(f.canvas.Content(), f.root); p != nil {
		relayoutBox(p)
	}
}

// containerHolding is the container among o and the containers in it (not
// inside widgets) that holds child, or nil.
func containerHolding(o fyne.CanvasObject, child fyne.CanvasObject) *fyne.Container {
	c, ok := o.(*fyne.Container)
	if !ok {
		return nil
	}
	for _, x := range c.Objects {
		if x == child {
			return c
		}
	}
	for _, x := range c.Objects {
		if p := containerHolding(x, child); p != nil {
			return p
		}
	}
	return nil
}

// refocus gives the field the keyboard back while the bar shows.
func (f *findBar) refocus() {
	if f.canvas != nil && f.root.Visible() {
		f.canvas.Focus(f.entry)
	}
}

// dismiss is the person closing the bar: Esc, or its close button.
func (f *findBar) dismiss() {
	f.close()
	if f.onClose != nil {
		f.onClose()
	}
}

// step asks for the next match (back: the previous), when there is
// something to find.
func (f *findBar) step(back bool) {
	if f.entry.Text != "" && f.onStep != nil {
		f.onStep(back)
	}
}

// setResult says where the current match is: "3 of 17" (cur counts from
// 1), "17 matches" when none is current (cur < 1), "No matches", or
// nothing for an empty query.
func (f *findBar) setResult(cur, total int) {
	text, imp := "", widget.LowImportance
	switch {
	case f.entry.Text == "":
	case total <= 0:
		text, imp = "No matches", widget.DangerImportance
	case cur < 1 || cur > total:
		text = plural(total, "match", "matches")
	default:
		text = fmt.Sprintf("%d of %d", cur, total)
	}
	if text != f.count.Text || imp != f.count.Importance {
		f.count.Importance = imp
		f.count.SetText(text)
		// The field gives the count the room it needs.
		relayoutBox(f.tail)
		relayoutBox(f.line)
	}
	if total > 0 && f.entry.Text != "" {
		f.prev.Enable()
		f.next.Enable()
	} else {
		f.prev.Disable()
		f.next.Disable()
	}
}

// query is the bar's text.
func (f *findBar) query() string { return f.entry.Text }

// key: the bar's buttons pass it Esc (close) and Enter (next).
func (f *findBar) key(ev *fyne.KeyEvent) bool {
	if ev.Name == fyne.KeyEscape {
		f.dismiss()
		return true
	}
	return false
}

func (f *findBar) rune(rune) bool { return false }

// findEntry is the bar's text field: Enter and Down step forward,
// Shift+Enter and Up back, Esc closes the bar, Ctrl+F selects the text.
type findEntry struct {
	shiftEntry
	bar *findBar
}

func (e *findEntry) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyEscape:
		e.bar.dismiss()
	case fyne.KeyReturn, fyne.KeyEnter:
		e.bar.step(e.shift || shiftDown())
	case fyne.KeyDown:
		e.bar.step(false)
	case fyne.KeyUp:
		e.bar.step(true)
	default:
		e.Entry.TypedKey(ev)
	}
}

// TypedShortcut: Ctrl+F in the bar selects its text again (a focused
// field takes the window's shortcuts from it).
func (e *findEntry) TypedShortcut(s fyne.Shortcut) {
	if cs, ok := s.(*desktop.CustomShortcut); ok && cs.KeyName == fyne.KeyF &&
		cs.Modifier&(fyne.KeyModifierControl|fyne.KeyModifierSuper) != 0 && cs.Modifier&fyne.KeyModifierShift == 0 {
		e.Entry.TypedShortcut(&fyne.ShortcutSelectAll{})
		return
	}
	e.Entry.TypedShortcut(s)
}

// findState is the search in one transcript: the rows that match and
// which of them is current. The window keeps one per transcript and wires
// the bar to it:
//
//	onQuery: bar.setResult(st.search(tr, q))
//	onStep:  bar.setResult(st.step(tr, back))
//	onClose: st.clear(tr)
type findState struct {
	q    string
	rows []int // the rows that match, in order
	at   int   // index in rows of the current match; -1 or past the end: none
}

// current is the row of the current match, or -1.
func (s *findState) current() int {
	if s.at < 0 || s.at >= len(s.rows) {
		return -1
	}
	return s.rows[s.at]
}

// search finds q in t and shows a match: the current one while it still
// matches (typing on narrows the search), else the first from the top of
// the view down, else the last above it. It returns the match's place
// (from 1) and the number of matches, as setResult takes them.
func (s *findState) search(t *transcript, q string) (cur, total int) {
	prev := s.current()
	s.q, s.rows, s.at = q, t.matches(q), -1
	if len(s.rows) == 0 {
		t.showMatch(-1)
		return 0, 0
	}
	if i, ok := slices.BinarySearch(s.rows, prev); ok {
		s.at = i
	} else {
		i, _ := slices.BinarySearch(s.rows, max(0, t.list.firstInView()))
		s.at = min(i, len(s.rows)-1)
	}
	t.showMatch(s.rows[s.at])
	return s.at + 1, len(s.rows)
}

// step shows the next match (back: the previous), round from the last
// to the first and back. It searches again first, so rows added since
// the last search are found.
func (s *findState) step(t *transcript, back bool) (cur, total int) {
	prev := s.current()
	s.rows = t.matches(s.q)
	n := len(s.rows)
	if n == 0 {
		s.at = -1
		t.showMatch(-1)
		return 0, 0
	}
	switch i, found := slices.BinarySearch(s.rows, prev); {
	case prev < 0 && back:
		s.at = n - 1
	case prev < 0:
		s.at = 0
	case back:
		s.at = (i - 1 + n) % n
	case found:
		s.at = (i + 1) % n
	default:
		s.at = i % n // the row after the one that no longer matches
	}
	t.showMatch(s.rows[s.at])
	return s.at + 1, n
}

// clear forgets the search and takes the mark away.
func (s *findState) clear(t *transcript) {
	s.q, s.rows, s.at = "", nil, -1
	t.showMatch(-1)
}

// foldQuery is a query ready for case-insensitive search with Unicode
// simple folding: a rune matches every rune of its fold orbit (k, K and
// the Kelvin sign). Searching allocates nothing: it looks for the
// query's rarest rune with strings.IndexByte and matches the rest around
// each place found.
type foldQuery struct {
	runes []rune // the query, each rune folded (foldRune)
	// anchor is the query's rune looked for first (the rarest in text, by
	// the bytes that start it), lead the distinct first bytes of the
	// runes that fold to it: a match has one of them at its anchor.
	anchor int
	lead   []byte
}

func newFoldQuery(q string) foldQuery {
	var fq foldQuery
	if q == "" {
		return fq
	}
	fq.runes = make([]rune, 0, utf8.RuneCountInString(q))
	for _, r := range q {
		fq.runes = append(fq.runes, foldRune(r))
	}
	best := -1
	for k, r := range fq.runes {
		lead := leadBytes(r, nil)
		score := 0
		for _, b := range lead {
			score += byteWeight(b)
		}
		if best < 0 || score < best {
			best, fq.anchor, fq.lead = score, k, lead
		}
	}
	return fq
}

// leadBytes appends to out the distinct first bytes of the runes that
// fold to r.
func leadBytes(r rune, out []byte) []byte {
	for f := r; ; {
		var buf [utf8.UTFMax]byte
		utf8.EncodeRune(buf[:], f)
		if !slices.Contains(out, buf[0]) {
			out = append(out, buf[0])
		}
		if f = unicode.SimpleFold(f); f == r {
			return out
		}
	}
}

// byteWeight is roughly how common byte b is in a transcript (English
// prose, code, paths), for picking the rune to look for first.
func byteWeight(b byte) int {
	switch {
	case b == ' ':
		return 100
	case 'a' <= b && b <= 'z':
		return int(letterWeights[b-'a'])
	case 'A' <= b && b <= 'Z':
		return int(letterWeights[b-'A'])/8 + 1
	case '0' <= b && b <= '9':
		return 6
	case b == '\n' || b == '.' || b == '"':
		return 10
	case b == ',' || b == '/' || b == '-' || b == ':' || b == '_' || b == '(' || b == ')':
		return 5
	case b == 0xe2: // dashes, quotes, arrows, ellipses
		return 4
	}
	return 2
}

// letterWeights are the letters' frequencies in English text, roughly
// (per cent times four).
var letterWeights = [26]uint8{
	33, 6, 11, 17, 50, 9, 8, 24, 28, 1, 3, 16, 10, 27, 30, 8, 1, 24, 25, 36, 11, 4, 9, 1, 8, 1,
}

// foldRune is r's fold orbit's smallest rune: two runes match
// case-insensitively when their foldRune is the same.
func foldRune(r rune) rune {
	if r < utf8.RuneSelf {
		if 'a' <= r && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}
	low := r
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		low = min(low, f)
	}
	return low
}

// in reports whether s contains the query (never, for an empty query).
func (q *foldQuery) in(s string) bool {
	switch len(q.lead) {
	case 0:
		return false
	case 1:
		c := q.lead[0]
		for i := 0; i < len(s); i++ {
			j := strings.IndexByte(s[i:], c)
			if j < 0 {
				return false
			}
			i += j
			if q.around(s, i) {
				return true
			}
		}
		return false
	}
	// The next place of each lead byte; the nearest is tried first.
	var next [8]int
	n := min(len(q.lead), len(next))
	for k := 0; k < n; k++ {
		next[k] = indexByteFrom(s, q.lead[k], 0)
	}
	for {
		k := 0
		for j := 1; j < n; j++ {
			if next[j] < next[k] {
				k = j
			}
		}
		i := next[k]
		if i >= len(s) {
			return false
		}
		if q.around(s, i) {
			return true
		}
		next[k] = indexByteFrom(s, q.lead[k], i+1)
	}
}

// indexByteFrom is the index of c in s at or after from, else len(s).
func indexByteFrom(s string, c byte, from int) int {
	if from >= len(s) {
		return len(s)
	}
	if j := strings.IndexByte(s[from:], c); j >= 0 {
		return from + j
	}
	return len(s)
}

// around reports whether the query matches s with its anchor at byte
// at: the anchor and what follows it from there on, what comes before it
// back from there.
func (q *foldQuery) around(s string, at int) bool {
	i := at
	for _, want := range q.runes[q.anchor:] {
		if i >= len(s) {
			return false
		}
		if c := s[i]; c < utf8.RuneSelf {
			if foldASCII(c) != want {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if foldRune(r) != want {
			return false
		}
		i += size
	}
	i = at
	for k := q.anchor - 1; k >= 0; k-- {
		if i <= 0 {
			return false
		}
		if c := s[i-1]; c < utf8.RuneSelf {
			if foldASCII(c) != q.runes[k] {
				return false
			}
			i--
			continue
		}
		r, size := utf8.DecodeLastRuneInString(s[:i])
		if foldRune(r) != q.runes[k] {
			return false
		}
		i -= size
	}
	return true
}

// foldASCII is foldRune for an ASCII byte.
func foldASCII(c byte) rune {
	if 'a' <= c && c <= 'z' {
		c -= 'a' - 'A'
	}
	return rune(c)
}

// shownHead is the first n bytes of s (what a row shows of a long text).
func shownHead(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// shownLines is the first n lines of s.
func shownLines(s string, n int) string {
	i := 0
	for ; n > 0; n-- {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			return s
		}
		i += j + 1
	}
	return s[:i]
}

// stoppedHead is what a stopped turn's row says first (rows.go).
const stoppedHead = "Stopped by you"

// matches returns the rows whose shown text contains q, case-insensitive
// (Unicode simple folding), in order: prompts, answers, thinking,
// notices, retries and the incomplete-answer marker by their text, error
// cards by title, detail and hint, tool cards by name, summary, the
// diff's summary, the denial, the input and the result's lines a card
// shows, grants by their text, a stopped turn by its words. Only what a
// row shows of a long text is searched; turn lines (figures) are not. It
// allocates only the result.
func (t *transcript) matches(q string) []int {
	if q == "" {
		return nil
	}
	fq := newFoldQuery(q)
	var out []int
	for i, e := range t.entries {
		if e.matches(&fq) {
			out = append(out, i)
		}
	}
	return out
}

func (e *entry) matches(q *foldQuery) bool {
	switch e.kind {
	case rowUser, rowNotice, rowRetry, rowIncomplete:
		return q.in(shownHead(e.text.s, softRowText))
	case rowAssistant, rowThinking:
		return q.in(shownHead(e.text.s, maxRowText))
	case rowError:
		return q.in(e.title) || q.in(shownHead(e.text.s, softRowText)) ||
			(e.fail != nil && q.in(shownHead(e.fail.hint, softRowText)))
	case rowTool:
		tc := e.tool
		if tc == nil {
			return false
		}
		return q.in(tc.Name) || q.in(tc.Summary) || q.in(tc.Denial) ||
			(tc.Diff != nil && q.in(tc.Diff.Summary)) ||
			q.in(tc.Input) || q.in(shownLines(tc.Result, maxResultLines))
	case rowGrant:
		return e.grant != nil && q.in(e.grant.Text)
	case rowStopped:
		return q.in(stoppedHead) || (e.turn != nil && q.in(e.turn.Note))
	}
	return false
}

// findMark is the mark on the row of the current match.
type findMark struct {
	row  int // -1: none
	rect *canvas.Rectangle
}

// Tint of the match's mark: the warning colour at this alpha over the
// row, with an outline in it.
const tintMatch = 0x30

// showMatch scrolls row into view and marks it until the next showMatch;
// showMatch(-1) takes the mark away.
func (t *transcript) showMatch(row int) {
	if t.found == nil {
		t.found = &findMark{row: -1, rect: canvas.NewRectangle(color.Transparent)}
		t.found.rect.StrokeWidth = 2
		t.found.rect.CornerRadius = theme.InputRadiusSize()
		t.list.mark = t.markMatch
	}
	if row < 0 || row >= len(t.entries) {
		t.found.row = -1
		t.list.layoutRows()
		return
	}
	t.found.row = row
	t.list.ScrollToRow(row)
	t.list.layoutRows() // the mark, when the row was in view already
}

// markMatch is the list's mark hook: the rows in view, and the match's
// mark over its row when that is one of them.
func (t *transcript) markMatch(objs []fyne.CanvasObject) []fyne.CanvasObject {
	m := t.found
	if m == nil || m.row < 0 {
		return objs
	}
	o, ok := t.list.visible[m.row]
	if !ok {
		return objs
	}
	m.rect.FillColor = tint(theme.ColorNameWarning, tintMatch)
	m.rect.StrokeColor = theme.Color(theme.ColorNameWarning)
	m.rect.Move(o.Position().AddXY(1, 1)) // within the row, as the focus outline
	m.rect.Resize(o.Size().SubtractWidthHeight(2, 2))
	m.rect.Refresh()
	return append(objs, m.rect)
}
