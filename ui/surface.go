package ui

import (
	"context"
	"sync"
	"time"

	"github.com/latch-app/latch/app"
)

// frame is how often queued events reach the screen: about 30 a second.
const frame = 33 * time.Millisecond

// surface is the window's app.Surface. Show only queues; a pump applies each
// frame's events with one call onto the UI goroutine, so a burst of deltas
// costs one layout, not one per delta.
type surface struct {
	mw *MainWindow

	mu       sync.Mutex
	pending  []app.Event
	inflight bool // a batch is on its way to the UI goroutine
	closed   chan struct{}
	once     sync.Once
}

var _ app.Surface = (*surface)(nil)

func newSurface(mw *MainWindow) *surface {
	return &surface{mw: mw, closed: make(chan struct{})}
}

// Show queues ev; it never blocks on the UI.
func (s *surface) Show(ev app.Event) {
	// The session may reuse what the pointers point at; keep our own copy.
	if ev.Tool != nil {
		t := *ev.Tool
		ev.Tool = &t
	}
	if ev.Turn != nil {
		t := *ev.Turn
		ev.Turn = &t
	}
	if ev.Status != nil {
		t := *ev.Status
		ev.Status = &t
	}
	if ev.Err != nil {
		t := *ev.Err
		ev.Err = &t
	}
	s.mu.Lock()
	s.pending = append(s.pending, ev)
	s.mu.Unlock()
}

// pump sends queued events to the UI once per frame until the surface closes.
func (s *surface) pump() {
	t := time.NewTicker(frame)
	defer t.Stop()
	for {
		select {
		case <-s.closed:
			return
		case <-t.C:
			s.mu.Lock()
			if s.inflight || len(s.pending) == 0 {
				s.mu.Unlock()
				continue
			}
			s.inflight = true
			s.mu.Unlock()
			s.mw.do(func() {
				s.flush()
				s.mu.Lock()
				s.inflight = false
				s.mu.Unlock()
			})
		}
	}
}

// flush applies every queued event; UI goroutine only.
func (s *surface) flush() {
	s.mu.Lock()
	batch := s.pending
	s.pending = nil
	s.mu.Unlock()
	if len(batch) > 0 {
		s.mw.apply(batch)
	}
}

func (s *surface) close() { s.once.Do(func() { close(s.closed) }) }

// Ask shows the live permission dialog and waits for the answer.
func (s *surface) Ask(ctx context.Context, q app.Question) app.Decision {
	note := "Claude asks to use " + toolName(q)
	if len(q.Questions) > 0 {
		note = "Claude has a question for you"
	}
	return s.wait(ctx, &pending{notice: note, open: func(done func(app.Decision)) *modal {
		return s.mw.newAskDialog(q, done)
	}})
}

// AskGrants shows the after-turn grant dialog and waits for the answer.
func (s *surface) AskGrants(ctx context.Context, r app.GrantRequest) app.Decision {
	return s.wait(ctx, &pending{notice: "Claude was refused some permissions", open: func(done func(app.Decision)) *modal {
		return s.mw.newGrantDialog(r, done)
	}})
}

// wait queues a dialog and blocks the caller (never the UI goroutine) until
// it is answered, ctx is cancelled (the dialog goes away, zero Decision) or
// the window closes.
func (s *surface) wait(ctx context.Context, p *pending) app.Decision {
	p.ch = make(chan app.Decision, 1)
	if ctx.Err() != nil {
		return app.Decision{}
	}
	s.mw.do(func() {
		s.flush() // what led to the question shows before it
		s.mw.modals.push(p)
	})
	select {
	case d := <-p.ch:
		return d
	case <-ctx.Done():
		s.mw.do(func() { s.mw.modals.withdraw(p) })
		select {
		case d := <-p.ch: // answered just before the cancel landed
			_ = d
		default:
		}
		return app.Decision{}
	case <-s.closed:
		return app.Decision{}
	}
}
