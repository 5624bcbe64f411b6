package app_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/latch-app/latch/app"
)

// copySession puts a real session file (core/sessions/testdata) where the
// CLI run with home would keep the sessions of workdir.
func copySession(t *testing.T, home, workdir, fixture, id string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "core", "sessions", "testdata", "cli-2.1.328", fixture))
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(workdir)
	slug := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, real)
	dir := filepath.Join(home, ".claude", "projects", slug)
	os.MkdirAll(dir, 0o700)
	path := filepath.Join(dir, id+".jsonl")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestHistoryListsWhereTheCLIKeepsSessions(t *testing.T) {
	home, cfgDir, work := t.TempDir(), t.TempDir(), t.TempDir()
	tests := []struct {
		name string
		env  []string
		root string
	}{
		{"home", []string{"HOME=" + home}, home},
		{"CLAUDE_CONFIG_DIR wins", []string{"HOME=" + home, "CLAUDE_CONFIG_DIR=" + filepath.Join(cfgDir, ".claude")}, cfgDir},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			copySession(t, tc.root, work, "after-turn-stream-closed.jsonl", "11111111-2222-4333-8444-555555555555")
			list, err := app.NewHistory(tc.env).List(work)
			if err != nil || len(list) != 1 {
				t.Fatalf("List = %+v, %v", list, err)
			}
			if s := list[0]; s.ID != "11111111-2222-4333-8444-555555555555" || s.Title != "run the tests" || s.Prompts != 1 || s.Unresolved != 1 {
				t.Errorf("listed %+v", s)
			}
		})
	}
	if list, err := app.NewHistory([]string{"HOME=" + t.TempDir()}).List(work); err != nil || len(list) != 0 {
		t.Errorf("a folder without sessions: %+v, %v", list, err)
	}
}

// A session read from its file shows as the live stream showed it, the
// refused call can be granted from its card, and the grant resumes that
// session with the retry message.
func TestContinueShowsTheFileAndResumes(t *testing.T) {
	resumed := strings.Join([]string{`wait Continue`, "waiteof", initLine, resultLine, "exit 0"}, "\n")
	r := newRig(t, app.Config{Prompts: app.PromptsAfterTurn}, resumed)
	id := "11111111-2222-4333-8444-555555555555"
	path := copySession(t, r.home, r.work, "after-turn-stream-closed.jsonl", id)
	if err := r.session.Continue(context.Background(), id, path); err != nil {
		t.Fatal(err)
	}
	evs := r.surf.Events()
	var prompts []string
	for _, ev := range ofKind(evs, app.EvPrompt) {
		prompts = append(prompts, ev.Text)
	}
	if !slices.Equal(prompts, []string{"run the tests"}) {
		t.Errorf("prompts %q", prompts)
	}
	results := ofKind(evs, app.EvToolResult)
	if len(results) != 1 || results[0].Tool.Name != "Bash" || results[0].Tool.Denial != "blocked: permission channel closed" || !results[0].Tool.Grantable {
		t.Fatalf("tool results:\n%s", dump(evs))
	}
	ends := ofKind(evs, app.EvTurnEnd)
	if len(ends) != 1 || !ends[0].Turn.Earlier || ends[0].Turn.Denials != 1 {
		t.Errorf("turn ends:\n%s", dump(ends))
	}
	if r.session.SessionID() != id {
		t.Errorf("the session is %s, want the file's %s", r.session.SessionID(), id)
	}

	r.surf.OnAskGrants(func(req app.GrantRequest) app.Decision {
		return app.Decision{Action: app.Grant, Rules: []string{req.Tools[0].Rule}, Scope: app.ScopeOnce}
	})
	if err := r.session.GrantLater(results[0].Tool.ID); err != nil {
		t.Fatal(err)
	}
	r.surf.WaitIdle(t, 1) // the first turn this session runs
	argv := strings.Join(r.argv(1), " ")
	if !strings.Contains(argv, "--resume="+id) || !strings.Contains(argv, "Bash(npm test)") {
		t.Errorf("the grant did not resume the file's session with the rule: %s", argv)
	}
	if !strings.Contains(r.file("stdin", 1), app.RetryMessage) {
		t.Errorf("no retry message: %s", r.file("stdin", 1))
	}
}

func TestContinueRefusesASessionThatRan(t *testing.T) {
	r := newRig(t, app.Config{}, initLine+"\nwait \"user\"\n"+resultLine+"\nwaiteof\n")
	r.send("hi")
	r.surf.WaitIdle(t, 1)
	path := copySession(t, r.home, r.work, "live-three-turns.jsonl", "other")
	if err := r.session.Continue(context.Background(), "other", path); err == nil {
		t.Error("a session that already ran was made to continue another")
	}
}

func TestContinueOfAMissingFile(t *testing.T) {
	r := newRig(t, app.Config{})
	err := r.session.Continue(context.Background(), "gone", filepath.Join(r.home, "gone.jsonl"))
	if err == nil || !strings.Contains(err.Error(), "gone.jsonl") {
		t.Errorf("err = %v, want one that names the file", err)
	}
}

// The model: the aliases every CLI takes until a process says what it
// has, and a choice made with no process running is the next one's
// --model.
func TestModelForTheNextProcess(t *testing.T) {
	r := newRig(t, app.Config{}, initLine+"\nwait \"user\"\n"+resultLine+"\nwaiteof\n")
	var values []string
	for _, m := range r.session.Models() {
		values = append(values, m.Value)
	}
	if !slices.Equal(values, []string{"default", "sonnet", "opus", "haiku"}) {
		t.Errorf("models before a process: %q", values)
	}
	if got, err := r.session.SetModel(context.Background(), "sonnet"); err != nil || got != "sonnet" {
		t.Fatalf("SetModel = %q, %v", got, err)
	}
	r.send("hi")
	r.surf.WaitIdle(t, 1)
	if argv := r.argv(1); !slices.Contains(argv, "--model=sonnet") {
		t.Errorf("argv %q lacks --model=sonnet", argv)
	}
}
