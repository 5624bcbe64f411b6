package app

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/latch-app/latch/core/stream"
)

// numbered is n lines "line 1\n" … "line n\n".
func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func jsonInput(t *testing.T, v map[string]any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// changed are the lines of the hunks that are not context, as
// "-20 line 20" and "+20 LINE 20" (the old or new line number).
func changed(fd *FileDiff) []string {
	var out []string
	for _, h := range fd.Hunks {
		for _, l := range h.Lines {
			switch l.Op {
			case DiffDelete:
				out = append(out, fmt.Sprintf("-%d %s", l.Old, l.Text))
			case DiffInsert:
				out = append(out, fmt.Sprintf("+%d %s", l.New, l.Text))
			}
		}
	}
	return out
}

func TestFileDiff(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	thirty := write("thirty.txt", numbered(30))
	crlf := write("crlf.txt", "a\r\nb\r\nc\r\n")
	existing := write("existing.txt", "keep\nold\nkeep too\n")
	big := filepath.Join(dir, "big.txt")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(maxDiffRead + 1); err != nil { // sparse: never written
		t.Fatal(err)
	}
	f.Close()
	folder := filepath.Join(dir, "folder")
	if err := os.Mkdir(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "new.txt")
	newContent := numbered(25)

	tests := []struct {
		name    string
		tool    string
		input   map[string]any
		workdir string
		nilDiff bool
		new     bool
		size    int
		added   int
		removed int
		changed []string // nil: not checked
		hunks   int      // -1: not checked
		head    []string // nil: want none
		summary string
		// unified holds substrings of diffOf's text.
		unified []string
	}{
		{
			name: "Edit found in the file: the file's line numbers", tool: "Edit",
			input: map[string]any{"file_path": thirty, "old_string": "line 20\n", "new_string": "LINE 20\nline 20b\n"},
			added: 2, removed: 1, hunks: 1,
			changed: []string{"-20 line 20", "+20 LINE 20", "+21 line 20b"},
			summary: thirty + ": +2 −1",
			unified: []string{"--- " + thirty + "\n+++ " + thirty + "\n@@ -17,7 +17,8 @@\n line 17\n"},
		},
		{
			name: "Edit not found: numbered from 1, and said", tool: "Edit",
			input: map[string]any{"file_path": thirty, "old_string": "gone\n", "new_string": "back\n"},
			added: 1, removed: 1, hunks: 1,
			changed: []string{"-1 gone", "+1 back"},
			summary: thirty + ": +1 −1 (the old text is not in the file now; lines numbered from 1)",
			unified: []string{"@@ -1 +1 @@\n-gone\n+back\n"},
		},
		{
			name: "Edit of a file that is not there", tool: "Edit",
			input: map[string]any{"file_path": missing, "old_string": "x", "new_string": "y"},
			added: 1, removed: 1, hunks: 1,
			summary: missing + ": +1 −1 (there is no file there; lines numbered from 1)",
		},
		{
			name: "Edit with replace_all", tool: "Edit",
			input: map[string]any{"file_path": thirty, "old_string": "line 1\n", "new_string": "first\n", "replace_all": true},
			added: 1, removed: 1, hunks: 1, changed: []string{"-1 line 1", "+1 first"},
			summary: thirty + ": +1 −1",
		},
		{
			name: "Edit of a CRLF file written with LF", tool: "Edit",
			input: map[string]any{"file_path": crlf, "old_string": "b\nc", "new_string": "B\nc"},
			added: 1, removed: 1, hunks: 1, changed: []string{"-2 b\r", "+2 B\r"},
			summary: crlf + ": +1 −1",
		},
		{
			name: "Edit creating a file", tool: "Edit",
			input: map[string]any{"file_path": missing, "old_string": "", "new_string": "hello\n"},
			new:   true, size: 6, added: 1, hunks: 0, head: []string{"hello"},
			summary: "new file " + missing + ", 6 bytes, 1 line",
			unified: []string{"--- /dev/null\n+++ " + missing + "\n@@ -0,0 +1 @@\n+hello\n"},
		},
		{
			name: "MultiEdit with two edits, applied in order", tool: "MultiEdit",
			input: map[string]any{"file_path": thirty, "edits": []map[string]any{
				{"old_string": "line 3\n", "new_string": "three\n"},
				{"old_string": "line 28\n", "new_string": ""},
			}},
			added: 1, removed: 2, hunks: 2,
			changed: []string{"-3 line 3", "+3 three", "-28 line 28"},
			summary: thirty + ": +1 −2",
			unified: []string{"@@ -1,6 +1,6 @@\n", "@@ -25,6 +25,5 @@\n"},
		},
		{
			name: "MultiEdit whose second edit is not found: each edit alone", tool: "MultiEdit",
			input: map[string]any{"file_path": thirty, "edits": []map[string]any{
				{"old_string": "line 3\n", "new_string": "three\n"},
				{"old_string": "nowhere\n", "new_string": "somewhere\n"},
			}},
			added: 2, removed: 2, hunks: 2,
			changed: []string{"-1 line 3", "+1 three", "-1 nowhere", "+1 somewhere"},
			summary: thirty + ": +2 −2 (an edit's old text is not in the file now; lines numbered from 1)",
		},
		{
			name: "Write of a new file", tool: "Write",
			input: map[string]any{"file_path": missing, "content": newContent},
			new:   true, size: len(newContent), added: 25, hunks: 0,
			head:    strings.Split(strings.TrimSuffix(numbered(20), "\n"), "\n"),
			summary: fmt.Sprintf("new file %s, %d bytes, 25 lines", missing, len(newContent)),
			unified: []string{"--- /dev/null\n+++ " + missing + "\n@@ -0,0 +1,25 @@\n+line 1\n", "+line 25\n"},
		},
		{
			name: "Write over a file: a real diff", tool: "Write",
			input: map[string]any{"file_path": existing, "content": "keep\nnew\nkeep too\n"},
			size:  18, added: 1, removed: 1, hunks: 1,
			changed: []string{"-2 old", "+2 new"},
			summary: existing + ": +1 −1",
			unified: []string{"--- " + existing + "\n+++ " + existing + "\n@@ -1,3 +1,3 @@\n keep\n-old\n+new\n keep too\n"},
		},
		{
			name: "Write of the same content", tool: "Write",
			input: map[string]any{"file_path": existing, "content": "keep\nold\nkeep too\n"},
			size:  18, hunks: 0, summary: existing + ": no change",
		},
		{
			name: "Write over a file over the cap: not read", tool: "Write",
			input: map[string]any{"file_path": big, "content": "small\n"},
			size:  6, added: 1, hunks: 0, head: []string{"small"},
			summary: big + ": 6 bytes, 1 line written (the file is over 4 MB, not read; what it replaces is not shown)",
			unified: []string{"+small\n"},
		},
		{
			name: "Edit of a file over the cap: not read", tool: "Edit",
			input: map[string]any{"file_path": big, "old_string": "a", "new_string": "b"},
			added: 1, removed: 1, hunks: 1,
			summary: big + ": +1 −1 (the file is over 4 MB, not read; lines numbered from 1)",
		},
		{
			name: "Edit of a folder", tool: "Edit",
			input: map[string]any{"file_path": folder, "old_string": "a", "new_string": "b"},
			added: 1, removed: 1, hunks: 1,
			summary: folder + ": +1 −1 (the path is a folder; lines numbered from 1)",
		},
		{
			name: "Write to a folder", tool: "Write",
			input: map[string]any{"file_path": folder, "content": "x"},
			size:  1, added: 1, hunks: 0, head: []string{"x"},
			summary: folder + ": 1 byte, 1 line written (the path is a folder; what it replaces is not shown)",
		},
		{
			name: "a relative path is taken in the working folder", tool: "Edit",
			input:   map[string]any{"file_path": "thirty.txt", "old_string": "line 2\n", "new_string": "two\n"},
			workdir: dir, added: 1, removed: 1, hunks: 1, changed: []string{"-2 line 2", "+2 two"},
			summary: "thirty.txt: +1 −1",
		},
		{
			name: "a relative path with no working folder is not read", tool: "Edit",
			input: map[string]any{"file_path": "thirty.txt", "old_string": "line 2\n", "new_string": "two\n"},
			added: 1, removed: 1, hunks: 1, changed: []string{"-1 line 2", "+1 two"},
			summary: "thirty.txt: +1 −1 (the path is relative; lines numbered from 1)",
		},
		{name: "Bash has none", tool: "Bash", input: map[string]any{"command": "ls"}, nilDiff: true},
		{name: "Edit without a path has none", tool: "Edit", input: map[string]any{"old_string": "a", "new_string": "b"}, nilDiff: true},
	}
	if _, err := os.Stat("/dev/null"); err == nil {
		tests = append(tests, struct {
			name    string
			tool    string
			input   map[string]any
			workdir string
			nilDiff bool
			new     bool
			size    int
			added   int
			removed int
			changed []string
			hunks   int
			head    []string
			summary string
			unified []string
		}{
			name: "a device is never opened", tool: "Edit",
			input: map[string]any{"file_path": "/dev/null", "old_string": "a", "new_string": "b"},
			added: 1, removed: 1, hunks: 1,
			summary: "/dev/null: +1 −1 (the path is not a regular file; lines numbered from 1)",
		})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			raw := jsonInput(t, tc.input)
			fd := fileDiff(tc.tool, raw, tc.workdir)
			text := diffOf(tc.tool, raw, tc.workdir)
			if tc.nilDiff {
				if fd != nil || text != "" {
					t.Fatalf("want no diff, got %+v and %q", fd, text)
				}
				return
			}
			if fd == nil {
				t.Fatal("no diff")
			}
			if fd.New != tc.new || fd.Size != tc.size || fd.Added != tc.added || fd.Removed != tc.removed {
				t.Errorf("New %v Size %d +%d −%d, want New %v Size %d +%d −%d", fd.New, fd.Size, fd.Added, fd.Removed, tc.new, tc.size, tc.added, tc.removed)
			}
			if tc.hunks >= 0 && len(fd.Hunks) != tc.hunks {
				t.Errorf("%d hunks, want %d", len(fd.Hunks), tc.hunks)
			}
			if tc.changed != nil && strings.Join(changed(fd), "|") != strings.Join(tc.changed, "|") {
				t.Errorf("changed lines %q, want %q", changed(fd), tc.changed)
			}
			if strings.Join(fd.Head, "|") != strings.Join(tc.head, "|") {
				t.Errorf("Head %q, want %q", fd.Head, tc.head)
			}
			if fd.Summary != tc.summary {
				t.Errorf("Summary\n%q, want\n%q", fd.Summary, tc.summary)
			}
			for _, want := range tc.unified {
				if !strings.Contains(text, want) {
					t.Errorf("diffOf lacks %q:\n%s", want, text)
				}
			}
			if fd.Path != tc.input["file_path"] {
				t.Errorf("Path %q", fd.Path)
			}
		})
	}
}

func TestFileDiffUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads any file")
	}
	p := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(p, []byte("a\n"), 0); err != nil {
		t.Fatal(err)
	}
	fd := fileDiff("Edit", jsonInput(t, map[string]any{"file_path": p, "old_string": "a", "new_string": "b"}), "")
	if want := p + ": +1 −1 (the file cannot be read; lines numbered from 1)"; fd == nil || fd.Summary != want {
		t.Errorf("got %+v, want Summary %q", fd, want)
	}
}

// TestHeadLinesCut: a new file of one huge line shows its start.
func TestHeadLinesCut(t *testing.T) {
	p := filepath.Join(t.TempDir(), "one.txt")
	fd := fileDiff("Write", jsonInput(t, map[string]any{"file_path": p, "content": strings.Repeat("x", 1<<20)}), "")
	if fd == nil || len(fd.Head) != 1 || len([]rune(fd.Head[0])) != maxHeadLine {
		t.Fatalf("Head of a 1 MB line: %d lines", len(fd.Head))
	}
	if fd.Summary != "new file "+p+", 1.0 MB, 1 line" {
		t.Errorf("Summary %q", fd.Summary)
	}
}

// recorder is a Surface that keeps what is shown.
type recorder struct {
	mu  sync.Mutex
	evs []Event
}

func (r *recorder) Show(ev Event) {
	r.mu.Lock()
	r.evs = append(r.evs, ev)
	r.mu.Unlock()
}
func (r *recorder) Ask(context.Context, Question) Decision           { return Decision{} }
func (r *recorder) AskGrants(context.Context, GrantRequest) Decision { return Decision{} }

func (r *recorder) tool(k EventKind) *ToolCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, ev := range r.evs {
		if ev.Kind == k {
			return ev.Tool
		}
	}
	return nil
}

// TestToolCardDiff: the diff is made when the call's input is complete,
// from the file before the call runs, and the result carries the same one
// though the file has changed since.
func TestToolCardDiff(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(p, []byte(numbered(10)), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	s := NewSession(Config{Workdir: dir}, rec)
	defer s.Close()
	input := jsonInput(t, map[string]any{"file_path": p, "old_string": "line 5\n", "new_string": "five\n"})
	s.toolCall("toolu_1", "Edit", input)
	update := rec.tool(EvToolUpdate)
	if update == nil || update.Diff == nil {
		t.Fatalf("EvToolUpdate without a diff: %+v", update)
	}
	if got := strings.Join(changed(update.Diff), "|"); got != "-5 line 5|+5 five" {
		t.Errorf("changed %q", got)
	}
	// The call runs.
	if err := os.WriteFile(p, []byte(strings.Replace(numbered(10), "line 5\n", "five\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	s.toolResult(&stream.ToolResult{ToolUseID: "toolu_1", Tool: "Edit", Input: input, Text: "ok"})
	result := rec.tool(EvToolResult)
	if result == nil || result.Diff != update.Diff {
		t.Fatalf("EvToolResult diff %p, want the update's %p", result.Diff, update.Diff)
	}
	s.mu.Lock()
	n := len(s.diffs)
	s.mu.Unlock()
	if n != 0 {
		t.Errorf("%d diffs kept after the result", n)
	}
	// A result whose call was never seen complete: the call's own text.
	s.toolResult(&stream.ToolResult{ToolUseID: "toolu_2", Tool: "Edit", Input: input, Text: "ok"})
	rec.mu.Lock()
	last := rec.evs[len(rec.evs)-1].Tool.Diff
	rec.mu.Unlock()
	if last == nil || last.Summary != p+": +1 −1 (lines numbered from 1)" {
		t.Errorf("unseen call's diff: %+v", last)
	}
	// Bash: nothing, and nothing cached.
	s.toolCall("toolu_3", "Bash", jsonInput(t, map[string]any{"command": "ls"}))
	s.mu.Lock()
	n = len(s.diffs)
	s.mu.Unlock()
	if n != 0 {
		t.Errorf("Bash cached a diff")
	}
}
