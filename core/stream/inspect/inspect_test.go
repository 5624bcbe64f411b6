package inspect

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
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
