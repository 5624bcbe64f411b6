package app_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/latch-app/latch/app"
	"github.com/latch-app/latch/internal/testsupport/fakeapi"
	"github.com/latch-app/latch/internal/testsupport/surfacetest"
)

// sessionFile is where Claude Code keeps the session the rig ran: the
// folder's slug is its absolute path with every character that is not a
// letter or digit replaced by "-".
func (r *contractRig) sessionFile() string {
	real, err := filepath.EvalSymlinks(r.work)
	if err != nil {
		real = r.work
	}
	slug := regexp.MustCompile(`[^A-Za-z0-9]`).ReplaceAllString(real, "-")
	return filepath.Join(r.home, ".claude", "projects", slug, r.sess.SessionID()+".jsonl")
}

// capture copies the rig's session file to $LATCH_CAPTURE_SESSIONS/name,
// when set: how core/sessionfile/testdata was made.
func (r *contractRig) capture(name string) {
	dir := os.Getenv("LATCH_CAPTURE_SESSIONS")
	if dir == "" {
		return
	}
	b, err := os.ReadFile(r.sessionFile())
	if err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".jsonl"), b, 0o644); err != nil {
		r.t.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(dir, name+".workdir"), []byte(r.work), 0o644)
}

func TestContractSessionFileCapture(t *testing.T) {
	t.Run("live", func(t *testing.T) {
		r := newContractRig(t)
		n := 0
		r.surf.OnAsk(func(context.Context, app.Question) app.Decision {
			n++
			if n == 1 {
				return app.Decision{Action: app.AllowOnce}
			}
			return app.Decision{Action: app.Deny, Message: "Not now."}
		})
		r.api.Push(fakeapi.Say(fakeapi.Text("Hello. Here is a **list**:\n\n- one\n- two")))
		r.send("say hello")
		r.api.Handle(untilToolResult(fakeapi.Bash("touch allowed.txt")))
		r.send("make a file")
		r.api.Handle(untilToolResult(fakeapi.Bash("rm -rf build")))
		r.send("clean up")
		r.capture("live-three-turns")
		if _, err := os.Stat(r.sessionFile()); err != nil {
			t.Fatalf("the CLI kept no session file where Latch looks: %v", err)
		}
	})
	t.Run("after-turn", func(t *testing.T) {
		r := newContractRig(t)
		r.cfg.Prompts = app.PromptsAfterTurn
		r.surf.OnAskGrants(func(g app.GrantRequest) app.Decision { return app.Decision{Action: app.NotNow} })
		r.api.Handle(untilToolResult(fakeapi.Bash("npm test")))
		r.send("run the tests")
		r.capture("after-turn-stream-closed")
		if _, err := os.Stat(r.sessionFile()); err != nil {
			t.Fatalf("the CLI kept no session file where Latch looks: %v", err)
		}
	})
	t.Run("grant-and-resume", func(t *testing.T) {
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
		r.capture("after-turn-granted-resumed")
	})
	t.Run("api-error", func(t *testing.T) {
		r := newContractRig(t)
		r.api.Handle(fakeapi.Always(fakeapi.Fail(500, "overloaded")))
		r.send("hi")
		r.capture("api-error")
	})
}

// TestContractReopenFromHistory runs two turns, closes the session as
// Latch does when its window closes, finds the session in the history,
// opens it (its transcript read from the CLI's own file) and continues it:
// the CLI takes --resume and the model is sent the whole conversation.
func TestContractReopenFromHistory(t *testing.T) {
	r := newContractRig(t)
	r.surf.OnAsk(func(context.Context, app.Question) app.Decision {
		return app.Decision{Action: app.Deny, Message: "Not now."}
	})
	r.api.Push(fakeapi.Say(fakeapi.Text("First answer.")))
	r.send("first prompt")
	r.api.Handle(untilToolResult(fakeapi.Bash("npm test")))
	r.send("second prompt")
	id := r.sess.SessionID()
	r.sess.Close()
	r.sess = nil

	h := app.NewHistory(r.cfg.Env)
	list, err := h.List(r.work)
	if err != nil || len(list) != 1 {
		t.Fatalf("history of %s: %+v, %v; want the one session", r.work, list, err)
	}
	got := list[0]
	if got.ID != id || got.Title != "first prompt" || got.Prompts != 2 || got.Unresolved != 0 || got.Version != "2.1.328" {
		t.Errorf("listed %+v, want session %s titled by its first prompt, 2 prompts, no unresolved denial (the person's own is not)", got, id)
	}

	surf := surfacetest.New()
	surf.Timeout = contractTimeout
	surf.OnAsk(func(context.Context, app.Question) app.Decision { return app.Decision{Action: app.Deny} })
	r.surf = surf
	r.sess = app.NewSession(r.cfg, surf)
	if err := r.sess.Continue(context.Background(), got.ID, got.Path); err != nil {
		t.Fatal(err)
	}
	evs := surf.Events()
	var prompts []string
	for _, ev := range ofKind(evs, app.EvPrompt) {
		prompts = append(prompts, ev.Text)
	}
	if !slices.Equal(prompts, []string{"first prompt", "second prompt"}) {
		t.Errorf("prompts shown from the file %q", prompts)
	}
	if call, ok := toolResult(evs, "npm test"); !ok || call.Denial != "denied by you" || !call.Grantable {
		t.Errorf("the refused call from the file shows as %+v, want the person's denial, grantable from its card", call)
	}
	if !strings.Contains(text(evs), "First answer.") {
		t.Error("the first answer is not in the transcript read from the file")
	}

	before := len(r.api.Conversation())
	r.send("third prompt")
	reqs := r.api.Conversation()[before:]
	if len(reqs) == 0 {
		t.Fatal("the continued session made no request")
	}
	last := reqs[len(reqs)-1]
	if !last.Contains("first prompt") || !last.Contains("First answer.") || !last.Contains("npm test") || last.LastUserText() != "third prompt" {
		t.Errorf("the continued turn did not carry the earlier conversation:\n%s", dumpRequests(reqs))
	}
	if sid := last.Header.Get("x-claude-code-session-id"); sid != id {
		t.Errorf("the continued turn ran in session %q, want %q (--resume)", sid, id)
	}
	for _, ev := range ofKind(r.surf.Events(), app.EvError) {
		t.Errorf("error while continuing: %+v", ev.Err)
	}
}

// TestContractResumeUnknownSession: a session id the CLI no longer knows is
// said in words, and the next prompt starts a new session that works.
func TestContractResumeUnknownSession(t *testing.T) {
	r := newContractRig(t)
	r.cfg.Resume = "3f1c2b9e-1111-4222-8333-123456789abc"
	r.send("hello again")
	errs := ofKind(r.surf.Events(), app.EvError)
	if len(errs) != 1 || !strings.Contains(errs[0].Err.Title, "no longer knows this session") || !strings.Contains(errs[0].Err.Detail, "new session") {
		t.Fatalf("errors %s, want one saying the session is unknown", dump(errs))
	}
	r.api.Push(fakeapi.Say(fakeapi.Text("Fresh start.")))
	r.send("hello")
	if !strings.Contains(text(r.surf.Events()), "Fresh start.") || r.sess.SessionID() == r.cfg.Resume {
		t.Errorf("the next prompt did not start a new session (id %s)", r.sess.SessionID())
	}
}

// TestContractModelSwitch: the model picked while a process runs is the
// next turn's (set_model), the CLI's list of models is offered, and a
// session started later keeps the choice (--model).
func TestContractModelSwitch(t *testing.T) {
	r := newContractRig(t)
	r.send("hi")
	waitModels := func() []app.ModelChoice {
		for range 100 {
			if ms := r.sess.Models(); len(ms) > 0 && ms[0].DisplayName != "Default" {
				return ms
			}
			time.Sleep(20 * time.Millisecond)
		}
		return r.sess.Models()
	}
	ms := waitModels()
	if !slices.ContainsFunc(ms, func(m app.ModelChoice) bool { return m.Value == "sonnet" }) || ms[0].DisplayName == "Default" {
		t.Errorf("models %+v, want the CLI's own list", ms)
	}
	got, err := r.sess.SetModel(context.Background(), "sonnet")
	if err != nil || !strings.Contains(got, "sonnet") {
		t.Fatalf("SetModel(sonnet) = %q, %v", got, err)
	}
	r.send("again")
	conv := r.api.Conversation()
	if m := conv[len(conv)-1].Model; !strings.Contains(m, "sonnet") {
		t.Errorf("the next turn asked the API for %q, want a sonnet model", m)
	}
	if m := conv[0].Model; strings.Contains(m, "sonnet") {
		t.Errorf("the first turn already used %q", m)
	}

	// A new process of the session (Reconfigure retires the live one).
	r.sess.Reconfigure(r.cfg)
	r.send("and again")
	conv = r.api.Conversation()
	if m := conv[len(conv)-1].Model; !strings.Contains(m, "sonnet") {
		t.Errorf("a new process of the session asked for %q, want the chosen sonnet", m)
	}
}
