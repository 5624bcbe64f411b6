package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/adrg/xdg"
)

// MaxSize is the size past which audit.jsonl is rotated to audit.jsonl.1,
// so the log never takes much more than twice this on disk.
const MaxSize = 10 << 20

// maxSize is MaxSize as a variable so tests can rotate small files. Open
// reads it once, so a test must set it before Open.
var maxSize int64 = MaxSize

// queueSize is how many entries may wait for the writer; past it Append
// drops and counts rather than wait on the disk. A burst of 10,000 (the
// benchmark) fits.
const queueSize = 16384

// maxBatch bounds one write, so a long backlog is not gathered into one
// huge buffer.
const maxBatch = 1 << 20

// DefaultPath is $XDG_STATE_HOME/latch/audit.jsonl (platform equivalents
// elsewhere). Looking it up creates nothing.
//
// adrg/xdg reads the environment once, at init; the variable is read here
// too, with xdg's rule (absolute paths only), so a test's t.Setenv takes
// effect without xdg.Reload and never sends entries to the real log.
func DefaultPath() (string, error) {
	dir := os.Getenv("XDG_STATE_HOME")
	if !filepath.IsAbs(dir) {
		dir = xdg.StateHome
	}
	if dir == "" {
		return "", errors.New("no state folder (XDG_STATE_HOME or home) found")
	}
	return filepath.Join(dir, "latch", "audit.jsonl"), nil
}

// Log appends entries to an audit file from one writer goroutine. The
// zero value is not usable; call Open.
type Log struct {
	path        string
	onError     func(error)
	maxSize     int64
	beforeWrite func() // test hook, run by the writer before each write

	mu      sync.RWMutex // orders Append's send against Close's close(queue)
	closed  bool
	queue   chan []byte
	dropped atomic.Int64 // entries Append found no room for, not yet recorded
	drops   atomic.Int64 // all entries Append found no room for, for tests
	lostEnc atomic.Int64 // entries Append could not encode
	once    atomic.Bool  // onError has been called
	done    chan struct{}

	closeOnce sync.Once
	closeErr  error

	// Owned by the writer goroutine.
	f        *os.File
	size     int64
	torn     bool   // the file may end inside a line: the next write starts a new one
	buf      []byte // buf[0] is a spare '\n' for torn; lines pending follow it
	lost     int64  // entries lost to write errors, not yet recorded in the file
	firstErr error
}

// Open starts a log appending to path, creating it (and its folder) on the
// first write, not now. onError, if not nil, is called once, from the
// writer goroutine, with the first error; later errors are only counted and
// the log keeps trying, since a full disk may clear.
func Open(path string, onError func(error)) *Log {
	return open(path, onError, nil)
}

func open(path string, onError func(error), beforeWrite func()) *Log {
	l := &Log{
		path:        path,
		onError:     onError,
		maxSize:     maxSize,
		beforeWrite: beforeWrite,
		queue:       make(chan []byte, queueSize),
		done:        make(chan struct{}),
		buf:         []byte{'\n'},
	}
	go l.run()
	return l
}

// Append queues e and returns at once: a turn must never wait on the disk.
// A zero e.Time is stamped now; every time is stored in UTC. If the writer
// is too far behind, e is dropped and counted, and the gap is recorded as
// a KindDropped entry once the writer catches up. Append after Close does
// nothing. Safe for concurrent use.
func (l *Log) Append(e Entry) {
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	e.Time = e.Time.UTC()
	line, err := encode(e)
	if err != nil { // only a time outside years 0-9999
		l.lostEnc.Add(1)
		l.report(err)
		return
	}
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.closed {
		return
	}
	select {
	case l.queue <- line:
	default:
		l.dropped.Add(1)
		l.drops.Add(1)
	}
}

// encode gives e as one line ending in "\n". encoding/json escapes control
// characters, U+2028 and U+2029 and replaces invalid UTF-8, so no string
// from the model can split a line. HTML escaping is off: commands are full
// of & and >, and \u0026 only makes the file harder to read.
func encode(e Entry) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(512)
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Close writes what is queued, closes the file and stops the writer. It
// reports an error closing the file, or entries lost and never recorded.
// Later calls return the same.
func (l *Log) Close() error {
	l.closeOnce.Do(func() {
		l.mu.Lock()
		l.closed = true
		close(l.queue)
		l.mu.Unlock()
		<-l.done
	})
	return l.closeErr
}

func (l *Log) report(err error) {
	if l.onError != nil && !l.once.Swap(true) {
		l.onError(err)
	}
}

// run is the writer: it gathers what is queued into one write.
func (l *Log) run() {
	defer close(l.done)
	for line := range l.queue {
		_ = l.open() // refresh size before deciding to rotate; flush reports errors
		l.add(line)
		more := l.gather()
		l.flush()
		// Gaps are recorded only once caught up, so that they follow the
		// entries that were queued before the drops.
		if !more || len(l.queue) == 0 {
			l.writeGaps()
		}
		if !more {
			break
		}
	}
	l.finish()
}

// gather adds what is queued, up to maxBatch, without waiting. It reports
// false once the queue is closed and empty.
func (l *Log) gather() bool {
	for len(l.buf) < maxBatch {
		select {
		case line, ok := <-l.queue:
			if !ok {
				return false
			}
			l.add(line)
		default:
			return true
		}
	}
	return true
}

func (l *Log) finish() {
	l.writeGaps()
	if l.f != nil {
		if err := l.f.Close(); err != nil {
			l.closeErr = err
		}
		l.f = nil
	}
	if n := l.lost + l.lostEnc.Load(); n > 0 && l.closeErr == nil {
		l.closeErr = fmt.Errorf("audit: %d entries were lost: %v", n, l.firstErr)
	}
}

// add puts line in the pending write. A line that would take the file past
// maxSize first writes what is pending and rotates, so every file but one
// huge line stays under maxSize.
func (l *Log) add(line []byte) {
	pending := int64(len(l.buf) - 1)
	if l.size+pending > 0 && l.size+pending+int64(len(line)) > l.maxSize {
		l.flush()
		l.rotate()
	}
	l.buf = append(l.buf, line...)
}

// flush writes the pending lines with one write(2): O_APPEND puts them
// after anything another process wrote, and a crash tears at most the last
// line. It returns how many lines were lost.
func (l *Log) flush() int64 {
	if len(l.buf) == 1 {
		return 0
	}
	defer func() { l.buf = l.buf[:1] }()
	if l.beforeWrite != nil {
		l.beforeWrite()
	}
	data := l.buf[1:]
	if l.f == nil {
		if err := l.open(); err != nil {
			return l.fail(err, int64(bytes.Count(data, []byte{'\n'})))
		}
	}
	if l.torn {
		data = l.buf
	}
	n, err := l.f.Write(data)
	l.size += int64(n)
	if n > 0 {
		l.torn = data[n-1] != '\n'
	}
	if err != nil {
		// Reopen next time: the file may have gone, or the disk may clear.
		l.f.Close()
		l.f = nil
		return l.fail(err, int64(bytes.Count(data[n:], []byte{'\n'})))
	}
	return 0
}

func (l *Log) fail(err error, lines int64) int64 {
	l.lost += lines
	if l.firstErr == nil {
		l.firstErr = err
	}
	l.report(err)
	return lines
}

// open opens the file for appending unless it already is and the path
// still names it (another Latch may have rotated it, or someone removed
// it), and learns its size.
func (l *Log) open() error {
	if l.f != nil {
		st, err := os.Stat(l.path)
		fst, ferr := l.f.Stat()
		if err == nil && ferr == nil && os.SameFile(st, fst) {
			l.size = fst.Size()
			return nil
		}
		l.f.Close()
		l.f = nil
	}
	if err := os.MkdirAll(filepath.Dir(l.path), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(l.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err == nil && st.Mode().Perm()&0o077 != 0 {
		// Commands and paths are private: tighten a file made looser by hand.
		err = f.Chmod(0o600)
	}
	if err != nil {
		f.Close()
		return err
	}
	l.f, l.size = f, st.Size()
	l.torn = l.size > 0 && !endsInNewline(l.path, l.size)
	return nil
}

// endsInNewline reports whether the file's last byte is '\n'. If not, a
// crash tore the last line, and the next write must not glue an entry to it.
func endsInNewline(path string, size int64) bool {
	f, err := os.Open(path)
	if err != nil {
		return true
	}
	defer f.Close()
	var b [1]byte
	if _, err := f.ReadAt(b[:], size-1); err != nil && err != io.EOF {
		return true
	}
	return b[0] == '\n'
}

// rotate renames the file to path.1, replacing an older one; the next write
// starts a new file.
func (l *Log) rotate() {
	if l.f != nil {
		l.f.Close()
		l.f = nil
	}
	l.size = 0
	if err := os.Rename(l.path, l.path+".1"); err != nil && !errors.Is(err, os.ErrNotExist) {
		l.fail(err, 0)
	}
}

// writeGaps records entries dropped or lost, each as a KindDropped entry
// written on its own so a failure keeps the count for later.
func (l *Log) writeGaps() {
	if n := l.dropped.Swap(0); n > 0 {
		if !l.writeGap(n, "the log could not keep up") {
			l.lost += n
		}
	}
	if l.f == nil { // still failing: record the loss once writes work again
		return
	}
	n := l.lost + l.lostEnc.Swap(0)
	if n > 0 {
		l.lost = 0
		msg := "the log could not write them"
		if l.firstErr != nil {
			msg = fmt.Sprintf("the log could not write them: %v", l.firstErr)
		}
		if !l.writeGap(n, msg) {
			l.lost += n
		}
	}
}

func (l *Log) writeGap(n int64, why string) bool {
	line, err := encode(Entry{
		Time:    time.Now().UTC(),
		Kind:    KindDropped,
		Message: fmt.Sprintf("%d entries were dropped: %s", n, why),
	})
	if err != nil {
		return false
	}
	_ = l.open()
	l.add(line)
	if k := l.flush(); k > 0 {
		l.lost -= k // the caller counts n instead
		return false
	}
	return true
}
