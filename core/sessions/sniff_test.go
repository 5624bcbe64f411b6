package sessions

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

func TestSniff(t *testing.T) {
	streamFile, err := os.ReadFile(filepath.Join("..", "stream", "testdata", "fixtures", "live-deny", "stdout.ndjson"))
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(streamFile)
	zw.Close()
	// A stream whose first line is longer than what Sniff reads.
	hugeFirst := `{"type":"assistant","message":{"content":[{"type":"text","text":"` + strings.Repeat("x", 2<<20) + `"}]},"session_id":"s"}` + "\n"
	hugeSession := `{"parentUuid":null,"type":"user","message":{"content":"` + strings.Repeat("x", 2<<20) + `"},"uuid":"u","sessionId":"s"}` + "\n"
	cases := []struct {
		name string
		data string
		want Format
		desc string
	}{
		{"session 2.1", string(fixture(t, "cli-2.1.328/live-three-turns.jsonl")), FormatSession, ""},
		{"session 1.0, summary first", string(fixture(t, "v1.0-summary-meta-sidechain.jsonl")), FormatSession, ""},
		{"session 2.0, snapshot first", string(fixture(t, "v2.0-compact.jsonl")), FormatSession, ""},
		{"session, user line first", string(fixture(t, "v1.0-branch-edit.jsonl")), FormatSession, ""},
		{"session, huge first line", hugeSession, FormatSession, ""},
		{"stream", string(streamFile), FormatStream, ""},
		{"stream with CRLF and a BOM", "\ufeff" + strings.ReplaceAll(string(streamFile), "\n", "\r\n"), FormatStream, ""},
		{"stream, huge first line", hugeFirst, FormatStream, ""},
		{"stream after junk", "not json\n\n" + `{"type":"result","subtype":"success"}`, FormatStream, ""},
		{"bare result", `{"type":"result"}`, FormatStream, ""},
		{"JSON array", "[\n  " + strings.Join(strings.Split(strings.TrimSpace(string(streamFile)), "\n"), ",\n  ") + "\n]\n", FormatJSONArray, ""},
		{"empty", "", FormatUnknown, "empty file"},
		{"blank", " \n\r\n\t", FormatUnknown, "empty file"},
		{"no type", `{"a":1}` + "\n" + `{"b":2}`, FormatUnknown, "a JSON object without a type field"},
		{"unknown type", `{"type":"zebra"}`, FormatUnknown, `JSON objects of an unknown type "zebra"`},
		{"text", "hello world\nsecond line", FormatUnknown, `not JSON: starts with "hello world"`},
		{"long text", strings.Repeat("é", 100), FormatUnknown, `not JSON: starts with "` + strings.Repeat("é", 40) + `"…`},
		{"broken JSON", `{"type":"result",`, FormatUnknown, `not JSON: starts with "{\"type\":\"result\","`},
		{"escape in text", "\x1b[31mred", FormatUnknown, `not JSON: starts with "\x1b[31mred"`},
		{"binary", "\x00\x01\x02ELF", FormatUnknown, "binary data"},
		{"gzip", gz.String(), FormatUnknown, "binary data"},
		{"invalid UTF-8", "abc\xff\xfedef", FormatUnknown, "binary data"},
		{"empty array", "[]", FormatUnknown, "an empty JSON array"},
		{"array of numbers", "[1,2]", FormatUnknown, `a JSON array of "1,2]"`},
		{"array of session lines", `[{"type":"summary","summary":"x","leafUuid":"u"}]`, FormatUnknown, "a JSON array of session file lines"},
		{"array without types", `[{"a":1}]`, FormatUnknown, "a JSON array of objects without a type field"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, desc, err := Sniff(strings.NewReader(c.data))
			if err != nil || f != c.want || desc != c.desc {
				t.Errorf("got %v %q %v, want %v %q", f, desc, err, c.want, c.desc)
			}
			// One byte at a time reads the same.
			if f2, desc2, _ := Sniff(iotest.OneByteReader(strings.NewReader(c.data))); f2 != f || desc2 != desc {
				t.Errorf("one byte at a time: %v %q", f2, desc2)
			}
		})
	}
	boom := errors.New("boom")
	if _, _, err := Sniff(iotest.ErrReader(boom)); err != boom {
		t.Errorf("reader error: %v", err)
	}
}
