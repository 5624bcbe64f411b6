package fakeapi

// The real CLI ($LATCH_CLAUDE) takes what the fake serves: a text answer, a
// tool call it runs, an API error it reports.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runCLI runs the real CLI in print mode against s, stdin /dev/null, in a
// fresh HOME and cwd, and returns its stdout events and the cwd.
func runCLI(t *testing.T, s *Server, args ...string) (events []map[string]any, cwd string, exitCode int) {
	t.Helper()
	claude := CLIPath(t)
	home, cwd := t.TempDir(), t.TempDir()
	t.Cleanup(func() { TidyTemp(cwd) })
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, claude, args...)
	cmd.Dir = cwd
	cmd.Env = CLIEnv(s.URL(), home)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		exitCode = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run: %v", err)
	}
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("stdout line %q: %v", sc.Text(), err)
		}
		events = append(events, ev)
	}
	if len(events) == 0 {
		t.Fatalf("no stdout, exit %d, stderr: %s", exitCode, stderr.String())
	}
	return events, cwd, exitCode
}

func resultOf(t *testing.T, events []map[string]any) map[string]any {
	t.Helper()
	last := events[len(events)-1]
	if last["type"] != "result" {
		t.Fatalf("last event is %v, not a result", last["type"])
	}
	return last
}

func TestRealCLIPlainAnswer(t *testing.T) {
	t.Parallel()
	s := start(t)
	s.Push(Say(Text("Hello from the fake API.")))
	extra := filepath.Join(t.TempDir(), "extra.txt")
	if err := os.WriteFile(extra, []byte("APPENDED-INSTRUCTION\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	events, _, code := runCLI(t, s, "-p", "hi", "--output-format", "stream-json", "--verbose",
		"--append-system-prompt-file", extra)
	res := resultOf(t, events)
	if code != 0 || res["is_error"] != false || res["result"] != "Hello from the fake API." {
		t.Errorf("exit %d, result %v", code, res)
	}
	reqs := s.Conversation()
	if len(reqs) != 1 {
		t.Fatalf("%d conversation requests, want 1", len(reqs))
	}
	r := reqs[0]
	if !strings.Contains(r.LastUserText(), "hi") || r.Query != "beta=true" {
		t.Errorf("prompt %q, query %q", r.LastUserText(), r.Query)
	}
	if len(r.System) != 3 || !strings.HasSuffix(strings.TrimSpace(r.System[2]), "APPENDED-INSTRUCTION") {
		t.Errorf("system blocks: %d, block 3 ends %q", len(r.System), tail(r.System))
	}
	if !strings.HasPrefix(r.Header.Get("user-agent"), "claude-cli/") {
		t.Errorf("user-agent %q", r.Header.Get("user-agent"))
	}
	var sawAssistant bool
	for _, ev := range events {
		if ev["type"] == "assistant" {
			sawAssistant = true
			if id, _ := ev["request_id"].(string); !strings.HasPrefix(id, "req_fake_") {
				t.Errorf("assistant request_id %q: the request-id header was not taken", id)
			}
		}
	}
	if !sawAssistant {
		t.Error("no assistant event")
	}
}

func tail(ss []string) string {
	if len(ss) == 0 {
		return ""
	}
	s := ss[len(ss)-1]
	return s[max(0, len(s)-60):]
}

func TestRealCLIToolUse(t *testing.T) {
	t.Parallel()
	s := start(t)
	s.Push(Say(Text("Making it."), Bash("touch made.txt")))
	events, cwd, code := runCLI(t, s, "-p", "make a file", "--output-format", "stream-json", "--verbose",
		"--allowedTools", "Bash")
	res := resultOf(t, events)
	if code != 0 || res["result"] != "done." {
		t.Errorf("exit %d, result %v", code, res)
	}
	if _, err := os.Stat(filepath.Join(cwd, "made.txt")); err != nil {
		t.Errorf("the scripted touch did not run: %v", err)
	}
	reqs := s.Conversation()
	if len(reqs) != 2 {
		t.Fatalf("%d conversation requests, want 2", len(reqs))
	}
	tr, ok := reqs[1].LastToolResult()
	if !ok || tr.IsError || tr.ToolUseID != reqs[0].Served.Blocks[1].ID {
		t.Errorf("second request's tool_result %+v (served id %s)", tr, reqs[0].Served.Blocks[1].ID)
	}
	var roleSystem bool
	for _, m := range reqs[0].Messages {
		roleSystem = roleSystem || m.Role == "system"
	}
	if !roleSystem {
		t.Error("no role:system message recorded (2.1.328 sends one, docs/protocol.md §12)")
	}
}

func TestRealCLIAPIError(t *testing.T) {
	t.Parallel()
	s := start(t)
	s.Handle(Always(Fail(500, "fake outage")))
	events, _, code := runCLI(t, s, "-p", "hi", "--output-format", "stream-json", "--verbose")
	res := resultOf(t, events)
	if code != 1 || res["is_error"] != true || res["api_error_status"] != float64(500) ||
		!strings.Contains(res["result"].(string), "fake outage") {
		t.Errorf("exit %d, result %v", code, res)
	}
	// CLIEnv caps retries at 2: one try and two retries.
	if n := len(s.Conversation()); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
}
