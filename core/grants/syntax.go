package grants

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// SyntaxError reports a settings or config file that Latch refuses to edit,
// with the position an editor can jump to.
type SyntaxError struct {
	File   string
	Line   int // 1-based
	Column int // 1-based, in characters
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg)
}

var utf8BOM = []byte("\xef\xbb\xbf")

// blank reports a file with nothing but whitespace (or a BOM) in it, which
// Latch treats like a missing file.
func blank(data []byte) bool {
	return len(bytes.TrimSpace(bytes.TrimPrefix(data, utf8BOM))) == 0
}

// checkObject returns a *SyntaxError unless data is one valid JSON object.
// A leading UTF-8 BOM is allowed (and kept by edits).
func checkObject(file string, data []byte) error {
	body := bytes.TrimPrefix(data, utf8BOM)
	skip := len(data) - len(body)
	var raw json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		var se *json.SyntaxError
		if !errors.As(err, &se) {
			return &SyntaxError{File: file, Line: 1, Column: 1, Msg: err.Error()}
		}
		pos := int(se.Offset)
		if !strings.HasPrefix(se.Error(), "unexpected end") && pos > 0 {
			pos-- // Offset counts the offending byte itself
		}
		return syntaxErrorAt(file, data, skip+pos, se.Error())
	}
	start := skip + len(body) - len(bytes.TrimLeft(body, " \t\r\n"))
	if data[start] != '{' {
		return syntaxErrorAt(file, data, start, "the top level is not a JSON object")
	}
	return nil
}

// syntaxErrorAt converts a byte offset into a line and column.
func syntaxErrorAt(file string, data []byte, pos int, msg string) *SyntaxError {
	pos = min(max(pos, 0), len(data))
	before := data[:pos]
	line := bytes.Count(before, []byte("\n")) + 1
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	col := utf8.RuneCount(before[lineStart:]) + 1
	return &SyntaxError{File: file, Line: line, Column: col, Msg: msg}
}
