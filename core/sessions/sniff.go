package sessions

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/latch-app/latch/core/stream"
	"github.com/tidwall/gjson"
)

// Format is what a transcript file holds.
type Format int

const (
	FormatUnknown   Format = iota // neither of the others; Sniff says what it looks like
	FormatSession                 // a Claude Code session file (~/.claude/projects/…/<id>.jsonl)
	FormatStream                  // stream-json NDJSON, as `claude -p --output-format stream-json` prints
	FormatJSONArray               // a JSON array of stream-json events, as some tools save a stream
)

// sniffMax is how much of a file Sniff reads at most.
const sniffMax = 1 << 20

// sniffLines is how many non-empty lines Sniff looks at at most.
const sniffLines = 64

// Sniff says what a file holds, from its first non-empty lines (at most
// 1 MB of it is read): FormatSession (a Claude Code session file),
// FormatStream (stream-json NDJSON), FormatJSONArray (a JSON array of
// stream-json events), or FormatUnknown, for which the string says in
// words what it looks like ("empty file", "a JSON object without a type
// field", "not JSON: starts with …", "binary data"). A line that is not
// JSON before a line that decides is passed over, as a reader of the
// stream would skip it. The error is r's.
func Sniff(r io.Reader) (Format, string, error) {
	b, err := io.ReadAll(io.LimitReader(r, sniffMax))
	if err != nil {
		return FormatUnknown, "", err
	}
	f, desc := sniff(b, len(b) < sniffMax)
	return f, desc, nil
}

// sniff reads b, the beginning of a file (all of it when complete).
func sniff(b []byte, complete bool) (Format, string) {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	t := bytes.TrimLeft(b, " \t\r\n")
	if len(t) == 0 {
		return FormatUnknown, "empty file"
	}
	if binary(t, complete) {
		return FormatUnknown, "binary data"
	}
	if t[0] == '[' {
		return sniffArray(t)
	}
	first := ""
	for n := 0; len(t) > 0 && n < sniffLines; {
		i := bytes.IndexByte(t, '\n')
		line, cut := t, !complete
		if i >= 0 {
			line, t, cut = t[:i], t[i+1:], false
		} else {
			t = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		n++
		f, desc := sniffLine(view(line), cut)
		if f != FormatUnknown {
			return f, ""
		}
		if first == "" {
			first = desc
		}
	}
	return FormatUnknown, first
}

// sniffLine says what one line is; cut says it may be cut by the read
// limit, so it is judged by the members it shows.
func sniffLine(s string, cut bool) (Format, string) {
	if s[0] != '{' || !cut && !gjson.Valid(s) {
		return FormatUnknown, "not JSON: starts with " + start(s)
	}
	var typ string
	var hasType, camel, snake bool
	stream.EachMember(s, func(key, raw string) {
		switch key {
		case "type":
			typ, hasType = unquote(raw), true
		case "sessionId", "parentUuid", "leafUuid", "uuid":
			camel = true
		case "session_id", "parent_tool_use_id":
			snake = true
		}
	})
	switch {
	case !hasType:
		return FormatUnknown, "a JSON object without a type field"
	case sessionTypes[typ]:
		return FormatSession, ""
	case streamTypes[typ]:
		return FormatStream, ""
	case typ == "user" || typ == "assistant" || typ == "system":
		if camel && !snake {
			return FormatSession, ""
		}
		return FormatStream, ""
	case camel && !snake:
		return FormatSession, "" // 2.1.x writes many line types, all with sessionId
	}
	return FormatUnknown, "JSON objects of an unknown type " + start(typ)
}

// Line types only one of the formats has.
var (
	sessionTypes = map[string]bool{
		"summary": true, "queue-operation": true, "file-history-snapshot": true,
		"last-prompt": true, "attachment": true, "progress": true, "custom-title": true,
	}
	streamTypes = map[string]bool{
		"stream_event": true, "result": true, "control_request": true,
		"control_response": true, "control_cancel_request": true, "keep_alive": true,
	}
)

// sniffArray judges a JSON array by its first element.
func sniffArray(t []byte) (Format, string) {
	i := skipSpace(view(t), 1)
	switch {
	case i >= len(t):
		return FormatUnknown, "a JSON array"
	case t[i] == ']':
		return FormatUnknown, "an empty JSON array"
	case t[i] != '{':
		return FormatUnknown, "a JSON array of " + start(view(t[i:]))
	}
	el := view(t[i:])
	el = el[:stream.ValueEnd(el, 0)]
	f, desc := sniffLine(el, true)
	switch f {
	case FormatStream:
		return FormatJSONArray, ""
	case FormatSession:
		return FormatUnknown, "a JSON array of session file lines"
	}
	if desc == "a JSON object without a type field" {
		return FormatUnknown, "a JSON array of objects without a type field"
	}
	return FormatUnknown, "a JSON array of " + desc
}

// binary reports whether b looks like no text: a NUL byte or invalid
// UTF-8 in its first 8 KB (a rune cut by the read limit excepted).
func binary(b []byte, complete bool) bool {
	if len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b {
		return true // gzip
	}
	if len(b) > 8<<10 {
		b, complete = b[:8<<10], false
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return true
	}
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 && (complete || len(b) >= utf8.UTFMax) {
			return true
		}
		b = b[size:]
	}
	return false
}

// start is the first characters of s, quoted (escaped: untrusted text).
func start(s string) string {
	const max = 40
	n := 0
	for i := range s {
		if n == max {
			return strconv.Quote(s[:i]) + "…"
		}
		n++
	}
	return fmt.Sprintf("%q", s)
}
