package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"

	"github.com/latch-app/latch/app"
)

// modal is a dialog over the main window that owns the keyboard while it is
// up: its widgets pass keys to it, and so does the canvas when nothing in the
// dialog has the focus. Keys never reach the prompt box behind it.
type modal struct {
	win      fyne.Window
	dlg      *dialog.CustomDialog
	first    fyne.Focusable
	onKey    func(*fyne.KeyEvent) bool
	onRune   func(rune) bool
	prevKey  func(*fyne.KeyEvent)
	prevRune func(rune)
	shown    bool
	closed   bool
	onClosed func()
	owner    any // the dialog that built it, for tests and nesting
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

// show puts the dialog up with the focus on its first control.
func (m *modal) show(width float32) {
	c := m.win.Canvas()
	m.prevKey, m.prevRune = c.OnTypedKey(), c.OnTypedRune()
	c.SetOnTypedKey(func(ev *fyne.KeyEvent) { m.key(ev) })
	c.SetOnTypedRune(func(r rune) { m.rune(r) })
	m.dlg.Show()
	if ws := c.Size(); ws.Width > 0 && width > ws.Width-40 {
		width = ws.Width - 40
	}
	m.dlg.Resize(fyne.NewSize(width, m.dlg.MinSize().Height))
	m.shown = true
	if m.first != nil {
		c.Focus(m.first)
	}
}

// close takes the dialog down and gives the keyboard back.
func (m *modal) close() {
	if m.closed {
		return
	}
	m.closed = true
	if m.shown {
		m.dlg.Hide()
		c := m.win.Canvas()
		c.SetOnTypedKey(m.prevKey)
		c.SetOnTypedRune(m.prevRune)
	}
	if m.onClosed != nil {
		m.onClosed()
	}
}

// pending is one question waiting for, or showing, its dialog.
type pending struct {
	open   func(done func(app.Decision)) *modal
	ch     chan app.Decision
	m      *modal
	over   bool
	notice string // notification text when the window is not focused
}

// modalQueue shows one question at a time, in the order asked; it is used
// on the UI goroutine only.
type modalQueue struct {
	cur     *pending
	queue   []*pending
	onShow  func(p *pending)
	onEmpty func()
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
		p.m.close()
		q.next()
	})
	if q.onShow != nil {
		q.onShow(p)
	}
}

func (q *modalQueue) next() {
	q.cur = nil
	if len(q.queue) > 0 {
		p := q.queue[0]
		q.queue = q.queue[1:]
		q.start(p)
		return
	}
	if q.onEmpty != nil {
		q.onEmpty()
	}
}

// withdraw takes a question away unanswered (its ctx was cancelled).
func (q *modalQueue) withdraw(p *pending) {
	if p.over {
		return
	}
	p.over = true
	if q.cur == p {
		p.m.close()
		q.next()
		return
	}
	for i, x := range q.queue {
		if x == p {
			q.queue = append(q.queue[:i], q.queue[i+1:]...)
			return
		}
	}
}

// active reports whether a dialog is up.
func (q *modalQueue) active() bool { return q.cur != nil }
