package grants

import (
	"context"
	"os"
	"time"
)

// Watch polls the file (through symlinks) and calls changed, from its own
// goroutine, whenever its inode, size or mtime changes, or it appears or
// disappears. It returns at once; polling stops when ctx is done. Latch's
// own writes are reported too, which is harmless for a reload.
func (s *Store) Watch(ctx context.Context, interval time.Duration, changed func()) {
	if interval <= 0 {
		interval = time.Second
	}
	last, _ := os.Stat(s.Path)
	go func() {
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			now, _ := os.Stat(s.Path)
			if !sameFile(last, now) {
				last = now
				if ctx.Err() == nil {
					changed()
				}
			}
		}
	}()
}
