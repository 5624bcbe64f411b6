package audit

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// useMaxSize makes logs opened from now on rotate at n bytes.
func useMaxSize(t testing.TB, n int64) {
	t.Helper()
	old := maxSize
	maxSize = n
	t.Cleanup(func() { maxSize = old })
}

// tempLog is a fresh log path in a folder that does not exist yet.
func tempLog(t testing.TB) string {
	return filepath.Join(t.TempDir(), "state", "latch", "audit.jsonl")
}

func mustRead(t testing.TB, path string) []Entry {
	t.Helper()
	es, err := Read(path)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	return es
}

func mustClose(t testing.TB, l *Log) {
	t.Helper()
	if err := l.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

// ids lists the entries' ToolUseIDs.
func ids(es []Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.ToolUseID
	}
	return out
}

// seqIDs is "id-from" … "id-to", counting down when from > to.
func seqIDs(from, to int) []string {
	var out []string
	step := 1
	if from > to {
		step = -1
	}
	for i := from; ; i += step {
		out = append(out, fmt.Sprintf("id-%04d", i))
		if i == to {
			return out
		}
	}
}

var baseTime = time.Date(2026, 11, 30, 9, 41, 7, 123456789, time.UTC)

// realistic is the i-th of a plausible stream of entries, about 300 bytes
// a line, with the quotes and paths real commands have.
func realistic(i int) Entry {
	folder := fmt.Sprintf("/home/ada/src/project-%d", i%7)
	e := Entry{
		Time:      baseTime.Add(time.Duration(i) * 1500 * time.Millisecond),
		Session:   fmt.Sprintf("3f2c9a1e-7b4d-4c8e-9a0f-%012d", i/50),
		Folder:    folder,
		ToolUseID: fmt.Sprintf("toolu_01%018d", i),
	}
	switch i % 6 {
	case 0:
		e.Kind, e.Tool = KindAsk, "Bash"
		e.Input = fmt.Sprintf(`git commit -m "fix: handle the %d-th case" && go test ./... 2>&1 | tail -n 20`, i)
	case 1:
		e.Kind, e.Tool, e.Decision, e.Scope = KindAnswer, "Bash", AnswerSession, "session"
		e.Input = fmt.Sprintf("go test -run TestThing%d ./core/...", i)
		e.Rule = "Bash(go test:*)"
	case 2:
		e.Kind, e.Tool, e.Class, e.Decider = KindDenial, "Write", "outside_workdir", ByWorkingDir
		e.Input = fmt.Sprintf("/home/ada/notes/todo-%d.md", i)
		e.Path = "/home/ada/notes"
		e.Message = "Claude requested permissions to write to /home/ada/notes, but you haven't granted it yet."
	case 3:
		e.Kind, e.Tool, e.Decider, e.Rule, e.Source = KindAllowed, "Read", ByRule, "Read(//home/ada/src/**)", "user"
		e.Input = folder + "/internal/server/handler.go"
	case 4:
		e.Kind, e.Scope, e.File = KindGrant, "project", folder+"/.claude/settings.local.json"
		e.Rules = []string{"Bash(npm run build:*)", "Edit(" + folder + "/src/**)"}
		e.Folders = []string{"/home/ada/notes"}
	default:
		e.Kind, e.Tool, e.Decider = KindAllowed, "Edit", ByMode
		e.Mode = "acceptEdits"
		e.Input = folder + "/ui/window.go"
	}
	return e
}

func fileSize(t testing.TB, path string) int64 {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

func mustWriteFile(t testing.TB, path string, lines ...string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o600); err != nil {
		t.Fatal(err)
	}
}
