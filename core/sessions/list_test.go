package sessions

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestSlugDir(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"/home/dev/proj", "-home-dev-proj"},
		{"/home/dev/my.proj_2", "-home-dev-my-proj-2"},
		{"/tmp/TestX123/002", "-tmp-TestX123-002"},
		{"/home/dév", "-home-d--v"}, // é is two bytes
		{`C:\Users\dev`, "C--Users-dev"},
		{"", ""},
	} {
		if got := Slug(c.in); got != c.want {
			t.Errorf("Slug(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got, want := Dir("/home/dev/.claude", "/home/dev/proj"), filepath.Join("/home/dev/.claude", "projects", "-home-dev-proj"); got != want {
		t.Errorf("Dir = %q, want %q", got, want)
	}
}

// copyFixtures copies every fixture into one folder, as sessions of a
// project, with some variants: torn, CRLF, appended junk.
func copyFixtures(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	files, _ := filepath.Glob("testdata/*.jsonl")
	more, _ := filepath.Glob("testdata/cli-2.1.328/*.jsonl")
	for _, f := range append(files, more...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		base := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		for variant, data := range map[string][]byte{
			"":      b,
			"-torn": append(append([]byte{}, b...), `{"parentUuid":"x","type":"user","message":{"content":"cut`...),
			"-crlf": bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")),
		} {
			name := base + variant + ".jsonl"
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
				t.Fatal(err)
			}
			names = append(names, name)
		}
	}
	return names
}

// TestListAgreesWithRead: what List finds of a file, from its head and
// tail when it can, is what a whole read finds, for every fixture and for
// generated files; and Prompts, Title and Unresolved agree with Read's
// items.
func TestListAgreesWithRead(t *testing.T) {
	dir := t.TempDir()
	names := copyFixtures(t, dir)
	g := loadTemplates(t)
	for i, sp := range []genSpec{
		{seed: 1, size: 20e3, small: true, output: 2000},
		{seed: 2, size: 300e3, output: 16 << 10, closed: true},
		{seed: 3, size: 2 << 20, output: 512 << 10},             // big last outputs: the tail grows
		{seed: 4, size: 200e3, output: 200 << 10, closed: true}, // a tail past several chunks
	} {
		name := fmt.Sprintf("gen-%d.jsonl", i)
		g.genFile(t, filepath.Join(dir, name), sp)
		names = append(names, name)
	}
	l := NewLister()
	list, err := l.List(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != len(names) {
		t.Fatalf("%d listed, %d files", len(list), len(names))
	}
	byID := map[string]Summary{}
	for i, s := range list {
		byID[s.ID] = s
		if i > 0 && s.Updated.After(list[i-1].Updated) {
			t.Errorf("not newest first at %d", i)
		}
	}
	for _, name := range names {
		id := strings.TrimSuffix(name, ".jsonl")
		got := byID[id]
		path := filepath.Join(dir, name)
		fi, _ := os.Stat(path)
		f, _ := os.Open(path)
		want := &entry{size: fi.Size(), mtime: fi.ModTime(), sum: Summary{ID: id, Path: path, Size: fi.Size(), Updated: fi.ModTime()}}
		summarizeAll(f, want)
		f.Close()
		if got != want.sum {
			t.Errorf("%s:\nlisted %+v\nread   %+v", name, got, want.sum)
		}
		fast := l.dirs[dir][name].head != nil
		if wantFast := strings.HasPrefix(name, "gen-") || strings.Contains(path, "cli-2.1.328") || !strings.HasPrefix(name, "v"); fast != wantFast {
			t.Errorf("%s: head and tail read %v, want %v", name, fast, wantFast)
		}
		// Independently, from Read's items.
		var prompts, unresolved int
		first := ""
		info, err := Read(context.Background(), path, func(it Item) error {
			switch it.Kind {
			case ItemPrompt:
				if prompts++; prompts == 1 {
					first = it.Text
				}
			case ItemTurnEnd:
				unresolved = len(it.Turn.Grantable())
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if got.Prompts != prompts || info.Prompts != prompts || got.Unresolved != unresolved {
			t.Errorf("%s: listed %d prompts, %d unresolved; read %d (%d), %d", name, got.Prompts, got.Unresolved, prompts, info.Prompts, unresolved)
		}
		if !strings.HasPrefix(name, "v1.0-summary") && got.Title != oneLine(first, titleMax) {
			t.Errorf("%s: title %q, first prompt %q", name, got.Title, first)
		}
		if got.Cwd != info.Cwd || got.Version != info.Version || got.GitBranch != info.GitBranch {
			t.Errorf("%s: %+v vs %+v", name, got, info)
		}
	}
	// What the history must show of the real and hand-made files.
	for _, c := range []struct {
		id, title           string
		prompts, unresolved int
	}{
		{"live-three-turns", "say hello", 3, 0},
		{"after-turn-stream-closed", "run the tests", 1, 1},
		{"after-turn-granted-resumed-crlf", "make a file", 2, 0},
		{"api-error-torn", "hi", 1, 0},
		{"v1.0-summary-meta-sidechain", "Fix the flaky login test", 2, 1}, // the newest summary line, its first line
		{"v2.0-compact", "write the README", 2, 1},
		{"v1.0-branch-edit", "first question", 2, 0},
	} {
		s := byID[c.id]
		if s.Title != c.title || s.Prompts != c.prompts || s.Unresolved != c.unresolved {
			t.Errorf("%s: %+v", c.id, s)
		}
	}
	s := byID["live-three-turns"]
	if !s.Started.Equal(time.Date(2026, 12, 2, 0, 35, 11, 83e6, time.UTC)) || !s.Updated.Equal(time.Date(2026, 12, 2, 0, 35, 11, 806e6, time.UTC)) ||
		s.Version != "2.1.328" || s.GitBranch != "HEAD" || s.Cwd != "/tmp/TestContractSessionFileCapturelive1587281644/002" || s.Size != 168984 {
		t.Errorf("live-three-turns: %+v", s)
	}
}

func TestListSkipsAndMissing(t *testing.T) {
	l := NewLister()
	list, err := l.List(filepath.Join(t.TempDir(), "missing"))
	if list != nil || err != nil {
		t.Errorf("missing: %v %v", list, err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o600)
	os.WriteFile(filepath.Join(dir, "agent-1234.jsonl"), fixture(t, "cli-2.1.328/api-error.jsonl"), 0o600)
	os.Mkdir(filepath.Join(dir, "sub.jsonl"), 0o700)
	os.WriteFile(filepath.Join(dir, "empty.jsonl"), nil, 0o600)
	os.Symlink(filepath.Join(dir, "missing-target"), filepath.Join(dir, "dangling.jsonl"))
	mtime := time.Date(2025, 5, 5, 5, 5, 5, 0, time.UTC)
	os.Chtimes(filepath.Join(dir, "empty.jsonl"), mtime, mtime)
	list, err = l.List(dir)
	if err != nil || len(list) != 1 {
		t.Fatalf("%v %+v", err, list)
	}
	if s := list[0]; s.ID != "empty" || !s.Updated.Equal(mtime) || s.Title != "" || s.Prompts != 0 || s.Size != 0 {
		t.Errorf("empty file: %+v", s)
	}
}

// TestListCache: an unchanged file (same size and mtime) is not read
// again; a changed one is; one that grew is read on from its tail, its
// head kept; one removed is forgotten.
func TestListCache(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "s.jsonl")
	full := fixture(t, "cli-2.1.328/after-turn-granted-resumed.jsonl")
	// Up to the retry prompt: one turn with a stream-closed denial.
	cut := bytes.Index(full, []byte(`"content":"Continue — `))
	cut = bytes.LastIndexByte(full[:cut], '\n') + 1
	os.WriteFile(p, full[:cut], 0o600)
	l := NewLister()
	list, _ := l.List(dir)
	if len(list) != 1 || list[0].Prompts != 1 || list[0].Unresolved != 1 || list[0].Title != "make a file" {
		t.Fatalf("first: %+v", list)
	}
	head := l.dirs[dir]["s.jsonl"].head
	if head == nil {
		t.Fatal("not read by head and tail")
	}

	// Same size and mtime, other bytes: the cached summary stays.
	fi, _ := os.Stat(p)
	other := bytes.Replace(full[:cut], []byte("make a file"), []byte("make a FILE"), -1)
	os.WriteFile(p, other, 0o600)
	os.Chtimes(p, fi.ModTime(), fi.ModTime())
	if list, _ = l.List(dir); list[0].Title != "make a file" {
		t.Errorf("unchanged file read again: %+v", list[0])
	}

	// Appended: the rest of the session. Prompts and Unresolved come from
	// the new tail; the head read before is kept.
	os.WriteFile(p, full[:cut], 0o600)
	os.Chtimes(p, fi.ModTime(), fi.ModTime())
	f, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	f.Write(full[cut:])
	f.Close()
	later := fi.ModTime().Add(time.Second)
	os.Chtimes(p, later, later)
	list, _ = l.List(dir)
	if list[0].Prompts != 2 || list[0].Unresolved != 0 || list[0].Size != int64(len(full)) {
		t.Errorf("appended: %+v", list[0])
	}
	if l.dirs[dir]["s.jsonl"].head != head {
		t.Error("the head was read again")
	}

	// Rewritten shorter: read anew.
	os.WriteFile(p, fixture(t, "cli-2.1.328/api-error.jsonl"), 0o600)
	if list, _ = l.List(dir); list[0].Title != "hi" {
		t.Errorf("rewritten: %+v", list[0])
	}
	os.Remove(p)
	if list, _ = l.List(dir); len(list) != 0 || len(l.dirs[dir]) != 0 {
		t.Errorf("removed: %+v %v", list, l.dirs[dir])
	}
}

// TestListConcurrent: Lists of one Lister at once, while files grow.
func TestListConcurrent(t *testing.T) {
	dir := t.TempDir()
	copyFixtures(t, dir)
	l := NewLister()
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				if _, err := l.List(dir); err != nil {
					t.Error(err)
				}
			}
		}()
		wg.Add(1)
		go func() {
			defer wg.Done()
			f, _ := os.OpenFile(filepath.Join(dir, fmt.Sprintf("grow-%d.jsonl", i)), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
			defer f.Close()
			for _, line := range bytes.SplitAfter(fixture(t, "cli-2.1.328/live-three-turns.jsonl"), []byte("\n")) {
				f.Write(line)
			}
		}()
	}
	wg.Wait()
	list, _ := l.List(dir)
	for _, s := range list {
		if strings.HasPrefix(s.ID, "grow-") && (s.Prompts != 3 || s.Title != "say hello") {
			t.Errorf("%+v", s)
		}
	}
}
