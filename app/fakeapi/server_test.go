package fakeapi

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

// convBody is a minimal conversation request body: it has tools.
func convBody(t *testing.T, messages string) string {
	t.Helper()
	return `{"model":"claude-opus-5-5","system":[{"type":"text","text":"a"},{"type":"text","text":"b"}],` +
		`"tools":[{"name":"Bash"},{"name":"Read"}],"stream":true,"messages":` + messages + `}`
}

type sseEvent struct {
	name string
	data map[string]any
}

func post(t *testing.T, s *Server, path, body string) (*http.Response, []sseEvent) {
	t.Helper()
	resp, err := http.Post(s.URL()+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if !strings.HasPrefix(resp.Header.Get("content-type"), "text/event-stream") {
		b, _ := io.ReadAll(resp.Body)
		resp.Body = io.NopCloser(strings.NewReader(string(b)))
		return resp, nil
	}
	var evs []sseEvent
	sc := bufio.NewScanner(resp.Body)
	var name string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			var d map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &d); err != nil {
				t.Fatalf("bad data line %q: %v", line, err)
			}
			if d["type"] != name {
				t.Errorf("event %q carries data type %v", name, d["type"])
			}
			evs = append(evs, sseEvent{name, d})
		}
	}
	return resp, evs
}

func start(t *testing.T) *Server {
	t.Helper()
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

const userHi = `[{"role":"user","content":"hi"}]`

func TestStreamShape(t *testing.T) {
	s := start(t)
	s.Push(Say(Text("Hello there, friend."), ToolUse("Bash", `{"command":"touch x","description":"make x"}`)))
	resp, evs := post(t, s, "/v1/messages?beta=true", convBody(t, userHi))
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if !strings.HasPrefix(resp.Header.Get("request-id"), "req_fake_") {
		t.Errorf("request-id header = %q", resp.Header.Get("request-id"))
	}
	var names []string
	text, input := "", ""
	textDeltas, inputDeltas := 0, 0
	for _, e := range evs {
		names = append(names, e.name)
		if e.name == "content_block_delta" {
			d := e.data["delta"].(map[string]any)
			switch d["type"] {
			case "text_delta":
				text += d["text"].(string)
				textDeltas++
			case "input_json_delta":
				input += d["partial_json"].(string)
				inputDeltas++
			}
		}
	}
	compactNames := []string{"message_start"}
	for _, n := range names[1:] {
		if n != compactNames[len(compactNames)-1] || n != "content_block_delta" {
			compactNames = append(compactNames, n)
		}
	}
	want := []string{"message_start",
		"content_block_start", "content_block_delta", "content_block_stop",
		"content_block_start", "content_block_delta", "content_block_stop",
		"message_delta", "message_stop"}
	if !reflect.DeepEqual(compactNames, want) {
		t.Errorf("event order %v, want (deltas collapsed) %v", names, want)
	}
	if text != "Hello there, friend." || textDeltas < 2 {
		t.Errorf("text %q in %d deltas, want the whole text in several", text, textDeltas)
	}
	var in map[string]string
	if err := json.Unmarshal([]byte(input), &in); err != nil || in["command"] != "touch x" || inputDeltas < 2 {
		t.Errorf("input %q in %d deltas (%v)", input, inputDeltas, err)
	}
	var starts []map[string]any
	for _, e := range evs {
		if e.name == "content_block_start" {
			starts = append(starts, e.data["content_block"].(map[string]any))
		}
	}
	start := starts[1]
	if start["type"] != "tool_use" || start["name"] != "Bash" || !strings.HasPrefix(start["id"].(string), "toolu_") {
		t.Errorf("tool_use start = %v", start)
	}
	msg := evs[0].data["message"].(map[string]any)
	if msg["model"] != "claude-opus-5-5" {
		t.Errorf("model not echoed: %v", msg["model"])
	}
	md := evs[len(evs)-2].data["delta"].(map[string]any)
	if md["stop_reason"] != "tool_use" {
		t.Errorf("stop_reason %v, want tool_use", md["stop_reason"])
	}
	reqs := s.Requests()
	if len(reqs) != 1 || reqs[0].Query != "beta=true" || reqs[0].Served.Blocks[1].ID != start["id"] {
		t.Errorf("recorded %+v", reqs)
	}
}

func TestScriptOrder(t *testing.T) {
	s := start(t)
	s.Push(Say(Text("first")))
	s.Handle(func(r Request) (Reply, bool) {
		if _, ok := r.LastToolResult(); ok {
			return Say(Text("after tool")), true
		}
		return Reply{}, false
	})
	toolResult := `[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"ok"}]}]`
	side := `{"model":"m","messages":[{"role":"user","content":"Warmup"}],"tools":[{"name":"Bash"}]}`
	noTools := `{"model":"m","messages":[{"role":"user","content":"classify"}]}`
	steps := []struct {
		name, body, want string
	}{
		{"queue first, even with a matching rule", convBody(t, toolResult), "first"},
		{"warmup side request does not consume", side, "ok"},
		{"tool-less side request does not consume", noTools, "ok"},
		{"then the matching rule", convBody(t, toolResult), "after tool"},
		{"then the default", convBody(t, userHi), "done."},
	}
	for _, st := range steps {
		_, evs := post(t, s, "/v1/messages", st.body)
		got := ""
		for _, e := range evs {
			if d, ok := e.data["delta"].(map[string]any); ok && d["type"] == "text_delta" {
				got += d["text"].(string)
			}
		}
		if got != st.want {
			t.Errorf("%s: got %q, want %q", st.name, got, st.want)
		}
	}
	if n := len(s.Conversation()); n != 3 {
		t.Errorf("%d conversation requests recorded, want 3", n)
	}
	if n := len(s.Requests()); n != 5 {
		t.Errorf("%d requests recorded, want 5", n)
	}
}

func TestErrorReply(t *testing.T) {
	tests := []struct {
		status int
		typ    string
	}{
		{500, "api_error"},
		{401, "authentication_error"},
		{529, "overloaded_error"},
	}
	for _, tc := range tests {
		s := start(t)
		s.Handle(Always(Fail(tc.status, "boom")))
		for range 2 {
			resp, _ := post(t, s, "/v1/messages", convBody(t, userHi))
			var body struct {
				Type  string
				Error struct{ Type, Message string }
			}
			b, _ := io.ReadAll(resp.Body)
			if err := json.Unmarshal(b, &body); err != nil {
				t.Fatalf("%d: body %q: %v", tc.status, b, err)
			}
			if resp.StatusCode != tc.status || body.Type != "error" || body.Error.Type != tc.typ || body.Error.Message != "boom" {
				t.Errorf("%d: got status %d body %s", tc.status, resp.StatusCode, b)
			}
		}
	}
}

func TestOtherRoutes(t *testing.T) {
	s := start(t)
	resp, _ := post(t, s, "/v1/messages/count_tokens", `{}`)
	if resp.StatusCode != 200 {
		t.Errorf("count_tokens: %d", resp.StatusCode)
	}
	resp, err := http.Get(s.URL() + "/api/hello")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("unknown path: %d", resp.StatusCode)
	}
	resp, _ = post(t, s, "/v1/messages", `not json`)
	if resp.StatusCode != 400 {
		t.Errorf("bad body: %d", resp.StatusCode)
	}
	if len(s.Requests()) != 0 {
		t.Errorf("non-message requests were recorded")
	}
}

func TestDecodeRequest(t *testing.T) {
	body := `{"model":"claude-opus-5-5","system":[{"type":"text","text":"billing"},{"type":"text","text":"identity","cache_control":{"type":"ephemeral"}},{"type":"text","text":"main\n\nappended"}],
	"tools":[{"name":"Bash","input_schema":{}},{"name":"Read"}],
	"messages":[
	  {"role":"user","content":[{"type":"text","text":"<system-reminder>x</system-reminder>"},{"type":"text","text":"make a file"}]},
	  {"role":"system","content":"cwd: /w"},
	  {"role":"assistant","content":[{"type":"text","text":"ok"},{"type":"tool_use","id":"toolu_a","name":"Bash","input":{"command":"touch x"}}]},
	  {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_a","content":"Tool permission request failed: AbortError: Stream closed","is_error":true}]},
	  {"role":"assistant","content":[{"type":"tool_use","id":"toolu_b","name":"Read","input":{"file_path":"/f"}}]},
	  {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_b","content":[{"type":"text","text":"line1"},{"type":"text","text":"line2"}],"cache_control":{}}]}
	]}`
	r, err := decodeRequest([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Conversation || r.Model != "claude-opus-5-5" || !reflect.DeepEqual(r.Tools, []string{"Bash", "Read"}) {
		t.Errorf("header fields: %+v", r)
	}
	if !reflect.DeepEqual(r.System, []string{"billing", "identity", "main\n\nappended"}) {
		t.Errorf("system = %q", r.System)
	}
	if len(r.Messages) != 6 || r.Messages[1].Role != "system" || r.Messages[1].Text() != "cwd: /w" {
		t.Fatalf("messages = %+v", r.Messages)
	}
	trs := r.ToolResults()
	if len(trs) != 2 || trs[0].ToolUseID != "toolu_a" || !trs[0].IsError || !strings.Contains(trs[0].Text, "Stream closed") {
		t.Errorf("tool results = %+v", trs)
	}
	last, ok := r.LastToolResult()
	if !ok || last.ToolUseID != "toolu_b" || last.IsError || last.Text != "line1\nline2" {
		t.Errorf("last tool result = %+v, %v", last, ok)
	}
	if r.LastUserText() != "<system-reminder>x</system-reminder>\nmake a file" {
		t.Errorf("last user text = %q", r.LastUserText())
	}
	if !r.Contains("Stream closed") || !r.Contains("cwd: /w") || !r.Contains("touch x") || r.Contains("absent") {
		t.Errorf("Contains is wrong")
	}
	if tu := r.Messages[2].Content[1]; tu.ID != "toolu_a" || tu.Name != "Bash" || compact(tu.Input) != `{"command":"touch x"}` {
		t.Errorf("tool_use = %+v", tu)
	}
}

func TestSplit(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want []string
	}{
		{"", 3, []string{""}},
		{"a", 3, []string{"a"}},
		{"abcdef", 3, []string{"ab", "cd", "ef"}},
		{"abcdefg", 3, []string{"abc", "def", "g"}},
		{"ab", 3, []string{"a", "b"}},
		{"héllo—", 2, []string{"hél", "lo—"}},
	}
	for _, tc := range tests {
		if got := split(tc.in, tc.n); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("split(%q,%d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

func TestToolUseInput(t *testing.T) {
	a := ToolUse("Bash", map[string]string{"command": "ls"})
	b := ToolUse("Bash", `{"command":"ls"}`)
	if compact(a.Input) != compact(b.Input) {
		t.Errorf("map and string inputs differ: %s vs %s", a.Input, b.Input)
	}
	defer func() {
		if recover() == nil {
			t.Error("a non-object input did not panic")
		}
	}()
	ToolUse("Bash", "[1]")
}

func TestDelayStopsWhenClientLeaves(t *testing.T) {
	s := start(t)
	s.Push(Reply{Blocks: []Block{Text("slow text here")}, Delay: time.Hour})
	req, _ := http.NewRequest("POST", s.URL()+"/v1/messages", strings.NewReader(convBody(t, userHi)))
	client := &http.Client{Timeout: 300 * time.Millisecond}
	if _, err := client.Do(req); err == nil {
		t.Fatal("a reply delayed by an hour arrived")
	}
	// The handler must notice the client left; Close would hang otherwise.
	done := make(chan struct{})
	go func() { s.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close hung on a delayed reply")
	}
}

func TestWait(t *testing.T) {
	s := start(t)
	go func() {
		time.Sleep(50 * time.Millisecond)
		post(t, s, "/v1/messages", convBody(t, userHi))
	}()
	if !s.Wait(5*time.Second, func(rs []Request) bool { return len(rs) == 1 }) {
		t.Error("Wait missed the request")
	}
	if s.Wait(50*time.Millisecond, func(rs []Request) bool { return len(rs) == 2 }) {
		t.Error("Wait reported a request that never came")
	}
}

func TestCLIEnv(t *testing.T) {
	env := CLIEnv("http://127.0.0.1:9/", "/h")
	m := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	want := map[string]string{
		"HOME": "/h", "LANG": "C.UTF-8", "ANTHROPIC_BASE_URL": "http://127.0.0.1:9",
		"ANTHROPIC_API_KEY": "sk-test", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
		"DISABLE_TELEMETRY": "1", "DISABLE_AUTOUPDATER": "1", "CLAUDE_CODE_MAX_RETRIES": "2",
	}
	for k, v := range want {
		if m[k] != v {
			t.Errorf("%s = %q, want %q", k, m[k], v)
		}
	}
	if m["PATH"] == "" || m["SHELL"] == "" || len(m) != len(want)+2 {
		t.Errorf("env = %v", env)
	}
}
