package app

import (
	"os/exec"
	"syscall"
)

// setProcAttr puts the CLI in its own process group, so Stop and Close can end
// it with everything it started, and asks the kernel to kill it if Latch dies.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

func killGroup(pid int) {
	if syscall.Kill(-pid, syscall.SIGKILL) != nil {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}
