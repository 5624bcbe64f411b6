package cliproc

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

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
