package sessions

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/latch-app/latch/internal/heapmeter"
)

// BenchmarkList1000 lists 1,000 realistic 2.1.x session files (20 KB –
// 500 KB, one in a hundred 1–4 MB) cold, with a fresh Lister each time.
// B/in-B is bytes allocated per byte of the files listed.
func BenchmarkList1000(b *testing.B) {
	dir := b.TempDir()
	total := genDir(b, dir, 1000)
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	b.ResetTimer()
	for b.Loop() {
		list, err := NewLister().List(dir)
		if err != nil || len(list) != 1000 {
			b.Fatal(err, len(list))
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(b.N)/float64(total), "B/in-B")
	b.ReportMetric(float64(total)/1e6, "MB-listed")
}

// BenchmarkList1000Warm lists the same folder again after one file grew
// by a line: 999 files are only stat'ed, the one is read on from its tail.
func BenchmarkList1000Warm(b *testing.B) {
	dir := b.TempDir()
	genDir(b, dir, 1000)
	l := NewLister()
	if _, err := l.List(dir); err != nil {
		b.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, "00000007-0000-4000-8000-000000000007.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	line := []byte(`{"type":"queue-operation","operation":"dequeue","timestamp":"2026-12-02T00:35:11.086Z","sessionId":"65b49ddb-caa3-442c-866c-bdb4cd44e255"}` + "\n")
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		f.Write(line)
		b.StartTimer()
		list, err := l.List(dir)
		if err != nil || len(list) != 1000 {
			b.Fatal(err, len(list))
		}
	}
}

// BenchmarkRead50MB streams a 50 MB session (many turns with big tool
// results) through Read. B/in-B is bytes allocated per byte of the file.
func BenchmarkRead50MB(b *testing.B) {
	p := filepath.Join(b.TempDir(), "big.jsonl")
	g := loadTemplates(b)
	g.genFile(b, p, genSpec{seed: 9, size: 50 << 20, output: 512 << 10, closed: true})
	fi, err := os.Stat(p)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	b.ResetTimer()
	for b.Loop() {
		items := 0
		info, err := Read(context.Background(), p, func(Item) error { items++; return nil })
		if err != nil || info.Prompts < 100 || items == 0 {
			b.Fatal(err, info)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(b.N)/float64(fi.Size()), "B/in-B")
	// The heap's peak growth over one more read, at the default GOGC.
	m := heapmeter.Start(1<<30, 0)
	Read(context.Background(), p, nil)
	peak, _ := m.Finish()
	b.ReportMetric(float64(peak)/1e6, "peak-heap-MB")
}
