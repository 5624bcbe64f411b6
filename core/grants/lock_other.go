//go:build !(linux || darwin || freebsd || openbsd || netbsd || dragonfly)

package grants

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// lockFile creates path exclusively; without flock a crashed writer leaves
// it behind, so a lock older than staleLock is taken over.
func lockFile(path string, timeout time.Duration) (func(), error) {
	const staleLock = time.Minute
	deadline := time.Now().Add(timeout)
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			f.Close()
			return func() { os.Remove(path) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if fi, err := os.Stat(path); err == nil && time.Since(fi.ModTime()) > staleLock {
			os.Remove(path)
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("lock %s: another writer held it for %s", path, timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
