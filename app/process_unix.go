//go:build unix

package app

import (
	"errors"
	"syscall"
)

// processRunning says whether a process with this pid exists (a process of
// another user counts).
func processRunning(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
