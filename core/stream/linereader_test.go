package stream

import (
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/latch-app/latch/internal/heapmeter"
)

func readAll(t testing.TB, r io.Reader) []string {
	t.Helper()
	lr := newLineReader(r)
	var out []string
	for {
		s, err := lr.readLine()
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
	lr := newLineReader(iotest.TimeoutReader(strings.NewReader(strings.Repeat("z", readerBufSize*2))))
	if _, err := lr.readLine(); err != iotest.ErrTimeout {
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

// The decoder's share of the budget for one assistant line (4x its
// text at the peak, the window included): reading the line costs its size
// twice (the gathered fragments, then the line), unescaping the text once
// more, and nothing else; the fragments are collected before the text is
// made, so at most two of the three are on the heap at once. gjson
// unescaped into one buffer and copied that into a second: a fourth copy,
// and all four at the peak.
func TestHugeLineMemory(t *testing.T) {
	r, size := hugeLine(16 << 20)
	m := heapmeter.Start(0, testGOGC)
	text, line := decodeHuge(t, r)
	peak, allocated := m.Finish()
	kept := m.Retained()
	if len(text) != size || line != 1 {
		t.Fatalf("text of %d bytes on line %d, want %d on line 1", len(text), line, size)
	}
	if want := strings.Repeat(hugeTextUnescaped, size/len(hugeTextUnescaped)); text != want {
		t.Fatalf("the text differs at byte %d", firstDiff(text, want))
	}
	x := func(n uint64) float64 { return float64(n) / float64(size) }
	t.Logf("16 MB line: peak growth %.2fx, allocated %.2fx, kept with the text %.2fx", x(peak), x(allocated), x(kept))
	if x(allocated) > 3.25 {
		t.Errorf("decoding allocated %.2fx the text, over 3.25x (fragments, line, text)", x(allocated))
	}
	if x(peak) > 2.5 {
		t.Errorf("the heap grew to %.2fx the text, over 2.5x", x(peak))
	}
	if x(kept) > 1.1 {
		t.Errorf("with the text held, the heap keeps %.2fx it, over 1.1x", x(kept))
	}
	runtime.KeepAlive(text)
}

func firstDiff(a, b string) int {
	for i := 0; i < min(len(a), len(b)); i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
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
