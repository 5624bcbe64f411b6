package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const crashEnv = "LATCH_AUDIT_CRASH_PATH"

// crashEntry is the i-th entry of the crash child; its fields check each
// other, so a reader can tell a whole entry from a spliced one. Inputs of
// up to 8 KB make batches large and writes slow enough to be cut.
func crashEntry(i int) Entry {
	input := strings.Repeat(string(rune('a'+i%26)), 100+(i*997)%8000)
	return Entry{Kind: KindAllowed, ToolUseID: strconv.Itoa(i), Input: input, Message: fmt.Sprintf("%d:%d", i, len(input))}
}

// TestCrashChild is the process TestCrash kills: it appends as fast as it
// can and never closes.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashEnv)
	if path == "" {
		t.Skip("run by TestCrash")
	}
	writes := 0
	l := open(path, nil, func() {
		if writes++; writes == 4 { // the file is growing: tell the parent
			fmt.Println("writing")
		}
	})
	// Should the parent die, -test.timeout ends this loop.
	for i := 0; ; i++ {
		l.Append(crashEntry(i))
	}
}

// TestCrash SIGKILLs a process in the middle of appending: Read must then
// return only whole entries, every line but a torn last one, and a log
// opened afterwards must append cleanly after the torn line.
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	path := filepath.Join(t.TempDir(), "latch", "audit.jsonl")
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1", "-test.timeout=2m")
	cmd.Env = append(os.Environ(), crashEnv+"="+path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	for sc.Scan() && sc.Text() != "writing" {
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL: no defer, no Close
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if sc.Err() != nil || sc.Text() != "writing" {
		t.Fatalf("child never wrote: %v\n%s", sc.Err(), stderr.String())
	}

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	old, _ := os.ReadFile(path + ".1")
	whole := bytes.Count(old, []byte{'\n'}) + bytes.Count(data, []byte{'\n'})
	if tail := data[bytes.LastIndexByte(data, '\n')+1:]; json.Valid(tail) {
		whole++ // cut just before its newline: the entry itself is whole
	}
	t.Logf("%d whole lines, %d bytes, torn tail: %v", whole, len(old)+len(data), len(data) > 0 && data[len(data)-1] != '\n')

	es := mustRead(t, path)
	if len(es) != whole {
		t.Errorf("read %d entries from %d whole lines", len(es), whole)
	}
	prev := -1 // newest first: sequence numbers go down
	for _, e := range es {
		if e.Kind == KindDropped {
			continue
		}
		i, err := strconv.Atoi(e.ToolUseID)
		want := crashEntry(i)
		if err != nil || e.Kind != want.Kind || e.Input != want.Input || e.Message != want.Message || e.Time.IsZero() {
			t.Fatalf("entry %q is not whole: kind %q, %d bytes of input, message %q", e.ToolUseID, e.Kind, len(e.Input), e.Message)
		}
		if prev >= 0 && i >= prev {
			t.Fatalf("entry %d after %d: out of order", i, prev)
		}
		prev = i
	}

	l := Open(path, nil)
	l.Append(Entry{Kind: KindTrust, ToolUseID: "after"})
	mustClose(t, l)
	after := mustRead(t, path)
	if len(after) != len(es)+1 || after[0].ToolUseID != "after" {
		t.Errorf("after reopening: %d entries, newest %q; want %d, newest \"after\"", len(after), after[0].ToolUseID, len(es)+1)
	}
}
