package stream

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestEncoders(t *testing.T) {
	cases := []struct {
		name string
		got  []byte
		want string
	}{
		{"user", UserMessage("create a file <please> & \"now\"\nok"),
			`{"type":"user","session_id":"","parent_tool_use_id":null,"message":{"role":"user","content":"create a file <please> & \"now\"\nok"}}`},
		{"interrupt", Interrupt("req_int_1"),
			`{"type":"control_request","request_id":"req_int_1","request":{"subtype":"interrupt"}}`},
		{"allow", Allow("r1", json.RawMessage("{\n  \"command\": \"touch x\"\n}"), nil),
			`{"type":"control_response","response":{"subtype":"success","request_id":"r1","response":{"behavior":"allow","updatedInput":{"command":"touch x"}}}}`},
		{"allow nil input", Allow("r1", nil, []json.RawMessage{}),
			`{"type":"control_response","response":{"subtype":"success","request_id":"r1","response":{"behavior":"allow","updatedInput":{}}}}`},
		{"allow invalid input", Allow("r1", json.RawMessage("{oops"), nil),
			`{"type":"control_response","response":{"subtype":"success","request_id":"r1","response":{"behavior":"allow"}}}`},
		{"allow always", Allow("r2", json.RawMessage(`{"command":"touch made-by-bash.txt"}`), []json.RawMessage{
			json.RawMessage(`{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"touch made-by-bash.txt"}],"behavior":"allow","destination":"localSettings"}`),
			json.RawMessage(`not json`)}),
			`{"type":"control_response","response":{"subtype":"success","request_id":"r2","response":{"behavior":"allow","updatedInput":{"command":"touch made-by-bash.txt"},"updatedPermissions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"touch made-by-bash.txt"}],"behavior":"allow","destination":"localSettings"}]}}}`},
		{"deny", Deny("r3", "The user said no.", false),
			`{"type":"control_response","response":{"subtype":"success","request_id":"r3","response":{"behavior":"deny","message":"The user said no."}}}`},
		{"deny empty interrupt", Deny("r3", "", true),
			`{"type":"control_response","response":{"subtype":"success","request_id":"r3","response":{"behavior":"deny","message":"Denied.","interrupt":true}}}`},
		{"error", ErrorAnswer("r4", "host failed"),
			`{"type":"control_response","response":{"subtype":"error","request_id":"r4","error":"host failed"}}`},
		{"error empty", ErrorAnswer("r4", ""),
			`{"type":"control_response","response":{"subtype":"error","request_id":"r4","error":"unsupported request"}}`},
	}
	for _, c := range cases {
		if string(c.got) != c.want+"\n" {
			t.Errorf("%s:\n got %s\nwant %s", c.name, c.got, c.want)
		}
		if bytes.Count(c.got, []byte("\n")) != 1 || !json.Valid(c.got) {
			t.Errorf("%s: not one JSON line", c.name)
		}
	}
}

// What Latch writes must read back as the decoder's own request types.
func TestEncodersRoundTrip(t *testing.T) {
	in := append(Interrupt("a"), ApplyFlagSettings("b", FlagPermissions{Allow: []string{"Bash(ls)"}})...)
	d := NewDecoder(bytes.NewReader(in), Options{})
	evs := decodeAll(t, d, nil)
	if len(evs) != 2 || evs[0].Request.Subtype != "interrupt" || evs[0].Request.RequestID != "a" ||
		evs[1].Request.Subtype != "apply_flag_settings" || evs[1].Request.RequestID != "b" {
		t.Errorf("%+v", evs)
	}
}

func TestSuggestions(t *testing.T) {
	c := CanUseTool{ToolName: "Read", Suggestions: []json.RawMessage{
		json.RawMessage(`{"type":"setMode","mode":"acceptEdits","destination":"session"}`),
		json.RawMessage(`{"type":"addRules","rules":[{"toolName":"Read","ruleContent":"//home/dev/other/**"}],"behavior":"allow","destination":"session"}`),
		json.RawMessage(`{"type":"addDirectories","directories":["/home/dev/other","/tmp"],"destination":"session"}`),
		json.RawMessage(`{"type":"addDirectories","directories":["/tmp"],"destination":"session"}`),
	}}
	if got := c.SuggestedRule(); got != "Read(//home/dev/other/**)" {
		t.Errorf("rule %q", got)
	}
	if got := c.SuggestedDirs(); len(got) != 2 || got[0] != "/home/dev/other" || got[1] != "/tmp" {
		t.Errorf("dirs %v", got)
	}
	bare := CanUseTool{ToolName: "mcp__host__ping", Suggestions: []json.RawMessage{
		json.RawMessage(`{"type":"addRules","rules":[{"toolName":"mcp__host__ping"}],"behavior":"allow"}`)}}
	if got := bare.SuggestedRule(); got != "mcp__host__ping" {
		t.Errorf("bare rule %q", got)
	}
	denyOnly := CanUseTool{ToolName: "Bash", Suggestions: []json.RawMessage{
		json.RawMessage(`{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"rm:*"}],"behavior":"deny"}`)}}
	if got := denyOnly.SuggestedRule(); got != "" {
		t.Errorf("deny suggestion used as allow rule: %q", got)
	}
	if (&CanUseTool{ToolName: "Bash"}).AskQuestions() != nil {
		t.Error("questions for Bash")
	}
	out := AnswerQuestions(json.RawMessage(`{"questions":[{"question":"Which color?"}]}`), map[string]string{"Which color?": "Blue"})
	var m struct {
		Questions []Question
		Answers   map[string]string
	}
	if err := json.Unmarshal(out, &m); err != nil || len(m.Questions) != 1 || m.Answers["Which color?"] != "Blue" {
		t.Errorf("answers %s: %v", out, err)
	}
}

func TestCanUseToolFlags(t *testing.T) {
	in := `{"type":"control_request","request_id":"r1","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"ls"},"tool_use_id":"t1",` +
		`"suppress_always_allow_rule":true,"default_to_no":true,"requires_user_interaction":true,"agent_id":"agent-7",` +
		`"matched_ask_rule":{"source":"projectSettings","ruleBehavior":"ask","ruleValue":{"toolName":"Bash","ruleContent":"ls:*"}}}}` + "\n" +
		`{"type":"control_request","request_id":"r2","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{},"matched_ask_rule":"Bash(rm:*)"}}` + "\n"
	d := NewDecoder(strings.NewReader(in), Options{})
	var got []*CanUseTool
	for {
		ev, err := d.Next()
		if err != nil {
			break
		}
		if ev.Kind == KindControlRequest {
			got = append(got, ev.Request.CanUseTool)
		}
	}
	if len(got) != 2 {
		t.Fatalf("%d requests", len(got))
	}
	c := got[0]
	if !c.SuppressAlwaysAllow || !c.DefaultToNo || !c.RequiresUserInteraction || c.AgentID != "agent-7" || c.MatchedAskRule != "Bash(ls:*) in projectSettings" {
		t.Errorf("flags %+v", c)
	}
	if got[1].MatchedAskRule != "Bash(rm:*)" || got[1].SuppressAlwaysAllow {
		t.Errorf("second %+v", got[1])
	}
}

func TestApplyFlagSettings(t *testing.T) {
	got := string(ApplyFlagSettings("latch_flags_1", FlagPermissions{Allow: []string{"Bash(ls)"}, AdditionalDirectories: []string{"/srv/x"}}))
	want := `{"type":"control_request","request_id":"latch_flags_1","request":{"subtype":"apply_flag_settings","settings":{"permissions":{"allow":["Bash(ls)"],"ask":[],"additionalDirectories":["/srv/x"]}}}}` + "\n"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestPermissionUpdates(t *testing.T) {
	if got := string(AddRulesUpdate("Bash", "touch x", "session")); got != `{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"touch x"}],"behavior":"allow","destination":"session"}` {
		t.Errorf("addRules: %s", got)
	}
	if got := string(AddRulesUpdate("WebSearch", "", "session")); got != `{"type":"addRules","rules":[{"toolName":"WebSearch"}],"behavior":"allow","destination":"session"}` {
		t.Errorf("bare addRules: %s", got)
	}
	if got := string(AddDirectoriesUpdate([]string{"/srv/x"}, "session")); got != `{"type":"addDirectories","directories":["/srv/x"],"destination":"session"}` {
		t.Errorf("addDirectories: %s", got)
	}
}

func TestSetModelLine(t *testing.T) {
	for _, tc := range []struct{ model, want string }{
		{"sonnet", `{"type":"control_request","request_id":"x","request":{"subtype":"set_model","model":"sonnet"}}` + "\n"},
		{"", `{"type":"control_request","request_id":"x","request":{"subtype":"set_model"}}` + "\n"},
	} {
		if got := string(SetModel("x", tc.model)); got != tc.want {
			t.Errorf("SetModel(%q) = %s, want %s", tc.model, got, tc.want)
		}
	}
}
