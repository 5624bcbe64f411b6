package cliproc

import (
	"context"
	"errors"
	"sync"

	"github.com/latch-app/latch/core/stream"
)

// ErrEnded is returned by Request when the process ended before it answered.
var ErrEnded = errors.New("the Claude Code process ended before it answered")

// replies routes the CLI's answers to Latch's own requests straight from
// the reader to whoever waits, so a request is answered between turns too,
// when no turn reads the events.
type replies struct {
	mu    sync.Mutex
	wait  map[string]chan *stream.ControlResponse
	ended bool
}

// deliver hands r to its waiter and reports whether there was one.
func (r *replies) deliver(resp *stream.ControlResponse) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	ch, ok := r.wait[resp.RequestID]
	if ok {
		delete(r.wait, resp.RequestID)
		ch <- resp // buffered: never blocks the reader
	}
	return ok
}

// end fails every waiter: stdout has ended.
func (r *replies) end() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ended = true
	for id, ch := range r.wait {
		close(ch)
		delete(r.wait, id)
	}
}

// Request writes line, a control_request with id requestID, and waits for
// the CLI's answer, the end of the process, or ctx. The answer does not
// appear in Events.
func (p *Proc) Request(ctx context.Context, requestID string, line []byte) (*stream.ControlResponse, error) {
	ch := make(chan *stream.ControlResponse, 1)
	r := &p.replies
	r.mu.Lock()
	if r.ended {
		r.mu.Unlock()
		return nil, ErrEnded
	}
	if r.wait == nil {
		r.wait = map[string]chan *stream.ControlResponse{}
	}
	r.wait[requestID] = ch
	r.mu.Unlock()
	forget := func() {
		r.mu.Lock()
		delete(r.wait, requestID)
		r.mu.Unlock()
	}
	if err := p.Write(line); err != nil {
		forget()
		return nil, err
	}
	select {
	case resp, ok := <-ch:
		if !ok {
			return nil, ErrEnded
		}
		return resp, nil
	case <-ctx.Done():
		forget()
		return nil, ctx.Err()
	}
}
