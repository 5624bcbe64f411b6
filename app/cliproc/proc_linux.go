package cliproc

import (
	"os/exec"
	"syscall"
	"unsafe"
)

// setProcAttr puts the CLI in its own process group, so Stop and Close can end
// it with everything it started, and asks the kernel to kill it if Latch dies.
//
// What the kernel does when Latch itself dies (crash, SIGKILL): Pdeathsig
// kills the CLI, the direct child, at once. It does not reach the CLI's own
// children: they are re-parented (to init or the nearest subreaper) and keep
// running until they end on their own, typically when they next write to a
// pipe whose reader is gone. Linux has no way to tie a whole process group
// to Latch's life short of an extra supervisor process; Latch kills the
// group itself on every path where it is still alive to do so.
//
// Pdeathsig fires when the thread that started the child ends, not the whole
// process; Latch never starts the CLI from a goroutine locked to a thread
// that could exit.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup kills the process group of the (not yet reaped) process pid.
func killGroup(pid int) {
	if syscall.Kill(-pid, syscall.SIGKILL) != nil {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

// killGroupOnly kills what is left of pid's process group and never signals
// pid alone.
func killGroupOnly(pid int) {
	syscall.Kill(-pid, syscall.SIGKILL)
}

// reap waits for cmd's process to end and reaps it. atExit runs after the
// process has ended but before it is reaped: its zombie still holds the pid,
// so the process group id cannot have been reused when atExit kills the group.
func reap(cmd *exec.Cmd, atExit func()) error {
	if !waitExited(cmd.Process.Pid) {
		// Not waitable (it always should be): reap first, kill after.
		err := cmd.Wait()
		atExit()
		return err
	}
	atExit()
	return cmd.Wait()
}

// waitExited blocks until process pid has ended, leaving it to be reaped
// (waitid with WNOWAIT). It reports false if the wait failed.
func waitExited(pid int) bool {
	const pPID = 1     // P_PID
	var info [128]byte // siginfo_t
	for {
		_, _, e := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid), uintptr(unsafe.Pointer(&info[0])), syscall.WEXITED|syscall.WNOWAIT, 0, 0)
		if e != syscall.EINTR {
			return e == 0
		}
	}
}
