package ui

import (
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/latch-app/latch/app"
)

// uiQueue stands in for fyne.Do: work for the UI goroutine is queued, and
// the test goroutine runs it, so tests are race-free without a driver loop.
type uiQueue struct{ ch chan func() }

func newUIQueue() *uiQueue { return &uiQueue{ch: make(chan func(), 4096)} }

func (q *uiQueue) do(f func()) { q.ch <- f }

// waitOne runs the next queued function, waiting for it up to 5 s.
func (q *uiQueue) waitOne(t testing.TB) {
	t.Helper()
	select {
	case f := <-q.ch:
		f()
	case <-time.After(5 * time.Second):
		t.Fatal("nothing was sent to the UI goroutine")
	}
}

// fakeRunner records what the window asks of a session.
type fakeRunner struct {
	id      string      // what its events carry
	surf    app.Surface // when set, Send says what a session says: Running, the prompt
	mu      sync.Mutex
	sent    []string
	stops   int
	closed  int
	reloads int
	err     error
}

func (f *fakeRunner) Send(p string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent = append(f.sent, p)
	if f.err == nil && f.surf != nil {
		f.surf.Show(app.Event{Session: f.id, Kind: app.EvStatus, Status: &app.Status{State: app.Running}})
		f.surf.Show(app.Event{Session: f.id, Kind: app.EvPrompt, Text: p})
	}
	return f.err
}
func (f *fakeRunner) ID() string { return f.id }
func (f *fakeRunner) Stop()      { f.mu.Lock(); f.stops++; f.mu.Unlock() }
func (f *fakeRunner) Close()     { f.mu.Lock(); f.closed++; f.mu.Unlock() }
func (f *fakeRunner) Reload() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reloads++
	return nil
}

func (f *fakeRunner) sentCopy() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.sent...)
}

type harness struct {
	mw *mainWindow
	q  *uiQueue
	c  fyne.Canvas
	r  *fakeRunner
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	a := test.NewTempApp(t)
	h := &harness{q: newUIQueue(), r: &fakeRunner{id: "session-1"}}
	settings := app.LoadSettings() // the config as the test set it up
	h.mw = newMainWindow(a, Options{Workdir: t.TempDir(), Settings: settings, NewRunner: func(_ string, s app.Surface) (Runner, error) {
		h.r.surf = s
		return h.r, nil
	}}, h.q.do)
	h.mw.win.Resize(fyne.NewSize(900, 700))
	h.mw.win.Show()
	h.c = h.mw.win.Canvas()
	// The config's writes end before the test's folders are removed.
	t.Cleanup(func() { h.mw.surf.close(); h.mw.win.Close(); settings.Flush() })
	return h
}

// The key helpers route input as the desktop driver does: to the focused
// widget if there is one, else to the canvas handlers; Tab moves the focus.
func press(c fyne.Canvas, name fyne.KeyName) {
	switch name {
	case fyne.KeyTab:
		c.FocusNext()
		return
	case fyne.KeySpace:
		ev := &fyne.KeyEvent{Name: name}
		if f := c.Focused(); f != nil {
			f.TypedKey(ev)
		} else if h := c.OnTypedKey(); h != nil {
			h(ev)
		}
		typeRunes(c, " ")
		return
	}
	ev := &fyne.KeyEvent{Name: name}
	if f := c.Focused(); f != nil {
		f.TypedKey(ev)
	} else if h := c.OnTypedKey(); h != nil {
		h(ev)
	}
}

func shiftTab(c fyne.Canvas) { c.FocusPrevious() }

func typeRunes(c fyne.Canvas, s string) {
	for _, r := range s {
		if f := c.Focused(); f != nil {
			f.TypedRune(r)
		} else if h := c.OnTypedRune(); h != nil {
			h(r)
		}
	}
}

// overlayUp reports whether a dialog is showing.
func overlayUp(c fyne.Canvas) bool { return c.Overlays().Top() != nil }

// visit calls f on o and on every object under it, as the renderers lay
// them out.
func visit(o fyne.CanvasObject, f func(fyne.CanvasObject)) {
	f(o)
	switch w := o.(type) {
	case *fyne.Container:
		for _, c := range w.Objects {
			visit(c, f)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(w).Objects() {
			visit(c, f)
		}
	}
}
