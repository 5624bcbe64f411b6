package fakeapi

// The tests of the fake keep it honest, and only that: here, that it speaks
// the Messages API wire format (the SSE event sequence and the error body);
// in cli_test.go, that the real CLI accepts what it serves. How it picks a
// reply and what its helpers return are for the contract tests to rely on,
// not to be tested here.

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
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
