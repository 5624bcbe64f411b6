package stream

import (
	"fmt"
	"io"
	"os"
	"strings"
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
		{KindInit, 1}, {kindUnknown, 2}, {KindMalformed, 3},
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
	if d.MalformedLines() != 2 || evs[2].Malformed.Err == "" {
		t.Errorf("malformed: %d %+v", d.MalformedLines(), evs[2].Malformed)
	}
	if b := evs[3].Block; b.Type != "text" || b.Text != "Reading both." || b.MessageID != "msg_1" {
		t.Errorf("text block: %+v", b)
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
	if r.CostUSD != 0.5 || r.Usage.InputTokens != 3 || r.Usage.OutputTokens != 7 || r.Text != "ok" {
		t.Errorf("result: %+v", r)
	}
	tu := r.Turn
	if len(tu.ToolUses) != 2 {
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
	if r2.Text != "second" || len(r2.Turn.ToolUses) != 0 || len(r2.Turn.Denials) != 0 {
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
		if pd := kinds(evs, kindPermissionDenied); len(pd) != 1 {
			t.Errorf("%d permission_denied events, want 1", len(pd))
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
			if dn[i].Class != w.class || dn[i].Tool != w.tool || dn[i].ToolUseID != w.id || dn[i].Dir != w.dir {
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
		// The orphan turn (no result) was dropped at the next init: its call
		// and, with detection on, its permission phrase.
		if t2 := rs[1].Turn; len(t2.ToolUses) != 0 || len(t2.Denials) != 0 {
			t.Errorf("turn after orphan: %+v", t2)
		}
	}
}

func TestDecoderKeyOrderAndNoPrefixMatch(t *testing.T) {
	in := `{"session_id":"x","text":"{\"type\":\"result\"}","type":"user","message":{"content":"{\"type\":\"result\"}","role":"user"}}` + "\n" +
		`{"type" : "system" , "subtype" : "status" , "status" : null , "permissionMode" : "acceptEdits"}` + "\n"
	d := NewDecoder(strings.NewReader(in), Options{})
	evs := decodeAll(t, d, nil)
	if len(evs) != 2 || evs[0].Kind != kindUserText {
		t.Fatalf("%+v", evs)
	}
	if s := evs[1].Status; evs[1].Kind != KindStatus || s.PermissionMode != "acceptEdits" {
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
	if r := evs[0].Request; r.Subtype != "hook_callback" || r.CanUseTool != nil || r.RequestID != "h1" {
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
	if tu, ok := d.tool("tq"); !ok || tu.Name != "AskUserQuestion" {
		t.Errorf("can_use_tool alone should register the call: %+v", tu)
	}
	if evs[2].Kind != KindControlCancel || evs[2].RequestID != "q1" {
		t.Errorf("cancel: %+v", evs[2])
	}
	if r := evs[3].Response; r.Subtype != "error" || r.Error != "nope" || r.RequestID != "req_1" {
		t.Errorf("error response: %+v", r)
	}
	if r := evs[4].Response; r.Subtype != "success" || r.RequestID != "req_int" {
		t.Errorf("success response: %+v", r)
	}
}

// MarkUserDenied and tool are called from the app's goroutines while Next
// runs; -race checks them.
// TestDecoderConcurrentMarks: the app marks denials and looks calls up in
// the registry from its own goroutine while the decoder registers the next
// calls. Each step is ordered by channels, never by timing: the mark of a
// call happens after the decoder returned its tool_use and before its
// tool_result is written, as in the app (it answers deny before the CLI
// reports the result), while the decoder is already reading the next call.
// So the outcome is fixed, and -race sees the overlapping accesses.
func TestDecoderConcurrentMarks(t *testing.T) {
	const n = 200
	id := func(i int) string { return fmt.Sprintf("t%d", i) }
	use := func(i int) string {
		return `{"type":"assistant","message":{"id":"m` + id(i) + `","content":[{"type":"tool_use","id":"` + id(i) + `","name":"Bash","input":{}}]}}` + "\n"
	}
	result := func(i int) string {
		return `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"` + id(i) + `","is_error":true,"content":"no"}]}}` + "\n"
	}
	pr, pw := io.Pipe()
	d := NewDecoder(pr, Options{})
	seen := make(chan int, n)   // the decoder returned call i's tool_use
	marked := make(chan int, n) // the app is done with call i
	errs := make(chan string, 2*n)

	go func() { // the app: deny every even call, look every call up
		for i := range seen {
			if i%2 == 0 {
				d.MarkUserDenied(id(i))
			}
			if tu, ok := d.tool(id(i)); !ok || tu.Name != "Bash" {
				errs <- fmt.Sprintf("Tool(%s) = %+v, %v after its tool_use was decoded", id(i), tu, ok)
			}
			marked <- i
		}
		close(marked)
	}()
	go func() { // the CLI: call i+1 goes out while call i is being answered
		io.WriteString(pw, use(0))
		for i := 0; i < n; i++ {
			if i+1 < n {
				io.WriteString(pw, use(i+1))
			}
			if got := <-marked; got != i {
				errs <- fmt.Sprintf("answered %d, want %d", got, i)
			}
			io.WriteString(pw, result(i))
		}
		pw.Close()
	}()

	denied := map[string]Class{}
	results := 0
	for {
		ev, err := d.Next()
		if err != nil {
			break
		}
		switch ev.Kind {
		case KindAssistant:
			var i int
			fmt.Sscanf(ev.Block.ToolUse.ID, "t%d", &i)
			seen <- i
		case KindToolResult:
			results++
			if dn := ev.ToolResult.Denial; dn != nil {
				denied[dn.ToolUseID] = dn.Class
			}
		}
	}
	close(seen)
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if results != n {
		t.Errorf("%d tool results, want %d", results, n)
	}
	for i := 0; i < n; i++ {
		want := Class("")
		if i%2 == 0 {
			want = UserDenied
		}
		if got := denied[id(i)]; got != want {
			t.Errorf("%s: class %q, want %q", id(i), got, want)
		}
	}
}

func TestDecoderReaderError(t *testing.T) {
	d := NewDecoder(io.MultiReader(strings.NewReader(`{"type":"x"}`+"\n"), errReader{}), Options{})
	if ev, err := d.Next(); err != nil || ev.Kind != kindUnknown {
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
	if evs[len(evs)-1].Kind != kindUnknown {
		t.Errorf("ping: %+v", evs[len(evs)-1])
	}
}
