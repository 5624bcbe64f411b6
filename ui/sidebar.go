package ui

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

// The history sidebar: the sessions Claude Code kept for the window's
// folder, newest first, one row each (title; when, prompts, refused
// calls), in a widget.List (rows of one height, only those in view exist),
// with a filter on the titles and a New session button.
//
// The list has a keyboard of its own rather than widget.List's, whose
// focused row cannot be read or set from outside: Up/Down, Home/End and
// PgUp/PgDn move the outlined row, Enter or Space opens it, Esc calls
// onEscape. A click opens the row clicked, the chosen row stays tinted,
// and every row of a session open in a tab has a dot and a bold title.

// historyWidth is the panel's least width.
const historyWidth = 260

// maxTitleRunes is the most of a title a row looks at; the label cuts it
// to its width with an ellipsis.
const maxTitleRunes = 200

// refusedHint says what a row's "⚠ N refused" means; it shows under the
// list while the pointer is on the mark or the keyboard is on its row.
const refusedHint = "⚠ refused: the session ended with refused tool calls that can be granted."

// historyPanel is the sidebar. UI goroutine only.
type historyPanel struct {
	open       func(app.SessionSummary)
	newSession func()
	// onEscape, when set, is called for Esc in the list (or in an empty
	// filter): the window gives the keyboard back to the prompt.
	onEscape func()
	// now is the clock the rows' dates are told against.
	now func() time.Time

	root      fyne.CanvasObject
	folderLbl *widget.Label
	newBtn    *widget.Button
	filter    *historyFilter
	list      *historyList
	msg       *widget.Label   // an empty list, or the folder not listed, in words
	hint      *widget.Label   // refusedHint, while it applies
	body      *fyne.Container // laid out again as the message or the hint comes and goes
	template  *historyRow     // measures a row's height

	folder string
	items  []app.SessionSummary // newest first, as set
	shown  []int                // indices into items of the rows, after the filter
	query  string
	fq     foldQuery
	opened map[string]bool // sessions open in a tab
	chosen string          // ID of the session last chosen here (tinted)
	cur    int             // the keyboard's row, -1 none
	err    string
	day    int  // the day (now) the dates were last shown for
	hover  bool // the pointer is on a refused mark
	// setting is set while setFilter writes the filter field, whose
	// change would set the filter again.
	setting bool
}

// newHistoryPanel builds the panel. open is called (UI goroutine) when
// the person chooses a session: a click, or Enter or Space on the
// keyboard's row; newSession when they press New session.
func newHistoryPanel(open func(app.SessionSummary), newSession func()) *historyPanel {
	h := &historyPanel{open: open, newSession: newSession, now: time.Now, cur: -1}
	h.folderLbl = widget.NewLabel("")
	h.folderLbl.TextStyle.Bold = true
	h.folderLbl.Truncation = fyne.TextTruncateEllipsis
	h.newBtn = widget.NewButtonWithIcon("New session", theme.ContentAddIcon(), func() {
		if h.newSession != nil {
			h.newSession()
		}
	})
	h.filter = &historyFilter{h: h}
	h.filter.ExtendBaseWidget(h.filter)
	h.filter.SetPlaceHolder("Filter by title")
	h.filter.OnChanged = func(q string) {
		if !h.setting {
			h.setFilter(q)
		}
	}
	h.list = &historyList{h: h}
	h.list.Length = func() int { return len(h.shown) }
	h.list.CreateItem = func() fyne.CanvasObject { return newHistoryRow(h) }
	h.list.UpdateItem = h.bind
	h.list.OnSelected = func(id widget.ListItemID) {
		// A click: open it, and leave the list's own selection empty (our
		// rows tint the chosen one), so that a click on the same row opens
		// it again.
		s := h.item(id)
		if s == nil {
			return
		}
		h.cur, h.chosen = id, s.ID
		h.list.UnselectAll() // binds the rows again
		h.updateHint()
		if h.open != nil {
			h.open(*s)
		}
	}
	h.list.ExtendBaseWidget(h.list)
	h.template = newHistoryRow(h)
	h.msg = widget.NewLabel("")
	h.msg.Wrapping = fyne.TextWrapWord
	h.msg.Hide()
	h.hint = caption(refusedHint)
	h.hint.Wrapping = fyne.TextWrapWord
	h.hint.Hide()

	head := container.NewVBox(
		caption("History"),
		container.NewBorder(nil, nil, nil, h.newBtn, h.folderLbl),
		h.filter,
		h.msg)
	width := canvas.NewRectangle(color.Transparent)
	width.SetMinSize(fyne.NewSize(historyWidth, 0))
	h.body = container.NewBorder(container.NewPadded(head), h.hint, nil, nil, h.list)
	h.root = container.NewStack(width, h.body)
	h.showState()
	return h
}

// object is the panel, for the left of the window.
func (h *historyPanel) object() fyne.CanvasObject { return h.root }

// focus gives the list the keyboard.
func (h *historyPanel) focus(c fyne.Canvas) {
	if c != nil {
		c.Focus(h.list)
	}
}

// set shows folder's sessions, newest first (the panel keeps items: it
// must not change afterwards). Set again for the same folder, the chosen
// session, the keyboard's row and the rows in view stay with their
// sessions wherever they moved (at the top, the top stays in view, so
// new sessions show); the same sessions again cost a comparison. Another
// folder starts afresh at the top. An error set before is cleared.
func (h *historyPanel) set(folder string, items []app.SessionSummary) {
	same := folder == h.folder
	day := calendarDay(h.now())
	if same && h.err == "" && day == h.day && sameSummaries(h.items, items) {
		h.items = items
		return
	}
	h.day = day
	curID := h.idAt(h.cur)
	off := h.list.GetScrollOffset()
	pitch := h.pitch()
	top := -1
	var topID string
	if same && off > 0 && pitch > 0 {
		top = int(off / pitch)
		topID = h.idAt(top)
	}
	if !same {
		h.chosen, curID, h.cur = "", "", -1
	}
	h.folder, h.items, h.err = folder, items, ""
	name := ""
	if folder != "" {
		name = app.VisibleLine(filepath.Base(folder))
	}
	if h.folderLbl.Text != name {
		h.folderLbl.SetText(name)
	}
	h.refilter(curID)
	if h.list.focused && h.cur < 0 && len(h.shown) > 0 {
		h.cur = 0 // the list took the keyboard before it had rows: Enter opens the newest
	}
	h.list.Refresh()
	switch {
	case !same:
		h.list.ScrollToOffset(0)
	case topID != "":
		if now := h.indexOf(topID); now >= 0 && now != top {
			h.list.ScrollToOffset(off + float32(now-top)*pitch)
		}
	}
	h.showState()
}

// setFilter shows only the sessions whose title contains q, ignoring case
// ("" shows all).
func (h *historyPanel) setFilter(q string) {
	if h.filter.Text != q {
		h.setting = true
		h.filter.SetText(q)
		h.setting = false
	}
	if q == h.query {
		return
	}
	curID := h.idAt(h.cur)
	h.query, h.fq = q, newFoldQuery(q)
	h.refilter(curID)
	h.list.Refresh()
	if h.cur >= 0 {
		h.list.ScrollTo(h.cur)
	} else {
		h.list.ScrollToOffset(0)
	}
	h.showState()
}

// setOpen marks the sessions open in a tab (ids[id] true); the same
// sessions again change nothing.
func (h *historyPanel) setOpen(ids map[string]bool) {
	n := 0
	for id, on := range ids {
		if on {
			if !h.opened[id] {
				n = -1
				break
			}
			n++
		}
	}
	if n == len(h.opened) {
		return
	}
	h.opened = make(map[string]bool, len(ids))
	for id, on := range ids {
		if on {
			h.opened[id] = true
		}
	}
	h.list.Refresh()
}

// setError says, in msg, that the folder's sessions could not be listed
// and why: msg is shown as it is, so the caller words it and makes what
// is untrusted in it visible (app.Visible). The rows listed before, if
// any, stay until the next set, which takes the message away.
func (h *historyPanel) setError(msg string) {
	h.err = msg
	h.showState()
}

// refilter lists the rows the filter lets through and puts the keyboard's
// row back on session curID (else keeps its place).
func (h *historyPanel) refilter(curID string) {
	h.shown = h.shown[:0]
	for i := range h.items {
		if h.query == "" || h.fq.in(h.items[i].Title) {
			h.shown = append(h.shown, i)
		}
	}
	if curID != "" {
		if i := h.indexOf(curID); i >= 0 {
			h.cur = i
			return
		}
	}
	if h.cur >= len(h.shown) {
		h.cur = len(h.shown) - 1
	}
}

// showState says what the list cannot: the folder not listed, no
// sessions, none matching.
func (h *historyPanel) showState() {
	var msg string
	imp := widget.LowImportance
	switch {
	case h.err != "":
		msg, imp = h.err, widget.DangerImportance
	case h.folder == "":
		msg = "No folder chosen."
	case len(h.items) == 0:
		msg = "No sessions in this folder yet."
	case len(h.shown) == 0:
		msg = "No session matches “" + visibleHead(h.query, 40) + "”"
	}
	if h.msg.Text != msg || h.msg.Importance != imp {
		h.msg.Importance = imp
		h.msg.SetText(msg)
	}
	showInBox(h.body, h.msg, msg != "") // the head changes height
	h.updateHint()
}

// item is the session of row id, or nil.
func (h *historyPanel) item(id int) *app.SessionSummary {
	if id < 0 || id >= len(h.shown) {
		return nil
	}
	return &h.items[h.shown[id]]
}

func (h *historyPanel) idAt(id int) string {
	if s := h.item(id); s != nil {
		return s.ID
	}
	return ""
}

// indexOf is the row of session id, or -1.
func (h *historyPanel) indexOf(id string) int {
	for i, k := range h.shown {
		if h.items[k].ID == id {
			return i
		}
	}
	return -1
}

// pitch is the distance between the tops of two rows.
func (h *historyPanel) pitch() float32 {
	return h.template.MinSize().Height + h.list.Theme().Size(theme.SizeNamePadding)
}

// choose opens row id's session and makes it the chosen one.
func (h *historyPanel) choose(id int) {
	s := h.item(id)
	if s == nil {
		return
	}
	h.cur, h.chosen = id, s.ID
	h.list.Refresh()
	h.updateHint()
	if h.open != nil {
		h.open(*s)
	}
}

// moveTo puts the keyboard on row id (within the rows) and in view.
func (h *historyPanel) moveTo(id int) {
	if len(h.shown) == 0 {
		return
	}
	h.cur = max(0, min(id, len(h.shown)-1))
	h.list.ScrollTo(h.cur) // and binds the rows again: the outline moves
	h.updateHint()
}

// inView reports whether row id is whole in view.
func (h *historyPanel) inView(id int) bool {
	if id < 0 || id >= len(h.shown) {
		return false
	}
	p := h.pitch()
	top, off := float32(id)*p, h.list.GetScrollOffset()
	return top >= off-0.5 && top+p-h.list.Theme().Size(theme.SizeNamePadding) <= off+h.list.Size().Height+0.5
}

// firstInView is the first row whole in view (0 when none is), -1 when
// there are no rows.
func (h *historyPanel) firstInView() int {
	if len(h.shown) == 0 {
		return -1
	}
	p := h.pitch()
	if p <= 0 {
		return 0
	}
	id := int(math.Ceil(float64(h.list.GetScrollOffset()/p - 0.01)))
	return max(0, min(id, len(h.shown)-1))
}

// page is how many rows the list shows.
func (h *historyPanel) page() int {
	if p := h.pitch(); p > 0 {
		return max(1, int(h.list.Size().Height/p)-1)
	}
	return 1
}

// key is the list's keyboard.
func (h *historyPanel) key(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyDown:
		h.moveTo(h.cur + 1)
	case fyne.KeyUp:
		h.moveTo(h.cur - 1)
	case fyne.KeyHome:
		h.moveTo(0)
	case fyne.KeyEnd:
		h.moveTo(len(h.shown) - 1)
	case fyne.KeyPageDown:
		h.moveTo(h.cur + h.page())
	case fyne.KeyPageUp:
		h.moveTo(h.cur - h.page())
	case fyne.KeyReturn, fyne.KeyEnter, fyne.KeySpace:
		h.choose(h.cur)
	case fyne.KeyEscape:
		if h.onEscape != nil {
			h.onEscape()
		}
	}
}

// updateHint shows what the refused mark means while the pointer is on
// one or the keyboard is on a row that has one.
func (h *historyPanel) updateHint() {
	s := h.item(h.cur)
	if showInBox(h.body, h.hint, h.hover || (h.list.focused && s != nil && s.Unresolved > 0)) && h.hint.Visible() {
		// Its height is known once it has the panel's width.
		if h.hint.MinSize().Height != h.hint.Size().Height {
			relayoutBox(h.body)
		}
	}
}

// showInBox shows or hides o, laying out box, which holds it, again when that
// changed; it reports whether it did.
func showInBox(box *fyne.Container, o fyne.CanvasObject, show bool) bool {
	if o.Visible() == show {
		return false
	}
	if show {
		o.Show()
	} else {
		o.Hide()
	}
	relayoutBox(box)
	return true
}

// relayoutBox lays box's objects out again (without refreshing them all, as
// box.Refresh would) and has it drawn again.
func relayoutBox(box *fyne.Container) {
	if box.Layout != nil {
		box.Layout.Layout(box.Objects, box.Size())
	}
	canvas.Refresh(box)
}

// bind shows row id in o.
func (h *historyPanel) bind(id widget.ListItemID, o fyne.CanvasObject) {
	if s := h.item(id); s != nil {
		o.(*historyRow).set(s, h.now(), h.opened[s.ID], s.ID == h.chosen, h.list.focused && id == h.cur)
	}
}

// historyList is the sidebar's list with the panel's keyboard.
type historyList struct {
	widget.List
	h       *historyPanel
	focused bool
}

// FocusGained puts the keyboard on its row, if that is in view, else on
// the chosen session's, else on the first row in view: taking the focus
// never scrolls (a click takes it before it opens the row clicked).
func (l *historyList) FocusGained() {
	l.focused = true
	h := l.h
	if !h.inView(h.cur) {
		h.cur = h.indexOf(h.chosen)
		if !h.inView(h.cur) {
			h.cur = h.firstInView()
		}
	}
	l.Refresh()
	h.updateHint()
}

func (l *historyList) FocusLost() {
	l.focused = false
	l.Refresh()
	l.h.updateHint()
}

func (l *historyList) TypedKey(ev *fyne.KeyEvent) { l.h.key(ev) }
func (l *historyList) TypedRune(rune)             {}

// historyFilter is the filter field: Down or Enter go to the list, Esc
// empties it, or, empty, leaves (onEscape).
type historyFilter struct {
	widget.Entry
	h *historyPanel
}

func (e *historyFilter) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyDown, fyne.KeyReturn, fyne.KeyEnter:
		if c := fyne.CurrentApp().Driver().CanvasForObject(e); c != nil && len(e.h.shown) > 0 {
			e.h.cur = 0
			c.Focus(e.h.list)
		}
	case fyne.KeyEscape:
		if e.Text != "" {
			e.SetText("")
		} else if e.h.onEscape != nil {
			e.h.onEscape()
		}
	default:
		e.Entry.TypedKey(ev)
	}
}

// historyRow is one session: its title (a dot and bold while it is open
// in a tab), then when, how many prompts, and its refused calls. Rows are
// reused for other sessions, so set sets every part.
type historyRow struct {
	widget.BaseWidget
	bg      *canvas.Rectangle // the chosen session's tint
	ring    *canvas.Rectangle // the keyboard's outline
	dot     *widget.Label
	title   *widget.Label
	when    *widget.Label
	prompts *widget.Label
	refused *refusedMark
	box     *fyne.Container
	head    *fyne.Container // the dot and the title
	caps    *fyne.Container // the caption line
	// What the labels show, so a row bound again to the same session
	// sets nothing.
	count, unresolved int
}

func newHistoryRow(h *historyPanel) *historyRow {
	r := &historyRow{bg: canvas.NewRectangle(color.Transparent), ring: canvas.NewRectangle(color.Transparent), count: -1, unresolved: -1}
	r.bg.CornerRadius = theme.SelectionRadiusSize()
	r.ring.StrokeWidth = 2
	r.ring.CornerRadius = theme.SelectionRadiusSize()
	r.dot = widget.NewLabel("●")
	r.dot.Importance = widget.HighImportance
	r.dot.Hide()
	r.title = widget.NewLabel("")
	r.title.Truncation = fyne.TextTruncateEllipsis
	r.when = caption("")
	r.prompts = caption("")
	r.refused = newRefusedMark(h)
	r.refused.Hide()
	r.head = container.NewBorder(nil, nil, r.dot, nil, r.title)
	r.caps = container.New(&captionRow{}, r.when, r.prompts, r.refused)
	r.box = container.NewStack(r.bg, container.NewVBox(r.head, r.caps), r.ring)
	r.ExtendBaseWidget(r)
	return r
}

func (r *historyRow) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(r.box) }

// set shows s as of now; open: it is open in a tab; chosen: the session
// chosen last; cursor: the keyboard is on it.
func (r *historyRow) set(s *app.SessionSummary, now time.Time, open, chosen, cursor bool) {
	title, imp, italic := visibleHead(s.Title, maxTitleRunes), widget.MediumImportance, false
	if s.Title == "" {
		title, imp, italic = "(no prompt)", widget.LowImportance, true
	}
	if r.title.Text != title || r.title.Importance != imp || r.title.TextStyle.Bold != open || r.title.TextStyle.Italic != italic {
		r.title.Importance = imp
		r.title.TextStyle = fyne.TextStyle{Bold: open, Italic: italic}
		r.title.SetText(title)
	}
	showInBox(r.head, r.dot, open)
	// The caption line is laid out again when a width in it changed.
	moved := false
	if when := sessionWhen(sessionTime(s), now); r.when.Text != when {
		r.when.SetText(when)
		moved = true
	}
	if r.count != s.Prompts {
		r.count = s.Prompts
		r.prompts.SetText(plural(s.Prompts, "prompt", "prompts"))
		moved = true
	}
	if r.unresolved != s.Unresolved {
		r.unresolved = s.Unresolved
		if s.Unresolved > 0 {
			r.refused.SetText(fmt.Sprintf("⚠ %d refused", s.Unresolved))
			r.refused.Show()
		} else {
			r.refused.Hide()
		}
		moved = true
	}
	if moved {
		relayoutBox(r.caps)
	}
	r.bg.FillColor = color.Transparent
	if chosen {
		r.bg.FillColor = theme.Color(theme.ColorNameSelection)
	}
	r.ring.StrokeColor = color.Transparent
	if cursor {
		r.ring.StrokeColor = theme.Color(theme.ColorNameFocus)
	}
	r.bg.Refresh()
	r.ring.Refresh()
}

// captionRow lays out a row's caption line: the labels side by side at
// their widths, the last cut off at the row's end rather than widening it.
type captionRow struct{}

func (*captionRow) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	x := float32(0)
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		w := min(o.MinSize().Width, max(0, size.Width-x))
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(w, size.Height))
		x += w
	}
}

func (*captionRow) MinSize(objs []fyne.CanvasObject) fyne.Size {
	h := float32(0)
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	return fyne.NewSize(0, h)
}

// refusedMark is a row's "⚠ N refused": in the warning colour, and while
// the pointer is on it the panel says what it means.
type refusedMark struct {
	widget.Label
	h *historyPanel
}

func newRefusedMark(h *historyPanel) *refusedMark {
	m := &refusedMark{h: h}
	m.Importance = widget.WarningImportance
	m.SizeName = theme.SizeNameCaptionText
	m.ExtendBaseWidget(m)
	return m
}

func (m *refusedMark) MouseIn(*desktop.MouseEvent) {
	m.h.hover = true
	m.h.updateHint()
}

func (m *refusedMark) MouseMoved(*desktop.MouseEvent) {}

func (m *refusedMark) MouseOut() {
	m.h.hover = false
	m.h.updateHint()
}

// sessionTime is when a session was last active.
func sessionTime(s *app.SessionSummary) time.Time {
	if s.Updated.IsZero() {
		return s.Started
	}
	return s.Updated
}

// sessionWhen is t as the history says it, in now's time zone: "Today
// 14:02", "Yesterday 09:15", "Mon 14:02" within the week, else
// "3 Dec 2026" ("" for no time).
func sessionWhen(t, now time.Time) string {
	if t.IsZero() {
		return ""
	}
	t = t.In(now.Location())
	switch days := calendarDay(now) - calendarDay(t); {
	case days == 0:
		return "Today " + t.Format("15:04")
	case days == 1:
		return "Yesterday " + t.Format("15:04")
	case days > 1 && days < 7:
		return t.Format("Mon 15:04")
	}
	return t.Format("2 Jan 2006")
}

// calendarDay numbers t's calendar day (in t's zone): consecutive days have
// consecutive numbers.
func calendarDay(t time.Time) int {
	y, m, d := t.Date()
	return int(time.Date(y, m, d, 12, 0, 0, 0, time.UTC).Unix() / 86400)
}

// sameSummaries reports whether a and b list the same sessions, alike in
// every field, in the same order.
func sameSummaries(a, b []app.SessionSummary) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.ID != y.ID || x.Title != y.Title || x.Prompts != y.Prompts || x.Unresolved != y.Unresolved ||
			!x.Updated.Equal(y.Updated) || !x.Started.Equal(y.Started) || x.Path != y.Path ||
			x.Cwd != y.Cwd || x.GitBranch != y.GitBranch || x.Version != y.Version || x.Size != y.Size {
			return false
		}
	}
	return true
}
