//go:build windows

package app

import (
	"errors"
	"syscall"
)

// Not in package syscall.
const (
	processQueryLimitedInformation = 0x1000 // PROCESS_QUERY_LIMITED_INFORMATION
	stillActive                    = 259    // STILL_ACTIVE, the exit code of a running process
)

// processRunning says whether a process with this pid exists (a process of
// another user counts). It only looks: the handle it opens can do nothing
// but query. A process that is gone but whose handle someone still holds
// reads as ended; one that cannot be asked reads as running, so its files
// are kept.
func processRunning(pid int) bool {
	h, err := syscall.OpenProcess(processQueryLimitedInformation, false, uint32(pid))
	if err != nil {
		return errors.Is(err, syscall.ERROR_ACCESS_DENIED)
	}
	defer syscall.CloseHandle(h)
	var code uint32
	if syscall.GetExitCodeProcess(h, &code) != nil {
		return true
	}
	return code == stillActive
}
