package app

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestCleanStaleInstructions: files of a Latch that is gone are removed;
// those of a running Latch (this one) and young old-style ones are kept.
func TestCleanStaleInstructions(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("TMPDIR", dir)
	mine, err := writeInstruction()
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(mine) != dir || !strings.HasPrefix(filepath.Base(mine), "latch-instruction-"+strconv.Itoa(os.Getpid())+"-") {
		t.Fatalf("instruction file %s does not carry the pid", mine)
	}
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	file := func(name string, age time.Duration) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(Instruction), 0o600); err != nil {
			t.Fatal(err)
		}
		tm := time.Now().Add(-age)
		os.Chtimes(p, tm, tm)
		return p
	}
	stale := file(fmt.Sprintf("latch-instruction-%d-12345.txt", gone.Process.Pid), 0)
	oldStyle := file("latch-instruction-987654321.txt", time.Hour)
	youngOldStyle := file("latch-instruction-123456789.txt", 0)
	other := file("latch-instruction-notes.txt", time.Hour)
	unrelated := file("something-else-1-2.txt", time.Hour)
	CleanStaleInstructions()
	for _, p := range []string{stale, oldStyle} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s was kept", filepath.Base(p))
		}
	}
	for _, p := range []string{mine, youngOldStyle, other, unrelated} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed", filepath.Base(p))
		}
	}
}
