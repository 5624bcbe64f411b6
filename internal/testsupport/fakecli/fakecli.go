// Package fakecli is the scripted stand-in for the claude CLI (the program
// in cmd/fakeclaude, whose doc lists the script steps) and what a test needs
// to use it: Path builds it once per test binary, Env points its runs at
// scripts, and Records reads what the runs recorded.
package fakecli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

const program = "github.com/latch-app/latch/internal/testsupport/fakecli/cmd/fakeclaude"

var build struct {
	once sync.Once
	dir  string // the temp folder of the build
	path string
	err  error
}

// Path is the fake CLI, built on the first call in this test binary. Call
// Remove from TestMain when the tests are done.
func Path(tb testing.TB) string {
	tb.Helper()
	build.once.Do(func() {
		build.dir, build.err = os.MkdirTemp("", "latch-fakecli-")
		if build.err != nil {
			return
		}
		build.path = filepath.Join(build.dir, "claude")
		if out, err := exec.Command("go", "build", "-o", build.path, program).CombinedOutput(); err != nil {
			build.err = fmt.Errorf("building the fake CLI: %v\n%s", err, out)
		}
	})
	if build.err != nil {
		tb.Fatal(build.err)
	}
	return build.path
}

// Remove deletes what Path built.
func Remove() {
	if build.dir != "" {
		os.RemoveAll(build.dir)
	}
}

// Env writes scripts into dir and returns the variables that make the fake
// CLI record its runs in dir and play scripts[i] in run i+1; a run without a
// script of its own plays the first.
func Env(tb testing.TB, dir string, scripts ...string) []string {
	tb.Helper()
	env := []string{"FAKECLI_DIR=" + dir}
	for i, s := range scripts {
		run := strconv.Itoa(i + 1)
		p := filepath.Join(dir, "script."+run)
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			tb.Fatal(err)
		}
		env = append(env, "FAKECLI_SCRIPT_"+run+"="+p)
		if i == 0 {
			env = append(env, "FAKECLI_SCRIPT="+p)
		}
	}
	return env
}

// Records is the folder ($FAKECLI_DIR) where the fake CLI's runs record
// what they saw and did.
type Records string

func (r Records) path(name string, run int) string {
	return filepath.Join(string(r), name+"."+strconv.Itoa(run))
}

// Has reports whether run wrote the record name: "argv" for whether the run
// started at all, a stamp's name for whether the run got that far.
func (r Records) Has(name string, run int) bool {
	_, err := os.Stat(r.path(name, run))
	return err == nil
}

// Read is the record name ("argv", "env", "stdin", …) of run; it fails the
// test when there is none.
func (r Records) Read(tb testing.TB, name string, run int) string {
	tb.Helper()
	b, err := os.ReadFile(r.path(name, run))
	if err != nil {
		tb.Fatalf("reading fake CLI record: %v", err)
	}
	return string(b)
}

// Argv is the arguments run was started with.
func (r Records) Argv(tb testing.TB, run int) []string {
	tb.Helper()
	return strings.Split(strings.TrimSpace(r.Read(tb, "argv", run)), "\n")
}

// Pids reads a record of pids ("pid", "spawned"); nil when there is none.
func (r Records) Pids(name string, run int) []int {
	b, err := os.ReadFile(r.path(name, run))
	if err != nil {
		return nil
	}
	var out []int
	for _, f := range strings.Fields(string(b)) {
		if n, err := strconv.Atoi(f); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// Pid waits up to 10 s for the pid of run.
func (r Records) Pid(tb testing.TB, run int) int {
	tb.Helper()
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if p := r.Pids("pid", run); len(p) == 1 {
			return p[0]
		}
		if time.Now().After(end) {
			tb.Fatal("the fake CLI never wrote its pid")
		}
	}
}

// Stamp is the time the step "stamp name" of run wrote.
func (r Records) Stamp(tb testing.TB, name string, run int) time.Time {
	tb.Helper()
	b, err := os.ReadFile(r.path(name, run))
	if err != nil {
		tb.Fatalf("no %s stamp: %v", name, err)
	}
	n, _ := strconv.ParseInt(string(b), 10, 64)
	return time.Unix(0, n)
}
