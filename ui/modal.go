package ui

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

// modalStack is one window's dialogs, each over the one before, and its
// keyboard: the top dialog gets every key that no widget of its own takes,
// and nothing reaches the window behind. A dialog opened from another (a
// confirmation, a folder chooser) is that dialog's child: taking a dialog
// down takes its children down first, so nothing outlives what it was
// asked for. When the last dialog goes, the window's own key handlers come
// back and onEmpty gives the keyboard back. UI goroutine only.
type modalStack struct {
	win      fyne.Window
	open     []*modal // bottom to top, in the order shown
	prevKey  func(*fyne.KeyEvent)
	prevRune func(rune)
	onEmpty  func()
	keys     bool // the canvas's key handlers are the stack's (prevKey and prevRune saved)
	held     int  // inside hold: the stack is being refilled, do not hand the keyboard back
	closed   bool // the window is gone: nothing shows any more
}

// modal is one dialog on a stack. Its constructor builds it (newModal, then
// the dialog's content); whoever wants it shown calls Show. Hide takes it
// down without an answer; Dismiss takes it down the way its Esc does.
type modal struct {
	stack   *modalStack
	parent  *modal
	dlg     dialog.Dialog
	width   float32        // 0: the dialog sizes itself
	first   fyne.Focusable // has the keyboard when it shows
	onKey   func(*fyne.KeyEvent) bool
	onRune  func(rune) bool
	onShown func() // after it is up and laid out at its width
	cancel  func() // Dismiss; nil: Hide
	shown   bool
	closed  bool
	owner   any // the dialog that built it, for tests
}

// newModal starts building a dialog on st, as a child of parent when that
// is not nil (then on parent's stack).
func (st *modalStack) newModal(parent *modal, owner any, width float32) *modal {
	if parent != nil {
		st = parent.stack
	}
	return &modal{stack: st, parent: parent, owner: owner, width: width}
}

// active reports whether a dialog is up.
func (st *modalStack) active() bool { return len(st.open) > 0 }

// top is the dialog that has the keyboard, or nil.
func (st *modalStack) top() *modal {
	if len(st.open) == 0 {
		return nil
	}
	return st.open[len(st.open)-1]
}

// hold runs f, in which dialogs go down and others come up, without
// handing the keyboard back to the window in between.
func (st *modalStack) hold(f func()) {
	st.held++
	f()
	st.held--
	st.emptied()
}

// emptied gives the window its keys back once no dialog is left.
func (st *modalStack) emptied() {
	if len(st.open) > 0 || st.held > 0 || !st.keys {
		return
	}
	c := st.win.Canvas()
	c.SetOnTypedKey(st.prevKey)
	c.SetOnTypedRune(st.prevRune)
	st.prevKey, st.prevRune, st.keys = nil, nil, false
	if st.onEmpty != nil {
		st.onEmpty()
	}
}

// close takes every dialog down for good: the window is closing.
func (st *modalStack) close() {
	st.closed = true
	for len(st.open) > 0 {
		st.open[0].Hide()
	}
}

func (m *modal) key(ev *fyne.KeyEvent) bool {
	if m.closed || m.onKey == nil {
		return false
	}
	return m.onKey(ev)
}

func (m *modal) rune(r rune) bool {
	if m.closed || m.onRune == nil {
		return false
	}
	return m.onRune(r)
}

// Show puts the dialog up, over every other, with the keyboard on its first
// control. A dialog shows once; one whose parent went down never shows.
func (m *modal) Show() {
	st := m.stack
	if m.shown || m.closed {
		return
	}
	if st.closed || (m.parent != nil && m.parent.closed) {
		m.closed = true
		return
	}
	c := st.win.Canvas()
	if !st.keys {
		st.keys = true
		st.prevKey, st.prevRune = c.OnTypedKey(), c.OnTypedRune()
		c.SetOnTypedKey(func(ev *fyne.KeyEvent) {
			if t := st.top(); t != nil {
				t.key(ev)
			}
		})
		c.SetOnTypedRune(func(r rune) {
			if t := st.top(); t != nil {
				t.rune(r)
			}
		})
	}
	st.open = append(st.open, m)
	m.shown = true
	m.dlg.Show()
	if w := m.width; w > 0 {
		if ws := c.Size(); ws.Width > 0 && w > ws.Width-40 {
			w = ws.Width - 40
		}
		m.dlg.Resize(fyne.NewSize(w, m.dlg.MinSize().Height))
	}
	if m.first != nil {
		c.Focus(m.first)
	}
	if m.onShown != nil {
		m.onShown()
	}
}

// Hide takes the dialog down, its children first, without an answer. The
// keyboard goes back to the dialog below, which keeps its own focus, or,
// when none is left, to the window.
func (m *modal) Hide() {
	if m.closed {
		return
	}
	m.closed = true
	st := m.stack
	for {
		i := slices.IndexFunc(st.open, func(o *modal) bool { return o.parent == m })
		if i < 0 {
			break
		}
		st.open[i].Hide()
	}
	i := slices.Index(st.open, m)
	if i < 0 {
		return // never shown
	}
	st.open = slices.Delete(st.open, i, i+1)
	m.dlg.Hide()
	// Fyne takes every overlay above a removed one down with it: those of
	// the dialogs still open go back up, in their order.
	for _, o := range st.open[i:] {
		o.dlg.Hide()
		o.dlg.Show()
		if o.first != nil {
			st.win.Canvas().Focus(o.first)
		}
	}
	st.emptied()
}

// Dismiss takes the dialog down as its Esc does (for a question, that is
// its answer to Esc).
func (m *modal) Dismiss() {
	if m.closed {
		return
	}
	if m.cancel != nil && m.shown {
		m.cancel()
		return
	}
	m.Hide()
}

// pending is one question waiting for, or showing, its dialog.
type pending struct {
	open   func(done func(app.Decision)) *modal // builds the dialog
	ch     chan app.Decision
	m      *modal
	over   bool
	notice string // notification text when the window is not focused
}

// modalQueue is the main window's dialog stack, which also shows the
// questions of the session one at a time, in the order asked. UI goroutine
// only.
type modalQueue struct {
	modalStack
	cur    *pending
	queue  []*pending
	onShow func(p *pending)
}

func (q *modalQueue) push(p *pending) {
	if q.cur != nil {
		q.queue = append(q.queue, p)
		return
	}
	q.start(p)
}

func (q *modalQueue) start(p *pending) {
	q.cur = p
	p.m = p.open(func(d app.Decision) {
		if p.over {
			return
		}
		p.over = true
		p.ch <- d
		q.end(p)
	})
	p.m.Show()
	if q.onShow != nil {
		q.onShow(p)
	}
}

// end takes p's dialog down, with whatever it opened, and shows the next
// question, if any, without the prompt box getting the keyboard between.
func (q *modalQueue) end(p *pending) {
	q.hold(func() {
		p.m.Hide()
		q.cur = nil
		if len(q.queue) > 0 {
			next := q.queue[0]
			q.queue = q.queue[1:]
			q.start(next)
		}
	})
}

// withdraw takes a question away unanswered (its ctx was cancelled).
func (q *modalQueue) withdraw(p *pending) {
	if p.over {
		return
	}
	p.over = true
	if q.cur == p {
		q.end(p)
		return
	}
	if i := slices.Index(q.queue, p); i >= 0 {
		q.queue = slices.Delete(q.queue, i, i+1)
	}
}

// newYesNo builds a question over parent (nil: on its own on st): body,
// then the no button (focused first: the safe answer) and the yes button,
// marked dangerous. ok runs on yes only, and not for a question that went
// away with its parent; Esc and no do nothing. Enter presses the focused
// button, else no.
func (st *modalStack) newYesNo(parent *modal, width float32, title string, body []fyne.CanvasObject, no, yes string, yesIcon fyne.Resource, ok func()) *modal {
	m := st.newModal(parent, nil, width)
	var noBtn *kButton
	m.onKey = func(ev *fyne.KeyEvent) bool {
		switch ev.Name {
		case fyne.KeyEscape:
			m.Dismiss()
			return true
		case fyne.KeyReturn, fyne.KeyEnter:
			if f, isBtn := m.stack.win.Canvas().Focused().(*kButton); isBtn {
				f.OnTapped()
			} else {
				noBtn.OnTapped()
			}
			return true
		}
		return false
	}
	m.onRune = func(rune) bool { return false }
	noBtn = newKButton(no, nil, m, m.Hide)
	yesBtn := newKButton(yes, yesIcon, m, func() {
		if m.closed {
			return // its question went away
		}
		m.Hide()
		ok()
	})
	yesBtn.Importance = widget.DangerImportance
	content := container.NewVBox(append(body, container.NewHBox(layout.NewSpacer(), noBtn, yesBtn))...)
	m.dlg = dialog.NewCustomWithoutButtons(title, content, st.win)
	m.first = noBtn
	return m
}
