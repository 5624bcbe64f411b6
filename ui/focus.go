package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
)

// The transcript's keyboard. Its rows are virtualized, so Fyne's focus
// chain, which walks the widgets that exist, sees only the rows in view.
// The list itself is therefore one stop in the chain, and inside it a
// focus of its own moves over every row that has actions (tool cards,
// grant rows, error cards), in view or not:
//
//   - Tab / Shift+Tab: the next / previous action, on to the next /
//     previous row with actions; past either end, on along the window's
//     chain as if the list were one widget.
//   - Down / Up: the next / previous row with actions (its first action);
//     Right / Left: the next / previous action of the row.
//   - Space / Enter: the focused action, as a click.
//   - Esc: back to the prompt.
//   - PgUp / PgDn / Home / End (and Ctrl+Home / Ctrl+End): scroll.
//
// The focused row is outlined (theme.ColorNameFocus) and scrolled into view
// (bound and measured, wherever it was); its focused action is drawn as a
// focused widget. Entering the list focuses the last row with actions in
// view (else the nearest above the view, else below), or the row focused
// before if it is still in view. Moving from a row that scrolled out of
// view starts again from the view.

// listFocus is a vlist's keyboard (vlist.keys).
type listFocus struct {
	l *vlist
	// actionable reports whether row id may have actions, from its data
	// alone (rows out of view have no widgets). Its view is the judge: a
	// row whose view shows no action is passed over.
	actionable func(id int) bool
	escape     func() // Esc: leave the list

	on    bool // the list has the keyboard
	shift bool // Shift is down: Tab goes back
	row   int  // the focused row, -1 none
	act   int  // its focused action
	ring  *canvas.Rectangle
	lit   fyne.Focusable // the action drawn focused
}

func newListFocus(l *vlist, actionable func(int) bool, escape func()) *listFocus {
	f := &listFocus{l: l, actionable: actionable, escape: escape, row: -1}
	f.ring = canvas.NewRectangle(color.Transparent)
	f.ring.StrokeWidth = 2
	f.ring.CornerRadius = theme.InputRadiusSize()
	l.keys = f
	return f
}

// viewActions are the actions a row's view shows, in Tab order: the visible,
// enabled widgets that take a tap and the focus, in its containers.
func viewActions(o fyne.CanvasObject) []fyne.Focusable {
	var out []fyne.Focusable
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if o == nil || !o.Visible() {
			return
		}
		switch w := o.(type) {
		case *rowView:
			walk(w.box)
			return
		case actionHolder:
			out = append(out, w.focusActions()...)
			return
		case *fyne.Container:
			for _, c := range w.Objects {
				walk(c)
			}
			return
		}
		f, ok := o.(fyne.Focusable)
		if _, tappable := o.(fyne.Tappable); !ok || !tappable {
			return
		}
		if d, ok := o.(fyne.Disableable); ok && d.Disabled() {
			return
		}
		out = append(out, f)
	}
	walk(o)
	return out
}

// actionHolder is a widget of a row that has actions inside its own
// renderer (which viewActions does not walk): it lists them, in Tab order.
type actionHolder interface {
	focusActions() []fyne.Focusable
}

// actions of row id, which must be bound (in view).
func (f *listFocus) actions(id int) []fyne.Focusable {
	o, ok := f.l.visible[id]
	if !ok {
		return nil
	}
	return viewActions(o)
}

// reset: the rows are gone.
func (f *listFocus) reset() {
	f.row, f.act = -1, 0
	f.unlight()
}

// enter picks the row to focus as the list gets the keyboard.
func (f *listFocus) enter() {
	if f.row >= 0 && f.l.rowInView(f.row) && len(f.actions(f.row)) > 0 {
		f.act = min(f.act, len(f.actions(f.row))-1)
		f.show()
		return
	}
	f.row, f.act = -1, 0
	n := f.l.Len()
	first := f.l.firstInView()
	if first < 0 {
		f.show()
		return
	}
	last := first
	for last+1 < n && f.l.rowInView(last+1) {
		last++
	}
	// The last in view, else the nearest above, else the nearest below.
	if !f.seek(last, -1, 0, func(id int) bool { return id >= first }) &&
		!f.seek(first-1, -1, 0, nil) {
		f.seek(last+1, 1, 0, nil)
	}
	f.show()
}

// seek focuses the first row from id on, going dir, that has actions
// (its first action, or its last when act < 0), while within (nil: any)
// holds; it reports whether it found one.
func (f *listFocus) seek(id, dir, act int, within func(int) bool) bool {
	for n := f.l.Len(); id >= 0 && id < n; id += dir {
		if within != nil && !within(id) {
			return false
		}
		if !f.actionable(id) {
			continue
		}
		f.l.ScrollToRow(id)
		acts := f.actions(id)
		if len(acts) == 0 {
			continue
		}
		f.row, f.act = id, act
		if act < 0 || act >= len(acts) {
			f.act = len(acts) - 1
		}
		return true
	}
	return false
}

// step moves to the next (dir 1) or previous (-1) action, across rows; it
// reports false past the end.
func (f *listFocus) step(dir int) bool {
	if f.row < 0 || !f.l.rowInView(f.row) {
		// Nothing focused, or the focused row scrolled away: from the view.
		return f.fromView(dir, dir)
	}
	f.l.ScrollToRow(f.row)
	if acts := f.actions(f.row); f.act+dir >= 0 && f.act+dir < len(acts) {
		f.act += dir
		f.show()
		return true
	}
	act := 0
	if dir < 0 {
		act = -1
	}
	if f.seek(f.row+dir, dir, act, nil) {
		f.show()
		return true
	}
	return false
}

// fromView focuses the first row with actions from the top of the view
// down (dir 1) or from its bottom up (-1), else the nearest on the other
// side.
func (f *listFocus) fromView(dir, act int) bool {
	first := f.l.firstInView()
	if first < 0 {
		return false
	}
	last := first
	for last+1 < f.l.Len() && f.l.rowInView(last+1) {
		last++
	}
	if act > 0 {
		act = 0
	}
	var ok bool
	if dir > 0 {
		ok = f.seek(first, 1, act, nil) || f.seek(first-1, -1, act, nil)
	} else {
		ok = f.seek(last, -1, act, nil) || f.seek(last+1, 1, act, nil)
	}
	f.show()
	return ok
}

// moveRow focuses the next (1) or previous (-1) row with actions; at
// either end the focus stays.
func (f *listFocus) moveRow(dir int) {
	if f.row < 0 || !f.l.rowInView(f.row) {
		f.fromView(dir, 0)
		return
	}
	if !f.seek(f.row+dir, dir, 0, nil) {
		f.l.ScrollToRow(f.row)
	}
	f.show()
}

// moveAct focuses the next (1) or previous (-1) action of the row.
func (f *listFocus) moveAct(dir int) {
	if f.row < 0 {
		return
	}
	f.l.ScrollToRow(f.row)
	if acts := f.actions(f.row); f.act+dir >= 0 && f.act+dir < len(acts) {
		f.act += dir
	}
	f.show()
}

// activate does what a click on the focused action does.
func (f *listFocus) activate() {
	if f.row < 0 {
		return
	}
	f.l.ScrollToRow(f.row)
	acts := f.actions(f.row)
	if f.act >= len(acts) {
		return
	}
	if t, ok := acts[f.act].(fyne.Tappable); ok {
		t.Tapped(&fyne.PointEvent{})
	}
	f.show()
}

// leave moves the keyboard on along the window's chain, past the rows'
// own widgets, as if the list were one widget.
func (f *listFocus) leave(forward bool) {
	c := fyne.CurrentApp().Driver().CanvasForObject(f.l)
	if c == nil {
		return
	}
	content := f.l.content
	content.Hidden = true // the chain passes over what is hidden
	if forward {
		c.FocusNext()
	} else {
		c.FocusPrevious()
	}
	content.Hidden = false
}

// show lays the rows out again with the outline where it now belongs.
func (f *listFocus) show() {
	f.l.layoutRows()
}

// decorate is called by the list's layout with the rows in view: it adds
// the outline of the focused row (of the whole view when no row is
// focused) and draws the focused action as focused.
func (f *listFocus) decorate(objs []fyne.CanvasObject, w, view float32) []fyne.CanvasObject {
	if !f.on {
		f.unlight()
		return objs
	}
	f.ring.StrokeColor = theme.Color(theme.ColorNameFocus)
	if f.row < 0 {
		f.unlight()
		f.ring.Move(fyne.NewPos(1, f.l.scroll.Offset.Y+1))
		f.ring.Resize(fyne.NewSize(w-2, view-2))
		return append(objs, f.ring)
	}
	o, ok := f.l.visible[f.row]
	if !ok {
		f.unlight()
		return objs
	}
	f.ring.Move(o.Position().AddXY(1, 1))
	f.ring.Resize(o.Size().SubtractWidthHeight(2, 2))
	var target fyne.Focusable
	if acts := viewActions(o); len(acts) > 0 {
		f.act = max(0, min(f.act, len(acts)-1))
		target = acts[f.act]
	}
	if target != f.lit {
		f.unlight()
		if target != nil {
			target.FocusGained()
			f.lit = target
		}
	}
	return append(objs, f.ring)
}

func (f *listFocus) unlight() {
	if f.lit != nil {
		f.lit.FocusLost()
		f.lit = nil
	}
}

func (f *listFocus) key(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyTab:
		dir := 1
		if f.shift || shiftDown() {
			dir = -1
		}
		if !f.step(dir) {
			f.leave(dir > 0)
		}
	case fyne.KeyDown:
		f.moveRow(1)
	case fyne.KeyUp:
		f.moveRow(-1)
	case fyne.KeyRight:
		f.moveAct(1)
	case fyne.KeyLeft:
		f.moveAct(-1)
	case fyne.KeySpace, fyne.KeyReturn, fyne.KeyEnter:
		f.activate()
	case fyne.KeyEscape:
		if f.escape != nil {
			f.escape()
		}
	case fyne.KeyPageUp:
		f.l.PageUp()
	case fyne.KeyPageDown:
		f.l.PageDown()
	case fyne.KeyHome:
		f.l.ScrollToTop()
	case fyne.KeyEnd:
		f.l.ScrollToBottom()
	}
}

// shiftDown reports whether the driver says Shift is held (a Tab that
// reaches a widget with Shift already down comes with no KeyDown of it).
func shiftDown() bool {
	d, ok := fyne.CurrentApp().Driver().(desktop.Driver)
	return ok && d.CurrentKeyModifiers()&fyne.KeyModifierShift != 0
}

// The list is a focusable widget when it has a keyboard.

func (l *vlist) FocusGained() {
	if l.keys != nil {
		l.keys.on = true
		l.keys.enter()
	}
}

func (l *vlist) FocusLost() {
	if l.keys != nil {
		l.keys.on, l.keys.shift = false, false
		l.keys.unlight()
		l.layoutRows()
	}
}

func (l *vlist) TypedRune(rune) {}

func (l *vlist) TypedKey(ev *fyne.KeyEvent) {
	if l.keys != nil {
		l.keys.key(ev)
	}
}

// AcceptsTab: Tab moves within the list, which leaves it past its ends.
func (l *vlist) AcceptsTab() bool { return l.keys != nil }

func (l *vlist) KeyDown(ev *fyne.KeyEvent) {
	if l.keys != nil && (ev.Name == desktop.KeyShiftLeft || ev.Name == desktop.KeyShiftRight) {
		l.keys.shift = true
	}
}

func (l *vlist) KeyUp(ev *fyne.KeyEvent) {
	if l.keys != nil && (ev.Name == desktop.KeyShiftLeft || ev.Name == desktop.KeyShiftRight) {
		l.keys.shift = false
	}
}

// actionable: the rows that may show actions — tool cards (Details,
// Grant…, Copy…), grants not undone (Undo), errors (Copy, Retry).
func (t *transcript) actionable(id int) bool {
	e := t.entries[id]
	switch e.kind {
	case rowTool, rowError:
		return true
	case rowGrant:
		return e.grant != nil && !e.grant.Undone
	}
	return false
}

// scrollKey scrolls the transcript for PgUp, PgDn, Home and End; it
// reports whether it used the key. Nothing scrolls under a dialog.
func (mw *mainWindow) scrollKey(ev *fyne.KeyEvent) bool {
	if mw.modals.active() {
		return false
	}
	l := mw.tr.list
	switch ev.Name {
	case fyne.KeyPageUp:
		l.PageUp()
	case fyne.KeyPageDown:
		l.PageDown()
	case fyne.KeyHome:
		l.ScrollToTop()
	case fyne.KeyEnd:
		l.ScrollToBottom()
	default:
		return false
	}
	return true
}

// setupKeys gives the window its keyboard (each tab's transcript is a stop
// in the Tab order: newTab), and PgUp/PgDn/Home/End with nothing focused,
// Ctrl+Home/Ctrl+End wherever the focus is, and PgUp/PgDn in a prompt that
// has nothing to page through scroll the transcript.
func (mw *mainWindow) setupKeys() {
	c := mw.win.Canvas()
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) { mw.scrollKey(ev) })
	for _, k := range []fyne.KeyName{fyne.KeyHome, fyne.KeyEnd} {
		c.AddShortcut(&desktop.CustomShortcut{KeyName: k, Modifier: fyne.KeyModifierControl}, func(fyne.Shortcut) {
			mw.scrollKey(&fyne.KeyEvent{Name: k})
		})
	}
	mw.prompt.scrollKey = mw.scrollKey
}
