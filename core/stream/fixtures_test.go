package stream

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixturesDir holds the real CLI transcripts (a copy of the team's shared
// fixtures, kept here so the tests never depend on a folder outside the
// repo); $LATCH_FIXTURES points at another set.
func fixturesDir(t testing.TB) string {
	t.Helper()
	for _, d := range []string{os.Getenv("LATCH_FIXTURES"), filepath.Join("testdata", "fixtures")} {
		if d == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(d, "README.md")); err == nil {
			return d
		}
	}
	t.Fatal("fixtures not found in testdata/fixtures or $LATCH_FIXTURES")
	return ""
}

// fixtureStdout returns a fixture's stdout (gunzipped), or nil when empty.
func fixtureStdout(t testing.TB, name string) []byte {
	t.Helper()
	dir := filepath.Join(fixturesDir(t), name)
	if b, err := os.ReadFile(filepath.Join(dir, "stdout.ndjson")); err == nil {
		return b
	}
	f, err := os.Open(filepath.Join(dir, "stdout.ndjson.gz"))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Absolute stand-ins for the fixtures' path placeholders (fixtures/README.md).
var placeholders = strings.NewReplacer(
	"-$TMP-cwd", "-home-dev-proj",
	"$CWD", "/home/dev/proj",
	"$OUTSIDE", "/home/dev/other",
	"$FAR", "/srv/far",
	"$TMP-", "/tmp/",
	"$HOME", "/home/dev",
	"$SYSTMP", "/tmp",
)

func substitute(b []byte) []byte { return []byte(placeholders.Replace(string(b))) }

// decodeAll runs a decoder to the end; hook sees each event first.
func decodeAll(t testing.TB, d *Decoder, hook func(Event)) []Event {
	t.Helper()
	var evs []Event
	for {
		ev, err := d.Next()
		if err == io.EOF {
			return evs
		}
		if err != nil {
			t.Fatal(err)
		}
		if hook != nil {
			hook(ev)
		}
		evs = append(evs, ev)
	}
}

func turnsOf(evs []Event) []*Result {
	var rs []*Result
	for _, ev := range evs {
		if ev.Kind == KindResult {
			rs = append(rs, ev.Result)
		}
	}
	return rs
}

// turnTexts is the assistant text of each turn up to its result (the text
// blocks joined with "\n"); an init starts a turn afresh, as in the Decoder.
func turnTexts(evs []Event) []string {
	var out, cur []string
	for _, ev := range evs {
		switch ev.Kind {
		case KindInit:
			cur = nil
		case KindAssistant:
			if ev.Block.Type == "text" {
				cur = append(cur, ev.Block.Text)
			}
		case KindResult:
			out = append(out, strings.Join(cur, "\n"))
			cur = nil
		}
	}
	return out
}

func kinds(evs []Event, k Kind) []Event {
	var out []Event
	for _, ev := range evs {
		if ev.Kind == k {
			out = append(out, ev)
		}
	}
	return out
}

type wantDenial struct {
	class Class
	tool  string
	id    string
	dir   string
}

type wantTool struct{ name, id, command string }

type wantTurn struct {
	session string
	subtype string
	isError bool
	tools   []wantTool
	text    string
	denials []wantDenial
}

func checkTurn(t *testing.T, i int, r *Result, text string, w wantTurn) {
	t.Helper()
	if w.session != "" && r.SessionID != w.session {
		t.Errorf("turn %d: session %q, want %q", i, r.SessionID, w.session)
	}
	if r.Subtype != w.subtype || r.IsError != w.isError {
		t.Errorf("turn %d: subtype %q is_error %v, want %q %v", i, r.Subtype, r.IsError, w.subtype, w.isError)
	}
	tu := r.Turn
	if len(tu.ToolUses) != len(w.tools) {
		t.Fatalf("turn %d: %d tool uses %+v, want %d", i, len(tu.ToolUses), tu.ToolUses, len(w.tools))
	}
	for j, wt := range w.tools {
		got := tu.ToolUses[j]
		if got.Name != wt.name || got.ID != wt.id {
			t.Errorf("turn %d tool %d: %s %s, want %s %s", i, j, got.Name, got.ID, wt.name, wt.id)
		}
		if !json.Valid(got.Input) {
			t.Errorf("turn %d tool %d: input %q not JSON", i, j, got.Input)
		}
		if wt.command != "" {
			var in struct{ Command string }
			json.Unmarshal(got.Input, &in)
			if in.Command != wt.command {
				t.Errorf("turn %d tool %d: command %q, want %q", i, j, in.Command, wt.command)
			}
		}
	}
	if text != w.text {
		t.Errorf("turn %d: text %.200q, want %.200q", i, text, w.text)
	}
	if len(tu.Denials) != len(w.denials) {
		t.Fatalf("turn %d: %d denials %+v, want %d", i, len(tu.Denials), tu.Denials, len(w.denials))
	}
	for j, wd := range w.denials {
		got := tu.Denials[j]
		if got.Class != wd.class || got.Tool != wd.tool || got.ToolUseID != wd.id || got.Dir != wd.dir {
			t.Errorf("turn %d denial %d: {%s %s %s dir=%q}, want {%s %s %s dir=%q}", i, j,
				got.Class, got.Tool, got.ToolUseID, got.Dir, wd.class, wd.tool, wd.id, wd.dir)
		}
		if len(got.Input) == 0 {
			t.Errorf("turn %d denial %d: no input", i, j)
		}
	}
}

func bash(id, cmd string) wantTool { return wantTool{"Bash", id, cmd} }

const touch = "touch made-by-bash.txt"

// The expectations are fixtures/README.md's "a correct parser must report"
// column, with the placeholders substituted.
var fixtureCases = []struct {
	name  string
	turns []wantTurn
}{
	{"plain-answer", []wantTurn{{session: "f4943bc8-1506-475d-a0bf-c378ec16ba4c", subtype: "success",
		text: "Hello from the fake API. This sentence is long enough to be split into several deltas."}}},
	{"plain-answer-partial", []wantTurn{{session: "a765c5c3-c0cf-4867-8498-ea328fd32feb", subtype: "success",
		text: "Hello from the fake API. This sentence is long enough to be split into several deltas."}}},
	{"bash-needs-approval", []wantTurn{{subtype: "success",
		tools:   []wantTool{bash("toolu_fakede8b84a0562e446ca9f1", touch)},
		text:    "Running it.\ndone.",
		denials: []wantDenial{{NotGranted, "Bash", "toolu_fakede8b84a0562e446ca9f1", ""}}}}},
	{"files-outside-workdir", []wantTurn{{session: "5a20798c-4c12-4648-b97d-b10d501e3fde", subtype: "success",
		tools: []wantTool{
			{"Read", "toolu_fake8b49f40821af4c27a5b4", ""}, {"Write", "toolu_fake3d018223b15d484a86c5", ""}, {"Edit", "toolu_fake2e898686910f44e589ff", ""},
			{"Read", "toolu_faked5c1174fb2ba47659362", ""}, {"Write", "toolu_fake805caf3dfbbe4f828fbc", ""}, {"Edit", "toolu_fake8e3bed1b00bd44c0b180", ""},
			{"Read", "toolu_fake89503815ec24436c9b75", ""}, {"Write", "toolu_fake12ef72fd40e243d6933e", ""}, {"Edit", "toolu_fake35aaa1b96b6a4046b094", ""},
			{"Read", "toolu_fakea298e0b6071e4873bb69", ""}, {"Edit", "toolu_fakee576aa4b649149a29f5b", ""}, {"Write", "toolu_fakee4bd04b3031f4fc89eb0", ""},
		},
		text: "read sibling temp dir\nwrite sibling temp dir\nedit sibling temp dir\nread file directly in /tmp\nwrite file directly in /tmp\nedit file directly in /tmp\nread dir outside /tmp\nwrite dir outside /tmp\nedit dir outside /tmp\nread inside\nedit inside\nwrite inside\ndone.",
		denials: []wantDenial{
			{NotGranted, "Read", "toolu_fake8b49f40821af4c27a5b4", "/home/dev/other"},
			{NotGranted, "Write", "toolu_fake3d018223b15d484a86c5", "/home/dev/other"},
			{NotGranted, "Read", "toolu_faked5c1174fb2ba47659362", "/tmp"},
			{NotGranted, "Write", "toolu_fake805caf3dfbbe4f828fbc", "/tmp"},
			{NotGranted, "Read", "toolu_fake89503815ec24436c9b75", "/srv/far"},
			{NotGranted, "Write", "toolu_fake12ef72fd40e243d6933e", "/srv/far"},
			{NotGranted, "Edit", "toolu_fakee576aa4b649149a29f5b", ""},
			{NotGranted, "Write", "toolu_fakee4bd04b3031f4fc89eb0", ""},
		}}}},
	{"live-allow-two-turns", []wantTurn{
		{session: "c84b5a51-2f88-48d5-ac47-ad4353db49c6", subtype: "success",
			tools: []wantTool{bash("toolu_fake3b4cdad598b44c66965c", touch)}, text: "Creating it.\nFirst turn finished."},
		{session: "c84b5a51-2f88-48d5-ac47-ad4353db49c6", subtype: "success",
			tools: []wantTool{bash("toolu_fake615dad31b3824c629828", "touch second.txt")}, text: "Second turn\nSecond turn finished."},
	}},
	{"live-deny", []wantTurn{{subtype: "success",
		tools:   []wantTool{bash("toolu_fakea74e9933e26344f98737", touch)},
		text:    "Creating it.\ndone.",
		denials: []wantDenial{{UserDenied, "Bash", "toolu_fakea74e9933e26344f98737", ""}}}}},
	{"live-allow-always", []wantTurn{{subtype: "success",
		tools: []wantTool{bash("toolu_fake62dfad741c3743dba14c", touch), bash("toolu_fakec23a9eaa645c4de8bd5f", touch)},
		text:  "Creating it.\nagain\ndone."}}},
	{"interrupt-running-tool", []wantTurn{
		{subtype: "error_during_execution", isError: true,
			tools:   []wantTool{bash("toolu_fakeee5355f855264823a3f9", "sleep 20")},
			text:    "Sleeping.",
			denials: []wantDenial{{Interrupted, "Bash", "toolu_fakeee5355f855264823a3f9", ""}}},
		{subtype: "success", text: "after interrupt"},
	}},
	{"interrupt-pending-question", []wantTurn{{subtype: "error_during_execution", isError: true,
		tools:   []wantTool{bash("toolu_fakef9b6ce1dcef94be08fad", touch)},
		text:    "Creating it.",
		denials: []wantDenial{{Interrupted, "Bash", "toolu_fakef9b6ce1dcef94be08fad", ""}}}}},
	{"stream-closed-print-mode", []wantTurn{{subtype: "success",
		tools:   []wantTool{bash("toolu_fakec4d40d29330a4658a20d", touch)},
		text:    "Creating it.\ndone.",
		denials: []wantDenial{{StreamClosed, "Bash", "toolu_fakec4d40d29330a4658a20d", ""}}}}},
	{"stream-closed-stdin-closed", []wantTurn{{subtype: "success",
		tools:   []wantTool{bash("toolu_fake34d2bec0c34d4826b233", touch)},
		text:    "Creating it.\ndone.",
		denials: []wantDenial{{StreamClosed, "Bash", "toolu_fake34d2bec0c34d4826b233", ""}}}}},
	{"stream-closed-before-response", []wantTurn{{subtype: "success",
		tools:   []wantTool{bash("toolu_fake532add09c0b548a3b00b", touch)},
		text:    "Creating it.\ndone.",
		denials: []wantDenial{{StreamClosed, "Bash", "toolu_fake532add09c0b548a3b00b", ""}}}}},
	{"resume-after-denial/step1", []wantTurn{{session: "953d3fde-a3cc-4cbe-b566-bec8d04a4f69", subtype: "success",
		tools:   []wantTool{bash("toolu_fakef42c0177b4424f8cb4f0", touch)},
		text:    "Creating it.\ndone.",
		denials: []wantDenial{{NotGranted, "Bash", "toolu_fakef42c0177b4424f8cb4f0", ""}}}}},
	{"resume-after-denial/step2", []wantTurn{{session: "953d3fde-a3cc-4cbe-b566-bec8d04a4f69", subtype: "success",
		tools: []wantTool{bash("toolu_fakef44a41f523744d188876", touch)},
		text:  "Retrying.\ndone."}}},
	{"stream-closed-exact-old-cli", []wantTurn{{subtype: "success",
		tools:   []wantTool{{"mcp__host__ping", "toolu_fakeb38996887f2d40eabc4d", ""}},
		text:    "Pinging.\ndone.",
		denials: []wantDenial{{StreamClosed, "mcp__host__ping", "toolu_fakeb38996887f2d40eabc4d", ""}}}}},
	{"bad-flag/unknown-option", nil},
	{"bad-flag/invalid-output-format", nil},
	{"bad-flag/stream-json-without-verbose", nil},
	{"bad-flag/no-print-flag-not-a-tty", []wantTurn{{subtype: "success", text: "done."}}},
}

func TestFixtures(t *testing.T) {
	for _, c := range fixtureCases {
		t.Run(c.name, func(t *testing.T) {
			d := NewDecoder(bytes.NewReader(substitute(fixtureStdout(t, c.name))), Options{})
			evs := decodeAll(t, d, nil)
			if n := d.MalformedLines(); n != 0 {
				t.Errorf("%d malformed lines", n)
			}
			rs, texts := turnsOf(evs), turnTexts(evs)
			if len(rs) != len(c.turns) {
				t.Fatalf("%d turns, want %d", len(rs), len(c.turns))
			}
			for i, w := range c.turns {
				checkTurn(t, i, rs[i], texts[i], w)
			}
			// Every tool_result is tied to its tool through the registry.
			for _, ev := range kinds(evs, KindToolResult) {
				if ev.ToolResult.Tool == "" || len(ev.ToolResult.Input) == 0 {
					t.Errorf("line %d: tool_result %s not tied to its tool", ev.Line, ev.ToolResult.ToolUseID)
				}
			}
		})
	}
}

// A non-permission failure is a plain tool error: no class, no folder.
func TestFixtureFilesOutsidePlainErrors(t *testing.T) {
	d := NewDecoder(bytes.NewReader(substitute(fixtureStdout(t, "files-outside-workdir"))), Options{})
	errs := map[string]bool{}
	for _, ev := range kinds(decodeAll(t, d, nil), KindToolResult) {
		tr := ev.ToolResult
		if tr.IsError && tr.Denial == nil {
			errs[tr.ToolUseID] = true
			if !strings.Contains(tr.Text, "File has not been read yet") {
				t.Errorf("%s: unexpected plain error %q", tr.ToolUseID, tr.Text)
			}
		}
		if tr.ToolUseID == "toolu_fakea298e0b6071e4873bb69" && (tr.IsError || tr.Denial != nil) {
			t.Errorf("inside Read should succeed: %+v", tr)
		}
	}
	for _, id := range []string{"toolu_fake2e898686910f44e589ff", "toolu_fake8e3bed1b00bd44c0b180", "toolu_fake35aaa1b96b6a4046b094"} {
		if !errs[id] {
			t.Errorf("%s: want a plain tool error", id)
		}
	}
}

// Partial mode: the deltas join to the block's text, and the assistant
// event says it was streamed, so the text is shown once.
func TestFixturePartialStreamed(t *testing.T) {
	for _, name := range []string{"plain-answer-partial", "plain-answer"} {
		d := NewDecoder(bytes.NewReader(fixtureStdout(t, name)), Options{})
		evs := decodeAll(t, d, nil)
		var deltas strings.Builder
		for _, ev := range kinds(evs, KindTextDelta) {
			deltas.WriteString(ev.Delta.Text)
		}
		blocks := kinds(evs, KindAssistant)
		if len(blocks) != 1 {
			t.Fatalf("%s: %d assistant blocks", name, len(blocks))
		}
		b := blocks[0].Block
		partial := name == "plain-answer-partial"
		if b.Streamed != partial {
			t.Errorf("%s: Streamed %v, want %v", name, b.Streamed, partial)
		}
		if partial && (len(kinds(evs, KindTextDelta)) != 5 || deltas.String() != b.Text) {
			t.Errorf("%s: %d deltas joining to %q, want 5 joining to %q", name, len(kinds(evs, KindTextDelta)), deltas.String(), b.Text)
		}
		if partial && len(kinds(evs, KindStatus)) == 0 {
			t.Errorf("%s: no system/status", name)
		}
	}
}

// Partial mode with a tool: text block 0 streamed, tool_use block 1 known
// from content_block_start and its joined input_json_delta fragments.
func TestFixtureToolFromDeltas(t *testing.T) {
	raw := substitute(fixtureStdout(t, "bash-needs-approval"))
	// Drop the assistant events: the stream events alone must be enough.
	var kept [][]byte
	for _, l := range bytes.Split(raw, []byte("\n")) {
		if !bytes.Contains(l, []byte(`"type":"assistant"`)) {
			kept = append(kept, l)
		}
	}
	d := NewDecoder(bytes.NewReader(bytes.Join(kept, []byte("\n"))), Options{})
	evs := decodeAll(t, d, nil)
	tu, ok := d.tool("toolu_fakede8b84a0562e446ca9f1")
	if !ok || tu.Name != "Bash" {
		t.Fatalf("registry: %+v %v", tu, ok)
	}
	var in map[string]string
	if err := json.Unmarshal(tu.Input, &in); err != nil || in["command"] != touch {
		t.Errorf("joined input %s: %v", tu.Input, err)
	}
	rs := turnsOf(evs)
	if len(rs) != 1 || len(rs[0].Turn.Denials) != 1 || rs[0].Turn.Denials[0].Class != NotGranted {
		t.Fatalf("turns: %+v", rs)
	}
	starts := kinds(evs, KindBlockStart)
	if len(starts) != 3 || starts[1].Delta.ToolUseID != "toolu_fakede8b84a0562e446ca9f1" || starts[1].Delta.Index != 1 {
		t.Errorf("block starts: %+v", starts)
	}
	if pd := kinds(evs, kindPermissionDenied); len(pd) != 1 {
		t.Errorf("permission_denied events: %+v", pd)
	}
}

// Live fixtures: every can_use_tool names a registered call; the deny answer
// in stdin.ndjson reaches the decoder through MarkUserDenied.
func TestFixtureLiveRequests(t *testing.T) {
	cases := []struct {
		name     string
		requests map[string]string // request_id -> tool_use_id
	}{
		{"live-allow-two-turns", map[string]string{
			"5139063e-507e-490d-978c-4e36527fd4df": "toolu_fake3b4cdad598b44c66965c",
			"edb5a6c2-":                            "toolu_fake615dad31b3824c629828"}},
		{"live-allow-always", nil},
		{"live-deny", map[string]string{"843793c0-d27c-4ef6-9ccc-110c3885c820": "toolu_fakea74e9933e26344f98737"}},
		{"interrupt-pending-question", map[string]string{"a891e0c3-2f20-42d1-bc49-1fedd9571148": "toolu_fakef9b6ce1dcef94be08fad"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			denies := stdinDenies(t, c.name)
			d := NewDecoder(bytes.NewReader(substitute(fixtureStdout(t, c.name))), Options{})
			var reqs []*ControlRequest
			evs := decodeAll(t, d, func(ev Event) {
				if ev.Kind == KindControlRequest && ev.Request.CanUseTool != nil {
					reqs = append(reqs, ev.Request)
					if denies[ev.Request.RequestID] {
						d.MarkUserDenied(ev.Request.CanUseTool.ToolUseID)
					}
				}
			})
			if c.name == "live-allow-always" {
				// Only the first call was asked; the second ran by the saved rule.
				if len(reqs) != 1 || reqs[0].CanUseTool.ToolUseID != "toolu_fake62dfad741c3743dba14c" {
					t.Fatalf("requests: %+v", reqs)
				}
				if got := reqs[0].CanUseTool.SuggestedRule(); got != "Bash(touch made-by-bash.txt)" {
					t.Errorf("SuggestedRule %q", got)
				}
				return
			}
			if len(reqs) != len(c.requests) {
				t.Fatalf("%d can_use_tool, want %d", len(reqs), len(c.requests))
			}
			for _, r := range reqs {
				want := ""
				for prefix, id := range c.requests {
					if strings.HasPrefix(r.RequestID, prefix) {
						want = id
					}
				}
				if r.CanUseTool.ToolUseID != want {
					t.Errorf("request %s: tool_use_id %s, want %s", r.RequestID, r.CanUseTool.ToolUseID, want)
				}
				if tu, ok := d.tool(want); !ok || tu.Name != r.CanUseTool.ToolName {
					t.Errorf("request %s not linked to a registered call: %+v", r.RequestID, tu)
				}
			}
			if c.name == "interrupt-pending-question" {
				cancels := kinds(evs, KindControlCancel)
				if len(cancels) != 1 || cancels[0].RequestID != reqs[0].RequestID {
					t.Errorf("cancel: %+v", cancels)
				}
				if len(kinds(evs, KindInterruptMarker)) != 1 {
					t.Errorf("want one interrupt marker")
				}
			}
		})
	}
}

// stdinDenies reads a fixture's stdin.ndjson: request ids answered deny.
func stdinDenies(t *testing.T, name string) map[string]bool {
	out := map[string]bool{}
	f, err := os.Open(filepath.Join(fixturesDir(t), name, "stdin.ndjson"))
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m struct {
			Type     string
			Response struct {
				RequestID string `json:"request_id"`
				Response  struct{ Behavior string }
			}
		}
		if json.Unmarshal(sc.Bytes(), &m) == nil && m.Type == "control_response" && m.Response.Response.Behavior == "deny" {
			out[m.Response.RequestID] = true
		}
	}
	return out
}

func TestFixtureAPIError(t *testing.T) {
	d := NewDecoder(bytes.NewReader(fixtureStdout(t, "api-error-500")), Options{})
	evs := decodeAll(t, d, nil)
	retries := kinds(evs, KindAPIRetry)
	if len(retries) != 2 || retries[0].APIRetry.ErrorStatus != 500 || retries[0].APIRetry.Error != "server_error" || retries[1].APIRetry.Attempt != 2 {
		t.Errorf("retries: %+v", retries)
	}
	bl := kinds(evs, KindAssistant)
	if len(bl) != 1 || !bl[0].Block.APIError {
		t.Errorf("assistant: %+v", bl)
	}
	r := turnsOf(evs)[0]
	if !r.IsError || r.Subtype != "success" || r.APIErrorStatus != 500 || r.TerminalReason != "api_error" || !strings.HasPrefix(r.Text, "API Error: 500") {
		t.Errorf("result: %+v", r)
	}
}

func TestFixtureHugeTextLine(t *testing.T) {
	d := NewDecoder(bytes.NewReader(fixtureStdout(t, "huge-text-line")), Options{})
	evs := decodeAll(t, d, nil)
	rs := turnsOf(evs)
	if len(rs) != 1 || d.MalformedLines() != 0 {
		t.Fatalf("%d turns, %d malformed", len(rs), d.MalformedLines())
	}
	if n := len(turnTexts(evs)[0]); n != 1_000_000 {
		t.Errorf("text length %d, want 1000000", n)
	}
	if len(rs[0].Text) != 1_000_000 || len(rs[0].Turn.ToolUses) != 0 || len(rs[0].Turn.Denials) != 0 {
		t.Errorf("result text %d, tools %d, denials %d", len(rs[0].Text), len(rs[0].Turn.ToolUses), len(rs[0].Turn.Denials))
	}
}

func TestFixtureInit(t *testing.T) {
	d := NewDecoder(bytes.NewReader(substitute(fixtureStdout(t, "live-allow-two-turns"))), Options{})
	inits := kinds(decodeAll(t, d, nil), KindInit)
	if len(inits) != 2 {
		t.Fatalf("%d inits", len(inits))
	}
	in := inits[0].Init
	if in.SessionID != "c84b5a51-2f88-48d5-ac47-ad4353db49c6" || in.PermissionMode != "default" || in.Model != "claude-opus-5-5" {
		t.Errorf("init: %+v", in)
	}
	if d.cwd != "/home/dev/proj" || d.addDirs != nil {
		t.Errorf("the decoder judges paths by cwd %q and added folders %q", d.cwd, d.addDirs)
	}
}
