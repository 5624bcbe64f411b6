package app_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/latch-app/latch/app"
	"github.com/latch-app/latch/internal/testsupport/fakecli"
)

func TestLaunchArgv(t *testing.T) {
	tests := []struct {
		name string
		cfg  app.Config
		want []string
		not  []string
	}{
		{"live defaults", app.Config{},
			[]string{"-p", "--input-format", "stream-json", "--output-format", "--verbose", "--include-partial-messages", "--permission-prompt-tool", "stdio"},
			[]string{"--dangerously-skip-permissions", "--allowedTools", "--append-system-prompt-file"}},
		{"allow-list", app.Config{AllowedTools: []string{"Bash", "Read", "Bash"}}, []string{"--allowedTools", "Bash,Read"}, nil},
		{"dangerous only when asked", app.Config{DangerousSkip: true}, []string{"--dangerously-skip-permissions"}, nil},
		{"experimental", app.Config{Experimental: true}, []string{"--append-system-prompt-file"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, tc.cfg, initLine+"\nwait \"user\"\n"+resultLine+"\nwaiteof\n")
			r.send("hi")
			r.surf.WaitIdle(t, 1)
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
	r := newRig(t, app.Config{Experimental: true}, initLine+"\nwait \"user\"\nsleep 300ms\n"+resultLine+"\nwaiteof\n")
	r.send("hi")
	var path string
	r.surf.WaitFor(t, "argv", func([]app.Event) bool {
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
	r.surf.WaitIdle(t, 1)
	r.session.Close()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("instruction file left behind after the process ended: %v", err)
	}
}

func TestLiveAnswers(t *testing.T) {
	tests := []struct {
		name    string
		d       app.Decision
		want    []string // substrings of the answer line on stdin
		userDen bool
	}{
		{"allow once", app.Decision{Action: app.AllowOnce}, []string{`"behavior":"allow"`, `"updatedInput":{"command":"touch x.txt"}`}, false},
		// Latch saves the rule itself and puts it in the CLI's flag layer
		// (TestAlwaysAllowProjectScope); the answer just allows.
		{"allow always for the project", app.Decision{Action: app.AllowAlways, Rule: "Bash(touch x.txt)", Scope: app.ScopeProject},
			[]string{`"behavior":"allow"`}, false},
		{"deny with words", app.Decision{Action: app.Deny, Message: "not now"}, []string{`"behavior":"deny"`, `"message":"not now"`}, true},
		{"deny default words", app.Decision{Action: app.Deny}, []string{`"message":"Denied in Latch."`}, true},
		{"deny and stop", app.Decision{Action: app.DenyStop}, []string{`"behavior":"deny"`, `"interrupt":true`}, true},
		{"no answer is a deny", app.Decision{}, []string{`"behavior":"deny"`}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			denied := `print {"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"not now","is_error":true,"tool_use_id":"toolu_1"}]},"session_id":"$SID"}`
			r := newRig(t, app.Config{}, strings.Join([]string{initLine, `wait "user"`, bashUse, bashAsk, `wait "control_response"`, denied, resultLine, "waiteof"}, "\n"))
			r.surf.OnAsk(func(ctx context.Context, q app.Question) app.Decision {
				if q.Command != "touch x.txt" || q.Rule != "Bash(touch x.txt)" {
					t.Errorf("question = %+v", q)
				}
				return tc.d
			})
			r.send("make x")
			evs := r.surf.WaitIdle(t, 1)
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
			for _, e := range ofKind(evs, app.EvToolResult) {
				denial = e.Tool.Denial
			}
			if tc.userDen && denial != "denied by you" {
				t.Errorf("tool result denial = %q, want denied by you", denial)
			}
		})
	}
}

func TestAlwaysAllowUserScopeSavesRule(t *testing.T) {
	r := newRig(t, app.Config{}, strings.Join([]string{initLine, `wait "user"`, bashUse, bashAsk, `wait "control_response"`, resultLine, "waiteof"}, "\n"))
	r.surf.OnAsk(func(context.Context, app.Question) app.Decision {
		return app.Decision{Action: app.AllowAlways, Rule: "Bash(touch x.txt)", Scope: app.ScopeUser}
	})
	r.send("make x")
	r.surf.WaitIdle(t, 1)
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
	r := newRig(t, app.Config{}, strings.Join([]string{initLine, `wait "user"`, bashUse, bashAsk, "sleep 200ms", cancel, "sleep 300ms", resultLine, "waiteof"}, "\n"))
	withdrawn := make(chan bool, 1)
	r.surf.OnAsk(func(ctx context.Context, q app.Question) app.Decision {
		select {
		case <-ctx.Done():
			withdrawn <- true
		case <-time.After(10 * time.Second):
			withdrawn <- false
		}
		return app.Decision{Action: app.AllowOnce} // the answer races the cancel and must lose
	})
	r.send("make x")
	r.surf.WaitIdle(t, 1)
	if !<-withdrawn {
		t.Fatal("Ask's context was not cancelled when the CLI withdrew the question")
	}
	if strings.Contains(r.file("stdin", 1), "control_response") {
		t.Errorf("an answer was sent to a withdrawn question:\n%s", r.file("stdin", 1))
	}
}

func TestUnservedRequestGetsErrorAnswer(t *testing.T) {
	hook := `print {"type":"control_request","request_id":"hk-1","request":{"subtype":"hook_callback","callback_id":"hook_0","input":{}}}`
	r := newRig(t, app.Config{}, strings.Join([]string{initLine, `wait "user"`, hook, `wait "hk-1"`, resultLine, "waiteof"}, "\n"))
	r.send("hi")
	r.surf.WaitIdle(t, 1)
	if s := r.file("stdin", 1); !strings.Contains(s, `"subtype":"error"`) || !strings.Contains(s, `"request_id":"hk-1"`) {
		t.Errorf("no error answer for hook_callback:\n%s", s)
	}
}

func TestStopSendsInterruptAndProcessSurvives(t *testing.T) {
	aborted := `print {"type":"result","subtype":"error_during_execution","is_error":true,"result":null,"session_id":"$SID","total_cost_usd":0.1,"usage":{},"permission_denials":[],"terminal_reason":"aborted_tools"}`
	r := newRig(t, app.Config{}, strings.Join([]string{initLine, `wait "user"`, bashUse, `wait "interrupt"`, aborted, `wait "user"`, initLine, resultLine, "waiteof"}, "\n"))
	r.send("sleep")
	r.surf.WaitFor(t, "tool call", func(evs []app.Event) bool { return len(ofKind(evs, app.EvToolCall)) > 0 })
	r.session.Stop()
	r.surf.WaitIdle(t, 1)
	r.send("again")
	evs := r.surf.WaitIdle(t, 2)
	if r.rec.Has("argv", 2) {
		t.Error("a second process was started; the live process should have survived the interrupt")
	}
	// A stop is one neutral row: not a failure, no notices, no error.
	if ends := ofKind(evs, app.EvTurnEnd); len(ends) != 2 || ends[0].Turn.IsError || !ends[0].Turn.Stopped || ends[1].Turn.Stopped {
		t.Errorf("turn ends: %s", dump(evs))
	}
	if n := len(ofKind(evs, app.EvNotice)) + len(ofKind(evs, app.EvError)); n != 0 {
		t.Errorf("%d notices and errors for a stop:\n%s", n, dump(evs))
	}
}

func TestStopKillsUnresponsiveCLI(t *testing.T) {
	old := app.StopGrace
	app.StopGrace = 300 * time.Millisecond
	defer func() { app.StopGrace = old }()
	r := newRig(t, app.Config{}, strings.Join([]string{initLine, `wait "user"`, bashUse, "sleep 60s"}, "\n"))
	r.send("sleep")
	r.surf.WaitFor(t, "tool call", func(evs []app.Event) bool { return len(ofKind(evs, app.EvToolCall)) > 0 })
	start := time.Now()
	r.session.Stop()
	evs := r.surf.WaitIdle(t, 1)
	if time.Since(start) > 10*time.Second {
		t.Errorf("stop took %v", time.Since(start))
	}
	if len(ofKind(evs, app.EvError)) != 0 {
		t.Errorf("a stop is not an error: %s", dump(evs))
	}
	if ends := ofKind(evs, app.EvTurnEnd); len(ends) != 1 || !ends[0].Turn.Stopped || ends[0].Turn.IsError || !strings.Contains(ends[0].Turn.Note, "process was ended") {
		t.Errorf("turn ends: %s", dump(evs))
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
		{"unknown resume id", nil, `print {"type":"result","subtype":"error_during_execution","is_error":true,"session_id":"$SID","num_turns":0,"errors":["No conversation found with session ID: x"]}` + "\nwaiteof\n", "no longer knows this session", "No conversation found"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, app.Config{Command: tc.command}, tc.script)
			r.send("hi")
			evs := r.surf.WaitIdle(t, 1)
			errs := ofKind(evs, app.EvError)
			if len(errs) != 1 {
				t.Fatalf("want one error, got:\n%s", dump(evs))
			}
			if !strings.Contains(errs[0].Err.Title, tc.title) || !strings.Contains(errs[0].Err.Detail, tc.detail) {
				t.Errorf("error = %q / %q", errs[0].Err.Title, errs[0].Err.Detail)
			}
		})
	}
}

// rowShows is what the window's error row shows of a Detail: its first 4 KB
// (ui capTextAt with softRowText).
const rowShows = 4 << 10

// TestStartupFailureShowsTheEnd: 400 KB of stderr before the reason; the
// error shows the reason, within what an error row shows, and keeps all of
// stderr for copying.
func TestStartupFailureShowsTheEnd(t *testing.T) {
	const reason = "the real reason: XYZ"
	tests := []struct{ name, script string }{
		{"many lines", "bigstderr 400000\nstderr " + reason + "\nexit 1\n"},
		{"one long last line", "bigstderr 400000\nstderr " + strings.Repeat("é", 20000) + reason + "\nexit 1\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, app.Config{}, tc.script)
			r.send("hi")
			evs := r.surf.WaitIdle(t, 1)
			errs := ofKind(evs, app.EvError)
			if len(errs) != 1 {
				t.Fatalf("want one error:\n%s", dump(evs))
			}
			e := errs[0].Err
			if !strings.Contains(e.Title, "exited before") {
				t.Errorf("title = %q", e.Title)
			}
			if len(e.Detail) > rowShows {
				t.Errorf("Detail is %d bytes; the row shows only the first %d", len(e.Detail), rowShows)
			}
			if !strings.Contains(e.Detail, reason) || !strings.Contains(e.Detail, "exit code 1") || !strings.Contains(e.Hint, "Preferences") {
				t.Errorf("Detail lacks the reason, the exit or the advice:\n%s", e.Detail)
			}
			if !utf8.ValidString(e.Detail) {
				t.Error("Detail is not valid UTF-8")
			}
			if !strings.Contains(e.Full, reason) || len(e.Full) < 400000 || !strings.Contains(e.Full, "stderr noise 0 ") {
				t.Errorf("Full (%d bytes) does not hold the whole stderr", len(e.Full))
			}
		})
	}
}

func TestHugeLinePassesThrough(t *testing.T) {
	const n = 64 << 20
	r := newRig(t, app.Config{}, initLine+"\nwait \"user\"\nbig "+strconv.Itoa(n)+"\n"+resultLine+"\nwaiteof\n")
	r.send("say a lot")
	evs := r.surf.WaitIdle(t, 1)
	total := 0
	for _, e := range ofKind(evs, app.EvText) {
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
	r := newRig(t, app.Config{Prompts: app.PromptsAfterTurn, AllowedTools: []string{"Read"}}, first, second)
	r.surf.OnAskGrants(func(req app.GrantRequest) app.Decision {
		return app.Decision{Action: app.Grant, Rules: []string{req.Tools[0].Rule}, Folders: []string{req.Folders[0].Path}, Scope: app.ScopeUser}
	})
	r.send("make x")
	evs := r.surf.WaitIdle(t, 1)

	if len(r.surf.GrantRequests()) != 1 {
		t.Fatalf("grant requests: %+v\n%s", r.surf.GrantRequests(), dump(evs))
	}
	req := r.surf.GrantRequests()[0]
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
	if n := len(ofKind(evs, app.EvTurnEnd)); n != 2 {
		t.Errorf("turn ends = %d, want 2", n)
	}
	if errs := ofKind(evs, app.EvError); len(errs) != 0 {
		t.Errorf("the resumed turn failed:\n%s", dump(evs))
	}
}

func TestAfterTurnNotNowGrantsNothing(t *testing.T) {
	closed := `print {"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"Tool permission request failed: AbortError: Stream closed","is_error":true,"tool_use_id":"toolu_1"}]},"session_id":"$SID"}`
	r := newRig(t, app.Config{Prompts: app.PromptsAfterTurn}, strings.Join([]string{`wait "user"`, "waiteof", initLine, bashUse, closed, resultLine, "exit 0"}, "\n"))
	r.send("make x")
	r.surf.WaitIdle(t, 1)
	if len(r.surf.GrantRequests()) != 1 {
		t.Fatalf("grant requests: %d", len(r.surf.GrantRequests()))
	}
	if r.rec.Has("argv", 2) {
		t.Error("resumed although nothing was granted")
	}
	if _, err := os.Stat(filepath.Join(r.home, ".claude", "settings.json")); err == nil {
		t.Error("settings written although nothing was granted")
	}
}

func TestReconfigureResumesUnderNewFlags(t *testing.T) {
	turn := strings.Join([]string{initLine, `wait "user"`, resultLine, "waiteof"}, "\n")
	r := newRig(t, app.Config{}, turn, strings.Join([]string{`wait "user"`, initLine, resultLine, "waiteof"}, "\n"))
	r.send("one")
	r.surf.WaitIdle(t, 1)
	r.session.Reconfigure(app.Config{Command: []string{fakecli.Path(t)}, AllowedTools: []string{"Bash"}, Prompts: app.PromptsLive, Workdir: "/elsewhere"})
	r.send("two")
	evs := r.surf.WaitIdle(t, 2)
	if !r.rec.Has("argv", 2) {
		t.Fatalf("no second process:\n%s", dump(evs))
	}
	a2 := strings.Join(r.argv(2), " ")
	if !strings.Contains(a2, "--resume="+r.session.SessionID()) || !strings.Contains(a2, "--allowedTools Bash") {
		t.Errorf("second process: %s\n%s", a2, dump(r.surf.Events()))
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
	r := newRig(t, app.Config{}, strings.Join([]string{initLine, `wait "user"`, ask, `wait "control_response"`, resultLine, "waiteof"}, "\n"))
	r.surf.OnAsk(func(_ context.Context, q app.Question) app.Decision {
		if len(q.Questions) != 1 || q.Questions[0].Question != "Which color?" || strings.Join(q.Questions[0].Options, ",") != "Red,Blue" {
			t.Errorf("questions = %+v", q.Questions)
		}
		return app.Decision{Action: app.AllowOnce, Answers: map[string]string{"Which color?": "Blue"}}
	})
	r.send("ask me")
	r.surf.WaitIdle(t, 1)
	stdin := r.file("stdin", 1)
	if !strings.Contains(stdin, `"answers":{"Which color?":"Blue"}`) || !strings.Contains(stdin, `"behavior":"allow"`) {
		t.Errorf("answer sent:\n%s", stdin)
	}
}

func TestStopWhileQuestionPending(t *testing.T) {
	cancel := `print {"type":"control_cancel_request","request_id":"req-1"}`
	aborted := `print {"type":"result","subtype":"error_during_execution","is_error":true,"result":null,"session_id":"$SID","total_cost_usd":0.1,"usage":{},"permission_denials":[{"tool_name":"Bash","tool_use_id":"toolu_1","tool_input":{}}],"terminal_reason":"aborted_tools"}`
	r := newRig(t, app.Config{}, strings.Join([]string{initLine, `wait "user"`, bashUse, bashAsk, `wait "interrupt"`, cancel, aborted, "waiteof"}, "\n"))
	asked := make(chan struct{})
	withdrawn := make(chan bool, 1)
	r.surf.OnAsk(func(ctx context.Context, q app.Question) app.Decision {
		close(asked)
		select {
		case <-ctx.Done():
			withdrawn <- true
		case <-time.After(10 * time.Second):
			withdrawn <- false
		}
		return app.Decision{Action: app.AllowOnce}
	})
	r.send("make x")
	<-asked
	r.session.Stop()
	evs := r.surf.WaitIdle(t, 1)
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
	if len(ofKind(evs, app.EvError)) != 0 || len(r.surf.GrantRequests()) != 0 {
		t.Errorf("a stop is neither an error nor a reason to offer grants:\n%s", dump(evs))
	}
}

func TestGrantIntoMalformedSettingsLosesNothing(t *testing.T) {
	closed := `print {"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"Tool permission request failed: AbortError: Stream closed","is_error":true,"tool_use_id":"toolu_1"}]},"session_id":"$SID"}`
	first := strings.Join([]string{`wait "user"`, "waiteof", initLine, bashUse, closed, resultLine, "exit 0"}, "\n")
	second := strings.Join([]string{`wait Continue`, "waiteof", initLine, resultLine, "exit 0"}, "\n")
	r := newRig(t, app.Config{Prompts: app.PromptsAfterTurn}, first, second)
	settings := filepath.Join(r.home, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o700)
	bad := "{\n  \"permissions\": {\"allow\": [\"Read\",]}\n}\n"
	os.WriteFile(settings, []byte(bad), 0o600)
	r.surf.OnAskGrants(func(app.GrantRequest) app.Decision {
		return app.Decision{Action: app.Grant, Rules: []string{"Bash"}, Scope: app.ScopeUser}
	})
	r.send("make x")
	evs := r.surf.WaitIdle(t, 1)
	if b, _ := os.ReadFile(settings); string(b) != bad {
		t.Errorf("malformed settings.json was changed:\n%s", b)
	}
	errs := ofKind(evs, app.EvError)
	if len(errs) != 1 || !strings.Contains(errs[0].Err.Detail, "settings.json") || !strings.Contains(errs[0].Err.Detail, "this session only") {
		t.Errorf("want one error naming the file:\n%s", dump(evs))
	}
	if a2 := strings.Join(r.argv(2), " "); !strings.Contains(a2, "--allowedTools Bash") {
		t.Errorf("the grant did not reach the retry: %s", a2)
	}
}

func TestStopInAfterTurnModeEndsTheProcess(t *testing.T) {
	r := newRig(t, app.Config{Prompts: app.PromptsAfterTurn}, strings.Join([]string{`wait "user"`, initLine, bashUse, "sleep 60s"}, "\n"),
		strings.Join([]string{`wait "user"`, "waiteof", initLine, resultLine, "exit 0"}, "\n"))
	r.send("sleep")
	r.surf.WaitFor(t, "tool call", func(evs []app.Event) bool { return len(ofKind(evs, app.EvToolCall)) > 0 })
	r.session.Stop()
	evs := r.surf.WaitIdle(t, 1)
	if strings.Contains(r.file("stdin", 1), "interrupt") {
		t.Error("an interrupt was written to a closed input")
	}
	if len(ofKind(evs, app.EvError)) != 0 {
		t.Errorf("a stop is not an error:\n%s", dump(evs))
	}
	r.send("again")
	r.surf.WaitIdle(t, 2)
	if a2 := strings.Join(r.argv(2), " "); !strings.Contains(a2, "--resume="+r.session.SessionID()) {
		t.Errorf("the next prompt did not resume the session: %s", a2)
	}
}
