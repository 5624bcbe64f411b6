//go:build unix

package cliproc

import (
	"errors"
	"io"
	"os"
	"syscall"
	"time"
)

// wake ends a blocked read through the read deadline (os.Pipe's ends are
// in the runtime poller here).
func (r *pipeReader) wake() {
	r.f.SetReadDeadline(time.Now())
}

// woken says whether a read ended because of wake.
func woken(err error) bool { return errors.Is(err, os.ErrDeadlineExceeded) }

// readNow reads what the pipe holds without waiting; an empty pipe is the end.
func (r *pipeReader) readNow(b []byte) (int, error) {
	rc, err := r.f.SyscallConn()
	if err != nil {
		return 0, err
	}
	for {
		var n int
		var rerr error
		err := rc.Read(func(fd uintptr) bool {
			n, rerr = syscall.Read(int(fd), b)
			return true // never wait for more
		})
		if errors.Is(err, os.ErrDeadlineExceeded) {
			// finish's deadline; it is set once, so this clears it for good.
			r.f.SetReadDeadline(time.Time{})
			continue
		}
		switch {
		case err != nil:
			return 0, err
		case rerr == syscall.EINTR:
			continue
		case rerr == syscall.EAGAIN:
			return 0, io.EOF
		case rerr != nil:
			return 0, rerr
		case n <= 0:
			return 0, io.EOF
		}
		return n, nil
	}
}
