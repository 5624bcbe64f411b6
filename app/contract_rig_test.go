package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/latch-app/latch/app"
	"github.com/latch-app/latch/app/fakeapi"
)

// contractTimeout bounds every wait of a contract test; the real CLI starts
// in 1–2 s, so this only trips when something hangs.
const contractTimeout = 60 * time.Second

// recSurface is a Surface that records everything and answers from scripts.
type recSurface struct {
	mu        sync.Mutex
	events    []app.Event
	questions []app.Question
	grantReqs []app.GrantRequest
	changed   chan struct{}

	ask       func(app.Question) app.Decision     // nil: deny
	askGrants func(app.GrantRequest) app.Decision // nil: NotNow
}

func newRecSurface() *recSurface { return &recSurface{changed: make(chan struct{})} }

func (s *recSurface) bump() {
	close(s.changed)
	s.changed = make(chan struct{})
}

func (s *recSurface) Show(ev app.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.events = append(s.events, ev)
	s.bump()
}

func (s *recSurface) Ask(ctx context.Context, q app.Question) app.Decision {
	s.mu.Lock()
	s.questions = append(s.questions, q)
	s.bump()
	f := s.ask
	s.mu.Unlock()
	if f == nil {
		return app.Decision{Action: app.Deny}
	}
	return f(q)
}

func (s *recSurface) AskGrants(ctx context.Context, r app.GrantRequest) app.Decision {
	s.mu.Lock()
	s.grantReqs = append(s.grantReqs, r)
	s.bump()
	f := s.askGrants
	s.mu.Unlock()
	if f == nil {
		return app.Decision{Action: app.NotNow}
	}
	return f(r)
}

func (s *recSurface) Events() []app.Event {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.events)
}

func (s *recSurface) Questions() []app.Question {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.questions)
}

func (s *recSurface) GrantRequests() []app.GrantRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.grantReqs)
}

// wait blocks until cond holds for the events so far, or fails the test.
func (s *recSurface) wait(t *testing.T, what string, cond func([]app.Event) bool) {
	t.Helper()
	deadline := time.NewTimer(contractTimeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		ok := cond(s.events)
		ch := s.changed
		s.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-ch:
		case <-deadline.C:
			t.Fatalf("timed out waiting for %s; events:\n%s", what, dump(s.Events()))
		}
	}
}

// rig is one Session on the real CLI against a fresh fake API, HOME and
// working folder.
type rig struct {
	t    *testing.T
	api  *fakeapi.Server
	home string
	work string
	cfg  app.Config
	surf *recSurface
	sess *app.Session
}

// newRig starts the fake API; the Session starts on the first send, after
// the test has adjusted r.cfg and r.surf.
func newRig(t *testing.T) *rig {
	t.Helper()
	claude := fakeapi.CLIPath(t)
	t.Parallel()
	api, err := fakeapi.Start()
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{t: t, api: api, home: t.TempDir(), work: t.TempDir(), surf: newRecSurface()}
	r.cfg = app.Config{
		Workdir:      r.work,
		Command:      []string{claude},
		Prompts:      app.PromptsLive,
		UserSettings: filepath.Join(r.home, ".claude", "settings.json"),
		Env:          fakeapi.CLIEnv(api.URL(), r.home),
	}
	t.Cleanup(func() {
		if r.sess != nil {
			r.sess.Close()
		}
		api.Close()
		fakeapi.TidyTemp(r.work)
		if t.Failed() {
			t.Logf("events:\n%s", dump(r.surf.Events()))
			t.Logf("API requests:\n%s", dumpRequests(api.Requests()))
		}
	})
	return r
}

// send starts a turn and waits until the Session is idle again.
func (r *rig) send(prompt string) {
	r.t.Helper()
	if r.sess == nil {
		r.sess = app.NewSession(r.cfg, r.surf)
	}
	before := count(r.surf.Events(), isIdle)
	if err := r.sess.Send(prompt); err != nil {
		r.t.Fatalf("Send(%q): %v", prompt, err)
	}
	r.surf.wait(r.t, fmt.Sprintf("the turn of %q to end", prompt), func(evs []app.Event) bool {
		return count(evs, isIdle) > before
	})
}

func isIdle(ev app.Event) bool {
	return ev.Kind == app.EvStatus && ev.Status != nil && ev.Status.State == app.Idle
}

func count(evs []app.Event, f func(app.Event) bool) int {
	n := 0
	for _, ev := range evs {
		if f(ev) {
			n++
		}
	}
	return n
}

func ofKind(evs []app.Event, k app.EventKind) []app.Event {
	var out []app.Event
	for _, ev := range evs {
		if ev.Kind == k {
			out = append(out, ev)
		}
	}
	return out
}

// turnEnds are the TurnInfos shown so far.
func turnEnds(evs []app.Event) []*app.TurnInfo {
	var out []*app.TurnInfo
	for _, ev := range ofKind(evs, app.EvTurnEnd) {
		out = append(out, ev.Turn)
	}
	return out
}

// text is all assistant text shown, deltas joined.
func text(evs []app.Event) string {
	var b strings.Builder
	for _, ev := range ofKind(evs, app.EvText) {
		b.WriteString(ev.Text)
	}
	return b.String()
}

// toolResult is the last EvToolResult whose summary contains sub.
func toolResult(evs []app.Event, sub string) (*app.ToolCall, bool) {
	rs := ofKind(evs, app.EvToolResult)
	for i := len(rs) - 1; i >= 0; i-- {
		if strings.Contains(rs[i].Tool.Summary, sub) || strings.Contains(rs[i].Tool.Input, sub) {
			return rs[i].Tool, true
		}
	}
	return nil, false
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// settings reads permissions from a settings file ({} when absent).
type permissions struct {
	Allow                 []string `json:"allow"`
	AdditionalDirectories []string `json:"additionalDirectories"`
}

func readPermissions(t *testing.T, path string) permissions {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return permissions{}
	}
	if err != nil {
		t.Fatal(err)
	}
	var s struct{ Permissions permissions }
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, b)
	}
	return s.Permissions
}

// outsideDir is a folder that is neither under the working folder, HOME
// nor os.TempDir() (all of which the Session or the test put under /tmp),
// so the CLI needs a grant to read there.
func outsideDir(t *testing.T) string {
	t.Helper()
	tmp, _ := filepath.EvalSymlinks(os.TempDir())
	for _, base := range []string{"/var/tmp", "."} {
		abs, err := filepath.Abs(base)
		if err != nil {
			continue
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		if tmp != "" && (abs == tmp || strings.HasPrefix(abs, tmp+string(filepath.Separator))) {
			continue
		}
		dir, err := os.MkdirTemp(abs, "latch-contract-outside-")
		if err != nil {
			continue
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		return dir
	}
	t.Fatal("no writable folder outside the temp dir")
	return ""
}

func dump(evs []app.Event) string {
	var b strings.Builder
	for _, ev := range evs {
		switch ev.Kind {
		case app.EvStatus:
			fmt.Fprintf(&b, "  status %s session=%s model=%s mode=%s\n", ev.Status.State, ev.Status.SessionID, ev.Status.Model, ev.Status.PermissionMode)
		case app.EvText, app.EvThinking:
			fmt.Fprintf(&b, "  text %q\n", ev.Text)
		case app.EvPrompt, app.EvNotice:
			fmt.Fprintf(&b, "  kind%d %q\n", ev.Kind, ev.Text)
		case app.EvToolCall, app.EvToolUpdate, app.EvToolResult:
			fmt.Fprintf(&b, "  tool kind%d %s %s %q err=%v denial=%q grantable=%v result=%q\n", ev.Kind, ev.Tool.ID, ev.Tool.Name,
				ev.Tool.Summary, ev.Tool.IsError, ev.Tool.Denial, ev.Tool.Grantable, clip(ev.Tool.Result))
		case app.EvTurnEnd:
			fmt.Fprintf(&b, "  turn end %+v\n", *ev.Turn)
		case app.EvError:
			fmt.Fprintf(&b, "  ERROR %q: %q\n", ev.Err.Title, ev.Err.Detail)
		}
	}
	return b.String()
}

func dumpRequests(rs []fakeapi.Request) string {
	var b strings.Builder
	for i, r := range rs {
		fmt.Fprintf(&b, "  #%d conv=%v messages=%d last user %q", i, r.Conversation, len(r.Messages), clip(r.LastUserText()))
		if tr, ok := r.LastToolResult(); ok {
			fmt.Fprintf(&b, " last tool_result err=%v %q", tr.IsError, clip(tr.Text))
		}
		fmt.Fprintf(&b, " served %d blocks status %d\n", len(r.Served.Blocks), r.Served.Status)
	}
	return b.String()
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
