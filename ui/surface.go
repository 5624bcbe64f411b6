package ui

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/latch-app/latch/app"
)

// frame is how often queued events reach the screen: about 30 a second.
const frame = 33 * time.Millisecond

// mergeMax is the most text Show gathers into one queued event. During a
// flood of deltas of a few bytes each, the queue then costs about the text
// itself, not an event (72 bytes, and a BlockID) per delta. 64 KB is a large
// object for Go's allocator, so a gathered piece is freed whole, never
// leaving a span kept alive by a neighbour. The transcript copies texts up
// to pageSize into its pages, so it never keeps these buffers.
const mergeMax = pageSize

// surface is the window's app.Surface. Show only queues; a pump applies each
// frame's events with one call onto the UI goroutine, so a burst of deltas
// costs one layout, not one per delta.
type surface struct {
	mw *mainWindow
	t  *tab // the tab whose session reports here

	mu       sync.Mutex
	pending  []app.Event
	merged   int             // 1 + the index in pending of the event whose text is buf's, or 0
	buf      strings.Builder // the text of consecutive deltas of one block
	inflight bool            // a batch is on its way to the UI goroutine
	shown    string          // the Session.ID whose events are shown; others are dropped
	closed   chan struct{}
	once     sync.Once
}

var _ app.Surface = (*surface)(nil)

func newSurface(mw *mainWindow, t *tab) *surface {
	return &surface{mw: mw, t: t, closed: make(chan struct{})}
}

// Show queues ev; it never blocks on the UI. An event of a session the
// window does not show (ev.Session is neither "" — the window's own — nor
// the shown session) is dropped. The check is made under the queue's lock,
// so nothing of a session the window let go (retire) slips in after.
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
	if ev.Grant != nil {
		t := *ev.Grant
		ev.Grant = &t
	}
	if ev.Retry != nil {
		t := *ev.Retry
		ev.Retry = &t
	}
	s.mu.Lock()
	if ev.Session != "" && ev.Session != s.shown {
		s.mu.Unlock()
		return
	}
	if !s.merge(ev) {
		s.pending = append(s.pending, ev)
	}
	s.mu.Unlock()
}

// show makes id the session whose events and questions the window takes.
func (s *surface) show(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shown = id
}

// retire stops taking the shown session's events and questions.
func (s *surface) retire() { s.show("") }

// showing reports whether the window takes what session id raises.
func (s *surface) showing(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return id == "" || id == s.shown
}

// merge appends a text delta to the queued event of the same block just
// before it, up to mergeMax bytes, and reports whether it did. Locked.
func (s *surface) merge(ev app.Event) bool {
	n := len(s.pending)
	if n == 0 || (ev.Kind != app.EvText && ev.Kind != app.EvThinking) {
		return false
	}
	last := &s.pending[n-1]
	if last.Kind != ev.Kind || last.BlockID != ev.BlockID || len(last.Text)+len(ev.Text) > mergeMax {
		return false
	}
	switch {
	case s.merged != n:
		// Views of the old buffer may be queued still: never reuse it. A
		// small one first: a steady stream gathers a few deltas a frame.
		s.buf = strings.Builder{}
		s.buf.Grow(min(mergeMax, max(512, 4*(len(last.Text)+len(ev.Text)))))
		s.buf.WriteString(last.Text)
		s.merged = n
	case s.buf.Cap()-s.buf.Len() < len(ev.Text):
		// A flood: one buffer of the most an event holds, which it fills.
		// The small one is viewed by last.Text only, which moves.
		text := s.buf.String()
		s.buf = strings.Builder{}
		s.buf.Grow(mergeMax)
		s.buf.WriteString(text)
	}
	s.buf.WriteString(ev.Text)
	last.Text = s.buf.String()
	return true
}

// take empties the queue and returns what was in it.
func (s *surface) take() []app.Event { return s.takeUpTo(0) }

// frameEvents is the most events one frame applies. A session read from
// its file arrives as fast as the disk gives it, tens of thousands of
// events at once; applied in frames of this many, the window stays
// responsive while the rest waits for the next frame.
const frameEvents = 1500

// takeUpTo takes the first n queued events (all of them for n <= 0).
func (s *surface) takeUpTo(n int) []app.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n <= 0 || n >= len(s.pending) {
		s.buf, s.merged = strings.Builder{}, 0
		batch := s.pending
		s.pending = nil
		return batch
	}
	batch := slices.Clone(s.pending[:n])
	// The rest moves down; the event being merged into moves with it.
	s.pending = slices.Delete(s.pending, 0, n)
	s.merged = max(s.merged-n, 0) // 0: it was taken, the next delta starts afresh
	return batch
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
				if batch := s.takeUpTo(frameEvents); len(batch) > 0 {
					s.mw.applyTo(s.t, batch)
				}
				s.mu.Lock()
				s.inflight = false
				s.mu.Unlock()
			})
		}
	}
}

// flush applies every queued event; UI goroutine only.
func (s *surface) flush() {
	if batch := s.take(); len(batch) > 0 {
		s.mw.applyTo(s.t, batch)
	}
}

func (s *surface) close() { s.once.Do(func() { close(s.closed) }) }

// Ask shows the live permission dialog and waits for the answer.
func (s *surface) Ask(ctx context.Context, q app.Question) app.Decision {
	if !s.showing(q.Session) {
		return app.Decision{} // unanswered: a deny, never an allow
	}
	return s.wait(ctx, &pending{notice: askNotice(q), open: func(done func(app.Decision)) *modal {
		return s.mw.newAskDialog(q, done)
	}})
}

// AskGrants shows the after-turn grant dialog and waits for the answer.
func (s *surface) AskGrants(ctx context.Context, r app.GrantRequest) app.Decision {
	if !s.showing(r.Session) {
		return app.Decision{Action: app.NotNow}
	}
	return s.wait(ctx, &pending{notice: grantsNotice(r), open: func(done func(app.Decision)) *modal {
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
		if s.t != s.mw.tab {
			s.mw.questionWaits(s.t, p) // asked when its tab is shown
			return
		}
		s.mw.modals.push(p)
	})
	select {
	case d := <-p.ch:
		return d
	case <-ctx.Done():
		s.mw.do(func() {
			if i := slices.Index(s.t.waiting, p); i >= 0 {
				s.t.waiting = slices.Delete(s.t.waiting, i, i+1)
				p.over = true
				return
			}
			s.mw.modals.withdraw(p)
		})
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
