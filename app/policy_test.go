package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/latch-app/latch/core/stream"
)

// The grant policy alone: no process, no Surface.
func TestGrantRequestPolicy(t *testing.T) {
	work := t.TempDir()
	out := t.TempDir()
	bash := func(cmd string) json.RawMessage { return json.RawMessage(`{"command":` + quote(cmd) + `}`) }
	file := func(p string) json.RawMessage { return json.RawMessage(`{"file_path":` + quote(p) + `}`) }
	tests := []struct {
		name    string
		denials []stream.Denial
		allowed []string
		dirs    []string
		tools   []string // the rules offered
		folders []string
	}{
		{
			name:    "one rule per call, the exact command, deduplicated",
			denials: []stream.Denial{{Class: stream.StreamClosed, Tool: "Bash", Input: bash("npm test")}, {Class: stream.StreamClosed, Tool: "Bash", Input: bash("npm test")}},
			tools:   []string{"Bash(npm test)"},
		},
		{
			name:    "what the person refused or a stop is not offered after the turn",
			denials: []stream.Denial{{Class: stream.UserDenied, Tool: "Bash", Input: bash("rm x")}, {Class: stream.Interrupted, Tool: "Bash", Input: bash("ls")}, {Class: stream.DenyRule, Tool: "Bash", Input: bash("curl x")}},
		},
		{
			name:    "a folder outside the working folders is offered once; Read needs nothing more",
			denials: []stream.Denial{{Class: stream.NotGranted, Tool: "Read", Input: file(out + "/a"), Dir: out}, {Class: stream.NotGranted, Tool: "Read", Input: file(out + "/b"), Dir: out}},
			folders: []string{out},
		},
		{
			name:    "a write outside asks for the folder and the rule that lets edits there run",
			denials: []stream.Denial{{Class: stream.StreamClosed, Tool: "Write", Input: file(out + "/a"), Dir: out}},
			folders: []string{out},
			tools:   []string{"Edit(//" + strings.TrimPrefix(out, "/") + "/**)"},
		},
		{
			name:    "what is allowed already is left out",
			denials: []stream.Denial{{Class: stream.StreamClosed, Tool: "Bash", Input: bash("make")}, {Class: stream.NotGranted, Tool: "Read", Input: file(out + "/a"), Dir: out}},
			allowed: []string{"Bash(make)"},
			dirs:    []string{out},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := grantRequest(tc.denials, tc.allowed, tc.dirs, work, 2)
			var tools, folders []string
			for _, g := range r.Tools {
				tools = append(tools, g.Rule)
			}
			for _, f := range r.Folders {
				folders = append(folders, f.Path)
			}
			if !slices.Equal(tools, tc.tools) || !slices.Equal(folders, tc.folders) {
				t.Errorf("offered tools %q folders %q; want %q %q", tools, folders, tc.tools, tc.folders)
			}
			if r.Round != 2 || r.Workdir != work {
				t.Errorf("round %d workdir %q", r.Round, r.Workdir)
			}
		})
	}
}

func TestSaveGrantsPolicy(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	work := t.TempDir()
	out := t.TempDir()
	user := filepath.Join(home, ".claude", "settings.json")
	rel := "//" + strings.TrimPrefix(out, "/")
	tests := []struct {
		name      string
		d         Decision
		rules     []string
		dirs      []string
		err       string
		savedTo   string // the file that must now exist, "" for none
		savedText string
	}{
		{name: "once: checked, saved nowhere", d: Decision{Scope: ScopeOnce, Rules: []string{"Bash(make)"}, Folders: []string{out}},
			rules: []string{"Bash(make)", "Edit(" + rel + "/**)"}, dirs: []string{out}},
		{name: "a folder for reading is a Read rule, not a working folder", d: Decision{Scope: ScopeOnce, Folders: []string{out}, ReadOnly: []string{out}},
			rules: []string{"Read(" + rel + "/**)"}},
		{name: "a bad rule is refused, the rest granted", d: Decision{Scope: ScopeOnce, Rules: []string{"Bash(unclosed", "Read"}},
			rules: []string{"Read"}, err: "Bash(unclosed"},
		{name: "the home folder needs a second yes", d: Decision{Scope: ScopeOnce, Folders: []string{home}},
			err: home},
		{name: "user scope writes the user settings", d: Decision{Scope: ScopeUser, Rules: []string{"Bash(make)"}},
			rules: []string{"Bash(make)"}, savedTo: user, savedText: `"Bash(make)"`},
		{name: "project scope writes the project's local settings", d: Decision{Scope: ScopeProject, Rules: []string{"Bash(go test)"}},
			rules: []string{"Bash(go test)"}, savedTo: filepath.Join(work, ".claude", "settings.local.json"), savedText: `"Bash(go test)"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			os.RemoveAll(filepath.Join(home, ".claude"))
			os.RemoveAll(filepath.Join(work, ".claude"))
			rules, dirs, err := saveGrants(tc.d, user, work)
			if !slices.Equal(rules, tc.rules) || !slices.Equal(dirs, tc.dirs) {
				t.Errorf("granted rules %q dirs %q; want %q %q", rules, dirs, tc.rules, tc.dirs)
			}
			if (err != nil) != (tc.err != "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
				t.Errorf("error %v, want one naming %q", err, tc.err)
			}
			for _, f := range []string{user, filepath.Join(work, ".claude", "settings.local.json")} {
				b, rerr := os.ReadFile(f)
				switch {
				case f == tc.savedTo && (rerr != nil || !strings.Contains(string(b), tc.savedText)):
					t.Errorf("%s holds %q (%v), want %s", f, b, rerr, tc.savedText)
				case f != tc.savedTo && rerr == nil:
					t.Errorf("%s was written: %q", f, b)
				}
			}
		})
	}
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }
