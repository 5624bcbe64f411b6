package app_test

// Contract tests: the Session drives the real Claude Code CLI ($LATCH_CLAUDE)
// against the fake Messages API of internal/testsupport/fakeapi. Each test has its own API,
// HOME and working folder, so they run in parallel.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/latch-app/latch/app"
	"github.com/latch-app/latch/core/grants"
	"github.com/latch-app/latch/internal/testsupport/fakeapi"
)

// untilToolResult answers "done." once the CLI reports a tool result, and
// otherwise calls the tool: a resumed session re-sends its history, so the
// reply must follow from the request, not from a count.
func untilToolResult(call fakeapi.Block) fakeapi.Rule {
	return func(r fakeapi.Request) (fakeapi.Reply, bool) {
		if _, ok := r.LastToolResult(); ok {
			return fakeapi.Say(fakeapi.Text("done.")), true
		}
		return fakeapi.Say(fakeapi.Text("On it."), call), true
	}
}

func TestContractPlainAnswer(t *testing.T) {
	r := newContractRig(t)
	r.api.Push(fakeapi.Say(fakeapi.Text("Hello from the fake API.")))
	r.send("hi")

	evs := r.surf.Events()
	if got := text(evs); !strings.Contains(got, "Hello from the fake API.") {
		t.Errorf("text shown %q", got)
	}
	ends := turnEnds(evs)
	if len(ends) != 1 || ends[0].IsError || ends[0].CostUSD <= 0 || ends[0].InputTokens <= 0 || ends[0].OutputTokens <= 0 {
		t.Fatalf("turn ends %+v, want one successful turn with cost and usage", ends)
	}
	if st := ofKind(evs, app.EvStatus); st[0].Status.State != app.Running {
		t.Errorf("first status %s, want running", st[0].Status.State)
	}
	var model, session string
	for _, ev := range ofKind(evs, app.EvStatus) {
		if ev.Status.Model != "" {
			model = ev.Status.Model
		}
		if ev.Status.SessionID != "" {
			session = ev.Status.SessionID
		}
	}
	if model != "claude-opus-5-5" || session == "" {
		t.Errorf("status never showed the model and session (model %q, session %q)", model, session)
	}
	if errs := ofKind(evs, app.EvError); len(errs) > 0 {
		t.Errorf("errors shown: %+v", errs[0].Err)
	}
	reqs := r.api.Conversation()
	if len(reqs) != 1 || !strings.Contains(reqs[0].LastUserText(), "hi") {
		t.Fatalf("API requests:\n%s", dumpRequests(reqs))
	}
	if sys := reqs[0].System; len(sys) != 3 || strings.Contains(sys[2], app.Instruction) {
		t.Errorf("the experimental instruction is in the system prompt while the toggle is off")
	}

	// Live mode keeps the process: the next prompt continues the conversation.
	r.api.Push(fakeapi.Say(fakeapi.Text("Second answer.")))
	r.send("again")
	reqs = r.api.Conversation()
	if len(reqs) != 2 || !reqs[1].Contains("Hello from the fake API.") || !strings.Contains(reqs[1].LastUserText(), "again") {
		t.Errorf("second turn's request does not carry the first turn:\n%s", dumpRequests(reqs))
	}
	if ends := turnEnds(r.surf.Events()); len(ends) != 2 || ends[1].IsError || ends[1].SessionCostUSD <= ends[0].CostUSD {
		t.Errorf("turn ends %+v, want a second turn adding to the session cost", ends)
	}
}

func TestContractLiveAllowOnce(t *testing.T) {
	r := newContractRig(t)
	r.surf.OnAsk(func(context.Context, app.Question) app.Decision { return app.Decision{Action: app.AllowOnce} })
	r.api.Handle(untilToolResult(fakeapi.Bash("touch allowed.txt")))
	r.send("make a file")

	qs := r.surf.Questions()
	if len(qs) != 1 || qs[0].Tool != "Bash" || qs[0].Command != "touch allowed.txt" || qs[0].RequestID == "" {
		t.Fatalf("questions %+v, want one about Bash touch allowed.txt", qs)
	}
	if !exists(filepath.Join(r.work, "allowed.txt")) {
		t.Error("the allowed touch did not run")
	}
	reqs := r.api.Conversation()
	if tr, ok := reqs[len(reqs)-1].LastToolResult(); !ok || tr.IsError {
		t.Errorf("the CLI reported %+v for the allowed call", tr)
	}
	evs := r.surf.Events()
	if tc, ok := toolResult(evs, "touch allowed.txt"); !ok || tc.IsError || tc.Denial != "" {
		t.Errorf("tool result shown %+v", tc)
	}
	if ends := turnEnds(evs); len(ends) != 1 || ends[0].IsError || ends[0].Denials != 0 {
		t.Errorf("turn ends %+v", ends)
	}
	if n := len(r.surf.GrantRequests()); n != 0 {
		t.Errorf("%d grant requests after a turn without denials", n)
	}
}

func TestContractLiveDeny(t *testing.T) {
	tests := []struct {
		name, message, want string
	}{
		{"default message", "", app.DefaultDenyMessage},
		{"own words", "Not in this folder, please.", "Not in this folder, please."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newContractRig(t)
			r.surf.OnAsk(func(context.Context, app.Question) app.Decision {
				return app.Decision{Action: app.Deny, Message: tc.message}
			})
			r.api.Handle(untilToolResult(fakeapi.Bash("touch denied.txt")))
			r.send("make a file")

			if exists(filepath.Join(r.work, "denied.txt")) {
				t.Error("a denied touch ran")
			}
			if n := len(r.surf.Questions()); n != 1 {
				t.Errorf("%d questions, want 1", n)
			}
			reqs := r.api.Conversation()
			tr, ok := reqs[len(reqs)-1].LastToolResult()
			if !ok || !tr.IsError || tr.Text != tc.want {
				t.Errorf("the model was told %+v, want the error %q", tr, tc.want)
			}
			evs := r.surf.Events()
			// Not offered after the turn, but it can be granted later from its card.
			if call, ok := toolResult(evs, "touch denied.txt"); !ok || !call.IsError || call.Denial != "denied by you" || !call.Grantable {
				t.Errorf("tool result shown %+v, want a denial by you that can be granted later", call)
			}
			if n := len(r.surf.GrantRequests()); n != 0 {
				t.Errorf("the person's own denial was offered as a grant (%d requests)", n)
			}
			if ends := turnEnds(evs); len(ends) != 1 || ends[0].IsError || ends[0].Denials != 1 {
				t.Errorf("turn ends %+v, want one turn with one denial", ends)
			}
		})
	}
}

func TestContractLiveAlways(t *testing.T) {
	tests := []struct {
		name  string
		scope app.Scope
		file  func(r *contractRig) string // where the rule must land
	}{
		{"user settings", app.ScopeUser, func(r *contractRig) string { return r.cfg.UserSettings }},
		{"project by Latch", app.ScopeProject, func(r *contractRig) string {
			return filepath.Join(r.work, ".claude", "settings.local.json")
		}},
	}
	// A project file as a person wrote it: Latch changes the allow array
	// and no other byte (the CLI itself would re-indent it, reorder keys and
	// turn 2.50 into 2.5).
	const head = "{\n    \"x\": 2.50,\n    \"unknownKey\": {\"b\": 1, \"a\": [1,  2]},\n    \"permissions\": {\n        \"allow\": ["
	const tail = "]\n    }\n}\n"
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newContractRig(t)
			project := filepath.Join(r.work, ".claude", "settings.local.json")
			if err := os.MkdirAll(filepath.Dir(project), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(project, []byte(head+tail), 0o644); err != nil {
				t.Fatal(err)
			}
			r.surf.OnAsk(func(context.Context, app.Question) app.Decision {
				return app.Decision{Action: app.AllowAlways, Scope: tc.scope}
			})
			r.api.Handle(untilToolResult(fakeapi.Bash("touch always.txt")))
			r.send("make a file")

			qs := r.surf.Questions()
			if len(qs) != 1 || qs[0].Rule != "Bash(touch always.txt)" {
				t.Fatalf("questions %+v, want one suggesting Bash(touch always.txt)", qs)
			}
			if !exists(filepath.Join(r.work, "always.txt")) {
				t.Error("the allowed touch did not run")
			}
			perms := readPermissions(t, tc.file(r))
			if !slices.Contains(perms.Allow, "Bash(touch always.txt)") {
				t.Errorf("%s allows %q, want the rule", tc.file(r), perms.Allow)
			}
			got, _ := os.ReadFile(project)
			if tc.scope == app.ScopeProject {
				if !strings.HasPrefix(string(got), head) || !strings.HasSuffix(string(got), tail) {
					t.Errorf("bytes outside the allow array changed:\n%s", got)
				}
				if !exists(project + ".latch-bak") {
					t.Error("no backup of the project file")
				}
			} else if string(got) != head+tail {
				t.Errorf("the project file changed for a user-scope grant:\n%s", got)
			}
			if exists(filepath.Join(r.home, ".config", "git", "ignore")) {
				t.Error("~/.config/git/ignore was written")
			}

			// The same call in the next turn runs without a question.
			r.send("make it again")
			if n := len(r.surf.Questions()); n != 1 {
				t.Errorf("%d questions after the rule was saved, want still 1", n)
			}
			reqs := r.api.Conversation()
			if tr, ok := reqs[len(reqs)-1].LastToolResult(); !ok || tr.IsError {
				t.Errorf("second call reported %+v", tr)
			}
		})
	}
}

func TestContractAfterTurnGrantTool(t *testing.T) {
	r := newContractRig(t)
	r.cfg.Prompts = app.PromptsAfterTurn
	r.surf.OnAskGrants(func(g app.GrantRequest) app.Decision {
		d := app.Decision{Action: app.Grant, Scope: app.ScopeUser}
		for _, tg := range g.Tools {
			d.Rules = append(d.Rules, tg.Rule)
		}
		return d
	})
	r.api.Handle(untilToolResult(fakeapi.Bash("touch granted.txt")))
	r.send("make a file")

	gs := r.surf.GrantRequests()
	if len(gs) != 1 || gs[0].Round != 1 || len(gs[0].Tools) != 1 || gs[0].Tools[0].Rule != "Bash(touch granted.txt)" || len(gs[0].Folders) != 0 {
		t.Fatalf("grant requests %+v, want one offering the narrow Bash rule", gs)
	}
	if n := len(r.surf.Questions()); n != 0 {
		t.Errorf("%d live questions in after-turn mode", n)
	}
	if perms := readPermissions(t, r.cfg.UserSettings); !slices.Contains(perms.Allow, "Bash(touch granted.txt)") || slices.Contains(perms.Allow, "Bash") {
		t.Errorf("user settings allow %q, want only the narrow rule", perms.Allow)
	}
	if !exists(filepath.Join(r.work, "granted.txt")) {
		t.Error("the retried touch did not run")
	}

	reqs := r.api.Conversation()
	if len(reqs) != 4 {
		t.Fatalf("%d conversation requests, want 4 (call, denial, retry, success):\n%s", len(reqs), dumpRequests(reqs))
	}
	if tr, ok := reqs[1].LastToolResult(); !ok || !strings.Contains(strings.ToLower(tr.Text), "stream closed") {
		t.Errorf("first run's tool_result %+v, want a stream-closed denial", tr)
	}
	if !strings.Contains(reqs[2].LastUserText(), app.RetryMessage) || !reqs[2].Contains("touch granted.txt") ||
		!reqs[2].Contains("Stream closed") {
		t.Errorf("the retry request does not carry the retry message and the earlier turn:\n%s", dumpRequests(reqs))
	}
	if a, b := reqs[0].Header.Get("x-claude-code-session-id"), reqs[2].Header.Get("x-claude-code-session-id"); a == "" || a != b {
		t.Errorf("session ids %q then %q: the retry did not resume the session", a, b)
	}
	if tr, ok := reqs[3].LastToolResult(); !ok || tr.IsError {
		t.Errorf("retried call reported %+v", tr)
	}

	evs := r.surf.Events()
	var closed bool
	for _, ev := range ofKind(evs, app.EvToolResult) {
		closed = closed || (ev.Tool.IsError && ev.Tool.Grantable && ev.Tool.Denial != "")
	}
	if !closed {
		t.Error("the stream-closed denial was not shown as a grantable denial")
	}
	if count(evs, func(ev app.Event) bool { return ev.Kind == app.EvPrompt && ev.Text == app.RetryMessage }) != 1 {
		t.Error("the retry message was not shown as a prompt")
	}
	if ends := turnEnds(evs); len(ends) != 2 || ends[0].Denials != 1 || ends[1].IsError || ends[1].Denials != 0 {
		t.Errorf("turn ends %+v, want the denied run and a clean retry", ends)
	}
}

func TestContractAfterTurnGrantFolder(t *testing.T) {
	r := newContractRig(t)
	r.cfg.Prompts = app.PromptsAfterTurn
	outside := outsideDir(t)
	data := filepath.Join(outside, "data.txt")
	writeFile(t, data, "the secret is 4217\n")
	r.surf.OnAskGrants(func(g app.GrantRequest) app.Decision {
		d := app.Decision{Action: app.Grant, Scope: app.ScopeUser}
		for _, f := range g.Folders {
			d.Folders = append(d.Folders, f.Path)
		}
		return d
	})
	r.api.Handle(untilToolResult(fakeapi.ToolUse("Read", map[string]string{"file_path": data})))
	r.send("read the data file")

	gs := r.surf.GrantRequests()
	if len(gs) != 1 || len(gs[0].Folders) != 1 || gs[0].Folders[0].Path != outside || len(gs[0].Tools) != 0 {
		t.Fatalf("grant requests %+v, want one offering %s", gs, outside)
	}
	if perms := readPermissions(t, r.cfg.UserSettings); !slices.Contains(perms.AdditionalDirectories, outside) {
		t.Errorf("user settings additionalDirectories %q, want %s", perms.AdditionalDirectories, outside)
	}
	reqs := r.api.Conversation()
	if len(reqs) < 4 {
		t.Fatalf("%d conversation requests, want 4:\n%s", len(reqs), dumpRequests(reqs))
	}
	if tr, ok := reqs[1].LastToolResult(); !ok || !tr.IsError {
		t.Errorf("the first read was not refused: %+v", tr)
	}
	if !strings.Contains(reqs[2].LastUserText(), app.RetryMessage) {
		t.Errorf("no retry message in %q", reqs[2].LastUserText())
	}
	last := reqs[len(reqs)-1]
	if tr, ok := last.LastToolResult(); !ok || tr.IsError || !strings.Contains(tr.Text, "the secret is 4217") {
		t.Errorf("the retried read reported %+v, want the file's content", tr)
	}
}

func TestContractInterruptRunningTool(t *testing.T) {
	r := newContractRig(t)
	r.cfg.AllowedTools = []string{"Bash"}
	r.api.Push(fakeapi.Say(fakeapi.Bash("sleep 20")))
	r.api.Push(fakeapi.Say(fakeapi.Text("Stopped as asked.")))
	r.sess = app.NewSession(r.cfg, r.surf)
	if err := r.sess.Send("wait a while"); err != nil {
		t.Fatal(err)
	}
	r.surf.WaitFor(t, "the sleep call", func(evs []app.Event) bool {
		for _, ev := range ofKind(evs, app.EvToolUpdate) {
			if strings.Contains(ev.Tool.Summary, "sleep 20") || strings.Contains(ev.Tool.Input, "sleep 20") {
				return true
			}
		}
		return false
	})
	time.Sleep(1500 * time.Millisecond) // let the CLI start the command
	r.sess.Stop()
	r.surf.WaitFor(t, "the stopped turn to end", func(evs []app.Event) bool { return count(evs, isIdle) >= 1 })

	evs := r.surf.Events()
	ends := turnEnds(evs)
	if len(ends) != 1 || !ends[0].Stopped || ends[0].IsError {
		t.Fatalf("turn ends %+v, want one stopped turn (not a failure)", ends)
	}
	// A TurnInfo with usage came from the CLI's result: the interrupt worked
	// and the process was not killed after the grace period.
	if ends[0].InputTokens == 0 {
		t.Errorf("the turn ended without the CLI's result: the process was killed")
	}
	for _, ev := range ofKind(evs, app.EvError) {
		t.Errorf("error shown for an interrupt: %+v", ev.Err)
	}
	if tc, ok := toolResult(evs, "sleep 20"); !ok || !tc.IsError || tc.Grantable {
		t.Errorf("the interrupted call shows %+v", tc)
	}

	r.send("next")
	evs = r.surf.Events()
	if ends := turnEnds(evs); len(ends) != 2 || ends[1].IsError {
		t.Errorf("turn ends %+v, want a working turn after the interrupt", ends)
	}
	if !strings.Contains(text(evs), "Stopped as asked.") {
		t.Errorf("second answer not shown: %q", text(evs))
	}
	reqs := r.api.Conversation()
	if last := reqs[len(reqs)-1]; !strings.Contains(last.LastUserText(), "next") || !last.Contains("sleep 20") ||
		!last.Contains("doesn't want to proceed") {
		t.Errorf("next turn's request:\n%s", dumpRequests(reqs))
	}
}

func TestContractExperimentalInstruction(t *testing.T) {
	r := newContractRig(t)
	r.cfg.Experimental = true
	r.send("hi")
	reqs := r.api.Conversation()
	if len(reqs) != 1 || len(reqs[0].System) != 3 {
		t.Fatalf("API requests:\n%s", dumpRequests(reqs))
	}
	if sys := strings.TrimRight(reqs[0].System[2], "\n"); !strings.HasSuffix(sys, app.Instruction) {
		t.Errorf("system[2] ends %q, want the instruction", sys[max(0, len(sys)-200):])
	}
	if ends := turnEnds(r.surf.Events()); len(ends) != 1 || ends[0].IsError {
		t.Errorf("turn ends %+v", ends)
	}
}

func TestContractAPIError(t *testing.T) {
	r := newContractRig(t)
	r.api.Handle(fakeapi.Always(fakeapi.Fail(500, "fake outage")))
	r.send("hi")
	evs := r.surf.Events()
	ends := turnEnds(evs)
	if len(ends) != 1 || !ends[0].IsError || !strings.Contains(ends[0].ErrorText, "500") {
		t.Errorf("turn ends %+v, want an error naming HTTP 500", ends)
	}
	errs := ofKind(evs, app.EvError)
	if len(errs) != 1 || !strings.Contains(errs[0].Err.Title+errs[0].Err.Detail, "500") ||
		!strings.Contains(errs[0].Err.Title+errs[0].Err.Detail, "fake outage") {
		t.Errorf("errors shown %+v, want one naming the status and the API's message", errs)
	}
	if n := len(r.api.Conversation()); n != 3 {
		t.Errorf("%d API requests, want 3 (CLIEnv caps retries at 2)", n)
	}
	// The retries are one row that updates; the error comes once, with
	// what to do and a Retry.
	if rs := ofKind(evs, app.EvRetry); len(rs) != 2 || rs[1].Retry.Attempt != 2 || rs[1].Retry.Status != 500 || len(ofKind(evs, app.EvNotice)) != 0 {
		t.Errorf("retry rows %+v, notices %d", rs, len(ofKind(evs, app.EvNotice)))
	}
	if len(errs) == 1 && (errs[0].Err.Hint == "" || !errs[0].Err.Retry) {
		t.Errorf("the error has no hint or no Retry: %+v", errs[0].Err)
	}
}

func TestContractLiveGrantFolderOnce(t *testing.T) {
	r := newContractRig(t)
	outside := outsideDir(t)
	data := filepath.Join(outside, "data.txt")
	writeFile(t, data, "the secret is 9931\n")
	r.surf.OnAsk(func(_ context.Context, q app.Question) app.Decision {
		return app.Decision{Action: app.GrantFolder, Folder: q.Folder, Scope: app.ScopeOnce}
	})
	r.api.Handle(untilToolResult(fakeapi.ToolUse("Read", map[string]string{"file_path": data})))
	r.send("read the data file")

	qs := r.surf.Questions()
	if len(qs) != 1 || qs[0].Tool != "Read" || qs[0].Folder != outside {
		t.Fatalf("questions %+v, want one about Read offering %s", qs, outside)
	}
	reqs := r.api.Conversation()
	if tr, ok := reqs[len(reqs)-1].LastToolResult(); !ok || tr.IsError || !strings.Contains(tr.Text, "the secret is 9931") {
		t.Errorf("the read reported %+v, want the file's content", tr)
	}
	if exists(r.cfg.UserSettings) || exists(filepath.Join(r.work, ".claude", "settings.local.json")) {
		t.Error("a grant for this time only was saved to a settings file")
	}
	if n := len(r.surf.GrantRequests()); n != 0 {
		t.Errorf("%d grant requests after a granted read", n)
	}
}

func TestContractLiveDenyAndStop(t *testing.T) {
	r := newContractRig(t)
	r.surf.OnAsk(func(context.Context, app.Question) app.Decision { return app.Decision{Action: app.DenyStop} })
	r.api.Push(fakeapi.Say(fakeapi.Bash("touch stopped.txt")))
	r.send("make a file")

	if exists(filepath.Join(r.work, "stopped.txt")) {
		t.Error("a denied touch ran")
	}
	reqs := r.api.Conversation()
	if len(reqs) != 1 {
		t.Errorf("%d API requests, want 1: deny-and-stop must end the turn without asking the model again", len(reqs))
	}
	evs := r.surf.Events()
	if ends := turnEnds(evs); len(ends) != 1 || !ends[0].Stopped || ends[0].IsError || ends[0].InputTokens == 0 {
		t.Errorf("turn ends %+v, want one stopped turn ended by the CLI's result", ends)
	}
	if n := len(r.surf.GrantRequests()); n != 0 {
		t.Errorf("%d grant requests after the person stopped the turn", n)
	}

	// The process stays for the next prompt.
	r.api.Push(fakeapi.Say(fakeapi.Text("Fine, nothing made.")))
	r.send("ok, never mind")
	if ends := turnEnds(r.surf.Events()); len(ends) != 2 || ends[1].IsError {
		t.Errorf("turn ends %+v, want a working turn after deny-and-stop", ends)
	}
	if !strings.Contains(text(r.surf.Events()), "Fine, nothing made.") {
		t.Error("the next answer was not shown")
	}
}

// A revoke takes effect before the next tool call: Write is allowed always
// for the project, the rule is removed from the file (as Preferences,
// `latch grants revoke` or a hand edit do), and the next Write asks again,
// in the same running CLI, which still had the rule cached.
func TestContractRevokeAsksAgain(t *testing.T) {
	r := newContractRig(t)
	r.surf.OnAsk(func(_ context.Context, q app.Question) app.Decision {
		return app.Decision{Action: app.AllowAlways, Scope: app.ScopeProject}
	})
	n := 0
	r.api.Handle(func(req fakeapi.Request) (fakeapi.Reply, bool) {
		if _, ok := req.LastToolResult(); ok {
			return fakeapi.Say(fakeapi.Text("done.")), true
		}
		n++
		return fakeapi.Say(fakeapi.Text("Writing."), fakeapi.ToolUse("Write", map[string]string{
			"file_path": filepath.Join(r.work, fmt.Sprintf("w%d.txt", n)), "content": "x\n"})), true
	})
	r.send("write one")
	qs := r.surf.Questions()
	if len(qs) != 1 || qs[0].Rule != "Edit(/"+r.work+"/**)" {
		t.Fatalf("questions %+v, want one offering Edit(/%s/**)", qs, r.work)
	}
	r.send("write two")
	if n := len(r.surf.Questions()); n != 1 {
		t.Fatalf("%d questions after the always, want still 1", n)
	}
	project := filepath.Join(r.work, ".claude", "settings.local.json")
	if err := grants.NewStore(project).RemoveRules(qs[0].Rule); err != nil {
		t.Fatal(err)
	}
	// Latch notices the file changed, and says so.
	r.surf.WaitFor(t, "the revoke to be noticed", func(evs []app.Event) bool {
		for _, e := range ofKind(evs, app.EvNotice) {
			if strings.Contains(e.Text, "no longer allows") {
				return true
			}
		}
		return false
	})
	r.send("write three")
	if n := len(r.surf.Questions()); n != 2 {
		t.Errorf("%d questions after the revoke, want 2: the third Write must ask", n)
	}
	if exists(filepath.Join(r.work, ".claude", "settings.local.json.latch-bak")) == false {
		t.Error("no backup: the file was not written by Latch")
	}
}

// A call the person denied live can be granted after the turn for this
// session: the real CLI takes the grant through apply_flag_settings (no
// refusal, no second question) and the retry runs it. That no process is
// restarted is checked with the scripted CLI (TestGrantLater).
func TestContractGrantLaterInTheRunningCLI(t *testing.T) {
	r := newContractRig(t)
	r.surf.OnAsk(func(context.Context, app.Question) app.Decision { return app.Decision{Action: app.Deny} })
	r.surf.OnAskGrants(func(g app.GrantRequest) app.Decision {
		return app.Decision{Action: app.Grant, Rules: []string{g.Tools[0].Rule}, Scope: app.ScopeOnce}
	})
	r.api.Handle(untilToolResult(fakeapi.Bash("touch later.txt")))
	r.send("make a file")
	call, ok := toolResult(r.surf.Events(), "touch later.txt")
	if !ok || call.Denial != "denied by you" || !call.Grantable {
		t.Fatalf("tool result %+v", call)
	}
	before := count(r.surf.Events(), isIdle)
	if err := r.sess.GrantLater(call.ID); err != nil {
		t.Fatal(err)
	}
	r.surf.WaitFor(t, "the retry to end", func(evs []app.Event) bool { return count(evs, isIdle) > before })
	if !exists(filepath.Join(r.work, "later.txt")) {
		t.Error("the granted call did not run on the retry")
	}
	if n := len(r.surf.Questions()); n != 1 {
		t.Errorf("%d questions, want only the first: the session grant did not reach the CLI", n)
	}
	reqs := r.api.Conversation()
	if a, b := reqs[0].Header.Get("x-claude-code-session-id"), reqs[len(reqs)-1].Header.Get("x-claude-code-session-id"); a == "" || a != b {
		t.Errorf("session ids %q then %q", a, b)
	}
	for _, e := range ofKind(r.surf.Events(), app.EvNotice) {
		if strings.Contains(e.Text, "cannot take grants while it runs") {
			t.Errorf("the real CLI refused the grant layer: %s", e.Text)
		}
	}
}
