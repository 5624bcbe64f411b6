package app_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/latch-app/latch/app"
	"github.com/latch-app/latch/internal/testsupport/fakeapi"
)

// layered writes rules into the user, project (shared) and project-local
// settings of the rig, and marks the folder trusted when trusted is set.
func (r *contractRig) layered(trusted bool) {
	r.t.Helper()
	os.MkdirAll(filepath.Join(r.home, ".claude"), 0o755)
	os.MkdirAll(filepath.Join(r.work, ".claude"), 0o755)
	writeFile(r.t, r.cfg.UserSettings, `{"permissions": {"allow": ["Bash(npm test:*)", "Read(~/notes/**)"], "deny": ["Bash(rm -rf:*)"], "ask": ["WebFetch"]}}`)
	writeFile(r.t, filepath.Join(r.work, ".claude", "settings.json"), `{"permissions": {"allow": ["Bash(make:*)"], "deny": ["Read(./secrets/**)"]}}`)
	writeFile(r.t, filepath.Join(r.work, ".claude", "settings.local.json"), `{"permissions": {"allow": ["Edit(//opt/x/**)"]}}`)
	if trusted {
		writeFile(r.t, filepath.Join(r.home, ".claude.json"), fmt.Sprintf(`{"projects": {%q: {"hasTrustDialogAccepted": true}}}`, r.work))
	}
}

// ruleSet is the view's rules in force, as "behavior source rule".
func ruleSet(v app.PermissionView) []string {
	var out []string
	for _, l := range v.Layers {
		for _, e := range l.Rules {
			if e.Ignored == "" {
				out = append(out, e.Behavior+" "+e.Source+" "+e.Rule)
			}
		}
	}
	slices.Sort(out)
	return out
}

// The view a live CLI gives (list_permission_rules, get_settings) and the
// one Latch computes from the files agree, layer by layer, for a folder
// with user, project, local and command-line rules; trusted and not.
func TestContractPermissionViewMatchesTheFiles(t *testing.T) {
	for _, trusted := range []bool{true, false} {
		t.Run(fmt.Sprintf("trusted=%v", trusted), func(t *testing.T) {
			r := newContractRig(t)
			r.layered(trusted)
			r.cfg.AllowedTools = []string{"Bash(git status)"}
			r.sess = app.NewSession(r.cfg, r.surf)
			files, err := r.sess.Permissions(context.Background()) // no process yet: the files
			if err != nil || files.Origin != app.OriginFiles {
				t.Fatalf("view before a process: %v, origin %q", err, files.Origin)
			}
			r.api.Push(fakeapi.Say(fakeapi.Text("Hi.")))
			r.send("hi")
			live, err := r.sess.Permissions(context.Background())
			if err != nil || live.Origin != app.OriginCLI {
				t.Fatalf("view with a live process: %v, origin %q", err, live.Origin)
			}
			if len(live.Differences) != 0 {
				t.Errorf("the CLI and the files disagree:\n%s", strings.Join(live.Differences, "\n"))
			}
			want := []string{
				"allow cliArg Bash(git status)",
				"allow localSettings Edit(//opt/x/**)",
				"allow userSettings Bash(npm test:*)",
				"allow userSettings Read(~/notes/**)",
				"ask userSettings WebFetch",
				"deny projectSettings Read(./secrets/**)",
				"deny userSettings Bash(rm -rf:*)",
			}
			if trusted {
				want = append(want, "allow projectSettings Bash(make:*)")
				slices.Sort(want)
			}
			if got := ruleSet(live); !slices.Equal(got, want) {
				t.Errorf("rules in force (live):\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if got := ruleSet(files); !slices.Equal(got, want) {
				t.Errorf("rules in force (files):\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if live.Trusted != trusted {
				t.Errorf("trusted %v, want %v", live.Trusted, trusted)
			}
			if st := lastStatus(r.surf.Events()); st == nil || st.Untrusted != !trusted ||
				strings.Contains(st.TrustWarning, "has not been trusted") != !trusted {
				t.Errorf("status %+v: want untrusted %v and the CLI's warning about the ignored rule when untrusted", st, !trusted)
			}
		})
	}
}

// A Write that asks in Manual runs unasked once the running session is
// switched to Accept edits; Bypass is refused in words; each switch and
// answer is in the audit log.
func TestContractModeSwitchIsHonoured(t *testing.T) {
	r := newContractRig(t)
	log := app.OpenAuditAt(filepath.Join(t.TempDir(), "audit.jsonl"), func(err error) { t.Errorf("audit: %v", err) })
	r.cfg.Audit = log
	r.surf.OnAsk(func(context.Context, app.Question) app.Decision { return app.Decision{Action: app.Deny} })
	n := 0
	r.api.Handle(func(req fakeapi.Request) (fakeapi.Reply, bool) {
		if _, ok := req.LastToolResult(); ok {
			return fakeapi.Say(fakeapi.Text("done.")), true
		}
		n++
		return fakeapi.Say(fakeapi.ToolUse("Write", map[string]string{
			"file_path": filepath.Join(r.work, fmt.Sprintf("w%d.txt", n)), "content": "x\n"})), true
	})
	r.send("write one")
	if len(r.surf.Questions()) != 1 || exists(filepath.Join(r.work, "w1.txt")) {
		t.Fatalf("in Manual the Write must ask and, denied, not run: %d questions", len(r.surf.Questions()))
	}
	got, err := r.sess.SetMode(context.Background(), app.ModeAcceptEdits)
	if err != nil || got != app.ModeAcceptEdits {
		t.Fatalf("SetMode: %q, %v", got, err)
	}
	r.send("write two")
	if len(r.surf.Questions()) != 1 || !exists(filepath.Join(r.work, "w2.txt")) {
		t.Errorf("in Accept edits the Write must run unasked: %d questions, file there: %v", len(r.surf.Questions()), exists(filepath.Join(r.work, "w2.txt")))
	}
	if _, err := r.sess.SetMode(context.Background(), app.ModeBypass); err == nil || !strings.Contains(err.Error(), "--dangerously-skip-permissions") {
		t.Errorf("bypass without the flag: %v", err)
	}
	if slices.ContainsFunc(r.sess.Modes(), func(m app.Mode) bool { return m.Value == app.ModeBypass }) {
		t.Error("Bypass offered to a session not launched with it")
	}
	if st := lastStatus(r.surf.Events()); st == nil || st.PermissionMode != app.ModeAcceptEdits {
		t.Errorf("status %+v, want the mode acceptEdits", st)
	}
	r.sess.Close()
	r.sess = nil
	log.Close()
	entries, err := log.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range slices.Backward(entries) {
		kinds = append(kinds, e.Kind+":"+e.Decision+e.Mode+":"+e.Decider)
	}
	for _, want := range []string{"ask::", "answer:deny:person", "denial::person", "mode:acceptEdits:person", "allowed::"} {
		if !slices.ContainsFunc(kinds, func(k string) bool { return strings.HasPrefix(k, want) }) {
			t.Errorf("no %q in the audit log: %v", want, kinds)
		}
	}
}

// Trusting the folder goes through the running CLI (initialize with
// workspaceTrust), which records it, and the project's shared allow rule
// is in force from then on.
func TestContractTrustFolderThroughTheCLI(t *testing.T) {
	r := newContractRig(t)
	r.layered(false)
	r.api.Push(fakeapi.Say(fakeapi.Text("Hi.")))
	r.send("hi")
	if st := lastStatus(r.surf.Events()); st == nil || !st.Untrusted {
		t.Fatalf("status %+v, want the folder untrusted", st)
	}
	if err := r.sess.TrustFolder(context.Background()); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(r.home, ".claude.json"))
	if err != nil || !strings.Contains(string(b), `"hasTrustDialogAccepted": true`) {
		t.Errorf("~/.claude.json after the trust: %v\n%.400s", err, b)
	}
	if _, err := os.Stat(filepath.Join(r.home, ".claude.json.latch-bak")); err == nil {
		t.Error("Latch edited the file itself although the CLI took the trust")
	}
	v, err := r.sess.Permissions(context.Background())
	if err != nil || !v.Trusted || !slices.Contains(ruleSet(v), "allow projectSettings Bash(make:*)") {
		t.Errorf("after the trust: %v, trusted %v, rules %v", err, v.Trusted, ruleSet(v))
	}
	if st := lastStatus(r.surf.Events()); st == nil || st.Untrusted {
		t.Errorf("status %+v, want the folder trusted", st)
	}
}

func lastStatus(evs []app.Event) *app.Status {
	var st *app.Status
	for _, e := range ofKind(evs, app.EvStatus) {
		st = e.Status
	}
	return st
}
