package audit

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// BenchmarkRead100k reads a 100k-line log of realistic entries (about 300
// bytes a line). B/inbyte is bytes allocated per byte of the file.
func BenchmarkRead100k(b *testing.B) { benchmarkRead(b) }

// BenchmarkRead100kStdlib is BenchmarkRead100k with encoding/json alone,
// the yardstick for the fast path.
func BenchmarkRead100kStdlib(b *testing.B) {
	fastPath = false
	defer func() { fastPath = true }()
	benchmarkRead(b)
}

func benchmarkRead(b *testing.B) {
	const lines = 100_000
	path := filepath.Join(b.TempDir(), "audit.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := range lines {
		line, err := encode(realistic(i))
		if err != nil {
			b.Fatal(err)
		}
		w.Write(line)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	size := fileSize(b, path)

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		es, err := Read(path)
		if err != nil || len(es) != lines {
			b.Fatalf("read %d entries (%v), want %d", len(es), err, lines)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(size), "B/inbyte")
	b.ReportMetric(float64(size)/lines, "linebytes")
}

// BenchmarkAppend10k appends 10k entries and closes, per op. An Append
// that found the queue full is counted in dropped/op.
func BenchmarkAppend10k(b *testing.B) {
	const n = 10_000
	es := make([]Entry, n)
	for i := range es {
		es[i] = realistic(i)
	}
	dir := b.TempDir()
	b.ReportAllocs()
	b.ResetTimer()
	var dropped int64
	for i := range b.N {
		path := filepath.Join(dir, "audit.jsonl")
		if i%3 == 0 { // stay under MaxSize: measure appends, not rotation
			os.Remove(path)
		}
		l := Open(path, func(err error) { b.Error(err) })
		for _, e := range es {
			l.Append(e)
		}
		if err := l.Close(); err != nil {
			b.Fatal(err)
		}
		dropped += l.drops.Load()
	}
	b.ReportMetric(float64(dropped)/float64(b.N), "dropped/op")
}
