package stream

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"testing"

	"github.com/latch-app/latch/internal/heapmeter"
)

var (
	transcriptOnce sync.Once
	transcript     []byte
)

// benchTranscript repeats every fixture's stdout until it is >= 100 MB.
func benchTranscript(b *testing.B) []byte {
	transcriptOnce.Do(func() {
		dir := fixturesDir(b)
		var names []string
		filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
			if err == nil && (e.Name() == "stdout.ndjson" || e.Name() == "stdout.ndjson.gz") {
				rel, _ := filepath.Rel(dir, filepath.Dir(p))
				names = append(names, rel)
			}
			return nil
		})
		sort.Strings(names)
		var one []byte
		for _, n := range names {
			one = append(one, fixtureStdout(b, n)...)
		}
		for len(transcript) < 100<<20 {
			transcript = append(transcript, one...)
		}
	})
	if transcript == nil {
		b.Skip("no fixtures")
	}
	return transcript
}

// BenchmarkDecode is the full decoder over a >= 100 MB transcript.
func BenchmarkDecode(b *testing.B) {
	data := benchTranscript(b)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		d := NewDecoder(bytes.NewReader(data), Options{})
		for {
			if _, err := d.Next(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
		if d.MalformedLines() != 0 {
			b.Fatal("malformed lines")
		}
	}
}

// BenchmarkFloor is the same bytes through bufio.Reader + json.Valid: the
// least any line-by-line JSON reader must do.
func BenchmarkFloor(b *testing.B) {
	data := benchTranscript(b)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		br := bufio.NewReaderSize(bytes.NewReader(data), readerBufSize)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 && !json.Valid(line) {
				b.Fatal("invalid line")
			}
			if err == io.EOF {
				break
			}
		}
	}
}

// BenchmarkHugeLine is the decoder's share of a 1–64 MB assistant text
// block: bytes allocated per byte of text, the peak heap growth, and what is
// left after a GC while the text is held (the text itself, 1x, is expected).
// `make bench` runs these once each.
func BenchmarkHugeLine(b *testing.B) {
	for _, mb := range []int{1, 4, 16, 64} {
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			var allocated, peak, kept uint64
			var n int
			for b.Loop() {
				r, size := hugeLine(mb << 20)
				n = size
				m := heapmeter.Start(0, 0)
				text, _ := decodeHuge(b, r)
				p, a := m.Finish()
				allocated += a
				peak = max(peak, p)
				kept = max(kept, m.Retained())
				if len(text) != size {
					b.Fatalf("text of %d bytes, want %d", len(text), size)
				}
				runtime.KeepAlive(text)
			}
			in := float64(n)
			b.ReportMetric(float64(allocated)/float64(b.N)/in, "B/inputB")
			b.ReportMetric(float64(peak)/(1<<20), "peakMB")
			b.ReportMetric(float64(peak)/in, "peakX")
			b.ReportMetric(float64(kept)/(1<<20), "keptMB")
			b.ReportMetric(float64(kept)/in, "keptX")
		})
	}
}
