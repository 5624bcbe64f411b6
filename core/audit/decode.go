package audit

import (
	"bytes"
	"encoding/binary"
	"unicode/utf16"
	"unicode/utf8"
)

// decoder is a fast path for the lines Log writes: a flat object of
// Entry's exact keys with string, string-array and time values. Anything
// else (an unknown or differently cased key, null, a number, a lone
// surrogate, invalid UTF-8, bad JSON) makes it give up, and the caller
// falls back to encoding/json, so what it accepts it decodes exactly as
// encoding/json would. About four times faster, with far fewer allocations.
type decoder struct {
	b   []byte
	i   int
	buf []byte // unescaped string
	in  *interner
}

func (d *decoder) entry(line []byte, e *Entry, in *interner) bool {
	d.b, d.i, d.in = line, 0, in
	if !d.skip('{') {
		return false
	}
	d.ws()
	if d.i < len(d.b) && d.b[d.i] == '}' {
		d.i++
		return d.end()
	}
	for {
		key, ok := d.rawKey()
		if !ok || !d.skip(':') {
			return false
		}
		d.ws()
		switch string(key) {
		case "time":
			start := d.i
			if _, ok := d.str(); !ok || e.Time.UnmarshalJSON(d.b[start:d.i]) != nil {
				return false
			}
		case "kind":
			ok = d.field(&e.Kind, 1)
		case "session":
			ok = d.field(&e.Session, 2)
		case "folder":
			ok = d.field(&e.Folder, 3)
		case "tool":
			ok = d.field(&e.Tool, 4)
		case "tool_use_id":
			ok = d.field(&e.ToolUseID, -1)
		case "input":
			ok = d.field(&e.Input, -1)
		case "path":
			ok = d.field(&e.Path, 5)
		case "decision":
			ok = d.field(&e.Decision, 6)
		case "scope":
			ok = d.field(&e.Scope, 7)
		case "message":
			ok = d.field(&e.Message, 8)
		case "class":
			ok = d.field(&e.Class, 9)
		case "decider":
			ok = d.field(&e.Decider, 10)
		case "rule":
			ok = d.field(&e.Rule, 11)
		case "source":
			ok = d.field(&e.Source, 12)
		case "file":
			ok = d.field(&e.File, 13)
		case "mode":
			ok = d.field(&e.Mode, 14)
		case "rules":
			e.Rules, ok = d.strs()
		case "folders":
			e.Folders, ok = d.strs()
		default:
			return false
		}
		if !ok {
			return false
		}
		d.ws()
		if d.i >= len(d.b) {
			return false
		}
		switch d.b[d.i] {
		case ',':
			d.i++
			d.ws()
		case '}':
			d.i++
			return d.end()
		default:
			return false
		}
	}
}

// end reports whether only white space follows.
func (d *decoder) end() bool {
	d.ws()
	return d.i == len(d.b)
}

func (d *decoder) ws() {
	for d.i < len(d.b) {
		switch d.b[d.i] {
		case ' ', '\t', '\r', '\n':
			d.i++
		default:
			return
		}
	}
}

// skip consumes white space and then c.
func (d *decoder) skip(c byte) bool {
	d.ws()
	if d.i < len(d.b) && d.b[d.i] == c {
		d.i++
		return true
	}
	return false
}

// rawKey reads a key with no escapes, as Log writes every key.
func (d *decoder) rawKey() ([]byte, bool) {
	if d.i >= len(d.b) || d.b[d.i] != '"' {
		return nil, false
	}
	start := d.i + 1
	for j := start; j < len(d.b); j++ {
		switch c := d.b[j]; {
		case c == '"':
			d.i = j + 1
			return d.b[start:j], true
		case c == '\\' || c < 0x20:
			return nil, false
		}
	}
	return nil, false
}

// field reads a string into dst, shared through the interner's slot, or
// copied when slot is -1: for values unique to their line.
func (d *decoder) field(dst *string, slot int) bool {
	s, ok := d.str()
	if !ok {
		return false
	}
	if slot < 0 {
		*dst = string(s)
	} else {
		*dst = d.in.get(s, slot)
	}
	return true
}

func (d *decoder) strs() ([]string, bool) {
	if !d.skip('[') {
		return nil, false
	}
	// Like encoding/json, [] gives an empty slice, not nil.
	ss := []string{}
	d.ws()
	if d.i < len(d.b) && d.b[d.i] == ']' {
		d.i++
		return ss, true
	}
	for {
		d.ws()
		s, ok := d.str()
		if !ok {
			return nil, false
		}
		ss = append(ss, d.in.get(s, 0))
		d.ws()
		if d.i >= len(d.b) {
			return nil, false
		}
		switch d.b[d.i] {
		case ',':
			d.i++
		case ']':
			d.i++
			return ss, true
		default:
			return nil, false
		}
	}
}

// str reads a JSON string and returns its bytes, unescaped; they are valid
// only until the next call.
func (d *decoder) str() ([]byte, bool) {
	if d.i >= len(d.b) || d.b[d.i] != '"' {
		return nil, false
	}
	start := d.i + 1
	// Most strings have no escape: find the quote with IndexByte and vet
	// the bytes before it eight at a time.
	j := len(d.b)
	if k := bytes.IndexByte(d.b[start:], '"'); k >= 0 {
		j = start + k
	}
	if k := bytes.IndexByte(d.b[start:j], '\\'); k >= 0 {
		j = start + k
	} else if j < len(d.b) {
		s := d.b[start:j]
		if !plain(s) {
			return nil, false
		}
		d.i = j + 1
		return s, true
	}
	if !plain(d.b[start:j]) {
		return nil, false
	}
	d.buf = append(d.buf[:0], d.b[start:j]...)
	for j < len(d.b) {
		c := d.b[j]
		switch {
		case c == '"':
			d.i = j + 1
			return d.buf, true
		case c < 0x20:
			return nil, false
		case c == '\\':
			if j+1 >= len(d.b) {
				return nil, false
			}
			j += 2
			switch d.b[j-1] {
			case '"', '\\', '/':
				d.buf = append(d.buf, d.b[j-1])
			case 'b':
				d.buf = append(d.buf, '\b')
			case 'f':
				d.buf = append(d.buf, '\f')
			case 'n':
				d.buf = append(d.buf, '\n')
			case 'r':
				d.buf = append(d.buf, '\r')
			case 't':
				d.buf = append(d.buf, '\t')
			case 'u':
				r, ok := hex4(d.b, j)
				if !ok {
					return nil, false
				}
				j += 4
				if utf16.IsSurrogate(r) {
					// Only a proper pair; a lone half is encoding/json's to replace.
					if j+6 > len(d.b) || d.b[j] != '\\' || d.b[j+1] != 'u' {
						return nil, false
					}
					r2, ok := hex4(d.b, j+2)
					if !ok {
						return nil, false
					}
					if r = utf16.DecodeRune(r, r2); r == utf8.RuneError {
						return nil, false
					}
					j += 6
				}
				d.buf = utf8.AppendRune(d.buf, r)
			default:
				return nil, false
			}
		case c < utf8.RuneSelf:
			d.buf = append(d.buf, c)
			j++
		default:
			r, n := utf8.DecodeRune(d.b[j:])
			if r == utf8.RuneError && n == 1 {
				return nil, false
			}
			d.buf = append(d.buf, d.b[j:j+n]...)
			j += n
		}
	}
	return nil, false
}

// plain reports whether s has no control character and is valid UTF-8,
// testing eight bytes at a time for the usual all-ASCII case.
func plain(s []byte) bool {
	const hi, ctl = 0x8080808080808080, 0x2020202020202020
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := binary.LittleEndian.Uint64(s[i:])
		// A byte of 0x80 or more has its top bit set; one under 0x20 sets
		// it in w-ctl (a borrow may flag a neighbour too: then check slowly).
		if (w|(w-ctl))&hi != 0 {
			return plainSlow(s[i:])
		}
	}
	return plainSlow(s[i:])
}

func plainSlow(s []byte) bool {
	ascii := true
	for _, c := range s {
		if c < 0x20 {
			return false
		}
		if c >= utf8.RuneSelf {
			ascii = false
		}
	}
	return ascii || utf8.Valid(s)
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// interner shares the strings that repeat from line to line (kinds,
// folders, tools, sessions, rules), so 100k entries do not hold 100k
// copies of each. It stops growing at a bound, after which it only finds.
type interner struct {
	m    map[string]string
	last [16]string // by slot: a field's value on the previous line, which it often repeats
}

const internMax = 8192

func newInterner() *interner { return &interner{m: make(map[string]string, 256)} }

func (in *interner) get(b []byte, slot int) string {
	if len(b) == 0 {
		return ""
	}
	if string(b) == in.last[slot] {
		return in.last[slot]
	}
	s := in.lookup(b)
	in.last[slot] = s
	return s
}

func (in *interner) lookup(b []byte) string {
	if s, ok := in.m[string(b)]; ok { // no allocation: the compiler knows
		return s
	}
	s := string(b)
	if len(in.m) < internMax && len(b) <= 512 {
		in.m[s] = s
	}
	return s
}
