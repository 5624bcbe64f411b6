package app_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/latch-app/latch/app"
)

func apiFailure(status int, text string) string {
	return strings.Join([]string{initLine, `wait "user"`,
		`print {"type":"system","subtype":"api_retry","attempt":1,"max_retries":3,"retry_delay_ms":580,"error_status":` + itoa(status) + `,"error":"server_error","session_id":"$SID"}`,
		`print {"type":"system","subtype":"api_retry","attempt":2,"max_retries":3,"retry_delay_ms":8400,"error_status":` + itoa(status) + `,"error":"server_error","session_id":"$SID"}`,
		`print {"type":"result","subtype":"success","is_error":true,"result":"` + text + `","session_id":"$SID","total_cost_usd":0,"usage":{},"permission_denials":[],"terminal_reason":"api_error","api_error_status":` + itoa(status) + `}`,
		`wait "user"`, initLine, resultLine, "waiteof"}, "\n")
}

func itoa(n int) string { return strconv.Itoa(n) }

// API retries are retry events the window shows as one row that updates,
// the final error comes once, with a hint where one is known and a Retry
// that sends the prompt again.
func TestAPIFailureReadsWell(t *testing.T) {
	for _, tc := range []struct {
		status int
		hint   string
	}{
		{500, "problem of its own"},
		{401, "Log in with claude"},
		{403, "Log in with claude"},
		{429, "overloaded or rate-limited"},
		{529, "overloaded or rate-limited"},
	} {
		t.Run(itoa(tc.status), func(t *testing.T) {
			r := newRig(t, app.Config{}, apiFailure(tc.status, "API Error: boom"))
			r.send("hi")
			evs := r.surf.WaitIdle(t, 1)
			retries := ofKind(evs, app.EvRetry)
			if len(retries) != 2 || retries[1].Retry.Attempt != 2 || retries[1].Retry.Max != 3 || retries[1].Retry.Status != tc.status ||
				retries[1].Retry.Text != "Retrying in 8s — attempt 2 of 3 (HTTP "+itoa(tc.status)+")" {
				t.Fatalf("retries:\n%s", dump(evs))
			}
			if n := len(ofKind(evs, app.EvNotice)); n != 0 {
				t.Errorf("%d notices besides the retry row", n)
			}
			errs := ofKind(evs, app.EvError)
			if len(errs) != 1 || !strings.Contains(errs[0].Err.Hint, tc.hint) || !errs[0].Err.Retry {
				t.Fatalf("errors:\n%s", dump(evs))
			}
			if err := r.session.Retry(); err != nil {
				t.Fatal(err)
			}
			evs = r.surf.WaitIdle(t, 2)
			prompts := ofKind(evs, app.EvPrompt)
			if len(prompts) != 2 || prompts[1].Text != "hi" || strings.Count(r.file("stdin", 1), `"content":"hi"`) != 2 {
				t.Errorf("the retry did not send the prompt again:\n%s", r.file("stdin", 1))
			}
		})
	}
}

func TestRetryNeedsAPrompt(t *testing.T) {
	r := newRig(t, app.Config{}, "waiteof")
	if err := r.session.Retry(); err == nil {
		t.Error("Retry without a prompt sent something")
	}
}

// A CLI that dies in the middle of an answer ends the turn marked
// incomplete, with a Retry.
func TestCrashMarksTheAnswerIncomplete(t *testing.T) {
	r := newRig(t, app.Config{}, strings.Join([]string{initLine, `wait "user"`,
		`print {"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Half an ans"}},"session_id":"$SID"}`,
		"exit 1"}, "\n"))
	r.send("hi")
	evs := r.surf.WaitIdle(t, 1)
	ends := ofKind(evs, app.EvTurnEnd)
	errs := ofKind(evs, app.EvError)
	if len(ends) != 1 || !ends[0].Turn.Incomplete || !ends[0].Turn.IsError || len(errs) != 1 || !errs[0].Err.Retry {
		t.Errorf("events:\n%s", dump(evs))
	}
}
