//go:build windows

package cliproc

import (
	"os/exec"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Windows has no process group to signal: CREATE_NEW_PROCESS_GROUP only
// keeps console control events (Ctrl+C) of Latch and of the CLI apart. What
// plays the Unix process group's part here is a job object: the CLI is put
// in one of its own, everything it starts joins that job (Latch's job lets no
// process break away), and terminating the job ends them all. The job is
// also what ends them if Latch itself dies: Windows closes Latch's handle to
// it, and JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE kills the CLI and its
// descendants (Linux's Pdeathsig reaches the CLI alone).
//
// The limits:
//   - the CLI joins its job from the reaper goroutine, a moment after it
//     started (os/exec has no way to start a process suspended and resume it
//     later); a process it started within that moment stays outside the job
//     and outlives a kill. In practice there is none: the CLI takes far
//     longer than that to load.
//   - when no job can be made or joined (Latch in a job that forbids nested
//     jobs, before Windows 8), a kill ends the CLI alone (TerminateProcess)
//     and what it started lives on until it ends by itself.

// exitKilled is the exit code of a process Latch killed, as os.Process.Kill
// sets it.
const exitKilled = 1

// setProcAttr starts the CLI in its own process group and, when Latch has no
// console (a GUI program), with its console window hidden.
func setProcAttr(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{
		CreationFlags: windows.CREATE_NEW_PROCESS_GROUP,
		HideWindow:    true,
	}
}

// jobs holds the job object of each CLI process being reaped, by pid. The
// pid stays that process's while reap holds a handle to it, and reap removes
// the entry before it lets go of that handle.
var jobs = struct {
	sync.Mutex
	m map[int]windows.Handle
}{m: map[int]windows.Handle{}}

// killJob terminates pid's job, if it has one; it reports whether it did.
func killJob(pid int) bool {
	jobs.Lock()
	defer jobs.Unlock()
	job, ok := jobs.m[pid]
	return ok && windows.TerminateJobObject(job, exitKilled) == nil
}

// killGroup kills the (not yet reaped) process pid and everything in its
// job; without a job, the process alone.
func killGroup(pid int) {
	if killJob(pid) {
		return
	}
	h, err := windows.OpenProcess(windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		return
	}
	windows.TerminateProcess(h, exitKilled)
	windows.CloseHandle(h)
}

// killGroupOnly kills what is left of pid's job and never pid alone.
func killGroupOnly(pid int) {
	killJob(pid)
}

// reap puts cmd's process in a job of its own, waits for the process to
// end and reaps it. atExit runs after the process has ended but before it is
// reaped, as on Linux; here the job handle is Latch's own, so no reuse of the
// pid could make atExit's kill go astray anyway.
func reap(cmd *exec.Cmd, atExit func()) error {
	pid := cmd.Process.Pid
	h, err := windows.OpenProcess(windows.SYNCHRONIZE|windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		// Not to be opened (it always should be): no job, reap first.
		err := cmd.Wait()
		atExit()
		return err
	}
	defer windows.CloseHandle(h)
	if job, err := newJob(h); err == nil {
		jobs.Lock()
		jobs.m[pid] = job
		jobs.Unlock()
		defer func() {
			jobs.Lock()
			delete(jobs.m, pid)
			jobs.Unlock()
			windows.CloseHandle(job) // kills what is left in it
		}()
	}
	windows.WaitForSingleObject(h, windows.INFINITE)
	atExit()
	return cmd.Wait()
}

// newJob makes a job object that kills its processes once its last handle
// is closed, and puts process in it.
func newJob(process windows.Handle) (windows.Handle, error) {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0, err
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{
		BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{
			LimitFlags: windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
		},
	}
	_, err = windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)))
	if err == nil {
		err = windows.AssignProcessToJobObject(job, process)
	}
	if err != nil {
		windows.CloseHandle(job)
		return 0, err
	}
	return job, nil
}
