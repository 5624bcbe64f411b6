//go:build linux

package app_test

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/latch-app/latch/app"
	"github.com/latch-app/latch/app/cliproc"
	"github.com/latch-app/latch/core/stream"
	"github.com/latch-app/latch/internal/testsupport/fakecli"
)

// The lifecycle tests use /proc to see which processes are left.

// procState is the state letter of /proc/<pid>/stat ("R", "S", "Z", …), or
// "" when there is no such process.
func procState(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2 : i+3]
	}
	return "?"
}

// dead: gone, or a zombie nobody of ours will reap.
func dead(pid int) bool {
	st := procState(pid)
	return st == "" || st == "Z" || st == "X"
}

// eventually polls cond every 10 ms for up to d.
func eventually(d time.Duration, cond func() bool) bool {
	end := time.Now().Add(d)
	for {
		if cond() {
			return true
		}
		if time.Now().After(end) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// killSpawnedAtEnd ends whatever the fake CLI's run started, in case the
// code under test left it behind.
func (r *rig) killSpawnedAtEnd(run int) {
	r.t.Cleanup(func() {
		for _, pid := range r.rec.Pids("spawned", run) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
}

// TestTurnEndsWhenTheCLIExits: however the CLI ends mid-turn, and whoever
// still holds its stdout and stderr, the turn ends within 2 s with the exit
// status and the end of stderr, the CLI is reaped, and what it started in
// its process group is killed.
func TestTurnEndsWhenTheCLIExits(t *testing.T) {
	exits := []struct {
		name, steps, want string
	}{
		{"crash", "exit 1", "exit code 1"},
		{"exit 0 without a result", "exit 0", "exit code 0"},
		{"killed by a signal", "kill9self", "killed by signal 9"},
	}
	holders := []struct {
		name, steps string
		spawned     int
	}{
		{"alone", "", 0},
		{"child in the group holds stdout", "spawn sleep 60", 1},
		{"setsid grandchild holds stdout", "spawnsetsid", 1},
	}
	for _, ex := range exits {
		for _, h := range holders {
			t.Run(ex.name+"/"+h.name, func(t *testing.T) {
				script := strings.Join([]string{initLine, `wait "user"`, h.steps, bashUse, "stderr boom: the reason is here", "stamp exit", ex.steps}, "\n")
				r := newRig(t, app.Config{}, script)
				r.killSpawnedAtEnd(1)
				r.send("go")
				evs := r.surf.WaitIdle(t, 1)
				seen := time.Now()
				took := seen.Sub(r.rec.Stamp(t, "exit", 1))
				t.Logf("turn ended %v after the CLI exited", took.Round(time.Millisecond))
				if took > 2*time.Second {
					t.Errorf("the turn ended %v after the CLI exited; want within 2 s", took)
				}
				errs := ofKind(evs, app.EvError)
				if len(errs) != 1 || !strings.Contains(errs[0].Err.Title, "middle of the turn") ||
					!strings.Contains(errs[0].Err.Detail, ex.want) || !strings.Contains(errs[0].Err.Detail, "boom: the reason is here") {
					t.Errorf("want one error with %q and the stderr tail:\n%s", ex.want, dump(evs))
				}
				if ends := ofKind(evs, app.EvTurnEnd); len(ends) != 1 || !ends[0].Turn.IsError {
					t.Errorf("want one failed turn end:\n%s", dump(evs))
				}
				if len(ofKind(evs, app.EvToolCall)) != 1 {
					t.Errorf("events read before the exit were lost:\n%s", dump(evs))
				}
				cli := r.rec.Pid(t, 1)
				if st := procState(cli); st != "" {
					t.Errorf("the CLI (pid %d) was not reaped: state %s", cli, st)
				}
				spawned := r.rec.Pids("spawned", 1)
				if len(spawned) != h.spawned {
					t.Fatalf("spawned = %v", spawned)
				}
				if h.name == "child in the group holds stdout" && !eventually(2*time.Second, func() bool { return dead(spawned[0]) }) {
					t.Errorf("the CLI's child in its process group (pid %d) outlived it", spawned[0])
				}
			})
		}
	}
}

// TestStopReachesIdleWithinGrace: a CLI that ignores the interrupt, with a
// grandchild that left its group holding its stdout, is killed at StopGrace
// and the session is idle right after.
func TestStopReachesIdleWithinGrace(t *testing.T) {
	old := app.StopGrace
	app.StopGrace = 300 * time.Millisecond
	defer func() { app.StopGrace = old }()
	for _, mode := range []string{app.PromptsLive, app.PromptsAfterTurn} {
		t.Run(mode, func(t *testing.T) {
			r := newRig(t, app.Config{Prompts: mode}, strings.Join([]string{`wait "user"`, initLine, "spawnsetsid", "spawn sleep 60", bashUse, "sleep 60s"}, "\n"))
			r.killSpawnedAtEnd(1)
			r.send("sleep")
			r.surf.WaitFor(t, "tool call", func(evs []app.Event) bool { return len(ofKind(evs, app.EvToolCall)) > 0 })
			start := time.Now()
			r.session.Stop()
			evs := r.surf.WaitIdle(t, 1)
			took := time.Since(start)
			t.Logf("idle %v after Stop (StopGrace %v)", took.Round(time.Millisecond), app.StopGrace)
			limit := app.StopGrace + 1500*time.Millisecond
			if mode == app.PromptsAfterTurn {
				limit = 1500 * time.Millisecond // no grace: killed at once
			}
			if took > limit {
				t.Errorf("Stop reached Idle after %v; want within %v", took, limit)
			}
			if len(ofKind(evs, app.EvError)) != 0 {
				t.Errorf("a stop is not an error:\n%s", dump(evs))
			}
			if cli := r.rec.Pid(t, 1); procState(cli) != "" {
				t.Errorf("the killed CLI was not reaped: %s", procState(cli))
			}
		})
	}
}

// TestCloseReturnsWithin3s: Close ends a CLI that ignores its closed input,
// mid-turn or between turns, with a grandchild holding its pipes, within
// 3 s, and the CLI is reaped.
func TestCloseReturnsWithin3s(t *testing.T) {
	tests := []struct {
		name   string
		script string
		turn   bool // Close mid-turn
	}{
		{"mid-turn", strings.Join([]string{initLine, `wait "user"`, "spawnsetsid", bashUse, "sleep 60s"}, "\n"), true},
		{"between turns", strings.Join([]string{initLine, `wait "user"`, "spawnsetsid", resultLine, "waiteof", "sleep 60s"}, "\n"), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, app.Config{}, tc.script)
			r.killSpawnedAtEnd(1)
			r.send("go")
			if tc.turn {
				r.surf.WaitFor(t, "tool call", func(evs []app.Event) bool { return len(ofKind(evs, app.EvToolCall)) > 0 })
			} else {
				r.surf.WaitIdle(t, 1)
			}
			cli := r.rec.Pid(t, 1)
			start := time.Now()
			r.session.Close()
			took := time.Since(start)
			t.Logf("Close took %v", took.Round(time.Millisecond))
			if took > 3*time.Second {
				t.Errorf("Close took %v; want within 3 s", took)
			}
			if r.session.State() != app.Closed {
				t.Errorf("state after Close = %v", r.session.State())
			}
			if !eventually(5*time.Second, func() bool { return procState(cli) == "" }) {
				t.Errorf("the CLI (pid %d) was never reaped: state %s", cli, procState(cli))
			}
		})
	}
}

// TestRetiredProcessIsDrainedAndReaped: a live process retired between turns
// that prints far more than the event buffer on its way out is drained, so it
// finishes and exits on its own, and is reaped.
func TestRetiredProcessIsDrainedAndReaped(t *testing.T) {
	r := newRig(t, app.Config{}, strings.Join([]string{initLine, `wait "user"`, resultLine, "waiteof", "lines 20000", "stamp finished", "exit 0"}, "\n"))
	r.send("one")
	r.surf.WaitIdle(t, 1)
	cli := r.rec.Pid(t, 1)
	start := time.Now()
	// New flags retire the live process: its stdin closes and it has 3 s
	// to end before it is killed.
	r.session.Reconfigure(app.Config{Command: []string{fakecli.Path(t)}, AllowedTools: []string{"Bash"}})
	if !eventually(2500*time.Millisecond, func() bool { return r.rec.Has("finished", 1) }) {
		t.Fatalf("the retired CLI could not write its output within %v (nobody drained it)", time.Since(start).Round(time.Millisecond))
	}
	if !eventually(5*time.Second, func() bool { return procState(cli) == "" }) {
		t.Errorf("the retired CLI (pid %d) was never reaped: state %s", cli, procState(cli))
	}
}

// TestCLIDiesWithLatch: when Latch is killed, the CLI it started dies with it
// (Pdeathsig). Its own children are re-parented and outlive it; the kernel
// offers no way to take the whole process group down with Latch (see
// setProcAttr in app/cliproc), and the test logs what became of them.
func TestCLIDiesWithLatch(t *testing.T) {
	dir := t.TempDir()
	rec := fakecli.Records(dir)
	helper := exec.Command(os.Args[0], "-test.run=^TestLatchCrashHelper$", "-test.count=1")
	// The helper's own temp files (its build of the fake CLI) go in dir,
	// which outlives it: it is killed before it can clean up.
	helper.Env = append(os.Environ(), "LATCH_CRASH_HELPER="+dir, "TMPDIR="+dir)
	helper.Env = append(helper.Env, fakecli.Env(t, dir, strings.Join([]string{"spawn sleep 60", "spawnsetsid", "stamp ready", "sleep 60s"}, "\n"))...)
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		helper.Process.Kill()
		helper.Wait()
		for _, pid := range rec.Pids("spawned", 1) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	if !eventually(60*time.Second, func() bool { return rec.Has("ready", 1) }) {
		t.Fatal("the helper never got its CLI running")
	}
	cli := rec.Pid(t, 1)
	spawned := rec.Pids("spawned", 1)
	if dead(cli) || len(spawned) != 2 {
		t.Fatalf("CLI %d (%s), spawned %v", cli, procState(cli), spawned)
	}
	// Latch dies without a chance to clean up.
	helper.Process.Signal(syscall.SIGKILL)
	helper.Wait()
	killed := time.Now()
	if !eventually(2*time.Second, func() bool { return dead(cli) }) {
		t.Fatalf("the CLI (pid %d) outlived Latch by 2 s: state %s", cli, procState(cli))
	}
	t.Logf("the CLI died %v after Latch", time.Since(killed).Round(time.Millisecond))
	time.Sleep(100 * time.Millisecond)
	t.Logf("its child in the group: state %q; its setsid grandchild: state %q (\"\" = gone)", procState(spawned[0]), procState(spawned[1]))
}

// TestLatchCrashHelper is the Latch that TestCLIDiesWithLatch kills: it
// starts the fake CLI as Latch does and waits to be killed.
func TestLatchCrashHelper(t *testing.T) {
	dir := os.Getenv("LATCH_CRASH_HELPER")
	if dir == "" {
		t.Skip("run by TestCLIDiesWithLatch")
	}
	p, err := cliproc.Start([]string{fakecli.Path(t)}, dir, os.Environ(), stream.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Keep reading, as Latch does.
	go func() {
		for range p.Events() {
		}
	}()
	time.Sleep(2 * time.Minute)
}
