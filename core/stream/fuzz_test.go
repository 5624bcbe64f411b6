package stream

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// seedFiles adds the testdata files and the small fixtures as seeds.
func seedFiles(f *testing.F) {
	paths, _ := filepath.Glob("testdata/*.ndjson")
	more, _ := filepath.Glob(filepath.Join(fixturesDir(f), "*", "stdout.ndjson"))
	paths = append(paths, more...)
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil && len(b) < 64<<10 {
			f.Add(b)
		}
	}
	f.Add([]byte("{\"type\":\"user\",\"message\":{\"content\":[{\"type\":\"tool_result\",\"is_error\":true,\"content\":[{\"type\":\"text\",\"text\":\"Stream closed\"}]}]}}\n"))
	f.Add([]byte("\r\n\n{\"type\":\"result\"}"))
}

func FuzzLineReader(f *testing.F) {
	seedFiles(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := readAll(t, bytes.NewReader(data))
		want := bytes.Count(data, []byte("\n"))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			want++
		}
		if len(lines) != want {
			t.Fatalf("%d lines, want %d", len(lines), want)
		}
		total := 0
		for _, l := range lines {
			if bytes.IndexByte([]byte(l), '\n') >= 0 {
				t.Fatalf("line holds a newline: %q", l)
			}
			total += len(l)
		}
		if total > len(data) {
			t.Fatalf("lines longer than input")
		}
	})
}

func FuzzDecoder(f *testing.F) {
	seedFiles(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, opt := range []Options{{}, {PhraseDetection: true}} {
			d := NewDecoder(bytes.NewReader(data), opt)
			lines := bytes.Count(data, []byte("\n")) + 1
			n := 0
			for {
				ev, err := d.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				if ev.Line < 1 || ev.Line > lines {
					t.Fatalf("line %d of %d", ev.Line, lines)
				}
				if ev.Kind == KindResult && ev.Result.Turn == nil {
					t.Fatal("result without turn")
				}
				if ev.Kind == KindToolResult && ev.ToolResult.Denial != nil && ev.ToolResult.Denial.Class == "" {
					t.Fatal("denial without class")
				}
				n++
				if n > 64*len(data)+16 {
					t.Fatal("too many events") // no hang
				}
			}
			if d.MalformedLines() > lines {
				t.Fatalf("%d malformed of %d lines", d.MalformedLines(), lines)
			}
		}
	})
}
