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
	"unicode/utf8"
)

// rowShows is what the window's error row shows of a Detail: its first 4 KB
// (ui capTextAt with softRowText).
const rowShows = 4 << 10

// TestStartupFailureShowsTheEnd: 400 KB of stderr before the reason; the
// error shows the reason, within what an error row shows, and keeps all of
// stderr for copying.
func TestStartupFailureShowsTheEnd(t *testing.T) {
	const reason = "the real reason: XYZ"
	tests := []struct{ name, script string }{
		{"many lines", "bigstderr 400000\nstderr " + reason + "\nexit 1\n"},
		{"one long last line", "bigstderr 400000\nstderr " + strings.Repeat("é", 20000) + reason + "\nexit 1\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, Config{}, tc.script)
			r.send("hi")
			evs := r.surf.waitIdle(t, 1)
			errs := find(evs, EvError)
			if len(errs) != 1 {
				t.Fatalf("want one error:\n%s", dump(evs))
			}
			e := errs[0].Err
			if !strings.Contains(e.Title, "exited before") {
				t.Errorf("title = %q", e.Title)
			}
			if len(e.Detail) > rowShows {
				t.Errorf("Detail is %d bytes; the row shows only the first %d", len(e.Detail), rowShows)
			}
			if !strings.Contains(e.Detail, reason) || !strings.Contains(e.Detail, "exit code 1") || !strings.Contains(e.Detail, "Preferences") {
				t.Errorf("Detail lacks the reason, the exit or the advice:\n%s", e.Detail)
			}
			if !utf8.ValidString(e.Detail) {
				t.Error("Detail is not valid UTF-8")
			}
			if !strings.Contains(e.Full, reason) || len(e.Full) < 400000 || !strings.Contains(e.Full, "stderr noise 0 ") {
				t.Errorf("Full (%d bytes) does not hold the whole stderr", len(e.Full))
			}
		})
	}
}

func TestLastLines(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "line %d %s end%d\n", i, strings.Repeat("ab", 300), i)
	}
	got := lastLines(b.String(), 20, 160, 2500)
	lines := strings.Split(got, "\n")
	if len(got) > 2500 || len(lines) > 20 {
		t.Fatalf("%d bytes, %d lines", len(got), len(lines))
	}
	if !strings.HasSuffix(got, "end99") {
		t.Errorf("the last line is not kept: …%s", got[len(got)-40:])
	}
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > 160 || !strings.HasPrefix(l, "…") {
			t.Errorf("line of %d characters: %q", n, l)
		}
	}
	if got := lastLines("a\nb\r\n\nc\n\n", 2, 10, 100); got != "\nc" {
		t.Errorf("lastLines = %q", got)
	}
	if got := keepEnd("ééééé", 3); got != "…éé" {
		t.Errorf("keepEnd = %q", got)
	}
	if got := lastLines(strings.Repeat("x", 5000), 20, 160, 100); utf8.RuneCountInString(got) != 160 {
		t.Errorf("one long line: %d characters", utf8.RuneCountInString(got))
	}
}

func TestTailKeepsTheEnd(t *testing.T) {
	tl := newTail(1 << 10)
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(tl, "line %d\n", i)
	}
	full := tl.Full()
	if len(full) > 1<<10 || !strings.HasSuffix(full, "line 4999") || !strings.HasPrefix(full, "line ") {
		t.Errorf("Full = %d bytes: %q … %q", len(full), full[:20], full[len(full)-20:])
	}
	if n := len(strings.Split(tl.String(), "\n")); n != 20 {
		t.Errorf("String has %d lines", n)
	}
	tl.Write([]byte(strings.Repeat("y", 5000)))
	if got := tl.Full(); got != strings.Repeat("y", 1<<10) {
		t.Errorf("a write past the limit: %d bytes", len(got))
	}
}

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
