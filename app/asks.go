package app

import (
	"context"
	"fmt"
	"time"

	"github.com/latch-app/latch/core/stream"
)

// withdrawQuiet is how long a burst of withdrawals must pause before it is
// reported, so a CLI that withdraws 999 questions makes one row, not 999.
const withdrawQuiet = 150 * time.Millisecond

// askLine puts live questions to the person one at a time, in the order
// the CLI asked them, however many arrive at once. Guarded by Session.mu.
type askLine struct {
	queue   []queuedAsk
	showing string // request id whose question is with the Surface now

	withdrawn     int    // withdrawals not reported yet
	withdrawnTool string // the tool of the first of them
	withdrawTimer *time.Timer
}

type queuedAsk struct {
	id  string
	ctx context.Context
	q   Question
}

// enqueueAsk files a question and shows it when it is its turn.
func (s *Session) enqueueAsk(t *turn, id string, ctx context.Context, q Question) {
	s.mu.Lock()
	s.asks.queue = append(s.asks.queue, queuedAsk{id: id, ctx: ctx, q: q})
	s.mu.Unlock()
	s.nextAsk(t)
}

// nextAsk shows the oldest question still open when none is showing. Once
// the turn is being stopped, the questions still waiting are denied
// without being shown.
func (s *Session) nextAsk(t *turn) {
	p := t.p
	for {
		s.mu.Lock()
		if s.asks.showing != "" || len(s.asks.queue) == 0 {
			s.mu.Unlock()
			return
		}
		next := s.asks.queue[0]
		s.asks.queue[0] = queuedAsk{}
		s.asks.queue = s.asks.queue[1:]
		pa := s.pending[next.id]
		if pa == nil { // withdrawn while it waited
			s.mu.Unlock()
			continue
		}
		if s.stopping {
			delete(s.pending, next.id)
			n := len(s.pending)
			s.mu.Unlock()
			pa.cancel()
			p.MarkUserDenied(pa.req.ToolUseID)
			p.Write(stream.Deny(next.id, "The user stopped the turn.", false))
			if n == 0 {
				s.setState(Running)
			}
			continue
		}
		s.asks.showing = next.id
		answers, done := t.answers, t.done
		s.mu.Unlock()
		go func() {
			d := s.surf.Ask(next.ctx, next.q)
			select {
			case answers <- answer{reqID: next.id, d: d}:
			case <-done:
			}
		}()
		return
	}
}

// askAnswered frees the line after the showing question was answered (or
// went away) and reports whether it was that one.
func (s *Session) askAnswered(id string) {
	s.mu.Lock()
	if s.asks.showing == id {
		s.asks.showing = ""
	}
	s.mu.Unlock()
}

// noteWithdrawn counts a withdrawn question; the count is reported once
// the burst is over (flushWithdrawn).
func (s *Session) noteWithdrawn(tool string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.asks.withdrawn == 0 {
		s.asks.withdrawnTool = tool
	}
	s.asks.withdrawn++
	if s.asks.withdrawTimer == nil {
		s.asks.withdrawTimer = time.AfterFunc(withdrawQuiet, s.flushWithdrawn)
	} else {
		s.asks.withdrawTimer.Reset(withdrawQuiet)
	}
}

// flushWithdrawn reports the withdrawals counted so far in one notice.
func (s *Session) flushWithdrawn() {
	s.mu.Lock()
	n, tool := s.asks.withdrawn, s.asks.withdrawnTool
	s.asks.withdrawn = 0
	if s.asks.withdrawTimer != nil {
		s.asks.withdrawTimer.Stop()
		s.asks.withdrawTimer = nil
	}
	s.mu.Unlock()
	switch {
	case n == 1:
		s.notice("Claude Code withdrew its question about " + VisibleLine(tool) + ".")
	case n > 1:
		s.notice(fmt.Sprintf("Claude Code withdrew %d questions.", n))
	}
}

// resetAsks forgets the questions of a run that ended.
func (s *Session) resetAsks() {
	s.mu.Lock()
	s.asks.queue, s.asks.showing = nil, ""
	s.mu.Unlock()
	s.flushWithdrawn()
}
