package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The locales scripts and containers run with: C and POSIX, which Fyne's
// locale library skips, and the forms with an encoding, which Fyne's lang
// package used to log about while it was initialised (see internal/quietlocale).
var posixLocales = []string{"C", "C.UTF-8", "POSIX", "C.utf8", "POSIX.UTF-8"}

var built struct {
	once sync.Once
	bin  string
	err  error
	out  []byte
}

// latchBinary is the latch command built from this tree, once per test
// binary (the package initialisation order is a property of the linked
// program, so the test runs the program, not run()).
func latchBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "latch-bin-")
		if err != nil {
			built.err = err
			return
		}
		built.bin = filepath.Join(dir, "latch")
		// Built as `make build` builds it (position-independent), so the
		// test reuses that build's cache instead of compiling Fyne again.
		cmd := exec.Command("go", "build", "-buildmode=pie", "-o", built.bin, ".")
		built.out, built.err = cmd.CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return built.bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.bin != "" {
		os.RemoveAll(filepath.Dir(built.bin))
	}
	os.Exit(code)
}

// localeEnv is this process's environment with no locale variable but
// those in locale ("LANG=C"), and HOME, CLAUDE_CONFIG_DIR and
// XDG_CONFIG_HOME in home.
func localeEnv(home string, locale ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE", "HOME", "CLAUDE_CONFIG_DIR", "XDG_CONFIG_HOME":
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "HOME="+home, "CLAUDE_CONFIG_DIR="+filepath.Join(home, ".claude"), "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
	return append(env, locale...)
}

// TestSubcommandsQuietUnderPOSIXLocales: inspect, grants and version write
// their own output and nothing on stderr under the C and POSIX locales.
func TestSubcommandsQuietUnderPOSIXLocales(t *testing.T) {
	bin := latchBinary(t)
	transcript := filepath.Join(t.TempDir(), "t.ndjson")
	lines := `{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":["Bash"]}
{"type":"result","subtype":"success","is_error":false,"session_id":"s1","result":"hi","total_cost_usd":0}
`
	if err := os.WriteFile(transcript, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	commands := []struct {
		args   []string
		stdout string
	}{
		{[]string{"version"}, "Latch " + version},
		{[]string{"inspect", transcript}, "turn 1: session s1"},
		{[]string{"grants", "list"}, "allow: (none)"},
	}
	for _, lang := range posixLocales {
		for _, c := range commands {
			t.Run(lang+"/"+c.args[0], func(t *testing.T) {
				var stdout, stderr bytes.Buffer
				cmd := exec.Command(bin, c.args...)
				cmd.Env = localeEnv(t.TempDir(), "LANG="+lang)
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if err := cmd.Run(); err != nil {
					t.Fatalf("latch %s: %v\nstderr: %s", strings.Join(c.args, " "), err, stderr.String())
				}
				if stderr.Len() != 0 {
					t.Errorf("LANG=%s latch %s: stderr %q, want nothing", lang, strings.Join(c.args, " "), stderr.String())
				}
				if !strings.Contains(stdout.String(), c.stdout) {
					t.Errorf("LANG=%s latch %s: stdout %q, want it to hold %q", lang, strings.Join(c.args, " "), stdout.String(), c.stdout)
				}
			})
		}
	}
}

// TestChildrenInheritTheLocale: whatever the locale was changed to while
// Fyne initialised, the process Latch starts (the CLI's environment is
// os.Environ() unless the config gives one) gets the person's own. The
// test binary links the same packages as latch, in the same order, so it
// re-runs itself with the locale set and reports what a child sees.
func TestChildrenInheritTheLocale(t *testing.T) {
	if os.Getenv("LATCH_LOCALE_CHILD") == "1" {
		out, err := exec.Command("/bin/sh", "-c", `printf 'LC_ALL=%s LC_MESSAGES=%s LANG=%s' "$LC_ALL" "$LC_MESSAGES" "$LANG"`).Output()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("child: %s\n", out)
		return
	}
	// Each is a value quietlocale changes while Fyne initialises.
	for _, locale := range []string{"LANG=C.UTF-8", "LC_ALL=POSIX.UTF-8", "LC_MESSAGES=C.utf8"} {
		t.Run(locale, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(os.Args[0], "-test.run=^TestChildrenInheritTheLocale$", "-test.count=1")
			cmd.Env = localeEnv(t.TempDir(), locale, "LATCH_LOCALE_CHILD=1")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Fatalf("%v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
			}
			key, value, _ := strings.Cut(locale, "=")
			want := map[string]string{"LC_ALL": "", "LC_MESSAGES": "", "LANG": ""}
			want[key] = value
			wantLine := "child: LC_ALL=" + want["LC_ALL"] + " LC_MESSAGES=" + want["LC_MESSAGES"] + " LANG=" + want["LANG"]
			if !strings.Contains(stdout.String(), wantLine+"\n") {
				t.Errorf("the child saw %q, want %q", stdout.String(), wantLine)
			}
			if stderr.Len() != 0 {
				t.Errorf("stderr %q, want nothing", stderr.String())
			}
		})
	}
}
