package stream

import (
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
)

func readAll(t testing.TB, r io.Reader) []string {
	t.Helper()
	lr := NewLineReader(r)
	var out []string
	for {
		s, err := lr.ReadLine()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
}

func TestLineReader(t *testing.T) {
	long := strings.Repeat("x", 3*readerBufSize+17)
	cases := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"one", "a\n", []string{"a"}},
		{"no final newline", "a\nb", []string{"a", "b"}},
		{"crlf", "a\r\nb\r\n", []string{"a", "b"}},
		{"lone cr kept without newline", "a\r", []string{"a\r"}},
		{"blank lines", "\n\na\n", []string{"", "", "a"}},
		{"long", "a\n" + long + "\nb\n", []string{"a", long, "b"}},
		{"long final without newline", long, []string{long}},
		{"long crlf", long + "\r\n", []string{long}},
		{"exactly the buffer", strings.Repeat("y", readerBufSize-1) + "\n", []string{strings.Repeat("y", readerBufSize-1)}},
		{"buffer plus newline", strings.Repeat("y", readerBufSize) + "\n", []string{strings.Repeat("y", readerBufSize)}},
	}
	for _, c := range cases {
		for _, slow := range []bool{false, true} {
			var r io.Reader = strings.NewReader(c.in)
			if slow {
				r = iotest.OneByteReader(r) // short reads must not split lines
			}
			got := readAll(t, r)
			if strings.Join(got, "|") != strings.Join(c.want, "|") || len(got) != len(c.want) {
				t.Errorf("%s (slow=%v): got %d lines, want %d", c.name, slow, len(got), len(c.want))
			}
		}
	}
}

func TestLineReaderError(t *testing.T) {
	lr := NewLineReader(iotest.TimeoutReader(strings.NewReader(strings.Repeat("z", readerBufSize*2))))
	if _, err := lr.ReadLine(); err != iotest.ErrTimeout {
		t.Errorf("err = %v, want timeout", err)
	}
}

// genReader produces one huge assistant line and a result line without
// holding them in memory, so the measured memory is the decoder's.
type genReader struct {
	parts  [][]byte
	repeat int // times parts[1] is sent
	i, n   int
	off    int
}

func (g *genReader) Read(p []byte) (int, error) {
	for g.i < len(g.parts) {
		part := g.parts[g.i]
		if g.off < len(part) {
			n := copy(p, part[g.off:])
			g.off += n
			return n, nil
		}
		g.off = 0
		if g.i == 1 && g.n+1 < g.repeat {
			g.n++
			continue
		}
		g.i++
	}
	return 0, io.EOF
}

// A 64 MB line parses, and the process's memory stays under 10x the line.
func TestHugeLineMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("64 MB line")
	}
	chunk := []byte(strings.Repeat("y", 78) + `\n`) // 80 bytes: text with escapes
	const lineSize = 64 << 20
	repeat := lineSize / len(chunk)
	g := &genReader{parts: [][]byte{
		[]byte(`{"type":"assistant","message":{"id":"m","content":[{"type":"text","text":"`),
		chunk,
		[]byte(`"}]},"session_id":"s"}` + "\n" + `{"type":"result","subtype":"success","is_error":false,"session_id":"s"}` + "\n"),
	}, repeat: repeat}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	d := NewDecoder(g, Options{})
	var text int
	var line int
	for {
		ev, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind == KindResult {
			text = len(ev.Result.Turn.Text)
		}
		if ev.Kind == KindAssistant {
			line = ev.Line
		}
	}
	runtime.ReadMemStats(&after)
	if want := repeat * 79; text != want || line != 1 || d.MalformedLines() != 0 {
		t.Fatalf("text %d (want %d), line %d, malformed %d", text, want, line, d.MalformedLines())
	}
	grew := after.Sys - before.Sys
	t.Logf("64 MB line: Sys grew %d MB (%.1fx the line), TotalAlloc %d MB",
		grew>>20, float64(grew)/lineSize, (after.TotalAlloc-before.TotalAlloc)>>20)
	if grew > 10*lineSize {
		t.Errorf("memory grew %d MB, over 10x the %d MB line", grew>>20, lineSize>>20)
	}
}

func TestTrimEOL(t *testing.T) {
	for in, want := range map[string]string{"a\n": "a", "a\r\n": "a", "a": "a", "a\r": "a\r", "\n": ""} {
		if got := string(trimEOL([]byte(in))); got != want {
			t.Errorf("trimEOL(%q) = %q", in, got)
		}
		if got := trimEOLString(in); got != want {
			t.Errorf("trimEOLString(%q) = %q", in, got)
		}
	}
}
