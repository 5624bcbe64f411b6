package inspect

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func fixtures(t *testing.T) string {
	t.Helper()
	for _, d := range []string{os.Getenv("LATCH_FIXTURES"), filepath.Join("..", "testdata", "fixtures")} {
		if d == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(d, "README.md")); err == nil {
			return d
		}
	}
	t.Fatal("fixtures not found in ../testdata/fixtures or $LATCH_FIXTURES")
	return ""
}

// substituted writes a fixture's stdout with absolute paths in place of the
// placeholders (fixtures/README.md) and returns the file's path.
func substituted(t *testing.T, name string) string {
	b, err := os.ReadFile(filepath.Join(fixtures(t), name, "stdout.ndjson"))
	if err != nil {
		t.Fatal(err)
	}
	r := strings.NewReplacer("$CWD", "/home/dev/proj", "$OUTSIDE", "/home/dev/other", "$FAR", "/srv/far", "$TMP-", "/tmp/", "$HOME", "/home/dev")
	p := filepath.Join(t.TempDir(), "stdout.ndjson")
	if err := os.WriteFile(p, []byte(r.Replace(string(b))), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func run(args []string, stdin string) (code int, out, errOut string) {
	var o, e bytes.Buffer
	code = Run(args, strings.NewReader(stdin), &o, &e)
	return code, o.String(), e.String()
}

func TestJSONShape(t *testing.T) {
	code, out, errOut := run([]string{"--json", substituted(t, "files-outside-workdir")}, "")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// Exactly the keys issue 3 names, at every level.
	var rep map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	assertKeys(t, rep, "turns", "malformed_lines")
	var turns []map[string]json.RawMessage
	json.Unmarshal(rep["turns"], &turns)
	if len(turns) != 1 {
		t.Fatalf("%d turns", len(turns))
	}
	assertKeys(t, turns[0], "session_id", "subtype", "is_error", "cost_usd", "tool_uses", "denials")
	var dens []map[string]json.RawMessage
	json.Unmarshal(turns[0]["denials"], &dens)
	if len(dens) != 8 {
		t.Fatalf("%d denials", len(dens))
	}
	assertKeys(t, dens[0], "class", "tool", "tool_use_id", "input", "dir", "grantable")

	var r report
	json.Unmarshal([]byte(out), &r)
	tr := r.Turns[0]
	if tr.SessionID != "5a20798c-4c12-4648-b97d-b10d501e3fde" || tr.Subtype != "success" || tr.IsError || tr.ToolUses != 12 || tr.CostUSD != 0.0018199999999999998 {
		t.Errorf("turn: %+v", tr)
	}
	d0 := tr.Denials[0]
	if d0.Class != "not_granted" || d0.Tool != "Read" || d0.ToolUseID != "toolu_fake8b49f40821af4c27a5b4" || d0.Dir != "/home/dev/other" ||
		!d0.Grantable || string(d0.Input) != `{"file_path":"/home/dev/other/data.txt"}` {
		t.Errorf("denial 0: %+v", d0)
	}
}

func assertKeys(t *testing.T, m map[string]json.RawMessage, keys ...string) {
	t.Helper()
	if len(m) != len(keys) {
		t.Errorf("keys %v, want %v", m, keys)
	}
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			t.Errorf("missing key %q", k)
		}
	}
}

func TestText(t *testing.T) {
	code, out, _ := run([]string{substituted(t, "live-allow-two-turns")}, "")
	want := "turn 1: session c84b5a51-2f88-48d5-ac47-ad4353db49c6, success, is_error false, cost $0.000280, 1 tool uses, 0 denials\n" +
		"turn 2: session c84b5a51-2f88-48d5-ac47-ad4353db49c6, success, is_error false, cost $0.000560, 1 tool uses, 0 denials\n" +
		"malformed lines: 0\n"
	if code != 0 || out != want {
		t.Errorf("exit %d:\n%s\nwant:\n%s", code, out, want)
	}
	code, out, _ = run([]string{substituted(t, "interrupt-pending-question")}, "")
	if code != 0 || !strings.Contains(out, "  denial interrupted: Bash toolu_fakef9b6ce1dcef94be08fad, folder -, not grantable\n") ||
		!strings.Contains(out, "error_during_execution, is_error true") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

func TestStdinAndMalformed(t *testing.T) {
	in := "not json\n" + `{"type":"result","subtype":"success","is_error":true,"session_id":"s","total_cost_usd":1.5,"permission_denials":[{"tool_name":"Bash","tool_use_id":"t1","tool_input":{"command":"ls"}}]}`
	code, out, _ := run([]string{"--json", "-"}, in)
	want := `{"turns":[{"session_id":"s","subtype":"success","is_error":true,"cost_usd":1.5,"tool_uses":0,"denials":[{"class":"not_granted","tool":"Bash","tool_use_id":"t1","input":{"command":"ls"},"dir":"","grantable":true}]}],"malformed_lines":1}` + "\n"
	if code != 0 || out != want {
		t.Errorf("exit %d:\n%s\nwant\n%s", code, out, want)
	}
	code, out, _ = run([]string{"-", "--json"}, "")
	if code != 0 || out != `{"turns":[],"malformed_lines":0}`+"\n" {
		t.Errorf("empty: %d %s", code, out)
	}
	code, out, _ = run([]string{"-"}, "")
	if code != 0 || !strings.Contains(out, "no turns") {
		t.Errorf("empty text: %d %s", code, out)
	}
}

func TestGzip(t *testing.T) {
	dir := fixtures(t)
	gz := filepath.Join(dir, "huge-text-line", "stdout.ndjson.gz")
	code, out, errOut := run([]string{"--json", gz}, "")
	if code != 0 || out != `{"turns":[{"session_id":"1ae93cd6-5210-442e-8c60-584a770ad06c","subtype":"success","is_error":false,"cost_usd":0.00014000000000000001,"tool_uses":0,"denials":[]}],"malformed_lines":0}`+"\n" {
		t.Errorf("exit %d %s: %s", code, errOut, out)
	}
	// Detected by its magic too: a gzip stream on stdin, and a file without .gz.
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	b, _ := os.ReadFile(filepath.Join(dir, "live-deny", "stdout.ndjson"))
	zw.Write(b)
	zw.Close()
	code, out, _ = run([]string{"--json", "-"}, buf.String())
	if code != 0 || !strings.Contains(out, `"class":"user_denied"`) {
		t.Errorf("gzip stdin: %d %s", code, out)
	}
	p := filepath.Join(t.TempDir(), "transcript.log")
	os.WriteFile(p, buf.Bytes(), 0o600)
	if code, out, _ = run([]string{p}, ""); code != 0 || !strings.Contains(out, "denial user_denied: Bash toolu_fakea74e9933e26344f98737") {
		t.Errorf("gzip by magic: %d %s", code, out)
	}
	// A .gz name that is not gzip cannot be read.
	bad := filepath.Join(t.TempDir(), "x.ndjson.gz")
	os.WriteFile(bad, []byte(`{"type":"result"}`), 0o600)
	if code, _, errOut = run([]string{bad}, ""); code != 1 || !strings.Contains(errOut, "cannot read") {
		t.Errorf("bad gz: %d %q", code, errOut)
	}
}

func TestErrorsAndUsage(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.ndjson")
	code, out, errOut := run([]string{missing}, "")
	if code != 1 || out != "" || !strings.Contains(errOut, "latch inspect: cannot read "+missing) {
		t.Errorf("missing: %d %q %q", code, out, errOut)
	}
	if code, _, errOut = run([]string{t.TempDir()}, ""); code != 1 || !strings.Contains(errOut, "cannot read") {
		t.Errorf("directory: %d %q", code, errOut)
	}
	for _, args := range [][]string{nil, {"--json"}, {"a", "b"}, {"--bogus", "a"}, {"-j", "a"}} {
		code, out, errOut := run(args, "")
		if code != 2 || out != "" || errOut != "usage: latch inspect [--json] FILE|-\n" {
			t.Errorf("%q: %d %q %q", args, code, out, errOut)
		}
	}
	if code, out, _ := run([]string{"--help"}, ""); code != 0 || !strings.HasPrefix(out, "usage:") {
		t.Errorf("help: %d %q", code, out)
	}
}

func sessionFixture(t *testing.T, name string) string {
	t.Helper()
	return filepath.Join("..", "..", "sessions", "testdata", name)
}

// TestSessionFile: a Claude Code session file is reported turn by turn:
// its prompt, tool uses and denials, whatever the file is named.
func TestSessionFile(t *testing.T) {
	p := sessionFixture(t, "cli-2.1.328/live-three-turns.jsonl")
	code, out, errOut := run([]string{p}, "")
	want := `Claude Code session file: session 65b49ddb-caa3-442c-866c-bdb4cd44e255, version 2.1.328, cwd "/tmp/TestContractSessionFileCapturelive1587281644/002"
turn 1: prompt "say hello", 0 tool uses, 0 denials
turn 2: prompt "make a file", 1 tool uses, 0 denials
  tool use Bash toolu_fakefb01c9cd3f58a6895f7554b3
turn 3: prompt "clean up", 1 tool uses, 1 denials
  tool use Bash toolu_fake2ae6e1f7b4bb6b26ace8ce1f
  denial user_denied: Bash toolu_fake2ae6e1f7b4bb6b26ace8ce1f, folder -, not grantable
malformed lines: 0
`
	if code != 0 || out != want {
		t.Errorf("exit %d %s:\n%s\nwant:\n%s", code, errOut, out, want)
	}

	// JSON: the stream report's keys, and the session's.
	b, _ := os.ReadFile(sessionFixture(t, "cli-2.1.328/after-turn-stream-closed.jsonl"))
	renamed := filepath.Join(t.TempDir(), "saved.ndjson") // the name says nothing
	os.WriteFile(renamed, b, 0o600)
	code, out, _ = run([]string{"--json", renamed}, "")
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &raw); code != 0 || err != nil {
		t.Fatalf("exit %d %v: %s", code, err, out)
	}
	assertKeys(t, raw, "format", "turns", "malformed_lines", "version", "cwd")
	var turns []map[string]json.RawMessage
	json.Unmarshal(raw["turns"], &turns)
	assertKeys(t, turns[0], "session_id", "subtype", "is_error", "cost_usd", "tool_uses", "denials", "prompt", "tools")
	var rep report
	json.Unmarshal([]byte(out), &rep)
	want2 := report{Format: "session", Version: "2.1.328", Cwd: "/tmp/TestContractSessionFileCaptureafter-turn3329515303/002", Turns: []turnReport{{
		SessionID: "bb60b942-372b-4f2f-83a7-ba78c0f53c81", Prompt: "run the tests", ToolUses: 1,
		Tools: []toolReport{{Tool: "Bash", ToolUseID: "toolu_fake2fd0ca6e14f632a2e9df13ab", Input: json.RawMessage(`{"command":"npm test","description":"Run a command"}`)}},
		Denials: []denialReport{{Class: "stream_closed", Tool: "Bash", ToolUseID: "toolu_fake2fd0ca6e14f632a2e9df13ab",
			Input: json.RawMessage(`{"command":"npm test","description":"Run a command"}`), Grantable: true}},
	}}}
	if !reflect.DeepEqual(rep, want2) {
		t.Errorf("got  %+v\nwant %+v", rep, want2)
	}
}

// TestSessionFromStdinAndGzip: a session file that is not on disk as such
// (standard input, gzip) is read the same.
func TestSessionFromStdinAndGzip(t *testing.T) {
	b, _ := os.ReadFile(sessionFixture(t, "v2.0-compact.jsonl"))
	_, fromFile, _ := run([]string{"--json", sessionFixture(t, "v2.0-compact.jsonl")}, "")
	code, out, errOut := run([]string{"--json", "-"}, string(b))
	if code != 0 || out != fromFile || !strings.Contains(out, `"class":"stream_closed","tool":"Write"`) || !strings.Contains(out, `"dir":"/home/dev/other","grantable":true`) {
		t.Errorf("stdin: exit %d %s\n%s\nfile:\n%s", code, errOut, out, fromFile)
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	gz := filepath.Join(t.TempDir(), "session.jsonl.gz")
	os.WriteFile(gz, buf.Bytes(), 0o600)
	if code, out, errOut = run([]string{"--json", gz}, ""); code != 0 || out != fromFile {
		t.Errorf("gzip: exit %d %s\n%s", code, errOut, out)
	}
	// A torn last line is a malformed line, not an error.
	torn := string(b) + `{"parentUuid":"x","type":"user","message":{"con`
	if code, out, _ = run([]string{"-"}, torn); code != 0 || !strings.HasSuffix(out, "malformed lines: 1\n") ||
		!strings.Contains(out, `turn 2: prompt "now add a license", 1 tool uses, 1 denials`) {
		t.Errorf("torn: exit %d\n%s", code, out)
	}
}

// TestJSONArray: a JSON array of stream events is read as the NDJSON it
// holds.
func TestJSONArray(t *testing.T) {
	nd := substituted(t, "live-deny")
	b, _ := os.ReadFile(nd)
	_, want, _ := run([]string{"--json", nd}, "")
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	arr := "[\n  " + strings.Join(lines, ",\n  ") + "\n]\n"
	code, out, errOut := run([]string{"--json", "-"}, arr)
	want = strings.Replace(want, `{"turns"`, `{"format":"json_array","turns"`, 1)
	if code != 0 || out != want {
		t.Errorf("exit %d %s:\n%s\nwant\n%s", code, errOut, out, want)
	}
	if code, out, _ = run([]string{"-"}, arr); code != 0 || !strings.Contains(out, "denial user_denied: Bash") {
		t.Errorf("text: %d\n%s", code, out)
	}
	// A broken array is an error, not a partial report.
	if code, _, errOut = run([]string{"-"}, arr[:len(arr)/2]); code != 1 || !strings.Contains(errOut, "JSON array") {
		t.Errorf("cut array: %d %q", code, errOut)
	}
}

// TestNotATranscript: a file of another kind is an error that says what it
// looks like.
func TestNotATranscript(t *testing.T) {
	for _, c := range []struct{ in, says string }{
		{`{"name":"x"}` + "\n", "a JSON object without a type field"},
		{"hello\nworld\n", `not JSON: starts with "hello"`},
		{"\x00\x01binary", "binary data"},
		{"[1,2,3]", "a JSON array of"},
	} {
		code, out, errOut := run([]string{"-"}, c.in)
		if code != 1 || out != "" || !strings.Contains(errOut, "latch inspect: cannot read standard input: not a transcript") || !strings.Contains(errOut, c.says) {
			t.Errorf("%q: exit %d %q %q", c.in, code, out, errOut)
		}
	}
}

// TestUnfinishedTurn: a stream that ends before its last result line
// reports that turn, with what it saw, as unfinished.
func TestUnfinishedTurn(t *testing.T) {
	nd := substituted(t, "live-deny")
	b, _ := os.ReadFile(nd)
	lines := strings.SplitAfter(string(b), "\n")
	var cut string
	for _, l := range lines {
		if strings.Contains(l, `"type":"result"`) {
			break
		}
		cut += l
	}
	code, out, errOut := run([]string{"-"}, cut)
	if code != 0 || !strings.Contains(out, "turn 1 (unfinished: no result line): session 24eac587-92a4-4bb") ||
		!strings.Contains(out, "  tool use Bash toolu_fakea74e9933e26344f98737\n  denial user_denied: Bash toolu_fakea74e9933e26344f98737, folder -, not grantable\n") {
		t.Errorf("exit %d %s\n%s", code, errOut, out)
	}
	_, out, _ = run([]string{"--json", "-"}, cut)
	var rep report
	json.Unmarshal([]byte(out), &rep)
	if len(rep.Turns) != 1 || !rep.Turns[0].Unfinished || rep.Turns[0].ToolUses != 1 || len(rep.Turns[0].Tools) != 1 ||
		len(rep.Turns[0].Denials) != 1 || rep.Turns[0].Denials[0].Class != "user_denied" {
		t.Errorf("%s", out)
	}
	// A finished stream has no unfinished turn.
	if _, out, _ = run([]string{"--json", nd}, ""); strings.Contains(out, "unfinished") {
		t.Errorf("finished: %s", out)
	}
}
