package stream

import (
	"io"
	"strings"
	"testing"
)

// TestSessionLines: lines of a Claude Code session file, fed one at a
// time, decode as the stream's: permissionDecision and toolDenialKind say
// who decided as tool_result_meta does, isApiErrorMessage marks the
// synthetic message, the environment's folders judge Dir, and EndTurn
// gives the turn without a result line.
func TestSessionLines(t *testing.T) {
	d := NewLineDecoder(Options{})
	if _, err := d.Next(); err != io.EOF {
		t.Fatalf("Next: %v", err)
	}
	d.SetDirs("/home/dev/proj", []string{"/tmp"})
	var evs []Event
	for i, l := range []string{
		`{"type":"assistant","uuid":"a","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/srv/x/a.txt"}},{"type":"tool_use","id":"t2","name":"Read","input":{"file_path":"/tmp/b.txt"}},{"type":"tool_use","id":"t3","name":"Bash","input":{"command":"ls"}}]}}`,
		`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"Not now.","is_error":true}]},"permissionDecision":{"decision":"reject","source":"user_reject","reasonCode":"unknown"},"toolDenialKind":"permission-rule"}`,
		`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t2","content":"Tool permission request failed: AbortError: Stream closed","is_error":true}]},"permissionDecision":{"decision":"reject","source":"config","reasonType":"other"},"toolDenialKind":"permission-rule"}`,
		// Two results, one decision: it cannot say whose, so it is not taken.
		`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t3","content":"Not now.","is_error":true},{"type":"tool_result","tool_use_id":"t9","content":"x"}]},"permissionDecision":{"decision":"reject","source":"user_reject"}}`,
		`{"type":"assistant","isApiErrorMessage":true,"message":{"id":"m2","model":"<synthetic>","content":[{"type":"text","text":"API Error: 500"}]}}`,
		`not json`,
		``,
	} {
		evs = d.AppendLine(evs, l, i+1)
	}
	var results []*ToolResult
	var apiErr bool
	for _, ev := range evs {
		if ev.ToolResult != nil {
			results = append(results, ev.ToolResult)
		}
		if ev.Block != nil && ev.Block.Text == "API Error: 500" {
			apiErr = ev.Block.APIError && ev.Line == 5
		}
	}
	if len(evs) != 3+4+1+1 || evs[len(evs)-1].Kind != KindMalformed || !apiErr || len(results) != 4 {
		t.Fatalf("%d events, api error %v: %+v", len(evs), apiErr, evs)
	}
	r1, r2, r3 := results[0], results[1], results[2]
	if r1.Denial == nil || r1.Denial.Class != UserDenied || r1.Denial.Dir != "/srv/x" ||
		*r1.Decided != (Decided{Decision: "reject", Source: "user_reject", NonExecutionKind: "permission-rule"}) {
		t.Errorf("t1: %+v %+v %+v", r1, r1.Denial, r1.Decided)
	}
	if r2.Denial == nil || r2.Denial.Class != StreamClosed || r2.Denial.Dir != "" ||
		*r2.Decided != (Decided{Decision: "reject", Source: "config", ReasonType: "other", NonExecutionKind: "permission-rule"}) {
		t.Errorf("t2: %+v %+v", r2.Denial, r2.Decided)
	}
	if r3.Denial != nil || r3.Decided != nil || results[3].Decided != nil {
		t.Errorf("t3: %+v %+v", r3.Denial, r3.Decided)
	}
	turn := d.EndTurn()
	if len(turn.ToolUses) != 3 || len(turn.Denials) != 2 || len(turn.Grantable()) != 1 {
		t.Errorf("turn %+v", turn)
	}
	if turn = d.EndTurn(); len(turn.ToolUses) != 0 || len(turn.Denials) != 0 {
		t.Errorf("turn not reset: %+v", turn)
	}
}

// TestSessionLineHuge: a huge line's small strings do not keep it alive.
func TestSessionLineHuge(t *testing.T) {
	d := NewLineDecoder(Options{})
	big := strings.Repeat("x", collectLine)
	evs := d.AppendLine(nil, `{"type":"assistant","message":{"id":"m","content":[{"type":"text","text":"`+big+`"}]}}`, 1)
	if len(evs) != 1 || len(evs[0].Block.Text) != len(big) || evs[0].Block.MessageID != "m" {
		t.Fatalf("%d events", len(evs))
	}
}
