package stream

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
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
