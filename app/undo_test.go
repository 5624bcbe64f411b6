package app_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/latch-app/latch/app"
)

// Undo removes exactly what a grant added, from the file and from the
// running CLI.
func TestUndoSavedRule(t *testing.T) {
	r := newRig(t, app.Config{}, strings.Join([]string{initLine, `wait "user"`, bashUse, bashAsk, `wait "control_response"`, resultLine, "waiteof"}, "\n"))
	project := filepath.Join(r.work, ".claude", "settings.local.json")
	orig := "{\n  \"x\": 2.50,\n  \"permissions\": {\n    \"allow\": [\"Read\"]\n  }\n}\n"
	if err := os.MkdirAll(filepath.Dir(project), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(project, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	r.surf.OnAsk(func(context.Context, app.Question) app.Decision {
		return app.Decision{Action: app.AllowAlways, Rule: "Bash(touch x.txt)", Scope: app.ScopeProject}
	})
	r.send("make x")
	evs := r.surf.WaitIdle(t, 1)
	g := ofKind(evs, app.EvGrant)
	if len(g) != 1 || g[0].Grant.ID == "" {
		t.Fatalf("grant rows %+v", g)
	}
	if err := r.session.Undo(g[0].Grant.ID); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(project); string(b) != orig {
		t.Errorf("after Undo the project file is\n%s\nwant\n%s", b, orig)
	}
	if err := r.session.Undo(g[0].Grant.ID); err != app.ErrUndone {
		t.Errorf("a second Undo gave %v", err)
	}
	r.surf.WaitFor(t, "the undo row", func(evs []app.Event) bool {
		for _, e := range ofKind(evs, app.EvGrant) {
			if e.Grant.Undone && e.Grant.ID == g[0].Grant.ID {
				return true
			}
		}
		return false
	})
	// The running CLI loses the rule and asks again, even while it still has
	// the file cached.
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(r.file("stdin", 1), `"allow":[],"ask":["Bash(touch x.txt)"]`) {
		if time.Now().After(deadline) {
			t.Fatalf("the running CLI was not told: %s", r.file("stdin", 1))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A call the person denied keeps a way to be granted after the turn; the
// grant reaches the running CLI and the retry goes to the same process.
func TestGrantLater(t *testing.T) {
	denied := `print {"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"no","is_error":true,"tool_use_id":"toolu_1"}]},"session_id":"$SID"}`
	script := strings.Join([]string{initLine, `wait "user"`, bashUse, bashAsk, `wait "control_response"`, denied, resultLine,
		`wait Continue`, resultLine, "waiteof"}, "\n")
	r := newRig(t, app.Config{}, script)
	r.surf.OnAsk(func(context.Context, app.Question) app.Decision { return app.Decision{Action: app.Deny, Message: "no"} })
	var offered []app.GrantRequest
	r.surf.OnAskGrants(func(req app.GrantRequest) app.Decision {
		offered = append(offered, req)
		return app.Decision{Action: app.Grant, Rules: []string{req.Tools[0].Rule}, Scope: app.ScopeOnce}
	})
	r.send("make x")
	evs := r.surf.WaitIdle(t, 1)
	res := ofKind(evs, app.EvToolResult)
	if len(res) != 1 || !res[0].Tool.Grantable || res[0].Tool.Denial != "denied by you" {
		t.Fatalf("tool results %+v", res)
	}
	if err := r.session.GrantLater("toolu_1"); err != nil {
		t.Fatal(err)
	}
	evs = r.surf.WaitIdle(t, 2)
	if len(offered) != 1 || len(offered[0].Tools) != 1 || offered[0].Tools[0].Rule != "Bash(touch x.txt)" {
		t.Fatalf("offered %+v", offered)
	}
	auto := false
	for _, e := range ofKind(evs, app.EvPrompt) {
		auto = auto || (e.Auto && e.Text == app.RetryMessage)
	}
	if !auto {
		t.Errorf("the retry is not shown as Latch's:\n%s", dump(evs))
	}
	stdin := r.file("stdin", 1)
	if !strings.Contains(stdin, `"allow":["Bash(touch x.txt)"]`) || !strings.Contains(stdin, "Continue") {
		t.Errorf("the running CLI did not get the grant and the retry: %s", stdin)
	}
	if r.rec.Has("argv", 2) {
		t.Error("the CLI was restarted for a session grant")
	}
	if err := r.session.GrantLater("toolu_1"); err == nil {
		t.Error("a granted call can be granted again")
	}
}

// A closed session says so once, last, and nothing after, whatever its
// goroutines still finish.
func TestCloseIsTheLastEvent(t *testing.T) {
	r := newRig(t, app.Config{}, strings.Join([]string{initLine, `wait "user"`, bashUse, "sleep 300ms", resultLine, "waiteof"}, "\n"))
	r.send("go")
	r.surf.WaitFor(t, "the tool call", func(evs []app.Event) bool { return len(ofKind(evs, app.EvToolCall)) > 0 })
	r.session.Close()
	n := len(r.surf.Events())
	time.Sleep(600 * time.Millisecond)
	evs := r.surf.Events()
	if len(evs) != n {
		t.Errorf("%d events after Close:\n%s", len(evs)-n, dump(evs[n:]))
	}
	last := evs[len(evs)-1]
	if last.Kind != app.EvStatus || last.Status.State != app.Closed {
		t.Errorf("last event %+v, want the closed status", last)
	}
	closed := 0
	for _, e := range ofKind(evs, app.EvStatus) {
		if e.Status.State == app.Closed {
			closed++
		}
	}
	if closed != 1 {
		t.Errorf("%d closed statuses", closed)
	}
}
