package app

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/latch-app/latch/core/stream"
)

// proc is one running claude CLI process.
type proc struct {
	cmd    *exec.Cmd
	dec    *stream.Decoder
	events chan stream.Event // closed when stdout ends
	done   chan struct{}     // closed once the process has been waited for
	stderr *tail

	wmu   sync.Mutex
	stdin io.WriteCloser // nil once closed

	exitCode int    // valid after done
	exitMsg  string // "exit code 1", "killed by signal 9"
	cleanup  func()
}

// startProc starts argv in dir. The reader goroutine drains stdout into
// events no matter what the session goroutine is doing, so a question
// waiting for the person never stalls the pipe.
func startProc(argv []string, dir string, env []string, opt stream.Options, cleanup func()) (*proc, error) {
	if len(argv) == 0 {
		return nil, errors.New("no claude command configured")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	setProcAttr(cmd)
	p := &proc{cmd: cmd, events: make(chan stream.Event, 1024), done: make(chan struct{}), stderr: newTail(16 << 10), cleanup: cleanup}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p.stdin = stdin
	p.dec = stream.NewDecoder(stdout, opt)
	go p.read()
	return p, nil
}

func (p *proc) read() {
	for {
		ev, err := p.dec.Next()
		if err != nil {
			break
		}
		p.events <- ev
	}
	close(p.events)
	err := p.cmd.Wait()
	p.exitCode = p.cmd.ProcessState.ExitCode()
	p.exitMsg = describeExit(p.cmd.ProcessState, err)
	p.closeStdin()
	if p.cleanup != nil {
		p.cleanup()
	}
	close(p.done)
}

// write sends one protocol line; it is safe from any goroutine.
func (p *proc) write(line []byte) error {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if p.stdin == nil {
		return errors.New("the CLI's input is closed")
	}
	_, err := p.stdin.Write(line)
	return err
}

// closeStdin tells the CLI to finish: it completes the turn and exits.
func (p *proc) closeStdin() {
	p.wmu.Lock()
	defer p.wmu.Unlock()
	if p.stdin != nil {
		p.stdin.Close()
		p.stdin = nil
	}
}

func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// kill ends the process and everything it started.
func (p *proc) kill() {
	if p.cmd.Process != nil {
		killGroup(p.cmd.Process.Pid)
	}
}

// stop closes stdin, waits up to grace for the process to exit, then kills
// its process group, and waits for the reader to finish.
func (p *proc) stop(grace time.Duration) {
	p.closeStdin()
	select {
	case <-p.done:
		return
	case <-time.After(grace):
	}
	p.kill()
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
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

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func newTail(max int) *tail { return &tail{max: max} }

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

// String is the kept text, trimmed, at most the last 20 lines.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := strings.TrimSpace(string(t.buf))
	lines := strings.Split(s, "\n")
	if len(lines) > 20 {
		lines = lines[len(lines)-20:]
	}
	return strings.Join(lines, "\n")
}
