package sessions

import (
	"bytes"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestLineScanner: lines of every length around the chunk size come back
// whole, with offsets and lengths that read them again; nothing past the
// size given is read.
func TestLineScanner(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var data bytes.Buffer
	var want []string
	for _, n := range []int{0, 1, 10, chunkSize - 1, chunkSize, chunkSize + 1, 3*chunkSize + 7, 5, chunkSize/2 + 3, chunkSize / 2, 200 << 10} {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('a' + rng.IntN(26))
		}
		if n%2 == 1 {
			b = append(b, '\r') // CRLF
		}
		want = append(want, string(b))
		data.Write(b)
		data.WriteByte('\n')
	}
	data.WriteString("last, without newline")
	want = append(want, "last, without newline")
	all := data.Bytes()
	for _, size := range []int64{int64(len(all)), int64(len(all) - 5)} {
		sc := newLineScanner(bytes.NewReader(append(all, "appended later\n"...)), size)
		for i := 0; ; i++ {
			line, off, n, err := sc.next()
			if err == io.EOF {
				if i != len(want) {
					t.Errorf("size %d: %d lines, want %d", size, i, len(want))
				}
				break
			}
			w := strings.TrimSuffix(want[i], "\r")
			if i == len(want)-1 && size < int64(len(all)) {
				w = w[:len(w)-5]
			}
			if string(line) != w {
				t.Fatalf("line %d: %d bytes, want %d", i, len(line), len(w))
			}
			if again := string(trimCR(all[off : off+int64(n)])); again != w {
				t.Fatalf("line %d: offset %d length %d do not give it back", i, off, n)
			}
		}
	}
}

func TestOneLineFold(t *testing.T) {
	for _, c := range []struct{ in, line, folded string }{
		{"", "", "X"},
		{"  \n\n  hello  \nworld", "hello", "X: hello (19 characters)"},
		{"tab\there\x07bell", "tab here bell", "X: tab here bell"},
		{"\x1b[1mbold\x1b[0m", "bold", "X: bold"},
		{strings.Repeat("a", 250), strings.Repeat("a", 199) + "…", "X: " + strings.Repeat("a", 199) + "… (250 characters)"},
		{strings.Repeat("é", 200), strings.Repeat("é", 200), "X: " + strings.Repeat("é", 200)},
		{"bad \xff byte", "bad   byte", "X: bad   byte"},
	} {
		if got := oneLine(c.in, titleMax); got != c.line {
			t.Errorf("oneLine(%q) = %q, want %q", c.in, got, c.line)
		}
		if got := fold("X: ", c.in); got != c.folded {
			t.Errorf("fold(%q) = %q, want %q", c.in, got, c.folded)
		}
	}
}

func TestClassifyUser(t *testing.T) {
	for _, c := range []struct {
		line string
		kind int
		text string
	}{
		{`{"type":"user","message":{"content":"hi"}}`, uPrompt, "hi"},
		{`{"type":"user","message":{"content":[{"type":"text","text":"a"},{"type":"image"},{"type":"text","text":"b"}]}}`, uPrompt, "a\nb"},
		{`{"type":"user","message":{"content":[{"type":"image","source":{}}]}}`, uPrompt, "[image]"},
		{`{"type":"user","message":{"content":"   "}}`, uOther, ""},
		{`{"type":"user","message":{}}`, uOther, ""},
		{`{"type":"user","isMeta":true,"message":{"content":"Caveat: …"}}`, uOther, ""},
		{`{"type":"user","isCompactSummary":true,"message":{"content":"short summary"}}`, uNotice, "Summary of the earlier conversation: short summary"},
		{`{"type":"user","message":{"content":[{"type":"text","text":"[Request interrupted by user for tool use]"}]}}`, uNotice, "[Request interrupted by user for tool use]"},
		{`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"x"},{"type":"text","text":"y"}]}}`, uTool, ""},
		{`{"type":"user","message":{"content":"<command-message>init is analyzing</command-message>\n<command-name>/init</command-name>"}}`, uPrompt, "/init"},
		{`{"type":"user","message":{"content":"<command-name>clear</command-name><command-args></command-args>"}}`, uPrompt, "/clear"},
		{`{"type":"user","message":{"content":"<bash-input>ls -la</bash-input>"}}`, uPrompt, "! ls -la"},
		{`{"type":"user","message":{"content":"<bash-stdout>a\nb</bash-stdout><bash-stderr></bash-stderr>"}}`, uNotice, "Output: a (3 characters)"},
		{`{"type":"user","message":{"content":"<local-command-stderr></local-command-stderr>"}}`, uNotice, "Output"},
		{`{"type":"user","message":{"content":"<div>html I typed</div>"}}`, uPrompt, "<div>html I typed</div>"},
		{`{"type":"user","isSidechain":true,"message":{"content":"Find it"}}`, uSubagent, "Subagent prompt: Find it"},
		{`{"type":"user","isSidechain":true,"message":{"content":"<command-name>/x</command-name>"}}`, uNotice, "/x"},
	} {
		h := parseHeader(c.line)
		if kind, text := classifyUser(&h); kind != c.kind || text != c.text {
			t.Errorf("%s: %d %q, want %d %q", c.line, kind, text, c.kind, c.text)
		}
	}
}

func TestParseHeader(t *testing.T) {
	h := parseHeader(`{"parentUuid":null,"logicalParentUuid":"L","type":"system","subtype":"compact_boundary","uuid":"U","isSidechain":false,"timestamp":"2025-01-02T03:04:05.678Z","cwd":"/a\/b","version":"2.0.1","gitBranch":"main","sessionId":"S","x":{"uuid":"nested"}}`)
	if h.typ != tSystem || h.subtype != "compact_boundary" || h.uuid != "U" || h.parent != "L" || h.cwd != "/a/b" ||
		h.version != "2.0.1" || h.gitBranch != "main" || h.sessionID != "S" || !h.hasTS || h.flags != 0 {
		t.Errorf("%+v", h)
	}
	h = parseHeader(`{"type":"user","uuid":"U","parentUuid":"P","logicalParentUuid":"L","turnPosition":{"turnIndex":7},"timestamp":"bad"}`)
	if h.parent != "P" || h.turnIndex != 7 || h.flags != fTurnPosition || h.hasTS {
		t.Errorf("%+v", h)
	}
}
