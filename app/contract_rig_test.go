package app_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/latch-app/latch/app"
	"github.com/latch-app/latch/internal/testsupport/fakeapi"
	"github.com/latch-app/latch/internal/testsupport/surfacetest"
)

// contractTimeout bounds every wait of a contract test; the real CLI starts
// in 1–2 s, so this only trips when something hangs.
const contractTimeout = 60 * time.Second

// contractRig is one Session on the real CLI against a fresh fake API, HOME
// and working folder.
type contractRig struct {
	t    *testing.T
	api  *fakeapi.Server
	home string
	work string
	cfg  app.Config
	surf *surfacetest.Surface
	sess *app.Session
}

// newContractRig starts the fake API; the Session starts on the first send,
// after the test has adjusted r.cfg and r.surf.
func newContractRig(t *testing.T) *contractRig {
	t.Helper()
	claude := fakeapi.CLIPath(t)
	t.Parallel()
	api, err := fakeapi.Start()
	if err != nil {
		t.Fatal(err)
	}
	r := &contractRig{t: t, api: api, home: t.TempDir(), work: t.TempDir(), surf: surfacetest.New()}
	r.surf.Timeout = contractTimeout
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
func (r *contractRig) send(prompt string) {
	r.t.Helper()
	if r.sess == nil {
		r.sess = app.NewSession(r.cfg, r.surf)
	}
	before := count(r.surf.Events(), isIdle)
	if err := r.sess.Send(prompt); err != nil {
		r.t.Fatalf("Send(%q): %v", prompt, err)
	}
	r.surf.WaitFor(r.t, fmt.Sprintf("the turn of %q to end", prompt), func(evs []app.Event) bool {
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
