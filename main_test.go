package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/adrg/xdg"

	"github.com/latch-app/latch/core/grants"
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

// TestSessionConfigBaseline: the baseline tools reach --allowedTools after
// the turn, not live, unless the config holds the person's choice.
func TestSessionConfigBaseline(t *testing.T) {
	tests := []struct {
		name, baseline  string // the config's baseline keys, "" = none
		live, afterTurn bool   // the baseline is in AllowedTools
	}{
		{"no choice", ``, false, true},
		{"0.1.0's default", `"baseline_tools": true,`, false, true},
		{"0.1.0, unticked", `"baseline_tools": false,`, false, false},
		{"chosen on", `"baseline_tools": true, "baseline_tools_set": true,`, true, true},
		{"chosen off", `"baseline_tools": false, "baseline_tools_set": true,`, false, false},
	}
	for _, tc := range tests {
		for _, mode := range []string{grants.PromptsLive, grants.PromptsAfterTurn} {
			t.Run(tc.name+", "+mode, func(t *testing.T) {
				cfgHome := t.TempDir()
				t.Cleanup(xdg.Reload)
				t.Setenv("XDG_CONFIG_HOME", cfgHome)
				t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
				xdg.Reload()
				path := filepath.Join(cfgHome, "latch", "config.json")
				if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
					t.Fatal(err)
				}
				data := `{` + tc.baseline + ` "allowed_tools": ["WebFetch"], "permission_prompts": "` + mode + `"}`
				if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
					t.Fatal(err)
				}
				cfg, err := sessionConfig(t.TempDir())
				if err != nil {
					t.Fatal(err)
				}
				want := []string{"WebFetch"}
				if (mode == grants.PromptsLive && tc.live) || (mode == grants.PromptsAfterTurn && tc.afterTurn) {
					want = append(slices.Clone(grants.BaselineTools), want...)
				}
				if !slices.Equal(cfg.AllowedTools, want) || cfg.Prompts != mode {
					t.Errorf("%s: AllowedTools %q, Prompts %q; want %q, %q", data, cfg.AllowedTools, cfg.Prompts, want, mode)
				}
			})
		}
	}
}
