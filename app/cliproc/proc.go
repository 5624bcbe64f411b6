// Package cliproc runs one Claude Code CLI process: it starts it as an argv
// in its own process group, decodes its stdout into stream events until EOF
// whatever its reader does, keeps the end of its stderr, writes protocol
// lines to its stdin, and reaps it whoever holds its pipes. A Group holds
// every process of one session, so none is left unreaped. It knows nothing
// of sessions, turns or permissions.
package cliproc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/latch-app/latch/core/stream"
)

// How a process ends, and how long each step may take.
var (
	// exitDrain is how long, after the CLI has exited, its stdout and stderr
	// may stay open. Only a descendant that left the CLI's process group
	// (setsid) can hold them that long; the rest of the group is killed when
	// the CLI exits. Then Latch reads what the pipes already hold and stops.
	exitDrain = 250 * time.Millisecond
	// killWait bounds how long stop waits, after the kill, for the process
	// to be reaped and its output drained.
	killWait = 1500 * time.Millisecond
)

// stderrKept is how much of the end of the CLI's stderr Latch keeps.
const stderrKept = 1 << 20

// Proc is one running claude CLI process.
//
// Three goroutines serve it: read (stdout → events), the stderr copier and
// wait. wait reaps the process whoever holds its pipes, kills what is left of
// its process group, and closes stdin; exitDrain later the readers take what
// the pipes hold and end, even when a descendant keeps the pipes open. So
// done always follows the exit, and nothing waits on a pipe forever.
type Proc struct {
	// Serial numbers the process within its Group: 1, 2, … in start order.
	Serial int

	cmd    *exec.Cmd
	dec    *stream.Decoder
	events chan stream.Event // closed when stdout ends
	exit   chan struct{}     // closed once the process has ended and been reaped
	done   chan struct{}     // closed once it is reaped, stdout and stderr are drained and cleanup ran
	stderr *tail

	out, errp *pipeReader

	// quit is closed by discard: nobody reads events any more, so the reader
	// drops them and keeps draining stdout, and the CLI never blocks on it.
	quit     chan struct{}
	quitOnce sync.Once

	wmu   sync.Mutex              // one line at a time
	stdin atomic.Pointer[os.File] // nil once closed

	kmu   sync.Mutex // guards ended
	ended bool       // the process has ended: kill no longer signals its pid

	exitMsg string // "exit code 1", "killed by signal 9 (killed)"; valid after exit
	cleanup func()

	replies replies // answers to Request, taken by the reader
}

// Start starts argv in dir with env; cleanup, if set, runs once the
// process is reaped and drained. The reader goroutine drains stdout into
// events no matter what the session goroutine is doing, so a question
// waiting for the person never stalls the pipe.
func Start(argv []string, dir string, env []string, opt stream.Options, cleanup func()) (*Proc, error) {
	if len(argv) == 0 {
		return nil, errors.New("no claude command configured")
	}
	// Latch makes the pipes itself: exec.Cmd.Wait would wait for copies of
	// stdout and stderr that a lingering descendant can keep open forever.
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err == nil {
			files = append(files, r, w)
		}
		return r, w, err
	}
	inR, inW, err := pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := pipe()
	if err != nil {
		closeAll()
		return nil, err
	}
	errR, errW, err := pipe()
	if err != nil {
		closeAll()
		return nil, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	setProcAttr(cmd)
	if err := cmd.Start(); err != nil {
		closeAll()
		return nil, err
	}
	// The child has its ends; Latch keeps only its own.
	inR.Close()
	outW.Close()
	errW.Close()

	p := &Proc{
		cmd:     cmd,
		events:  make(chan stream.Event, 1024),
		exit:    make(chan struct{}),
		done:    make(chan struct{}),
		quit:    make(chan struct{}),
		stderr:  newTail(stderrKept),
		out:     &pipeReader{f: outR},
		errp:    &pipeReader{f: errR},
		cleanup: cleanup,
	}
	p.stdin.Store(inW)
	p.dec = stream.NewDecoder(p.out, opt)
	readDone, errDone := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(readDone)
		p.read()
	}()
	go func() {
		defer close(errDone)
		io.Copy(p.stderr, p.errp)
	}()
	go p.wait(readDone, errDone)
	return p, nil
}

// read hands stdout's events on until EOF (or, once discarded, drops them).
func (p *Proc) read() {
	for {
		ev, err := p.dec.Next()
		if err != nil {
			break
		}
		if ev.Kind == stream.KindControlResponse && p.replies.deliver(ev.Response) {
			continue
		}
		select {
		case p.events <- ev:
		case <-p.quit:
		}
	}
	close(p.events)
	p.replies.end()
	// After a read error, still drain: the CLI must never block on stdout.
	io.Copy(io.Discard, p.out)
}

// wait reaps the process, kills what is left of its process group, closes
// stdin, and then makes sure both output pipes end.
func (p *Proc) wait(readDone, errDone <-chan struct{}) {
	pid := p.cmd.Process.Pid
	err := reap(p.cmd, func() {
		p.kmu.Lock()
		p.ended = true
		p.kmu.Unlock()
		// The CLI has ended on its own or been killed. Whatever it started
		// in its group goes with it, so nothing holds its pipes or lingers.
		killGroupOnly(pid)
	})
	p.exitMsg = describeExit(p.cmd.ProcessState, err)
	close(p.exit)
	p.CloseStdin()

	// Everything the CLI wrote is in the pipes now. A descendant that left
	// the group may hold them open; after exitDrain read what is there and
	// stop.
	drain := time.AfterFunc(exitDrain, func() {
		p.out.finish()
		p.errp.finish()
	})
	<-readDone
	<-errDone
	drain.Stop()
	p.out.f.Close()
	p.errp.f.Close()
	if p.cleanup != nil {
		p.cleanup()
	}
	close(p.done)
}

// Events are the stdout's events, in order; the channel is closed when
// stdout ends. Read it to the end, or call Discard.
func (p *Proc) Events() <-chan stream.Event { return p.events }

// Done is closed once the process is reaped, its output drained and the
// cleanup run.
func (p *Proc) Done() <-chan struct{} { return p.done }

// ExitMsg says how the process ended ("exit code 1", "killed by signal 9
// (killed)"); valid once Done is closed.
func (p *Proc) ExitMsg() string { return p.exitMsg }

// Stderr is the end of what the process wrote on stderr: short, the last
// lines, each cut to a width that shows whole; full, all Latch kept.
func (p *Proc) Stderr() (short, full string) { return p.stderr.String(), p.stderr.Full() }

// MarkUserDenied tells the decoder that the person refused this tool call,
// so its refusal is classified as theirs, not as a lost permission.
func (p *Proc) MarkUserDenied(toolUseID string) { p.dec.MarkUserDenied(toolUseID) }

// Write sends one protocol line; it is safe from any goroutine.
func (p *Proc) Write(line []byte) error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	f := p.stdin.Load()
	if f == nil {
		return errors.New("the CLI's input is closed")
	}
	_, err := f.Write(line)
	return err
}

// CloseStdin tells the CLI to finish: it completes the turn and exits. It
// never waits for a write in progress; that write fails instead.
func (p *Proc) CloseStdin() {
	if f := p.stdin.Swap(nil); f != nil {
		f.Close()
	}
}

// Exited says whether the process has ended (its output may still drain).
func (p *Proc) Exited() bool {
	select {
	case <-p.exit:
		return true
	default:
		return false
	}
}

// Discard tells the reader that nobody reads events any more: it drops them
// and drains stdout to the end, so a retired process never blocks on a full
// pipe and is always reaped.
func (p *Proc) Discard() {
	p.quitOnce.Do(func() { close(p.quit) })
}

// Kill ends the process and everything in its process group.
func (p *Proc) Kill() {
	p.kmu.Lock()
	defer p.kmu.Unlock()
	if !p.ended {
		killGroup(p.cmd.Process.Pid)
	}
}

// Stop retires the process: its events are dropped, stdin is closed, and
// the process group is killed unless it exits within grace. It returns once
// the process is reaped and drained, or killWait after the kill.
func (p *Proc) Stop(grace time.Duration) {
	p.Discard()
	p.CloseStdin()
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.exit:
	case <-t.C:
		p.Kill()
	}
	t.Reset(killWait)
	select {
	case <-p.done:
	case <-t.C:
	}
}

func describeExit(ps *os.ProcessState, err error) string {
	if ps == nil {
		if err != nil {
			return err.Error()
		}
		return "unknown exit"
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return fmt.Sprintf("killed by signal %d (%s)", int(ws.Signal()), ws.Signal())
	}
	return fmt.Sprintf("exit code %d", ps.ExitCode())
}

// pipeReader reads one of the CLI's output pipes. Once the CLI has exited, a
// descendant that left its process group may still hold the pipe's write end,
// so EOF may never come: after finish the reader takes what the pipe already
// holds and then reports EOF. How a blocked read is woken (wake, woken) and
// how the pipe is read without waiting (readNow) is each system's own
// (pipe_unix.go, pipe_windows.go).
type pipeReader struct {
	f        *os.File
	finished atomic.Bool
}

// finish makes the reader end at the first empty read; it wakes a blocked
// one.
func (r *pipeReader) finish() {
	r.finished.Store(true)
	r.wake()
}

func (r *pipeReader) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	if !r.finished.Load() {
		n, err := r.f.Read(b)
		if n > 0 || !woken(err) {
			return n, err
		}
	}
	return r.readNow(b)
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu      sync.Mutex
	max     int
	buf     []byte
	dropped bool // the start was cut off
}

func newTail(max int) *tail { return &tail{max: max} }

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(b)
	if len(b) >= t.max {
		b = b[len(b)-t.max:]
		t.buf = t.buf[:0]
		t.dropped = true
	}
	t.buf = append(t.buf, b...)
	// Compact only when twice the limit is reached, so a chatty CLI costs
	// O(1) per byte, not a copy of the whole tail per write.
	if len(t.buf) >= 2*t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
		t.dropped = true
	}
	return n, nil
}

// Full is all the kept text, trimmed; when the start was cut off, the first
// (partial) line is left out.
func (t *tail) Full() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b, cut := t.buf, t.dropped
	if len(b) > t.max {
		b, cut = b[len(b)-t.max:], true
	}
	if cut {
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	return strings.TrimSpace(strings.ToValidUTF8(string(b), "\uFFFD"))
}

// String is the end of the kept text, short enough to show whole: at most
// the last tailLines lines, each cut to its last tailWidth characters.
func (t *tail) String() string {
	return lastLines(t.Full(), tailLines, tailWidth, tailBytes)
}

// What an error row shows of stderr.
const (
	tailLines = 20
	tailWidth = 160  // characters a line keeps (its end)
	tailBytes = 2500 // the whole excerpt, well under the 4 KB a row shows
)

// lastLines is the end of s: at most n lines, each cut to its last width
// characters, and at most max bytes in all (whole lines, the last ones).
func lastLines(s string, n, width, max int) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	total := 0
	first := len(lines)
	for i := len(lines) - 1; i >= 0; i-- {
		l := keepEnd(strings.TrimRight(lines[i], "\r"), width)
		if total+len(l)+1 > max && first < len(lines) {
			break
		}
		lines[i] = l
		total += len(l) + 1
		first = i
	}
	return strings.Join(lines[first:], "\n")
}

// keepEnd cuts s to its last width characters, marking the cut with "…".
func keepEnd(s string, width int) string {
	if utf8.RuneCountInString(s) <= width {
		return s
	}
	cut := len(s)
	for i := 0; i < width-1 && cut > 0; i++ {
		_, size := utf8.DecodeLastRuneInString(s[:cut])
		cut -= size
	}
	return "…" + s[cut:]
}
