package app_test

// Grants on the scripted CLI: "always allow" saved by Latch, folders
// passed as --add-dir, and a CLI that does not take the flag layer.

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/latch-app/latch/app"
)

// "Always" for this project is written by Latch into the project file and
// the CLI is told "session"; a project file that resolves outside the
// project is refused, and the rule holds for this session only.
func TestAlwaysAllowProjectScope(t *testing.T) {
	for _, outside := range []bool{false, true} {
		t.Run(map[bool]string{false: "saved", true: "symlink outside refused"}[outside], func(t *testing.T) {
			r := newRig(t, app.Config{}, strings.Join([]string{initLine, `wait "user"`, bashUse, bashAsk, `wait "control_response"`, resultLine, "waiteof"}, "\n"))
			elsewhere := t.TempDir()
			if outside {
				if err := os.Symlink(elsewhere, filepath.Join(r.work, ".claude")); err != nil {
					t.Fatal(err)
				}
			}
			r.surf.OnAsk(func(context.Context, app.Question) app.Decision {
				return app.Decision{Action: app.AllowAlways, Rule: "Bash(touch x.txt)", Scope: app.ScopeProject}
			})
			r.send("make x")
			evs := r.surf.WaitIdle(t, 1)
			stdin := r.file("stdin", 1)
			if strings.Contains(stdin, "localSettings") || strings.Contains(stdin, "userSettings") {
				t.Errorf("the CLI was asked to write a settings file: %s", stdin)
			}
			if !strings.Contains(stdin, `"apply_flag_settings","settings":{"permissions":{"allow":["Bash(touch x.txt)"]`) {
				t.Errorf("the running CLI was not given the rule: %s", stdin)
			}
			b, _ := os.ReadFile(filepath.Join(r.work, ".claude", "settings.local.json"))
			if outside {
				if len(b) != 0 || len(ofKind(evs, app.EvError)) != 1 {
					t.Errorf("wrote through a symlink outside the project: %q; events:\n%s", b, dump(evs))
				}
				if e := ofKind(evs, app.EvError); len(e) == 1 && !strings.Contains(e[0].Err.Detail, "session only") {
					t.Errorf("error does not say the rule holds for this session: %+v", e[0].Err)
				}
				return
			}
			if !strings.Contains(string(b), `"Bash(touch x.txt)"`) {
				t.Errorf("project settings = %s", b)
			}
			saved := false
			for _, e := range ofKind(evs, app.EvGrant) {
				saved = saved || strings.Contains(e.Grant.Text, "Saved Bash(touch x.txt) to "+filepath.Join(r.work, ".claude", "settings.local.json"))
			}
			if !saved {
				t.Errorf("no notice says where the rule was saved:\n%s", dump(evs))
			}
		})
	}
}

// Without a rule from the dialog or the CLI, nothing bare is saved.
func TestAlwaysAllowNeverSavesABareTool(t *testing.T) {
	ask := `print {"type":"control_request","request_id":"req-1","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"touch x.txt"},"permission_suggestions":[{"type":"addRules","rules":[{"toolName":"Bash"}],"behavior":"allow"}],"tool_use_id":"toolu_1"}}`
	r := newRig(t, app.Config{}, strings.Join([]string{initLine, `wait "user"`, bashUse, ask, `wait "control_response"`, resultLine, "waiteof"}, "\n"))
	r.surf.OnAsk(func(_ context.Context, q app.Question) app.Decision {
		if q.Rule != "Bash(touch x.txt)" {
			t.Errorf("offered rule %q", q.Rule)
		}
		return app.Decision{Action: app.AllowAlways, Scope: app.ScopeUser}
	})
	r.send("make x")
	r.surf.WaitIdle(t, 1)
	b, _ := os.ReadFile(filepath.Join(r.home, ".claude", "settings.json"))
	if !strings.Contains(string(b), `"Bash(touch x.txt)"`) || strings.Contains(string(b), `"Bash"`) {
		t.Errorf("user settings = %s", b)
	}
}

// Folders passed as --add-dir are resolved: a configured symlink or a path
// with .. reaches the CLI as the folder it names.
func TestAddDirsAreResolved(t *testing.T) {
	target := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	dotted := filepath.Join(target, "sub", "..") + "//"
	if err := os.Mkdir(filepath.Join(target, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := newRig(t, app.Config{AddDirs: []string{link, dotted}}, strings.Join([]string{initLine, `wait "user"`, resultLine, "waiteof"}, "\n"))
	r.send("hi")
	r.surf.WaitIdle(t, 1)
	argv := strings.Join(r.argv(1), "\n")
	if !strings.Contains(argv, "--add-dir\n"+target+"\n") || strings.Contains(argv, link) || strings.Contains(argv, "..") {
		t.Errorf("argv:\n%s", argv)
	}
	if strings.Count(argv, target+"\n") != 1 {
		t.Errorf("the same folder is passed twice:\n%s", argv)
	}
}

// A CLI that does not take apply_flag_settings gets grants the older way:
// in the answer for its own life, then on the command line of a resumed
// process.
func TestGrantsWithoutFlagLayer(t *testing.T) {
	refuse := `print {"type":"control_response","response":{"subtype":"error","request_id":"latch_flags_1","error":"Unsupported control request subtype: apply_flag_settings"}}`
	first := strings.Join([]string{`wait "latch_flags_1"`, refuse, `wait "user"`, initLine, bashUse, bashAsk, `wait "control_response"`, resultLine, "waiteof"}, "\n")
	second := strings.Join([]string{`wait "user"`, initLine, resultLine, "waiteof"}, "\n")
	r := newRig(t, app.Config{}, first, second)
	r.surf.OnAsk(func(context.Context, app.Question) app.Decision {
		return app.Decision{Action: app.AllowAlways, Rule: "Bash(touch x.txt)", Scope: app.ScopeOnce}
	})
	r.send("make x")
	evs := r.surf.WaitIdle(t, 1)
	if !strings.Contains(r.file("stdin", 1), `"updatedPermissions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"touch x.txt"}],"behavior":"allow","destination":"session"}]`) {
		t.Errorf("the answer does not carry the session rule: %s", r.file("stdin", 1))
	}
	said := false
	for _, e := range ofKind(evs, app.EvNotice) {
		said = said || strings.Contains(e.Text, "cannot take grants while it runs")
	}
	if !said {
		t.Errorf("no notice of the older way:\n%s", dump(evs))
	}
	r.send("again")
	r.surf.WaitIdle(t, 2)
	if argv := strings.Join(r.argv(2), " "); !strings.Contains(argv, "--allowedTools Bash(touch x.txt)") || !strings.Contains(argv, "--resume=") {
		t.Errorf("the resumed process does not carry the grant: %s", argv)
	}
}
