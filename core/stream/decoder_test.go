package stream

import (
	"io"
	"os"
	"strings"
	"sync"
	"testing"
)

func decodeFile(t *testing.T, name string, opt Options, hook func(*Decoder, Event)) (*Decoder, []Event) {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := NewDecoder(f, opt)
	evs := decodeAll(t, d, func(ev Event) {
		if hook != nil {
			hook(d, ev)
		}
	})
	return d, evs
}

func TestDecoderMultiBlock(t *testing.T) {
	d, evs := decodeFile(t, "multi-block.ndjson", Options{}, nil)
	want := []struct {
		kind Kind
		line int
	}{
		{KindInit, 1}, {KindUnknown, 2}, {KindMalformed, 3},
		{KindAssistant, 5}, {KindAssistant, 5}, {KindAssistant, 5},
		{KindToolResult, 6}, {KindToolResult, 6}, {KindInterruptMarker, 7},
		{KindMalformed, 8}, {KindResult, 9}, {KindResult, 10},
	}
	if len(evs) != len(want) {
		t.Fatalf("%d events, want %d: %+v", len(evs), len(want), evs)
	}
	for i, w := range want {
		if evs[i].Kind != w.kind || evs[i].Line != w.line {
			t.Errorf("event %d: kind %d line %d, want %d %d", i, evs[i].Kind, evs[i].Line, w.kind, w.line)
		}
	}
	if d.MalformedLines() != 2 || evs[2].Malformed.Size != len("this is not json") || evs[2].Malformed.Err == "" {
		t.Errorf("malformed: %d %+v", d.MalformedLines(), evs[2].Malformed)
	}
	if evs[1].SessionID != "s-1" {
		t.Errorf("unknown event lost its session id")
	}
	if b := evs[4].Block; b.ToolUse == nil || b.ToolUse.Name != "Read" || string(b.ToolUse.Input) != `{"file_path":"/srv/far/a.txt"}` || b.MessageID != "msg_1" {
		t.Errorf("tool block: %+v", b)
	}
	plain, closed := evs[6].ToolResult, evs[7].ToolResult
	if plain.Denial != nil || !plain.IsError || plain.Tool != "Read" {
		t.Errorf("plain error: %+v", plain)
	}
	if closed.Denial == nil || closed.Denial.Class != StreamClosed || closed.Tool != "mcp__host__ping" ||
		closed.Text != "Tool permission request failed:\nError: Stream Closed" {
		t.Errorf("array-content stream closed: %+v", closed)
	}
	r := evs[10].Result
	if r.CostUSD != 0.5 || r.NumTurns != 2 || r.Usage.InputTokens != 3 || r.Usage.OutputTokens != 7 || r.Text != "ok" || len(r.PermissionDenials) != 2 {
		t.Errorf("result: %+v", r)
	}
	tu := r.Turn
	if tu.Text != "Reading both." || len(tu.ToolUses) != 2 {
		t.Errorf("turn: %+v", tu)
	}
	if len(tu.Denials) != 2 ||
		tu.Denials[0].ToolUseID != "toolu_2" || tu.Denials[0].Class != StreamClosed ||
		tu.Denials[1].ToolUseID != "toolu_9" || tu.Denials[1].Class != NotGranted || tu.Denials[1].Tool != "Write" || tu.Denials[1].Dir != "/srv/far" {
		t.Errorf("denials: %+v", tu.Denials)
	}
	if len(tu.Grantable()) != 2 {
		t.Errorf("grantable: %+v", tu.Grantable())
	}
	// The last line has no '\n' and still counts; its turn starts empty.
	r2 := evs[11].Result
	if r2.Text != "second" || r2.ResultIndex != 1 || len(r2.Turn.ToolUses) != 0 || len(r2.Turn.Denials) != 0 || r2.Turn.Text != "" {
		t.Errorf("second result: %+v %+v", r2, r2.Turn)
	}
}

func TestDecoderDenyRuleHostErrorUserDenied(t *testing.T) {
	for _, marked := range []bool{false, true} {
		var req *ControlRequest
		_, evs := decodeFile(t, "deny-rule-and-host-error.ndjson", Options{}, func(d *Decoder, ev Event) {
			if ev.Kind == KindControlRequest {
				req = ev.Request
			}
			if marked && ev.Kind == KindAssistant && ev.Block.ToolUse != nil && ev.Block.ToolUse.ID == "t3" {
				d.MarkUserDenied("t3") // as the app does when it answered deny
			}
		})
		pd := kinds(evs, KindPermissionDenied)[0].PermissionDenied
		if pd.DecisionReason != "deny rule Bash(touch:*)" || pd.DecisionReasonType != "subcommandResults" {
			t.Errorf("permission_denied: %+v", pd)
		}
		c := req.CanUseTool
		if c.DecisionReason != "Path is outside allowed working directories" || c.SuggestedRule() != "" ||
			strings.Join(c.SuggestedDirs(), ",") != "/home/dev/other" {
			t.Errorf("can_use_tool: %+v rule %q dirs %v", c, c.SuggestedRule(), c.SuggestedDirs())
		}
		dn := turnsOf(evs)[0].Turn.Denials
		third := NotGranted // the host text happens to say "needs approval"
		if marked {
			third = UserDenied
		}
		want := []wantDenial{
			{DenyRule, "Bash", "t1", ""},
			{HostError, "Write", "t2", "/home/dev/other"},
			{third, "Bash", "t3", ""},
		}
		if len(dn) != len(want) {
			t.Fatalf("marked=%v: denials %+v", marked, dn)
		}
		for i, w := range want {
			if dn[i].Class != w.class || dn[i].Tool != w.tool || dn[i].ToolUseID != w.id || dn[i].Dir != w.dir || dn[i].Text == "" {
				t.Errorf("marked=%v denial %d: %+v, want %+v", marked, i, dn[i], w)
			}
		}
	}
}

func TestDecoderPhraseDetection(t *testing.T) {
	for _, on := range []bool{false, true} {
		_, evs := decodeFile(t, "phrase.ndjson", Options{PhraseDetection: on}, nil)
		rs := turnsOf(evs)
		if len(rs) != 2 {
			t.Fatalf("%d turns", len(rs))
		}
		dn := rs[0].Turn.Denials
		if !on && len(dn) != 0 {
			t.Errorf("detection off: %+v", dn)
		}
		if on && (len(dn) != 1 || dn[0].Class != Phrase || dn[0].Tool != "Read" || dn[0].Dir != "/srv/secret" || !dn[0].Class.Grantable()) {
			t.Errorf("detection on: %+v", dn)
		}
		// The orphan turn (no result) was dropped at the next init.
		if t2 := rs[1].Turn; t2.Text != "Fine." || len(t2.ToolUses) != 0 || len(t2.Denials) != 0 {
			t.Errorf("turn after orphan: %+v", t2)
		}
	}
}

func TestDecoderKeyOrderAndNoPrefixMatch(t *testing.T) {
	in := `{"session_id":"x","text":"{\"type\":\"result\"}","type":"user","message":{"content":"{\"type\":\"result\"}","role":"user"}}` + "\n" +
		`{"type" : "system" , "subtype" : "status" , "status" : null , "permissionMode" : "acceptEdits"}` + "\n"
	d := NewDecoder(strings.NewReader(in), Options{})
	evs := decodeAll(t, d, nil)
	if len(evs) != 2 || evs[0].Kind != KindUserText || evs[0].Text != `{"type":"result"}` {
		t.Fatalf("%+v", evs)
	}
	if s := evs[1].Status; evs[1].Kind != KindStatus || s.Status != "" || s.PermissionMode != "acceptEdits" {
		t.Errorf("status: %+v", s)
	}
}

func TestDecoderControl(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"control_request","request_id":"h1","request":{"subtype":"hook_callback","callback_id":"hook_0","tool_use_id":"tu"}}`,
		`{"type":"control_request","request_id":"q1","request":{"subtype":"can_use_tool","tool_name":"AskUserQuestion","input":{"questions":[{"question":"Which color?","header":"Color","options":[{"label":"Blue","description":"b"},{"label":"Red"}],"multiSelect":false}]},"tool_use_id":"tq","requires_user_interaction":true}}`,
		`{"type":"control_cancel_request","request_id":"q1"}`,
		`{"type":"control_response","response":{"subtype":"error","request_id":"req_1","error":"nope"}}`,
		`{"type":"control_response","response":{"subtype":"success","request_id":"req_int","response":{"still_queued":[]}}}`,
	}, "\n")
	d := NewDecoder(strings.NewReader(in), Options{})
	evs := decodeAll(t, d, nil)
	if len(evs) != 5 {
		t.Fatalf("%d events", len(evs))
	}
	if r := evs[0].Request; r.Subtype != "hook_callback" || r.CanUseTool != nil || !strings.Contains(string(r.Raw), `"callback_id":"hook_0"`) {
		t.Errorf("hook: %+v", r)
	}
	c := evs[1].Request.CanUseTool
	if c == nil || !c.RequiresUserInteraction || c.ToolUseID != "tq" {
		t.Fatalf("ask: %+v", c)
	}
	qs := c.AskQuestions()
	if len(qs) != 1 || qs[0].Question != "Which color?" || len(qs[0].Options) != 2 || qs[0].Options[0].Label != "Blue" {
		t.Errorf("questions: %+v", qs)
	}
	if tu, ok := d.Tool("tq"); !ok || tu.Name != "AskUserQuestion" {
		t.Errorf("can_use_tool alone should register the call: %+v", tu)
	}
	if evs[2].Kind != KindControlCancel || evs[2].RequestID != "q1" {
		t.Errorf("cancel: %+v", evs[2])
	}
	if r := evs[3].Response; r.Subtype != "error" || r.Error != "nope" || r.RequestID != "req_1" {
		t.Errorf("error response: %+v", r)
	}
	if r := evs[4].Response; r.Subtype != "success" || string(r.Response) != `{"still_queued":[]}` {
		t.Errorf("success response: %+v", r)
	}
}

// MarkUserDenied and Tool are called from the app's goroutines while Next
// runs; -race checks them.
func TestDecoderConcurrentMarks(t *testing.T) {
	pr, pw := io.Pipe()
	d := NewDecoder(pr, Options{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 200; i++ {
			d.MarkUserDenied("t")
			d.Tool("t")
		}
	}()
	go func() {
		for i := 0; i < 100; i++ {
			io.WriteString(pw, `{"type":"assistant","message":{"id":"m","content":[{"type":"tool_use","id":"t","name":"Bash","input":{}}]}}`+"\n")
		}
		wg.Wait() // the app answered deny before the CLI reports the result
		io.WriteString(pw, `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","is_error":true,"content":"no"}]}}`+"\n")
		pw.Close()
	}()
	var last *ToolResult
	for {
		ev, err := d.Next()
		if err != nil {
			break
		}
		if ev.Kind == KindToolResult {
			last = ev.ToolResult
		}
	}
	wg.Wait()
	if last == nil || last.Denial == nil || last.Denial.Class != UserDenied {
		t.Errorf("last: %+v", last)
	}
}

func TestDecoderReaderError(t *testing.T) {
	d := NewDecoder(io.MultiReader(strings.NewReader(`{"type":"x"}`+"\n"), errReader{}), Options{})
	if ev, err := d.Next(); err != nil || ev.Kind != KindUnknown {
		t.Fatalf("%+v %v", ev, err)
	}
	if _, err := d.Next(); err != errBoom {
		t.Errorf("err %v", err)
	}
	if _, err := d.Next(); err != errBoom {
		t.Errorf("error not sticky: %v", err)
	}
}

var errBoom = io.ErrClosedPipe

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errBoom }

func TestBlockIndexStreamed(t *testing.T) {
	// Block 0 streamed, block 1 (thinking) not: the index comes from the
	// count of assistant events for the message id.
	in := strings.Join([]string{
		`{"type":"stream_event","event":{"type":"message_start","message":{"id":"m1"}}}`,
		`{"type":"stream_event","event":{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}},"api_message_id":"m1"}`,
		`{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}},"api_message_id":"m1"}`,
		`{"type":"assistant","message":{"id":"m1","content":[{"type":"text","text":"Hi"}]}}`,
		`{"type":"assistant","message":{"id":"m1","content":[{"type":"thinking","thinking":"hmm","signature":"s"}]}}`,
		`{"type":"stream_event","event":{"type":"message_start","message":{"id":"m2"}}}`,
		`{"type":"assistant","message":{"id":"m2","content":[{"type":"text","text":"Hi"}]}}`,
		`{"type":"stream_event","event":{"type":"ping"}}`,
	}, "\n")
	evs := decodeAll(t, NewDecoder(strings.NewReader(in), Options{}), nil)
	bl := kinds(evs, KindAssistant)
	if len(bl) != 3 || !bl[0].Block.Streamed || bl[1].Block.Streamed || bl[1].Block.Text != "hmm" || bl[2].Block.Streamed {
		t.Errorf("blocks: %+v %+v %+v", bl[0].Block, bl[1].Block, bl[2].Block)
	}
	if evs[len(evs)-1].Kind != KindUnknown {
		t.Errorf("ping: %+v", evs[len(evs)-1])
	}
}
