package audit

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestReadFiles reads prepared files: torn or malformed lines are skipped,
// never fatal; whatever encoding/json takes as an entry is kept.
func TestReadFiles(t *testing.T) {
	tests := []struct {
		file string
		want []string // ToolUseIDs, newest first
	}{
		{"torn.jsonl", seqIDs(2, 0)},
		{"garbage.jsonl", seqIDs(9, 0)},
		{"missing.jsonl", nil},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			es := mustRead(t, filepath.Join("testdata", tt.file))
			if got := ids(es); !reflect.DeepEqual(got, tt.want) && len(got)+len(tt.want) > 0 {
				t.Errorf("read %v, want %v", got, tt.want)
			}
		})
	}
}

func TestReadDecodesEscapes(t *testing.T) {
	es := mustRead(t, filepath.Join("testdata", "garbage.jsonl"))
	byID := map[string]Entry{}
	for _, e := range es {
		byID[e.ToolUseID] = e
	}
	if got := byID["id-0007"].Input; got != "a🎉 \"q\" \\ /" {
		t.Errorf("escaped input = %q", got)
	}
	if got := byID["id-0008"].Input; got != "lone \uFFFD half" {
		t.Errorf("lone surrogate = %q, want it replaced as encoding/json does", got)
	}
	if got := byID["id-0006"].Time; !got.Equal(time.Date(2026, 11, 30, 9, 41, 7, 0, time.UTC)) {
		t.Errorf("time with offset = %v", got)
	}
}

// TestReadAcrossRotation: the old file's entries come after the current
// one's, each newest first, whatever their times say (clocks jump).
func TestReadAcrossRotation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	var old, cur []string
	for i := range 3 {
		e := numbered(i)
		e.Time = baseTime.Add(-time.Duration(i) * time.Hour) // the clock went back
		line, _ := encode(e)
		old = append(old, string(line))
	}
	for i := 3; i < 5; i++ {
		line, _ := encode(numbered(i))
		cur = append(cur, string(line))
	}
	mustWriteFile(t, path+".1", old...)
	mustWriteFile(t, path, cur...)
	if got := ids(mustRead(t, path)); !reflect.DeepEqual(got, seqIDs(4, 0)) {
		t.Errorf("read %v, want %v", got, seqIDs(4, 0))
	}

	// Only the old file: the log was just rotated.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if got := ids(mustRead(t, path)); !reflect.DeepEqual(got, seqIDs(2, 0)) {
		t.Errorf("read %v, want %v", got, seqIDs(2, 0))
	}
}

func TestReadLongLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	big := strings.Repeat("é\"", 3<<20/3) // 3 MB of JSON, escapes and all
	line, _ := encode(Entry{Time: baseTime, Kind: KindAsk, ToolUseID: "id-0001", Input: big})
	small, _ := encode(numbered(0))
	junk := strings.Repeat("{", 2<<20) + "\n" // a 2 MB line of garbage
	mustWriteFile(t, path, string(small), junk, string(line), junk)
	es := mustRead(t, path)
	if len(es) != 2 || es[0].Input != big || es[1].ToolUseID != "id-0000" {
		t.Fatalf("read %d entries, want the 3 MB one and the small one", len(es))
	}
}

func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Read(dir); err == nil { // a folder, not a file
		t.Error("Read of a folder succeeded")
	}
}

func TestReadFiltered(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	var lines []string
	for i := range 60 {
		line, _ := encode(realistic(i))
		lines = append(lines, string(line))
	}
	mustWriteFile(t, path, lines...)
	all := mustRead(t, path)
	f := Filter{Decision: "denial", Folder: "/home/ada/src/project-3"}
	got, err := ReadFiltered(path, f)
	if err != nil {
		t.Fatal(err)
	}
	var want []Entry
	for _, e := range all {
		if f.Match(e) {
			want = append(want, e)
		}
	}
	if len(want) == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("ReadFiltered gave %d entries, Read then Match %d", len(got), len(want))
	}
}

// TestFastDecoderAgrees: whatever the fast path accepts, it decodes exactly
// as encoding/json does.
func TestFastDecoderAgrees(t *testing.T) {
	var lines []string
	for i := range 12 {
		line, _ := encode(realistic(i))
		lines = append(lines, strings.TrimSuffix(string(line), "\n"))
	}
	data, _ := os.ReadFile(filepath.Join("testdata", "garbage.jsonl"))
	lines = append(lines, strings.Split(string(data), "\n")...)
	lines = append(lines,
		`{"kind":"a","rules":[],"folders":[ "x" , "y\n" ]}`,
		`{"kind":"a","kind":"b","rules":["1"],"rules":["2"]}`,
		`{"kind":"\u00e9\t\b\f\r"}`,
		`{"kind":"a","time":"2026-11-30T09:41:07.5-07:30"}`,
		`{"kind":"a","time":"2026-11-30T09:41:07Z","time":null}`,
		`{"kind":"\udc00\ud800"}`,
		`{"kind":"a\x01"}`,
		`{"kind":"a"`,
		` { "kind" : "a" } `,
	)
	for _, line := range lines {
		checkDecoder(t, []byte(line))
	}
}

func checkDecoder(t *testing.T, line []byte) {
	t.Helper()
	var d decoder
	var fast, slow Entry
	if !d.entry(line, &fast, newInterner()) {
		return
	}
	if err := json.Unmarshal(line, &slow); err != nil {
		t.Fatalf("fast path took %q, encoding/json refused it: %v", line, err)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("%q:\nfast %#v\njson %#v", line, fast, slow)
	}
}

func FuzzDecoder(f *testing.F) {
	for i := range 6 {
		line, _ := encode(realistic(i))
		f.Add(line)
	}
	f.Add([]byte(`{"kind":"a\u2028\ud83c\udf89","rules":["\"",""]}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		checkDecoder(t, line)
	})
}
