package ui

import (
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// vlist is a virtualized list of variable-height rows. Only the rows in
// view exist as widgets; a row's height starts as an estimate and is
// corrected from its MinSize when it is shown. Heights live in a Fenwick
// tree, so appending and scrolling stay O(log n) at any history length.
type vlist struct {
	widget.BaseWidget

	create   func() fyne.CanvasObject
	update   func(id int, o fyne.CanvasObject)
	estimate func(id int, width float32) float32

	heights heightIndex
	scroll  *container.Scroll
	content *fyne.Container

	visible   map[int]fyne.CanvasObject
	dirty     map[int]bool // rows whose data changed since they were last bound
	pool      []fyne.CanvasObject
	width     float32 // width the heights were measured at
	inLayout  bool
	follow    bool // keep the last row in view while rows are added
	rowsCache []fyne.CanvasObject

	lastTotal, lastOffset float32

	// keys is the keyboard of a focusable list (focus.go); nil: the list
	// never takes the focus.
	keys *listFocus
	// mark, when set, adds what marks rows in view (the find bar's match,
	// find.go) to the rows placed, under the keyboard's outline.
	mark func(objs []fyne.CanvasObject) []fyne.CanvasObject
}

func newVList(create func() fyne.CanvasObject, update func(int, fyne.CanvasObject), estimate func(int, float32) float32) *vlist {
	l := &vlist{create: create, update: update, estimate: estimate,
		visible: map[int]fyne.CanvasObject{}, dirty: map[int]bool{}, follow: true}
	l.content = container.New(&vlistLayout{l: l})
	l.scroll = container.NewVScroll(l.content)
	l.scroll.OnScrolled = func(fyne.Position) {
		l.follow = l.atBottom()
		l.layoutRows()
	}
	l.ExtendBaseWidget(l)
	return l
}

func (l *vlist) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(l.scroll)
}

// Len is the number of rows.
func (l *vlist) Len() int { return l.heights.len() }

// Append adds n rows at the end; they are bound and measured when shown.
func (l *vlist) Append(n int) {
	for i := 0; i < n; i++ {
		id := l.heights.len()
		h := float32(40)
		if l.estimate != nil {
			h = l.estimate(id, l.width)
		}
		l.heights.push(float64(h))
	}
}

// RefreshItem marks row id as changed; it is re-bound at the next layout.
func (l *vlist) RefreshItem(id int) { l.dirty[id] = true }

// Reset drops every row.
func (l *vlist) Reset() {
	for id, o := range l.visible {
		l.pool = append(l.pool, o)
		delete(l.visible, id)
	}
	l.heights = heightIndex{}
	l.dirty = map[int]bool{}
	l.follow = true
	l.scroll.Offset = fyne.Position{}
	if l.keys != nil {
		l.keys.reset()
	}
}

func (l *vlist) atBottom() bool {
	view := l.scroll.Size().Height
	return float64(l.scroll.Offset.Y)+float64(view) >= l.heights.total()-2
}

// Sync re-binds changed rows, re-measures them, and keeps the bottom in view
// when the list is following new rows. Call it once per batch of changes.
func (l *vlist) Sync() {
	l.layoutRows()
}

// ScrollToBottom shows the last row and follows new ones.
func (l *vlist) ScrollToBottom() {
	l.follow = true
	l.layoutRows()
}

// Offset is how far the list is scrolled down; maxOffset the farthest it
// scrolls.
func (l *vlist) Offset() float32 { return l.scroll.Offset.Y }

func (l *vlist) maxOffset() float32 {
	return float32(math.Max(0, l.heights.total()-float64(l.scroll.Size().Height)))
}

// ScrollToTop shows the first row and stops following new ones.
func (l *vlist) ScrollToTop() {
	l.follow = false
	l.scrollTo(0)
}

// ScrollBy scrolls dy down (up when negative), within the ends. Scrolling
// up stops following new rows; scrolling down to the end follows them.
func (l *vlist) ScrollBy(dy float32) {
	l.follow = false
	l.scrollTo(l.scroll.Offset.Y + dy)
	if dy > 0 && l.atBottom() {
		l.follow = true
	}
}

// pageStep is what PgUp and PgDn scroll: the height in view but a line,
// so the line at the edge stays in view.
func (l *vlist) pageStep() float32 {
	return max(l.scroll.Size().Height-lineHeight(), lineHeight())
}

// PageUp and PageDown scroll by a page.
func (l *vlist) PageUp()   { l.ScrollBy(-l.pageStep()) }
func (l *vlist) PageDown() { l.ScrollBy(l.pageStep()) }

// lineHeight is one line of text in the theme's size.
func lineHeight() float32 {
	return fyne.MeasureText("Mg", theme.TextSize(), fyne.TextStyle{}).Height + theme.LineSpacing()
}

// scrollTo puts offset y at the top of the view, within the ends.
func (l *vlist) scrollTo(y float32) {
	l.scroll.Offset.Y = max(0, min(y, l.maxOffset()))
	l.layoutRows()
}

// rowInView reports whether any of row id is in view.
func (l *vlist) rowInView(id int) bool {
	if id < 0 || id >= l.heights.len() {
		return false
	}
	top := float32(l.heights.offset(id))
	off, view := l.scroll.Offset.Y, l.scroll.Size().Height
	return top < off+view && top+float32(l.heights.at(id)) > off
}

// firstInView is the row at the top of the view (-1: no rows).
func (l *vlist) firstInView() int {
	if l.heights.len() == 0 {
		return -1
	}
	return l.heights.find(float64(l.scroll.Offset.Y))
}

// ScrollToRow scrolls as little as it takes to show row id whole (its top,
// when it is taller than the view), binds it and measures it. Following
// new rows stops unless the row is at the end.
func (l *vlist) ScrollToRow(id int) {
	if id < 0 || id >= l.heights.len() {
		return
	}
	l.follow = false
	for pass := 0; pass < 3; pass++ {
		top := float32(l.heights.offset(id))
		h := float32(l.heights.at(id))
		off, view := l.scroll.Offset.Y, l.scroll.Size().Height
		switch {
		case top < off || h > view:
			off = top
		case top+h > off+view:
			off = top + h - view
		default:
			if _, bound := l.visible[id]; bound && pass > 0 {
				l.follow = l.atBottom()
				return
			}
		}
		l.scrollTo(off) // binds it: its height is measured
	}
	l.follow = l.atBottom()
}

func (l *vlist) layoutRows() {
	if l.inLayout {
		return
	}
	l.inLayout = true
	defer func() { l.inLayout = false }()

	size := l.scroll.Size()
	w, view := size.Width, size.Height
	if w <= 0 || view <= 0 {
		return
	}
	if w != l.width {
		// Wrapped text changes height with width: re-measure what shows.
		l.width = w
		for id := range l.visible {
			l.dirty[id] = true
		}
	}
	n := l.heights.len()
	for pass := 0; pass < 3; pass++ {
		if l.follow {
			l.scroll.Offset.Y = float32(math.Max(0, l.heights.total()-float64(view)))
		}
		if max := float32(math.Max(0, l.heights.total()-float64(view))); l.scroll.Offset.Y > max {
			l.scroll.Offset.Y = max
		}
		if !l.placeRows(n, w, view) {
			break
		}
	}
	objs := l.rowsCache
	if l.mark != nil {
		objs = l.mark(objs)
	}
	if l.keys != nil {
		objs = l.keys.decorate(objs, w, view)
	}
	l.content.Objects = objs
	total := float32(l.heights.total())
	l.content.Resize(fyne.NewSize(w, fyne.Max(total, view)))
	if total != l.lastTotal || l.scroll.Offset.Y != l.lastOffset {
		// The scroll bar and the content offset follow the new geometry.
		// ScrollToOffset refreshes the bars without re-rendering every row,
		// which Scroll.Refresh would do.
		l.lastTotal, l.lastOffset = total, l.scroll.Offset.Y
		want := l.scroll.Offset
		l.scroll.Offset.Y = -1
		l.scroll.ScrollToOffset(want)
	}
	if c := fyne.CurrentApp().Driver().CanvasForObject(l); c != nil {
		c.Refresh(l.content)
	}
}

// placeRows binds and positions the rows in view; it reports whether any
// height changed (so the caller places them again).
func (l *vlist) placeRows(n int, w, view float32) bool {
	off := float64(l.scroll.Offset.Y)
	changed := false
	keep := map[int]bool{}
	l.rowsCache = l.rowsCache[:0]
	if n > 0 {
		first := l.heights.find(off)
		y := l.heights.offset(first)
		for id := first; id < n && y < off+float64(view); id++ {
			o, ok := l.visible[id]
			if !ok {
				o = l.take()
				l.visible[id] = o
				l.dirty[id] = true
			}
			h := float32(l.heights.at(id))
			if l.dirty[id] {
				l.update(id, o)
				delete(l.dirty, id)
				o.Resize(fyne.NewSize(w, h))
				if mh := o.MinSize().Height; mh != h {
					l.heights.set(id, float64(mh))
					h = mh
					changed = true
				}
			}
			o.Move(fyne.NewPos(0, float32(y)))
			o.Resize(fyne.NewSize(w, h))
			keep[id] = true
			l.rowsCache = append(l.rowsCache, o)
			y += float64(h)
		}
	}
	for id, o := range l.visible {
		if !keep[id] {
			delete(l.visible, id)
			l.pool = append(l.pool, o)
		}
	}
	return changed
}

func (l *vlist) take() fyne.CanvasObject {
	if k := len(l.pool); k > 0 {
		o := l.pool[k-1]
		l.pool = l.pool[:k-1]
		return o
	}
	return l.create()
}

// vlistLayout lets the scroll container size and lay out the rows.
type vlistLayout struct{ l *vlist }

func (v *vlistLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(0, float32(v.l.heights.total()))
}

func (v *vlistLayout) Layout([]fyne.CanvasObject, fyne.Size) { v.l.layoutRows() }
