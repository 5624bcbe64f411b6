// Package heapmeter follows the Go heap while a step runs, for the memory
// tests and benchmarks of core/stream and ui. Growth is HeapInuse (objects,
// garbage not yet swept, and the unused part of their spans) over a
// baseline taken after a full GC; a goroutine samples it every millisecond,
// and Mark samples it at once. It reads runtime/metrics, which does not stop
// the world.
//
// With the default GOGC the collector lets garbage pile up to the size of
// the whole live heap, the test binary's own included, which depends on the
// tests that ran before: a test's bound would then measure its neighbours.
// Tests pass a low gogc for the step, so the figure is the live heap plus a
// little; benchmarks keep the default, as the app does.
package heapmeter

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// Meter measures one step.
type Meter struct {
	base, allocs0 uint64
	abortAt       uint64 // growth that panics, so a regression cannot take the machine down
	gogc          int    // GOGC to restore, or -2: untouched

	mu   sync.Mutex
	peak uint64
	stop chan struct{}
	done chan struct{}
}

var samples = []metrics.Sample{
	{Name: "/memory/classes/heap/objects:bytes"},
	{Name: "/memory/classes/heap/unused:bytes"},
	{Name: "/gc/heap/allocs:bytes"},
}

// now returns HeapInuse and the bytes allocated so far.
func now() (inuse, allocs uint64) {
	s := make([]metrics.Sample, len(samples))
	copy(s, samples)
	metrics.Read(s)
	return s[0].Value.Uint64() + s[1].Value.Uint64(), s[2].Value.Uint64()
}

// Start starts measuring. A growth past abortAt (0: no limit) panics; gogc
// 0 leaves GOGC as it is.
func Start(abortAt uint64, gogc int) *Meter {
	m := &Meter{abortAt: abortAt, gogc: -2, stop: make(chan struct{}), done: make(chan struct{})}
	if gogc != 0 {
		m.gogc = debug.SetGCPercent(gogc)
	}
	runtime.GC()
	runtime.GC() // the second cycle frees what the first one's finalizers let go
	m.base, m.allocs0 = now()
	m.peak = m.base
	go func() {
		defer close(m.done)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-m.stop:
				return
			case <-t.C:
				m.Mark()
			}
		}
	}()
	return m
}

// Mark samples the heap now.
func (m *Meter) Mark() {
	in, _ := now()
	m.mu.Lock()
	m.peak = max(m.peak, in)
	grew := m.peak - m.base
	m.mu.Unlock()
	if m.abortAt > 0 && grew > m.abortAt {
		panic(fmt.Sprintf("heap grew by %d MB, past the %d MB safety limit", grew>>20, m.abortAt>>20))
	}
}

// Finish stops sampling and returns the peak growth and the bytes
// allocated since the start.
func (m *Meter) Finish() (peak, allocated uint64) {
	m.Mark()
	close(m.stop)
	<-m.done
	if m.gogc != -2 {
		debug.SetGCPercent(m.gogc)
	}
	_, allocs := now()
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.peak - m.base, allocs - m.allocs0
}

// Retained is the heap growth over the baseline that survives a full GC.
func (m *Meter) Retained() uint64 {
	runtime.GC()
	runtime.GC()
	in, _ := now()
	if in < m.base {
		return 0
	}
	return in - m.base
}

// InUse is the whole heap in use now, for a log line.
func InUse() uint64 {
	in, _ := now()
	return in
}
