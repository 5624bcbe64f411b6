//go:build windows

package cliproc

import (
	"errors"
	"io"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Here os.Pipe's ends are synchronous handles outside the runtime poller, so
// they take no read deadline. A blocked read is woken the way os.File.Close
// wakes one: CancelIoEx ends it with ERROR_OPERATION_ABORTED. A read that
// had not yet begun when wake ran is not woken; it ends when the pipe
// closes, and the job object (proc_windows.go) sees to that: once the CLI
// has ended, everything in its job, so everything that could hold the pipe,
// is killed.

// wake ends a blocked read.
func (r *pipeReader) wake() {
	rc, err := r.f.SyscallConn()
	if err != nil {
		return
	}
	rc.Control(func(fd uintptr) {
		windows.CancelIoEx(windows.Handle(fd), nil)
	})
}

// woken says whether a read ended because of wake.
func woken(err error) bool { return errors.Is(err, windows.ERROR_OPERATION_ABORTED) }

var procPeekNamedPipe = windows.NewLazySystemDLL("kernel32.dll").NewProc("PeekNamedPipe")

// readNow reads what the pipe holds without waiting; an empty pipe is the end.
func (r *pipeReader) readNow(b []byte) (int, error) {
	rc, err := r.f.SyscallConn()
	if err != nil {
		return 0, err
	}
	for {
		var avail uint32
		var perr error
		err := rc.Control(func(fd uintptr) {
			ok, _, e := procPeekNamedPipe.Call(fd, 0, 0, 0, uintptr(unsafe.Pointer(&avail)), 0)
			if ok == 0 {
				perr = e
			}
		})
		switch {
		case err != nil:
			return 0, err
		case errors.Is(perr, windows.ERROR_BROKEN_PIPE):
			return 0, io.EOF
		case perr != nil:
			return 0, perr
		case avail == 0:
			return 0, io.EOF
		}
		// What the pipe holds is there: this read returns at once.
		n, err := r.f.Read(b[:min(uint32(len(b)), avail)])
		if n == 0 && woken(err) {
			continue // wake's cancel, landing late
		}
		return n, err
	}
}
