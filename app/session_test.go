package app

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

var fakeCLI string // built once by TestMain

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "latch-fakecli-")
	if err != nil {
		panic(err)
	}
	fakeCLI = filepath.Join(dir, "claude")
	if out, err := exec.Command("go", "build", "-o", fakeCLI, "./testdata/fakecli").CombinedOutput(); err != nil {
		panic("building fakecli: " + err.Error() + "\n" + string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// fakeSurface records what a Session shows and answers from scripts.
type fakeSurface struct {
	mu      sync.Mutex
	events  []Event
	asked   []Question
	grants  []GrantRequest
	ask     func(ctx context.Context, q Question) Decision
	askGrnt func(r GrantRequest) Decision
	changed chan struct{}
}

func newFakeSurface() *fakeSurface { return &fakeSurface{changed: make(chan struct{}, 1)} }

func (f *fakeSurface) Show(ev Event) {
	f.mu.Lock()
	f.events = append(f.events, ev)
	f.mu.Unlock()
	select {
	case f.changed <- struct{}{}:
	default:
	}
}

func (f *fakeSurface) Ask(ctx context.Context, q Question) Decision {
	f.mu.Lock()
	f.asked = append(f.asked, q)
	ask := f.ask
	f.mu.Unlock()
	if ask == nil {
		return Decision{Action: AllowOnce}
	}
	return ask(ctx, q)
}

func (f *fakeSurface) AskGrants(ctx context.Context, r GrantRequest) Decision {
	f.mu.Lock()
	f.grants = append(f.grants, r)
	fn := f.askGrnt
	f.mu.Unlock()
	if fn == nil {
		return Decision{Action: NotNow}
	}
	return fn(r)
}

func (f *fakeSurface) snapshot() []Event {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Event(nil), f.events...)
}

// waitFor polls the recorded events until cond holds.
func (f *fakeSurface) waitFor(t *testing.T, what string, cond func([]Event) bool) []Event {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		evs := f.snapshot()
		if cond(evs) {
			return evs
		}
		select {
		case <-f.changed:
		case <-time.After(20 * time.Millisecond):
		case <-deadline:
			t.Fatalf("timed out waiting for %s; events:\n%s", what, dump(evs))
		}
	}
}

// waitIdle waits for the end of the n-th turn (the n-th return to Idle).
func (f *fakeSurface) waitIdle(t *testing.T, n int) []Event {
	return f.waitFor(t, "idle", func(evs []Event) bool {
		running, idles := false, 0
		for _, e := range evs {
			if e.Kind == EvStatus && e.Status.State == Running {
				running = true
			}
			if running && e.Kind == EvStatus && e.Status.State == Idle {
				idles++
				running = false
			}
		}
		return idles >= n
	})
}

func dump(evs []Event) string {
	var b strings.Builder
	for _, e := range evs {
		switch {
		case e.Status != nil:
			b.WriteString("status " + e.Status.State.String() + "\n")
		case e.Err != nil:
			b.WriteString("error " + e.Err.Title + ": " + e.Err.Detail + "\n")
		case e.Tool != nil:
			b.WriteString("tool " + e.Tool.Name + " " + e.Tool.Summary + " " + e.Tool.Denial + "\n")
		case e.Turn != nil:
			b.WriteString("turn-end " + e.Turn.ErrorText + "\n")
		default:
			b.WriteString("text " + e.Text + "\n")
		}
	}
	return b.String()
}

func find(evs []Event, kind EventKind) []Event {
	var out []Event
	for _, e := range evs {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// rig is one Session on the fake CLI with its own folders.
type rig struct {
	t       *testing.T
	dir     string // the fake CLI's record folder
	work    string
	home    string
	surf    *fakeSurface
	session *Session
}

func newRig(t *testing.T, cfg Config, scripts ...string) *rig {
	t.Helper()
	r := &rig{t: t, dir: t.TempDir(), work: t.TempDir(), home: t.TempDir(), surf: newFakeSurface()}
	env := append(os.Environ(), "FAKECLI_DIR="+r.dir, "CLAUDE_CODE_SESSION_ID=parent", "CLAUDE_CODE_ENTRYPOINT=parent")
	for i, s := range scripts {
		p := filepath.Join(r.dir, "script."+string(rune('1'+i)))
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
		env = append(env, "FAKECLI_SCRIPT_"+string(rune('1'+i))+"="+p)
		if i == 0 {
			env = append(env, "FAKECLI_SCRIPT="+p)
		}
	}
	cfg.Workdir = r.work
	if cfg.Command == nil {
		cfg.Command = []string{fakeCLI}
	}
	cfg.UserSettings = filepath.Join(r.home, ".claude", "settings.json")
	cfg.Env = env
	r.session = NewSession(cfg, r.surf)
	t.Cleanup(r.session.Close)
	return r
}

func (r *rig) file(name string, run int) string {
	b, err := os.ReadFile(filepath.Join(r.dir, name+"."+string(rune('0'+run))))
	if err != nil {
		r.t.Fatalf("reading fake CLI record: %v", err)
	}
	return string(b)
}

func (r *rig) argv(run int) []string {
	return strings.Split(strings.TrimSpace(r.file("argv", run)), "\n")
}

func (r *rig) send(prompt string) {
	r.t.Helper()
	if err := r.session.Send(prompt); err != nil {
		r.t.Fatal(err)
	}
}

const (
	initLine   = `print {"type":"system","subtype":"init","session_id":"$SID","cwd":"/w","model":"claude-test","permissionMode":"default","tools":["Bash"],"additional_directories":[]}`
	resultLine = `print {"type":"result","subtype":"success","is_error":false,"result":"done.","session_id":"$SID","total_cost_usd":0.25,"usage":{"input_tokens":20,"output_tokens":10},"permission_denials":[],"terminal_reason":"completed"}`
	bashUse    = `print {"type":"assistant","message":{"id":"msg_1","role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"touch x.txt"}}]},"session_id":"$SID"}`
	bashAsk    = `print {"type":"control_request","request_id":"req-1","request":{"subtype":"can_use_tool","tool_name":"Bash","display_name":"Bash","input":{"command":"touch x.txt"},"permission_suggestions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"touch x.txt"}],"behavior":"allow","destination":"localSettings"}],"tool_use_id":"toolu_1"}}`
)

func TestLaunchArgv(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want []string
		not  []string
	}{
		{"live defaults", Config{},
			[]string{"-p", "--input-format", "stream-json", "--output-format", "--verbose", "--include-partial-messages", "--permission-prompt-tool", "stdio"},
			[]string{"--dangerously-skip-permissions", "--allowedTools", "--append-system-prompt-file"}},
		{"allow-list", Config{AllowedTools: []string{"Bash", "Read", "Bash"}}, []string{"--allowedTools", "Bash,Read"}, nil},
		{"dangerous only when asked", Config{DangerousSkip: true}, []string{"--dangerously-skip-permissions"}, nil},
		{"experimental", Config{Experimental: true}, []string{"--append-system-prompt-file"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, tc.cfg, initLine+"\nwait \"user\"\n"+resultLine+"\nwaiteof\n")
			r.send("hi")
			r.surf.waitIdle(t, 1)
			argv := strings.Join(r.argv(1), "\x00")
			for _, w := range tc.want {
				if !strings.Contains("\x00"+argv+"\x00", "\x00"+w+"\x00") {
					t.Errorf("argv lacks %q: %q", w, r.argv(1))
				}
			}
			for _, n := range tc.not {
				if strings.Contains(argv, n) {
					t.Errorf("argv has %q: %q", n, r.argv(1))
				}
			}
			if !strings.Contains(argv, "--add-dir\x00"+r.work) || !strings.Contains(argv, "--add-dir\x00"+os.TempDir()) {
				t.Errorf("workdir and temp dir not trusted: %q", r.argv(1))
			}
			if !strings.Contains(argv, "--session-id="+r.session.SessionID()) {
				t.Errorf("no --session-id=%s: %q", r.session.SessionID(), r.argv(1))
			}
			env := r.file("env", 1)
			if strings.Contains(env, "CLAUDE_CODE_SESSION_ID=") || strings.Contains(env, "CLAUDE_CODE_ENTRYPOINT=") {
				t.Error("parent Claude variables leaked into the CLI's environment")
			}
		})
	}
}

func TestExperimentalInstructionFile(t *testing.T) {
	// The fake prints the file's path back through stderr-free means: we
	// read it from argv while the process runs.
	r := newRig(t, Config{Experimental: true}, initLine+"\nwait \"user\"\nsleep 300ms\n"+resultLine+"\nwaiteof\n")
	r.send("hi")
	var path string
	r.surf.waitFor(t, "argv", func([]Event) bool {
		b, err := os.ReadFile(filepath.Join(r.dir, "argv.1"))
		if err != nil {
			return false
		}
		args := strings.Split(string(b), "\n")
		for i, a := range args {
			if a == "--append-system-prompt-file" && i+1 < len(args) {
				path = args[i+1]
			}
		}
		return path != ""
	})
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("instruction file not there while the CLI runs: %v", err)
	}
	if !strings.Contains(string(data), "Stream closed") || !strings.Contains(string(data), "pausing for permission") {
		t.Errorf("instruction text = %q", data)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("instruction file mode %v, want 0600", fi.Mode().Perm())
	}
	r.surf.waitIdle(t, 1)
	r.session.Close()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("instruction file left behind after the process ended: %v", err)
	}
}

func TestLiveAnswers(t *testing.T) {
	tests := []struct {
		name    string
		d       Decision
		want    []string // substrings of the answer line on stdin
		userDen bool
	}{
		{"allow once", Decision{Action: AllowOnce}, []string{`"behavior":"allow"`, `"updatedInput":{"command":"touch x.txt"}`}, false},
		// Latch saves the rule itself and puts it in the CLI's flag layer
		// (TestAlwaysAllowProjectScope); the answer just allows.
		{"allow always for the project", Decision{Action: AllowAlways, Rule: "Bash(touch x.txt)", Scope: ScopeProject},
			[]string{`"behavior":"allow"`}, false},
		{"deny with words", Decision{Action: Deny, Message: "not now"}, []string{`"behavior":"deny"`, `"message":"not now"`}, true},
		{"deny default words", Decision{Action: Deny}, []string{`"message":"Denied in Latch."`}, true},
		{"deny and stop", Decision{Action: DenyStop}, []string{`"behavior":"deny"`, `"interrupt":true`}, true},
		{"no answer is a deny", Decision{}, []string{`"behavior":"deny"`}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			denied := `print {"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"not now","is_error":true,"tool_use_id":"toolu_1"}]},"session_id":"$SID"}`
			r := newRig(t, Config{}, strings.Join([]string{initLine, `wait "user"`, bashUse, bashAsk, `wait "control_response"`, denied, resultLine, "waiteof"}, "\n"))
			r.surf.ask = func(ctx context.Context, q Question) Decision {
				if q.Command != "touch x.txt" || q.Rule != "Bash(touch x.txt)" {
					t.Errorf("question = %+v", q)
				}
				return tc.d
			}
			r.send("make x")
			evs := r.surf.waitIdle(t, 1)
			stdin := r.file("stdin", 1)
			var answerLine string
			for _, l := range strings.Split(stdin, "\n") {
				if strings.Contains(l, "control_response") {
					answerLine = l
				}
			}
			for _, w := range tc.want {
				if !strings.Contains(answerLine, w) {
					t.Errorf("answer %s lacks %s", answerLine, w)
				}
			}
			if !strings.Contains(answerLine, `"request_id":"req-1"`) {
				t.Errorf("answer not tied to the request: %s", answerLine)
			}
			var denial string
			for _, e := range find(evs, EvToolResult) {
				denial = e.Tool.Denial
			}
			if tc.userDen && denial != "denied by you" {
				t.Errorf("tool result denial = %q, want denied by you", denial)
			}
		})
	}
}

func TestAlwaysAllowUserScopeSavesRule(t *testing.T) {
	r := newRig(t, Config{}, strings.Join([]string{initLine, `wait "user"`, bashUse, bashAsk, `wait "control_response"`, resultLine, "waiteof"}, "\n"))
	r.surf.ask = func(context.Context, Question) Decision {
		return Decision{Action: AllowAlways, Rule: "Bash(touch x.txt)", Scope: ScopeUser}
	}
	r.send("make x")
	r.surf.waitIdle(t, 1)
	b, err := os.ReadFile(filepath.Join(r.home, ".claude", "settings.json"))
	if err != nil || !strings.Contains(string(b), `"Bash(touch x.txt)"`) {
		t.Fatalf("user settings = %s, %v", b, err)
	}
	if !strings.Contains(r.file("stdin", 1), `"subtype":"apply_flag_settings","settings":{"permissions":{"allow":["Bash(touch x.txt)"]`) {
		t.Error("the running CLI was not given the rule")
	}
}

func TestCancelWithdrawsQuestion(t *testing.T) {
	cancel := `print {"type":"control_cancel_request","request_id":"req-1"}`
	r := newRig(t, Config{}, strings.Join([]string{initLine, `wait "user"`, bashUse, bashAsk, "sleep 200ms", cancel, "sleep 300ms", resultLine, "waiteof"}, "\n"))
	withdrawn := make(chan bool, 1)
	r.surf.ask = func(ctx context.Context, q Question) Decision {
		select {
		case <-ctx.Done():
			withdrawn <- true
		case <-time.After(10 * time.Second):
			withdrawn <- false
		}
		return Decision{Action: AllowOnce} // the answer races the cancel and must lose
	}
	r.send("make x")
	r.surf.waitIdle(t, 1)
	if !<-withdrawn {
		t.Fatal("Ask's context was not cancelled when the CLI withdrew the question")
	}
	if strings.Contains(r.file("stdin", 1), "control_response") {
		t.Errorf("an answer was sent to a withdrawn question:\n%s", r.file("stdin", 1))
	}
}

func TestUnservedRequestGetsErrorAnswer(t *testing.T) {
	hook := `print {"type":"control_request","request_id":"hk-1","request":{"subtype":"hook_callback","callback_id":"hook_0","input":{}}}`
	r := newRig(t, Config{}, strings.Join([]string{initLine, `wait "user"`, hook, `wait "hk-1"`, resultLine, "waiteof"}, "\n"))
	r.send("hi")
	r.surf.waitIdle(t, 1)
	if s := r.file("stdin", 1); !strings.Contains(s, `"subtype":"error"`) || !strings.Contains(s, `"request_id":"hk-1"`) {
		t.Errorf("no error answer for hook_callback:\n%s", s)
	}
}

func TestStopSendsInterruptAndProcessSurvives(t *testing.T) {
	aborted := `print {"type":"result","subtype":"error_during_execution","is_error":true,"result":null,"session_id":"$SID","total_cost_usd":0.1,"usage":{},"permission_denials":[],"terminal_reason":"aborted_tools"}`
	r := newRig(t, Config{}, strings.Join([]string{initLine, `wait "user"`, bashUse, `wait "interrupt"`, aborted, `wait "user"`, initLine, resultLine, "waiteof"}, "\n"))
	r.send("sleep")
	r.surf.waitFor(t, "tool call", func(evs []Event) bool { return len(find(evs, EvToolCall)) > 0 })
	r.session.Stop()
	r.surf.waitIdle(t, 1)
	r.send("again")
	evs := r.surf.waitIdle(t, 2)
	if _, err := os.Stat(filepath.Join(r.dir, "argv.2")); err == nil {
		t.Error("a second process was started; the live process should have survived the interrupt")
	}
	if ends := find(evs, EvTurnEnd); len(ends) != 2 || !ends[0].Turn.IsError || ends[1].Turn.IsError {
		t.Errorf("turn ends: %s", dump(evs))
	}
}

func TestStopKillsUnresponsiveCLI(t *testing.T) {
	old := StopGrace
	StopGrace = 300 * time.Millisecond
	defer func() { StopGrace = old }()
	r := newRig(t, Config{}, strings.Join([]string{initLine, `wait "user"`, bashUse, "sleep 60s"}, "\n"))
	r.send("sleep")
	r.surf.waitFor(t, "tool call", func(evs []Event) bool { return len(find(evs, EvToolCall)) > 0 })
	start := time.Now()
	r.session.Stop()
	evs := r.surf.waitIdle(t, 1)
	if time.Since(start) > 10*time.Second {
		t.Errorf("stop took %v", time.Since(start))
	}
	if len(find(evs, EvError)) != 0 {
		t.Errorf("a stop is not an error: %s", dump(evs))
	}
}

func TestFailuresReachTheSurface(t *testing.T) {
	tests := []struct {
		name    string
		command []string
		script  string
		title   string
		detail  string
	}{
		{"missing CLI", []string{"/nonexistent/claude"}, "", "not found", "Preferences"},
		{"startup failure", nil, "stderr error: unknown option '--bogus-flag'\nexit 1\n", "exited before", "unknown option"},
		{"dies mid-line", nil, initLine + "\nwait \"user\"\nhalf {\"type\":\"assis\n", "middle of the turn", "exit code 1"},
		{"API error", nil, initLine + "\nwait \"user\"\n" + `print {"type":"result","subtype":"success","is_error":true,"result":"API Error: 500 boom","session_id":"$SID","total_cost_usd":0,"usage":{},"permission_denials":[],"terminal_reason":"api_error","api_error_status":500}` + "\nwaiteof\n", "HTTP 500", "API Error: 500 boom"},
		{"unknown resume id", nil, `print {"type":"result","subtype":"error_during_execution","is_error":true,"session_id":"$SID","num_turns":0,"errors":["No conversation found with session ID: x"]}` + "\nwaiteof\n", "could not be resumed", "No conversation found"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, Config{Command: tc.command}, tc.script)
			r.send("hi")
			evs := r.surf.waitIdle(t, 1)
			errs := find(evs, EvError)
			if len(errs) != 1 {
				t.Fatalf("want one error, got:\n%s", dump(evs))
			}
			if !strings.Contains(errs[0].Err.Title, tc.title) || !strings.Contains(errs[0].Err.Detail, tc.detail) {
				t.Errorf("error = %q / %q", errs[0].Err.Title, errs[0].Err.Detail)
			}
		})
	}
}

func TestHugeLinePassesThrough(t *testing.T) {
	const n = 64 << 20
	r := newRig(t, Config{}, initLine+"\nwait \"user\"\nbig "+strconv.Itoa(n)+"\n"+resultLine+"\nwaiteof\n")
	r.send("say a lot")
	evs := r.surf.waitIdle(t, 1)
	total := 0
	for _, e := range find(evs, EvText) {
		total += len(e.Text)
	}
	if total != n {
		t.Errorf("text shown = %d bytes, want %d", total, n)
	}
}

func TestAfterTurnGrantAndResume(t *testing.T) {
	far := t.TempDir()
	closed := `print {"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"Tool permission request failed: AbortError: Stream closed","is_error":true,"tool_use_id":"toolu_1"}]},"session_id":"$SID"}`
	readUse := `print {"type":"assistant","message":{"id":"msg_2","role":"assistant","content":[{"type":"tool_use","id":"toolu_2","name":"Read","input":{"file_path":"` + far + `/data.txt"}}]},"session_id":"$SID"}`
	readDenied := `print {"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"Claude requested permissions to read from ` + far + `/data.txt, but you haven't granted it yet.","is_error":true,"tool_use_id":"toolu_2"}]},"session_id":"$SID"}`
	first := strings.Join([]string{`wait "user"`, "waiteof", initLine, bashUse, closed, readUse, readDenied, resultLine, "exit 0"}, "\n")
	second := strings.Join([]string{`wait Continue`, "waiteof", initLine, resultLine, "exit 0"}, "\n")
	r := newRig(t, Config{Prompts: PromptsAfterTurn, AllowedTools: []string{"Read"}}, first, second)
	r.surf.askGrnt = func(req GrantRequest) Decision {
		return Decision{Action: Grant, Rules: []string{req.Tools[0].Rule}, Folders: []string{req.Folders[0].Path}, Scope: ScopeUser}
	}
	r.send("make x")
	evs := r.surf.waitIdle(t, 1)

	if len(r.surf.grants) != 1 {
		t.Fatalf("grant requests: %+v\n%s", r.surf.grants, dump(evs))
	}
	req := r.surf.grants[0]
	if len(req.Tools) != 1 || req.Tools[0].Rule != "Bash(touch x.txt)" || req.Tools[0].Reason != "blocked: permission channel closed" {
		t.Errorf("tools offered: %+v", req.Tools)
	}
	if len(req.Folders) != 1 || req.Folders[0].Path != far {
		t.Errorf("folders offered: %+v (want %s)", req.Folders, far)
	}
	settings, _ := os.ReadFile(filepath.Join(r.home, ".claude", "settings.json"))
	if !strings.Contains(string(settings), `"Bash(touch x.txt)"`) || !strings.Contains(string(settings), far) {
		t.Errorf("settings.json = %s", settings)
	}
	a1, a2 := strings.Join(r.argv(1), " "), strings.Join(r.argv(2), " ")
	sid := r.session.SessionID()
	if !strings.Contains(a1, "--session-id="+sid) || !strings.Contains(a2, "--resume="+sid) {
		t.Errorf("argv 1: %s\nargv 2: %s", a1, a2)
	}
	if !strings.Contains(a2, "--allowedTools Read,Bash") || !strings.Contains(a2, "--add-dir "+far) {
		t.Errorf("resumed run lacks the grants: %s", a2)
	}
	if !strings.Contains(r.file("stdin", 2), "Retry the tool calls that failed.") {
		t.Errorf("retry message not sent: %s", r.file("stdin", 2))
	}
	if n := len(find(evs, EvTurnEnd)); n != 2 {
		t.Errorf("turn ends = %d, want 2", n)
	}
	if errs := find(evs, EvError); len(errs) != 0 {
		t.Errorf("the resumed turn failed:\n%s", dump(evs))
	}
}

func TestAfterTurnNotNowGrantsNothing(t *testing.T) {
	closed := `print {"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"Tool permission request failed: AbortError: Stream closed","is_error":true,"tool_use_id":"toolu_1"}]},"session_id":"$SID"}`
	r := newRig(t, Config{Prompts: PromptsAfterTurn}, strings.Join([]string{`wait "user"`, "waiteof", initLine, bashUse, closed, resultLine, "exit 0"}, "\n"))
	r.send("make x")
	r.surf.waitIdle(t, 1)
	if len(r.surf.grants) != 1 {
		t.Fatalf("grant requests: %d", len(r.surf.grants))
	}
	if _, err := os.Stat(filepath.Join(r.dir, "argv.2")); err == nil {
		t.Error("resumed although nothing was granted")
	}
	if _, err := os.Stat(filepath.Join(r.home, ".claude", "settings.json")); err == nil {
		t.Error("settings written although nothing was granted")
	}
}

func TestReconfigureResumesUnderNewFlags(t *testing.T) {
	turn := strings.Join([]string{initLine, `wait "user"`, resultLine, "waiteof"}, "\n")
	r := newRig(t, Config{}, turn, strings.Join([]string{`wait "user"`, initLine, resultLine, "waiteof"}, "\n"))
	r.send("one")
	r.surf.waitIdle(t, 1)
	r.session.Reconfigure(Config{Command: []string{fakeCLI}, AllowedTools: []string{"Bash"}, Prompts: PromptsLive, Workdir: "/elsewhere"})
	r.send("two")
	evs := r.surf.waitIdle(t, 2)
	if _, err := os.Stat(filepath.Join(r.dir, "argv.2")); err != nil {
		t.Fatalf("no second process:\n%s", dump(evs))
	}
	a2 := strings.Join(r.argv(2), " ")
	if !strings.Contains(a2, "--resume="+r.session.SessionID()) || !strings.Contains(a2, "--allowedTools Bash") {
		t.Errorf("second process: %s\n%s", a2, dump(r.surf.snapshot()))
	}
	if strings.Contains(a2, "/elsewhere") {
		t.Error("Reconfigure changed the working folder")
	}
	if !strings.Contains(r.file("stdin", 2), `"two"`) {
		t.Errorf("the prompt after Reconfigure went elsewhere: %s", r.file("stdin", 2))
	}
}

func TestAskUserQuestionAnswered(t *testing.T) {
	ask := `print {"type":"control_request","request_id":"q-1","request":{"subtype":"can_use_tool","tool_name":"AskUserQuestion","display_name":"AskUserQuestion","input":{"questions":[{"question":"Which color?","header":"Color","options":[{"label":"Red"},{"label":"Blue"}],"multiSelect":false}]},"tool_use_id":"toolu_q","requires_user_interaction":true}}`
	r := newRig(t, Config{}, strings.Join([]string{initLine, `wait "user"`, ask, `wait "control_response"`, resultLine, "waiteof"}, "\n"))
	r.surf.ask = func(_ context.Context, q Question) Decision {
		if len(q.Questions) != 1 || q.Questions[0].Question != "Which color?" || strings.Join(q.Questions[0].Options, ",") != "Red,Blue" {
			t.Errorf("questions = %+v", q.Questions)
		}
		return Decision{Action: AllowOnce, Answers: map[string]string{"Which color?": "Blue"}}
	}
	r.send("ask me")
	r.surf.waitIdle(t, 1)
	stdin := r.file("stdin", 1)
	if !strings.Contains(stdin, `"answers":{"Which color?":"Blue"}`) || !strings.Contains(stdin, `"behavior":"allow"`) {
		t.Errorf("answer sent:\n%s", stdin)
	}
}

func TestStopWhileQuestionPending(t *testing.T) {
	cancel := `print {"type":"control_cancel_request","request_id":"req-1"}`
	aborted := `print {"type":"result","subtype":"error_during_execution","is_error":true,"result":null,"session_id":"$SID","total_cost_usd":0.1,"usage":{},"permission_denials":[{"tool_name":"Bash","tool_use_id":"toolu_1","tool_input":{}}],"terminal_reason":"aborted_tools"}`
	r := newRig(t, Config{}, strings.Join([]string{initLine, `wait "user"`, bashUse, bashAsk, `wait "interrupt"`, cancel, aborted, "waiteof"}, "\n"))
	asked := make(chan struct{})
	withdrawn := make(chan bool, 1)
	r.surf.ask = func(ctx context.Context, q Question) Decision {
		close(asked)
		select {
		case <-ctx.Done():
			withdrawn <- true
		case <-time.After(10 * time.Second):
			withdrawn <- false
		}
		return Decision{Action: AllowOnce}
	}
	r.send("make x")
	<-asked
	r.session.Stop()
	evs := r.surf.waitIdle(t, 1)
	if !<-withdrawn {
		t.Fatal("the open question was not withdrawn")
	}
	stdin := r.file("stdin", 1)
	if !strings.Contains(stdin, `"subtype":"interrupt"`) {
		t.Errorf("no interrupt sent:\n%s", stdin)
	}
	if strings.Contains(stdin, `"request_id":"req-1"`) {
		t.Errorf("the withdrawn question was answered:\n%s", stdin)
	}
	if len(find(evs, EvError)) != 0 || len(r.surf.grants) != 0 {
		t.Errorf("a stop is neither an error nor a reason to offer grants:\n%s", dump(evs))
	}
}

func TestGrantIntoMalformedSettingsLosesNothing(t *testing.T) {
	closed := `print {"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"Tool permission request failed: AbortError: Stream closed","is_error":true,"tool_use_id":"toolu_1"}]},"session_id":"$SID"}`
	first := strings.Join([]string{`wait "user"`, "waiteof", initLine, bashUse, closed, resultLine, "exit 0"}, "\n")
	second := strings.Join([]string{`wait Continue`, "waiteof", initLine, resultLine, "exit 0"}, "\n")
	r := newRig(t, Config{Prompts: PromptsAfterTurn}, first, second)
	settings := filepath.Join(r.home, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o700)
	bad := "{\n  \"permissions\": {\"allow\": [\"Read\",]}\n}\n"
	os.WriteFile(settings, []byte(bad), 0o600)
	r.surf.askGrnt = func(GrantRequest) Decision {
		return Decision{Action: Grant, Rules: []string{"Bash"}, Scope: ScopeUser}
	}
	r.send("make x")
	evs := r.surf.waitIdle(t, 1)
	if b, _ := os.ReadFile(settings); string(b) != bad {
		t.Errorf("malformed settings.json was changed:\n%s", b)
	}
	errs := find(evs, EvError)
	if len(errs) != 1 || !strings.Contains(errs[0].Err.Detail, "settings.json") || !strings.Contains(errs[0].Err.Detail, "this session only") {
		t.Errorf("want one error naming the file:\n%s", dump(evs))
	}
	if a2 := strings.Join(r.argv(2), " "); !strings.Contains(a2, "--allowedTools Bash") {
		t.Errorf("the grant did not reach the retry: %s", a2)
	}
}

func TestStopInAfterTurnModeEndsTheProcess(t *testing.T) {
	r := newRig(t, Config{Prompts: PromptsAfterTurn}, strings.Join([]string{`wait "user"`, initLine, bashUse, "sleep 60s"}, "\n"),
		strings.Join([]string{`wait "user"`, "waiteof", initLine, resultLine, "exit 0"}, "\n"))
	r.send("sleep")
	r.surf.waitFor(t, "tool call", func(evs []Event) bool { return len(find(evs, EvToolCall)) > 0 })
	r.session.Stop()
	evs := r.surf.waitIdle(t, 1)
	if strings.Contains(r.file("stdin", 1), "interrupt") {
		t.Error("an interrupt was written to a closed input")
	}
	if len(find(evs, EvError)) != 0 {
		t.Errorf("a stop is not an error:\n%s", dump(evs))
	}
	r.send("again")
	r.surf.waitIdle(t, 2)
	if a2 := strings.Join(r.argv(2), " "); !strings.Contains(a2, "--resume="+r.session.SessionID()) {
		t.Errorf("the next prompt did not resume the session: %s", a2)
	}
}
