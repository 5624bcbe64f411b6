package stream

import (
	"bufio"
	"errors"
	"io"
	"runtime"
	"runtime/metrics"
	"strings"
)

// readerBufSize is the bufio buffer: lines up to this size cost one copy;
// longer ones are gathered in fragments, so a line is never capped.
const readerBufSize = 64 << 10

// collectLine is the length from which a line's garbage is collected at
// once (see collectAfter).
const collectLine = 8 << 20

// collectAfter runs a collection after n bytes of a line became garbage,
// when n is at least collectLine and a quarter of the heap live at the last
// collection. Left to the collector's pacing, garbage that big stays until
// the heap doubles; a collection costs time in proportion to the live heap,
// which such a line pays for. Lines this long are rare.
func collectAfter(n int) {
	if n < collectLine {
		return
	}
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	if uint64(n) >= live[0].Value.Uint64()/4 {
		runtime.GC()
	}
}

// lineReader splits a stream into '\n'-terminated lines of any length.
// A long line costs about twice its size while it is read (fragments plus
// the final string), never a fixed cap like bufio.Scanner.
type lineReader struct {
	br    *bufio.Reader
	frags [][]byte
}

// newLineReader reads lines from r.
func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, readerBufSize)}
}

// ReadLine returns the next line without its "\n" (or "\r\n"). A final line
// without '\n' is still returned; io.EOF comes after it. Other read errors
// are returned as they are.
func (l *lineReader) readLine() (string, error) {
	b, err := l.br.ReadSlice('\n')
	if err == nil {
		return string(trimEOL(b)), nil
	}
	if errors.Is(err, bufio.ErrBufferFull) {
		return l.readLong(b)
	}
	if len(b) > 0 && err == io.EOF {
		return string(trimEOL(b)), nil
	}
	return "", err
}

// readLong gathers a line that does not fit the bufio buffer. first is a
// view into that buffer and must be copied before the next read.
func (l *lineReader) readLong(first []byte) (string, error) {
	l.frags = append(l.frags[:0], append([]byte(nil), first...))
	total := len(first)
	var last []byte
	var rerr error
	for {
		b, err := l.br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			l.frags = append(l.frags, append([]byte(nil), b...))
			total += len(b)
			continue
		}
		last, rerr = b, err
		total += len(b)
		break
	}
	var sb strings.Builder
	sb.Grow(total)
	for _, f := range l.frags {
		sb.Write(f)
	}
	sb.Write(last)
	clear(l.frags) // let the fragments go before the caller parses the line
	l.frags = l.frags[:0]
	s := sb.String()
	// The fragments are garbage now, but nothing would collect them before
	// the caller makes the line's text, as big again: the line would cost
	// three times its size at once instead of two.
	collectAfter(total)
	if rerr != nil && rerr != io.EOF {
		return "", rerr
	}
	// At EOF the gathered bytes are the unterminated final line.
	return trimEOLString(s), nil
}

func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
		if n := len(b); n > 0 && b[n-1] == '\r' {
			b = b[:n-1]
		}
	}
	return b
}

func trimEOLString(s string) string {
	if t, ok := strings.CutSuffix(s, "\n"); ok {
		return strings.TrimSuffix(t, "\r")
	}
	return s
}
