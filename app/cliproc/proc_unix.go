//go:build unix && !linux

package cliproc

import (
	"os/exec"
	"syscall"
)

// setProcAttr puts the CLI in its own process group, so Stop and Close can end
// it with everything it started. This system has no Pdeathsig: if Latch
// itself dies, the CLI ends only when it sees its stdin close.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
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

// reap waits for cmd's process and reaps it, then runs atExit. Here the
// group is killed just after the reap: a group with members left keeps its
// id reserved; only if it is empty and, within that instant, a new process
// took the pid and made itself a group leader could the kill go astray.
func reap(cmd *exec.Cmd, atExit func()) error {
	err := cmd.Wait()
	atExit()
	return err
}
