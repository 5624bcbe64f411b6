package sessions

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"time"
	"unsafe"

	"github.com/latch-app/latch/core/stream"
	"github.com/tidwall/gjson"
)

// chunkSize is what the line scanner reads at a time. A line that does not
// fit is gathered in a second buffer that grows to the longest line, so no
// line is capped and the file is never held whole.
const chunkSize = 64 << 10

// lineScanner reads the lines of r up to size, the file's size when the
// read began: what is appended later is not read, and a last line cut by
// that limit reads as a torn line.
type lineScanner struct {
	r    io.ReaderAt
	size int64

	buf        []byte
	start, end int   // unread data is buf[start:end]
	pos        int64 // file offset of buf[end]
	long       []byte
	err        error
}

func newLineScanner(r io.ReaderAt, size int64) *lineScanner {
	return &lineScanner{r: r, size: size, buf: make([]byte, chunkSize)}
}

// next returns the next line without its "\n" or "\r\n", the offset of its
// first byte and its length (the bytes to read it again with ReadAt). The
// slice is valid until the next call. At the end it returns io.EOF.
func (s *lineScanner) next() (line []byte, off int64, n int, err error) {
	s.long = s.long[:0]
	off = s.pos - int64(s.end-s.start)
	for {
		if i := bytes.IndexByte(s.buf[s.start:s.end], '\n'); i >= 0 {
			part := s.buf[s.start : s.start+i]
			s.start += i + 1
			if len(s.long) > 0 {
				s.long = append(s.long, part...)
				part = s.long
			}
			return trimCR(part), off, len(part), nil
		}
		if s.err != nil {
			part := s.buf[s.start:s.end]
			s.start = s.end
			if len(s.long) > 0 {
				s.long = append(s.long, part...)
				part = s.long
			}
			if len(part) == 0 {
				return nil, 0, 0, s.err
			}
			return trimCR(part), off, len(part), nil
		}
		// No '\n' in what is buffered: keep it and read on.
		if s.end == len(s.buf) {
			if s.start > 0 {
				s.end = copy(s.buf, s.buf[s.start:s.end])
				s.start = 0
			} else { // one line fills the buffer: gather it in long
				s.long = append(s.long, s.buf...)
				s.start, s.end = 0, 0
			}
		}
		s.fill()
	}
}

func (s *lineScanner) fill() {
	want := int64(len(s.buf) - s.end)
	if rest := s.size - s.pos; rest < want {
		want = rest
	}
	if want <= 0 {
		s.err = io.EOF
		return
	}
	m, err := s.r.ReadAt(s.buf[s.end:s.end+int(want)], s.pos)
	s.end += m
	s.pos += int64(m)
	if err != nil && !(errors.Is(err, io.EOF) && m > 0) {
		s.err = err
	}
}

func trimCR(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\r' {
		return b[:n-1]
	}
	return b
}

// view is b as a string without a copy, for reading only while b is
// unchanged; whatever is kept from it is cloned.
func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// Line types and flags, from a line's top-level members.
const (
	tOther = iota
	tUser
	tAssistant
	tSystem
	tAttachment
	tSummary
)

const (
	fSidechain = 1 << iota
	fMeta
	fCompactSummary
	fTurnPosition // a user line with turnPosition (CLI 2.1.x)
)

// header is what the first pass keeps of a line's top-level members. The
// strings are views into the line, to be cloned if kept.
type header struct {
	typ                   int
	typName               string
	subtype               string
	uuid, parent, logical string
	flags                 int
	ts                    int64 // unix nanoseconds, 0 when none
	sessionID, cwd        string
	version, gitBranch    string
	summary               string // a summary line's text
	message               string // raw JSON
	turnIndex             int
	hasTS                 bool
}

// parseHeader reads the top-level members of one line, a valid JSON object.
// Big members (message, toolUseResult) are skipped over, not decoded.
func parseHeader(s string) header {
	var h header
	stream.EachMember(s, func(key, raw string) {
		switch key {
		case "type":
			h.typName = unquote(raw)
			switch h.typName {
			case "user":
				h.typ = tUser
			case "assistant":
				h.typ = tAssistant
			case "system":
				h.typ = tSystem
			case "attachment":
				h.typ = tAttachment
			case "summary":
				h.typ = tSummary
			}
		case "subtype":
			h.subtype = unquote(raw)
		case "uuid":
			h.uuid = unquote(raw)
		case "parentUuid":
			h.parent = unquote(raw)
		case "logicalParentUuid":
			h.logical = unquote(raw)
		case "isSidechain":
			if raw == "true" {
				h.flags |= fSidechain
			}
		case "isMeta":
			if raw == "true" {
				h.flags |= fMeta
			}
		case "isCompactSummary":
			if raw == "true" {
				h.flags |= fCompactSummary
			}
		case "turnPosition":
			if ti := gjson.Get(raw, "turnIndex"); ti.Type == gjson.Number {
				h.flags |= fTurnPosition
				h.turnIndex = int(ti.Int())
			}
		case "timestamp":
			if t, err := time.Parse(time.RFC3339Nano, unquote(raw)); err == nil {
				h.ts, h.hasTS = t.UnixNano(), true
			}
		case "sessionId":
			h.sessionID = unquote(raw)
		case "cwd":
			h.cwd = unquote(raw)
		case "version":
			h.version = unquote(raw)
		case "gitBranch":
			h.gitBranch = unquote(raw)
		case "summary":
			h.summary = unquote(raw)
		case "message":
			h.message = raw
		}
	})
	if h.parent == "" {
		h.parent = h.logical // compact_boundary: the chain goes on through logicalParentUuid
	}
	return h
}

// unquote is the string a JSON value holds, "" for anything else. Without
// escapes it is a substring of raw.
func unquote(raw string) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	if s := raw[1 : len(raw)-1]; strings.IndexByte(s, '\\') < 0 {
		return s
	}
	return gjson.Parse(raw).Str
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}
