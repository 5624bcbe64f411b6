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

// auditOf is a fresh audit log for the rig's session.
func auditOf(t *testing.T) *app.Audit {
	t.Helper()
	a := app.OpenAuditAt(filepath.Join(t.TempDir(), "audit.jsonl"), func(err error) { t.Errorf("audit: %v", err) })
	t.Cleanup(func() { a.Close() }) // before its folder is removed
	return a
}

// entries closes the log and returns its lines oldest first, each as
// "kind decision decider scope: rules folders | input".
func entries(t *testing.T, a *app.Audit) ([]string, []app.AuditEntry) {
	t.Helper()
	a.Close()
	es, err := a.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	slices.Reverse(es)
	var out []string
	for _, e := range es {
		out = append(out, strings.Join(strings.Fields(e.Kind+" "+e.Decision+" "+e.Decider+" "+e.Scope), " ")+": "+strings.Join(append(e.Rules, e.Folders...), ",")+" | "+e.Input)
	}
	return out, es
}

const acceptedResult = `print {"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":"ok","is_error":false}]},"session_id":"$SID","tool_result_meta":[{"id":"toolu_1","permission_decision":{"decision":"accept","source":"user_permanent"}}]}`

// A live question, its "always" answer, the grant, the call that ran (and
// who let it) and the Undo are each one line of the log, with the session
// and folder.
func TestAuditRecordsALiveAnswerAndItsGrant(t *testing.T) {
	a := auditOf(t)
	r := newRig(t, app.Config{Audit: a}, strings.Join([]string{initLine, `wait "user"`, bashUse, bashAsk, `wait "control_response"`, acceptedResult, resultLine, "waiteof"}, "\n"))
	r.surf.OnAsk(func(context.Context, app.Question) app.Decision {
		return app.Decision{Action: app.AllowAlways, Rule: "Bash(touch x.txt)", Scope: app.ScopeProject}
	})
	r.send("make x")
	evs := r.surf.WaitIdle(t, 1)
	g := ofKind(evs, app.EvGrant)
	if len(g) != 1 {
		t.Fatalf("grants shown:\n%s", dump(evs))
	}
	if err := r.session.Undo(g[0].Grant.ID); err != nil {
		t.Fatal(err)
	}
	sid := r.session.SessionID()
	r.session.Close()
	got, es := entries(t, a)
	want := []string{
		"ask:  | touch x.txt",
		"answer always person project:  | touch x.txt",
		"grant person project: Bash(touch x.txt) | ",
		"allowed person:  | touch x.txt",
		"undo person project: Bash(touch x.txt) | ",
	}
	if !slices.Equal(got, want) {
		t.Errorf("log:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, e := range es {
		if e.Session != sid || e.Folder != r.work || e.Time.IsZero() {
			t.Errorf("entry %+v: want session %s, folder %s and a time", e, sid, r.work)
		}
	}
	if es[1].Rule != "Bash(touch x.txt)" || es[3].Source != "user_permanent" {
		t.Errorf("answer rule %q, allowed source %q", es[1].Rule, es[3].Source)
	}
}

// After the turn, a call refused because no channel could ask is logged as
// a denial with its class, who decided (the closed channel) and the grant
// that would fix it; "Grant and retry" from another session offers exactly
// that grant, saves it, and resumes nothing.
func TestAuditDenialCanBeGrantedFromTheLog(t *testing.T) {
	a := auditOf(t)
	closed := `print {"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"Tool permission request failed: AbortError: Stream closed","is_error":true,"tool_use_id":"toolu_1"}]},"session_id":"$SID","tool_result_meta":[{"id":"toolu_1","non_execution_kind":"permission-rule","permission_decision":{"decision":"reject","source":"config","reason_type":"other"}}]}`
	r := newRig(t, app.Config{Audit: a, Prompts: app.PromptsAfterTurn}, strings.Join([]string{initLine, `wait "user"`, bashUse, closed, resultLine, "waiteof"}, "\n"))
	r.surf.OnAskGrants(func(app.GrantRequest) app.Decision { return app.Decision{Action: app.NotNow} })
	r.send("make x")
	r.surf.WaitIdle(t, 1)
	r.session.Close()
	got, es := entries(t, a)
	if len(es) == 0 || es[0].Kind != app.AuditDenial || es[0].Class != "stream_closed" || es[0].Decider != "channel_closed" ||
		!slices.Equal(es[0].Rules, []string{"Bash(touch x.txt)"}) || es[0].Tool != "Bash" || es[0].ToolUseID != "toolu_1" {
		t.Fatalf("log %q\nfirst %+v", got, es)
	}

	// A new session in the same folder (Latch restarted) grants it.
	b := auditOf(t)
	r2 := newRig(t, app.Config{Audit: b}, strings.Join([]string{initLine, `wait "user"`, resultLine, "waiteof"}, "\n"))
	var offered []app.GrantRequest
	r2.surf.OnAskGrants(func(g app.GrantRequest) app.Decision {
		offered = append(offered, g)
		return app.Decision{Action: app.Grant, Rules: []string{g.Tools[0].Rule}, Scope: app.ScopeUser}
	})
	if err := r2.session.GrantAndRetry(es[0]); err != nil {
		t.Fatal(err)
	}
	r2.surf.WaitIdle(t, 1)
	if len(offered) != 1 || len(offered[0].Tools) != 1 || offered[0].Tools[0].Rule != "Bash(touch x.txt)" || offered[0].Tools[0].Example != "touch x.txt" {
		t.Fatalf("offered %+v", offered)
	}
	if b, _ := os.ReadFile(filepath.Join(r2.home, ".claude", "settings.json")); !strings.Contains(string(b), `"Bash(touch x.txt)"`) {
		t.Errorf("user settings after the grant: %s", b)
	}
	if r2.rec.Has("argv", 1) {
		t.Error("a CLI ran: a denial of another session must not resume this one")
	}
	if err := r2.session.GrantAndRetry(app.AuditEntry{Kind: app.AuditGrant}); err == nil {
		t.Error("a grant entry was offered for granting")
	}
}

// A call refused by a deny rule is logged with the rule and its file, as
// Latch reads the rules (the CLI does not name the rule).
func TestAuditNamesTheDenyRule(t *testing.T) {
	a := auditOf(t)
	rmUse := `print {"type":"assistant","message":{"id":"msg_1","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"rm -rf build"}}]},"session_id":"$SID"}`
	denied := `print {"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"Permission to use Bash with command rm -rf build has been denied.","is_error":true,"tool_use_id":"toolu_1"}]},"session_id":"$SID","tool_result_meta":[{"id":"toolu_1","non_execution_kind":"permission-rule","permission_decision":{"decision":"reject","source":"config","reason_type":"rule"}}]}`
	r := newRig(t, app.Config{Audit: a}, strings.Join([]string{initLine, `wait "user"`, rmUse, denied, resultLine, "waiteof"}, "\n"))
	user := filepath.Join(r.home, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(user), 0o755)
	if err := os.WriteFile(user, []byte(`{"permissions":{"deny":["Bash(rm:*)"],"allow":["Bash"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	r.send("clean")
	r.surf.WaitIdle(t, 1)
	r.session.Close()
	_, es := entries(t, a)
	if len(es) != 1 || es[0].Kind != app.AuditDenial || es[0].Class != "deny_rule" || es[0].Decider != "rule" ||
		es[0].Rule != "Bash(rm:*)" || es[0].File != user || !strings.Contains(es[0].Source, "Latch's reading: userSettings") {
		t.Errorf("log %+v", es)
	}
}
