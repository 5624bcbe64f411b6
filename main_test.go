package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRunDispatch(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     string
		stderr     string
		openWindow string // the folder the window was opened on; "-" = not opened
	}{
		{"no args opens the window", nil, 0, "", "", ""},
		{"a folder opens the window on it", []string{dir}, 0, "", "", dir},
		{"version", []string{"version"}, 0, "Latch " + version + "\n", "", "-"},
		{"help", []string{"help"}, 0, "usage: latch", "", "-"},
		{"unknown flag", []string{"--frobnicate"}, 2, "", "usage: latch", "-"},
		{"not a folder", []string{dir + "/missing"}, 2, "", "is not a folder or a command", "-"},
		{"two folders", []string{dir, dir}, 2, "", "usage: latch", "-"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			opened := "-"
			code := run(tc.args, strings.NewReader(""), &out, &errb, func(d string) int { opened = d; return 0 })
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, errb.String())
			}
			if !strings.Contains(out.String(), tc.stdout) || (tc.stdout == "" && out.Len() != 0) {
				t.Errorf("stdout %q, want %q", out.String(), tc.stdout)
			}
			if !strings.Contains(errb.String(), tc.stderr) || (tc.stderr == "" && errb.Len() != 0) {
				t.Errorf("stderr %q, want %q", errb.String(), tc.stderr)
			}
			if opened != tc.openWindow {
				t.Errorf("window opened on %q, want %q", opened, tc.openWindow)
			}
		})
	}
}

func TestStartFolder(t *testing.T) {
	last, other := t.TempDir(), t.TempDir()
	home := t.TempDir()
	t.Setenv("HOME", home)
	tests := []struct {
		name, last, cwd, want string
	}{
		{"the last folder wins", last, other, last},
		{"a vanished last folder falls back to the current one", last + "/gone", other, other},
		{"started from home: ask", "", home, ""},
		{"started from /: ask", "", "/", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(tc.cwd)
			if got := startFolder(tc.last); got != tc.want {
				t.Errorf("startFolder(%q) in %s = %q, want %q", tc.last, tc.cwd, got, tc.want)
			}
		})
	}
}

func TestNoDisplay(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	for _, tc := range []struct {
		name, goos string
		getenv     func(string) string
		refused    bool
	}{
		{"no display on linux", "linux", env(), true},
		{"X11", "linux", env("DISPLAY", ":0"), false},
		{"Wayland", "linux", env("WAYLAND_DISPLAY", "wayland-0"), false},
		{"a BSD without one", "freebsd", env(), true},
		{"macOS needs neither", "darwin", env(), false},
		{"Windows needs neither", "windows", env(), false},
	} {
		if got := noDisplay(tc.goos, tc.getenv); (got != "") != tc.refused || (tc.refused && !strings.Contains(got, "DISPLAY")) {
			t.Errorf("%s: %q", tc.name, got)
		}
	}
}
