package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestIsBroadRule(t *testing.T) {
	for rule, want := range map[string]bool{"Bash": true, "Edit": true, "Write": true, "Read": true, " Bash ": true,
		"Bash(ls)": false, "WebSearch": false, "Edit(//w/**)": false} {
		if got := IsBroadRule(rule); got != want {
			t.Errorf("IsBroadRule(%q) = %v", rule, got)
		}
	}
}

// "Always" for this project is written by Latch into the project file and
// the CLI is told "session"; a project file that resolves outside the
// project is refused, and the rule holds for this session only.
func TestAlwaysAllowProjectScope(t *testing.T) {
	for _, outside := range []bool{false, true} {
		t.Run(map[bool]string{false: "saved", true: "symlink outside refused"}[outside], func(t *testing.T) {
			r := newRig(t, Config{}, strings.Join([]string{initLine, `wait "user"`, bashUse, bashAsk, `wait "control_response"`, resultLine, "waiteof"}, "\n"))
			elsewhere := t.TempDir()
			if outside {
				if err := os.Symlink(elsewhere, filepath.Join(r.work, ".claude")); err != nil {
					t.Fatal(err)
				}
			}
			r.surf.ask = func(context.Context, Question) Decision {
				return Decision{Action: AllowAlways, Rule: "Bash(touch x.txt)", Scope: ScopeProject}
			}
			r.send("make x")
			evs := r.surf.waitIdle(t, 1)
			stdin := r.file("stdin", 1)
			if strings.Contains(stdin, "localSettings") || strings.Contains(stdin, "userSettings") {
				t.Errorf("the CLI was asked to write a settings file: %s", stdin)
			}
			if !strings.Contains(stdin, `"apply_flag_settings","settings":{"permissions":{"allow":["Bash(touch x.txt)"]`) {
				t.Errorf("the running CLI was not given the rule: %s", stdin)
			}
			b, _ := os.ReadFile(filepath.Join(r.work, ".claude", "settings.local.json"))
			if outside {
				if len(b) != 0 || len(find(evs, EvError)) != 1 {
					t.Errorf("wrote through a symlink outside the project: %q; events:\n%s", b, dump(evs))
				}
				if e := find(evs, EvError); len(e) == 1 && !strings.Contains(e[0].Err.Detail, "session only") {
					t.Errorf("error does not say the rule holds for this session: %+v", e[0].Err)
				}
				return
			}
			if !strings.Contains(string(b), `"Bash(touch x.txt)"`) {
				t.Errorf("project settings = %s", b)
			}
			saved := false
			for _, e := range find(evs, EvGrant) {
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
	r := newRig(t, Config{}, strings.Join([]string{initLine, `wait "user"`, bashUse, ask, `wait "control_response"`, resultLine, "waiteof"}, "\n"))
	r.surf.ask = func(_ context.Context, q Question) Decision {
		if q.Rule != "Bash(touch x.txt)" {
			t.Errorf("offered rule %q", q.Rule)
		}
		return Decision{Action: AllowAlways, Scope: ScopeUser}
	}
	r.send("make x")
	r.surf.waitIdle(t, 1)
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
	r := newRig(t, Config{AddDirs: []string{link, dotted}}, strings.Join([]string{initLine, `wait "user"`, resultLine, "waiteof"}, "\n"))
	r.send("hi")
	r.surf.waitIdle(t, 1)
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
	r := newRig(t, Config{}, first, second)
	r.surf.ask = func(context.Context, Question) Decision {
		return Decision{Action: AllowAlways, Rule: "Bash(touch x.txt)", Scope: ScopeOnce}
	}
	r.send("make x")
	evs := r.surf.waitIdle(t, 1)
	if !strings.Contains(r.file("stdin", 1), `"updatedPermissions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"touch x.txt"}],"behavior":"allow","destination":"session"}]`) {
		t.Errorf("the answer does not carry the session rule: %s", r.file("stdin", 1))
	}
	said := false
	for _, e := range find(evs, EvNotice) {
		said = said || strings.Contains(e.Text, "cannot take grants while it runs")
	}
	if !said {
		t.Errorf("no notice of the older way:\n%s", dump(evs))
	}
	r.send("again")
	r.surf.waitIdle(t, 2)
	if argv := strings.Join(r.argv(2), " "); !strings.Contains(argv, "--allowedTools Bash(touch x.txt)") || !strings.Contains(argv, "--resume=") {
		t.Errorf("the resumed process does not carry the grant: %s", argv)
	}
}

// A folder grant says what it allows: reading is a Read rule; reading and
// writing is the folder itself with an Edit rule, so a Write there does not
// ask again.
func TestFolderGrantAccess(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name      string
		readOnly  []string
		wantRules []string
		wantDirs  []string
	}{
		{"read and write", nil, []string{"Edit(/" + dir + "/**)"}, []string{dir}},
		{"read only", []string{dir}, []string{"Read(/" + dir + "/**)"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			settings := filepath.Join(t.TempDir(), "settings.json")
			rules, dirs, err := saveGrants(Decision{Folders: []string{dir}, ReadOnly: tc.readOnly, Scope: ScopeUser}, settings, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(rules, ",") != strings.Join(tc.wantRules, ",") || strings.Join(dirs, ",") != strings.Join(tc.wantDirs, ",") {
				t.Errorf("rules %v dirs %v; want %v %v", rules, dirs, tc.wantRules, tc.wantDirs)
			}
			b, _ := os.ReadFile(settings)
			for _, r := range tc.wantRules {
				if !strings.Contains(string(b), r) {
					t.Errorf("settings lack %s: %s", r, b)
				}
			}
			if (len(tc.wantDirs) > 0) != strings.Contains(string(b), "additionalDirectories") {
				t.Errorf("settings: %s", b)
			}
		})
	}
}
