package cliproc

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/latch-app/latch/core/stream"
)

// ErrClosed is returned by Start once the Group is closed.
var ErrClosed = errors.New("the session is closed")

// Group is the processes of one session. It numbers them, and it holds every
// one until it is reaped, whoever else lets go of it: a process retired
// between turns is drained and stopped in the background, and Close stops
// all that are left. Its methods are safe from any goroutine.
type Group struct {
	mu     sync.Mutex
	n      int
	procs  map[*Proc]struct{}
	closed bool
}

// Start starts a process (see Start) as the group's next.
func (g *Group) Start(argv []string, dir string, env []string, opt stream.Options, cleanup func()) (*Proc, error) {
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return nil, ErrClosed
	}
	g.n++
	n := g.n
	g.mu.Unlock()
	// The group lets go of the process once it is reaped and drained, just
	// before Done closes: self and gone (under g.mu) tell the two orders
	// of that and the bookkeeping below apart.
	var self *Proc
	gone := false
	p, err := Start(argv, dir, env, opt, func() {
		if cleanup != nil {
			cleanup()
		}
		g.mu.Lock()
		if self != nil {
			delete(g.procs, self)
		} else {
			gone = true
		}
		g.mu.Unlock()
	})
	if err != nil {
		return nil, err
	}
	p.Serial = n
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		p.Stop(time.Second)
		return nil, ErrClosed
	}
	if !gone {
		self = p
		if g.procs == nil {
			g.procs = map[*Proc]struct{}{}
		}
		g.procs[p] = struct{}{}
	}
	g.mu.Unlock()
	return p, nil
}

// Retire lets p go: nobody reads its events any more, so they are drained
// and dropped; its stdin is closed and it is killed unless it exits within
// grace. It returns at once.
func (g *Group) Retire(p *Proc, grace time.Duration) {
	if p == nil {
		return
	}
	p.Discard()
	go p.Stop(grace)
}

// Running is how many of the group's processes are not yet reaped and
// drained.
func (g *Group) Running() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.procs)
}

// Close stops every process of the group (stdin closed, killed after grace)
// and returns when all are reaped and drained, or when ctx ends, whichever
// comes first; what is left finishes on its own. No process starts after.
func (g *Group) Close(ctx context.Context, grace time.Duration) {
	g.mu.Lock()
	g.closed = true
	procs := make([]*Proc, 0, len(g.procs))
	for p := range g.procs {
		procs = append(procs, p)
	}
	g.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range procs {
		wg.Add(1)
		go func() { defer wg.Done(); p.Stop(grace) }()
	}
	stopped := make(chan struct{})
	go func() { wg.Wait(); close(stopped) }()
	select {
	case <-stopped:
	case <-ctx.Done():
	}
}
