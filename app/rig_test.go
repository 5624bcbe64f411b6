package app_test

// The rig of the tests on the scripted fake CLI (internal/testsupport/
// fakecli), and the helpers every test of package app_test shares.

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/latch-app/latch/app"
	"github.com/latch-app/latch/internal/testsupport/fakecli"
	"github.com/latch-app/latch/internal/testsupport/surfacetest"
)

// TestMain removes the fake CLI, built on first use (fakecli.Path), when the
// tests are done.
func TestMain(m *testing.M) {
	defer fakecli.Remove()
	m.Run()
}

// rig is one Session on the fake CLI with its own folders.
type rig struct {
	t       *testing.T
	dir     string // the fake CLI's record folder
	rec     fakecli.Records
	work    string
	home    string
	surf    *surfacetest.Surface
	session *app.Session
}

// newRig plays scripts[i] in the fake CLI's run i+1 (the first script in
// any later run). The Session starts the CLI on the first send.
func newRig(t *testing.T, cfg app.Config, scripts ...string) *rig {
	t.Helper()
	r := &rig{t: t, dir: t.TempDir(), work: t.TempDir(), home: t.TempDir(), surf: surfacetest.New()}
	r.rec = fakecli.Records(r.dir)
	env := append(os.Environ(), "CLAUDE_CODE_SESSION_ID=parent", "CLAUDE_CODE_ENTRYPOINT=parent")
	env = append(env, fakecli.Env(t, r.dir, scripts...)...)
	cfg.Workdir = r.work
	if cfg.Command == nil {
		cfg.Command = []string{fakecli.Path(t)}
	}
	cfg.UserSettings = filepath.Join(r.home, ".claude", "settings.json")
	cfg.Env = env
	r.session = app.NewSession(cfg, r.surf)
	t.Cleanup(r.session.Close)
	return r
}

// file is the fake CLI's record name ("stdin", "env", …) of run.
func (r *rig) file(name string, run int) string {
	r.t.Helper()
	return r.rec.Read(r.t, name, run)
}

// argv is the arguments of the fake CLI's run.
func (r *rig) argv(run int) []string {
	r.t.Helper()
	return r.rec.Argv(r.t, run)
}

func (r *rig) send(prompt string) {
	r.t.Helper()
	if err := r.session.Send(prompt); err != nil {
		r.t.Fatal(err)
	}
}

// Lines of fake CLI scripts.
const (
	initLine   = `print {"type":"system","subtype":"init","session_id":"$SID","cwd":"/w","model":"claude-test","permissionMode":"default","tools":["Bash"],"additional_directories":[]}`
	resultLine = `print {"type":"result","subtype":"success","is_error":false,"result":"done.","session_id":"$SID","total_cost_usd":0.25,"usage":{"input_tokens":20,"output_tokens":10},"permission_denials":[],"terminal_reason":"completed"}`
	bashUse    = `print {"type":"assistant","message":{"id":"msg_1","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"touch x.txt"}}]},"session_id":"$SID"}`
	bashAsk    = `print {"type":"control_request","request_id":"req-1","request":{"subtype":"can_use_tool","tool_name":"Bash","display_name":"Bash","input":{"command":"touch x.txt"},"permission_suggestions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"touch x.txt"}],"behavior":"allow","destination":"localSettings"}],"tool_use_id":"toolu_1"}}`
)

// ofKind are the events of kind k.
func ofKind(evs []app.Event, k app.EventKind) []app.Event {
	var out []app.Event
	for _, ev := range evs {
		if ev.Kind == k {
			out = append(out, ev)
		}
	}
	return out
}

// dump is evs one a line, for failure messages.
func dump(evs []app.Event) string { return surfacetest.Dump(evs) }
