package grants

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// SyntaxError reports a settings or config file that Latch refuses to edit;
// its message starts with file:line:column, a place an editor can jump to.
type SyntaxError struct {
	file   string
	line   int // 1-based
	column int // 1-based, in characters
	msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.file, e.line, e.column, e.msg)
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
	if pos, msg := scanJSON(body); msg != "" {
		return syntaxErrorAt(file, data, skip+pos, msg)
	}
	start := skip + len(body) - len(bytes.TrimLeft(body, " \t\r\n"))
	if data[start] != '{' {
		return syntaxErrorAt(file, data, start, "the top level is not a JSON object")
	}
	return nil
}

// scanJSON validates one JSON value and returns where and why it is not
// one; msg is "" for valid JSON. It accepts what encoding/json accepts, with
// its messages and positions, but keeps open arrays and objects on a heap
// stack: encoding/json calls valid JSON nested deeper than 10,000 levels a
// syntax error, and a recursive checker could exhaust the goroutine stack,
// while Claude Code's JSON.parse reads any depth.
func scanJSON(b []byte) (pos int, msg string) {
	s := scanner{b: b}
	if e := s.document(); e != nil {
		if e.ctx == "" {
			return len(b), "unexpected end of JSON input"
		}
		// encoding/json reports a token cut off by the end of the input
		// as a space after it, at the last byte.
		return min(e.pos, len(b)-1), "invalid character " + quoteChar(s.at(e.pos)) + " " + e.ctx
	}
	return 0, ""
}

// scanError is the byte at pos and what was expected there; an empty ctx
// means the input ended between tokens.
type scanError struct {
	pos int
	ctx string
}

type scanner struct {
	b []byte
	i int
}

// at is the byte at j; past the end it is a space, which ends a number and
// breaks a literal or an escape, as in encoding/json.
func (s *scanner) at(j int) byte {
	if j < len(s.b) {
		return s.b[j]
	}
	return ' '
}

func (s *scanner) fail(j int, ctx string) *scanError {
	if j >= len(s.b) && ctx == "" {
		return &scanError{pos: len(s.b)}
	}
	return &scanError{pos: j, ctx: ctx}
}

func (s *scanner) skipSpace() {
	for s.i < len(s.b) && isSpace(s.b[s.i]) {
		s.i++
	}
}

func (s *scanner) document() *scanError {
	var open []byte // '{' or '[' for each container around s.i
	for {
		if e := s.value(&open); e != nil {
			return e
		}
		// A value ended: close containers until one continues.
		for {
			s.skipSpace()
			if len(open) == 0 {
				if s.i < len(s.b) {
					return s.fail(s.i, "after top-level value")
				}
				return nil
			}
			if s.i >= len(s.b) {
				return s.fail(s.i, "")
			}
			top := open[len(open)-1]
			if c := s.b[s.i]; c == top+2 { // '}' and ']' are two after '{' and '['
				s.i++
				open = open[:len(open)-1]
				continue
			} else if c != ',' {
				if top == '{' {
					return s.fail(s.i, "after object key:value pair")
				}
				return s.fail(s.i, "after array element")
			}
			s.i++
			if top == '{' {
				if e := s.key(); e != nil {
					return e
				}
			}
			break
		}
	}
}

// value reads a scalar or an empty container, or opens a container and
// reads up to its first value.
func (s *scanner) value(open *[]byte) *scanError {
	for {
		s.skipSpace()
		if s.i >= len(s.b) {
			return s.fail(s.i, "")
		}
		switch c := s.b[s.i]; {
		case c == '{' || c == '[':
			s.i++
			s.skipSpace()
			if s.i < len(s.b) && s.b[s.i] == c+2 {
				s.i++
				return nil
			}
			*open = append(*open, c)
			if c == '{' {
				if e := s.key(); e != nil {
					return e
				}
			}
			continue // the first element
		case c == '"':
			return s.str()
		case c == '-' || '0' <= c && c <= '9':
			return s.number()
		case c == 't' || c == 'f' || c == 'n':
			word := "null"
			if c == 't' {
				word = "true"
			} else if c == 'f' {
				word = "false"
			}
			for k := 1; k < len(word); k++ {
				if s.at(s.i+k) != word[k] {
					return s.fail(s.i+k, "in literal "+word+" (expecting "+quoteChar(word[k])+")")
				}
			}
			s.i += len(word)
			return nil
		default:
			return s.fail(s.i, "looking for beginning of value")
		}
	}
}

// key reads `"key" :`, leaving s.i at the value.
func (s *scanner) key() *scanError {
	s.skipSpace()
	if s.i >= len(s.b) {
		return s.fail(s.i, "")
	}
	if s.b[s.i] != '"' {
		return s.fail(s.i, "looking for beginning of object key string")
	}
	if e := s.str(); e != nil {
		return e
	}
	s.skipSpace()
	if s.i >= len(s.b) {
		return s.fail(s.i, "")
	}
	if s.b[s.i] != ':' {
		return s.fail(s.i, "after object key")
	}
	s.i++
	return nil
}

func (s *scanner) str() *scanError {
	for j := s.i + 1; j < len(s.b); j++ {
		switch c := s.b[j]; {
		case c == '"':
			s.i = j + 1
			return nil
		case c < 0x20:
			return s.fail(j, "in string literal")
		case c == '\\':
			j++
			switch s.at(j) {
			case 'b', 'f', 'n', 'r', 't', '\\', '/', '"':
			case 'u':
				for k := 1; k <= 4; k++ {
					if !isHex(s.at(j + k)) {
						return s.fail(j+k, `in \u hexadecimal character escape`)
					}
				}
				j += 4
			default:
				return s.fail(j, "in string escape code")
			}
		}
	}
	return s.fail(len(s.b), "")
}

func (s *scanner) number() *scanError {
	j := s.i
	digits := func() {
		for '0' <= s.at(j) && s.at(j) <= '9' {
			j++
		}
	}
	if s.at(j) == '-' {
		j++
	}
	switch c := s.at(j); {
	case c == '0':
		j++
	case '1' <= c && c <= '9':
		digits()
	default:
		return s.fail(j, "in numeric literal")
	}
	if s.at(j) == '.' {
		j++
		if c := s.at(j); c < '0' || c > '9' {
			return s.fail(j, "after decimal point in numeric literal")
		}
		digits()
	}
	if c := s.at(j); c == 'e' || c == 'E' {
		j++
		if c := s.at(j); c == '+' || c == '-' {
			j++
		}
		if c := s.at(j); c < '0' || c > '9' {
			return s.fail(j, "in exponent of numeric literal")
		}
		digits()
	}
	s.i = j
	return nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// quoteChar formats c the way encoding/json's messages do.
func quoteChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}

// syntaxErrorAt converts a byte offset into a line and column.
func syntaxErrorAt(file string, data []byte, pos int, msg string) *SyntaxError {
	pos = min(max(pos, 0), len(data))
	before := data[:pos]
	line := bytes.Count(before, []byte("\n")) + 1
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	col := utf8.RuneCount(before[lineStart:]) + 1
	return &SyntaxError{file: file, line: line, column: col, msg: msg}
}
