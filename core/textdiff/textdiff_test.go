package textdiff

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite testdata/*.diff from the diff of today")

// apply is a with hs applied, checking every context and deleted line
// against a: the test of a diff is that it turns a into b.
func apply(a string, hs []Hunk) (string, error) {
	la := split(a)
	var out strings.Builder
	next := 0 // the next line of a to copy
	emit := func(t text) {
		out.WriteString(t.s)
		if !t.noEOL {
			out.WriteByte('\n')
		}
	}
	for _, h := range hs {
		first := h.OldStart - 1
		if h.OldLines == 0 {
			first = h.OldStart
		}
		if first < next || first > len(la) {
			return "", fmt.Errorf("hunk @@ -%d,%d starts at %d, before line %d or past the end", h.OldStart, h.OldLines, first, next)
		}
		for ; next < first; next++ {
			emit(la[next])
		}
		old, nw := 0, 0
		for _, l := range h.Lines {
			switch l.Op {
			case Equal, Delete:
				if next >= len(la) || la[next].s != l.Text || la[next].noEOL != l.NoEOL {
					return "", fmt.Errorf("line %d of a is not %q", next+1, l.Text)
				}
				if l.Old != next+1 {
					return "", fmt.Errorf("line %q numbered %d in a, is %d", l.Text, l.Old, next+1)
				}
				next++
				old++
				if l.Op == Equal {
					emit(text{l.Text, l.NoEOL})
					nw++
				}
			case Insert:
				emit(text{l.Text, l.NoEOL})
				nw++
			}
		}
		if old != h.OldLines || nw != h.NewLines {
			return "", fmt.Errorf("hunk says -%d +%d, holds -%d +%d", h.OldLines, h.NewLines, old, nw)
		}
	}
	for ; next < len(la); next++ {
		emit(la[next])
	}
	return out.String(), nil
}

// checkNewNumbers checks every line's New number against b.
func checkNewNumbers(t *testing.T, b string, hs []Hunk) {
	t.Helper()
	lb := split(b)
	for _, h := range hs {
		n := h.NewStart
		if h.NewLines == 0 {
			n++
		}
		for _, l := range h.Lines {
			if l.Op == Delete {
				if l.New != 0 {
					t.Errorf("deleted %q has New %d", l.Text, l.New)
				}
				continue
			}
			if l.New != n || lb[n-1].s != l.Text {
				t.Errorf("line %q numbered %d in b, want %d", l.Text, l.New, n)
			}
			if l.Op == Insert && l.Old != 0 {
				t.Errorf("inserted %q has Old %d", l.Text, l.Old)
			}
			n++
		}
	}
}

func check(t *testing.T, a, b string) []Hunk {
	t.Helper()
	hs := Diff(a, b)
	got, err := apply(a, hs)
	if err != nil {
		t.Fatalf("apply: %v\n%s", err, Unified("a", "b", hs))
	}
	if got != b {
		t.Fatalf("apply gives %q, want %q\n%s", got, b, Unified("a", "b", hs))
	}
	checkNewNumbers(t, b, hs)
	return hs
}

func TestDiff(t *testing.T) {
	tests := []struct {
		name, a, b string
		want       string // the unified diff
		added, del int
	}{
		{name: "both empty"},
		{name: "identical", a: "x\ny\n", b: "x\ny\n"},
		{name: "from empty", a: "", b: "one\ntwo\n", added: 2,
			want: "--- a\n+++ b\n@@ -0,0 +1,2 @@\n+one\n+two\n"},
		{name: "to empty", a: "one\ntwo\n", b: "", del: 2,
			want: "--- a\n+++ b\n@@ -1,2 +0,0 @@\n-one\n-two\n"},
		{name: "one line", a: "x\n", b: "y\n", added: 1, del: 1,
			want: "--- a\n+++ b\n@@ -1 +1 @@\n-x\n+y\n"},
		{name: "no newline at end", a: "a\nb", b: "a\nc", added: 1, del: 1,
			want: "--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"},
		{name: "newline added at end", a: "a\nb", b: "a\nb\n", added: 1, del: 1,
			want: "--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
		{name: "crlf to lf", a: "a\r\nb\r\n", b: "a\nb\n", added: 2, del: 2,
			want: "--- a\n+++ b\n@@ -1,2 +1,2 @@\n-a\r\n-b\r\n+a\n+b\n"},
		{name: "insert in middle", a: "1\n2\n3\n4\n5\n6\n7\n8\n", b: "1\n2\n3\n4\nnew\n5\n6\n7\n8\n", added: 1,
			want: "--- a\n+++ b\n@@ -2,6 +2,7 @@\n 2\n 3\n 4\n+new\n 5\n 6\n 7\n"},
		{name: "insert with no context at start", a: "x\n", b: "new\nx\n", added: 1,
			want: "--- a\n+++ b\n@@ -1 +1,2 @@\n+new\n x\n"},
		{name: "two hunks", a: "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\n14\n15\n", b: "1\nTWO\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n13\nFOURTEEN\n15\n", added: 2, del: 2,
			want: "--- a\n+++ b\n@@ -1,5 +1,5 @@\n 1\n-2\n+TWO\n 3\n 4\n 5\n@@ -11,5 +11,5 @@\n 11\n 12\n 13\n-14\n+FOURTEEN\n 15\n"},
		{name: "gap of six joins", a: "1\n2\n3\n4\n5\n6\n7\n8\n", b: "X\n2\n3\n4\n5\n6\n7\nY\n", added: 2, del: 2,
			want: "--- a\n+++ b\n@@ -1,8 +1,8 @@\n-1\n+X\n 2\n 3\n 4\n 5\n 6\n 7\n-8\n+Y\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hs := check(t, tc.a, tc.b)
			if got := Unified("a", "b", hs); got != tc.want {
				t.Errorf("Unified:\n%q\nwant\n%q", got, tc.want)
			}
			if add, del := Stats(hs); add != tc.added || del != tc.del {
				t.Errorf("Stats = +%d -%d, want +%d -%d", add, del, tc.added, tc.del)
			}
		})
	}
}

// TestGolden diffs each testdata/NAME.old against NAME.new and compares
// the unified diff with NAME.diff (go test -update rewrites them).
func TestGolden(t *testing.T) {
	olds, _ := filepath.Glob("testdata/*.old")
	if len(olds) == 0 {
		t.Fatal("no testdata")
	}
	for _, p := range olds {
		name := strings.TrimSuffix(p, ".old")
		t.Run(filepath.Base(name), func(t *testing.T) {
			a, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(name + ".new")
			if err != nil {
				t.Fatal(err)
			}
			got := Unified("old", "new", check(t, string(a), string(b)))
			if *update {
				if err := os.WriteFile(name+".diff", []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(name + ".diff")
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("diff of %s:\n%s\nwant\n%s", name, got, want)
			}
		})
	}
}

// TestMinimal checks that a diff within the cost limit is a shortest one,
// against a quadratic dynamic program on small random texts.
func TestMinimal(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		a, b := randomLines(r, r.IntN(30), 4), randomLines(r, r.IntN(30), 4)
		hs := check(t, a, b)
		add, del := Stats(hs)
		if want := editDistance(split(a), split(b)); add+del != want {
			t.Fatalf("diff of %q and %q has %d edits, shortest %d\n%s", a, b, add+del, want, Unified("a", "b", hs))
		}
	}
}

func randomLines(r *rand.Rand, n, alphabet int) string {
	var b strings.Builder
	for range n {
		fmt.Fprintf(&b, "%c\n", 'a'+rune(r.IntN(alphabet)))
	}
	return b.String()
}

// editDistance is the insert/delete distance of a and b.
func editDistance(a, b []text) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			if a[i-1] == b[j-1] {
				cur[j] = prev[j-1]
			} else {
				cur[j] = 1 + min(prev[j], cur[j-1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// TestTinyCostLimit: with a cost bound of 1 to 3 every split past it takes
// the furthest point, and the diff must still turn a into b, with 0 to 5
// lines of context.
func TestTinyCostLimit(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for range 3000 {
		a, b := randomLines(r, r.IntN(60), 3), randomLines(r, r.IntN(60), 3)
		hs := diffContext(a, b, r.IntN(6), 1+r.IntN(3))
		got, err := apply(a, hs)
		if err != nil || got != b {
			t.Fatalf("diff of %q and %q: apply gives %q, %v\n%s", a, b, got, err, Unified("a", "b", hs))
		}
		checkNewNumbers(t, b, hs)
	}
}

// TestCostLimit: a pair far beyond the cost limit still gives a correct
// diff, quickly, with every line of both sides accounted for.
func TestCostLimit(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	a, b := randomLines(r, 20000, 26), randomLines(r, 20000, 26)
	start := time.Now()
	check(t, a, b)
	fullyDifferent(t, 20000)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

func fullyDifferent(t *testing.T, n int) {
	var a, b strings.Builder
	for i := range n {
		fmt.Fprintf(&a, "old line %d\n", i)
		fmt.Fprintf(&b, "new line %d\n", i)
	}
	hs := check(t, a.String(), b.String())
	if add, del := Stats(hs); add != n || del != n {
		t.Errorf("fully different: +%d -%d, want +%d -%d", add, del, n, n)
	}
}

func TestLongLine(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	hs := check(t, "a\n"+long+"\nb\n", "a\n"+long+"y\nb\n")
	if add, del := Stats(hs); add != 1 || del != 1 {
		t.Errorf("+%d -%d", add, del)
	}
}

func FuzzDiff(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nc\nd")
	f.Add("", "x")
	f.Add("x\r\ny\r\n", "x\ny\n")
	f.Add("1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n3\n4\n5\n6\n7\n8\n9\n0\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		hs := Diff(a, b)
		got, err := apply(a, hs)
		if err != nil {
			t.Fatalf("apply: %v\n%s", err, Unified("a", "b", hs))
		}
		if got != b {
			t.Fatalf("apply gives %q, want %q", got, b)
		}
		if (a == b) != (len(hs) == 0) {
			t.Fatalf("equal %v, %d hunks", a == b, len(hs))
		}
	})
}

// BenchmarkDiff: a 10,000-line file with 100 scattered one-line edits.
func BenchmarkDiff(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	lines := make([]string, 10000)
	for i := range lines {
		lines[i] = fmt.Sprintf("\tline %d: %x", i, r.Uint64())
	}
	old := strings.Join(lines, "\n") + "\n"
	for range 100 {
		i := r.IntN(len(lines))
		lines[i] = "edited " + lines[i]
	}
	nw := strings.Join(lines, "\n") + "\n"
	b.ReportAllocs()
	b.SetBytes(int64(len(old)))
	for b.Loop() {
		Diff(old, nw)
	}
}

// BenchmarkDiffDifferent: two 1 MB texts with no line in common.
func BenchmarkDiffDifferent(b *testing.B) {
	var x, y strings.Builder
	for i := 0; x.Len() < 1<<20; i++ {
		fmt.Fprintf(&x, "old line %d of the first text\n", i)
		fmt.Fprintf(&y, "new line %d of the other one\n", i)
	}
	b.ReportAllocs()
	b.SetBytes(int64(x.Len()))
	for b.Loop() {
		Diff(x.String(), y.String())
	}
}

// BenchmarkDiffAlike: two 1 MB texts of lines drawn from the same 64, so
// almost every line has matches everywhere: the cost limit's worst case.
func BenchmarkDiffAlike(b *testing.B) {
	r := rand.New(rand.NewPCG(7, 8))
	var x, y strings.Builder
	for x.Len() < 1<<20 {
		fmt.Fprintf(&x, "common line %d\n", r.IntN(64))
		fmt.Fprintf(&y, "common line %d\n", r.IntN(64))
	}
	b.ReportAllocs()
	b.SetBytes(int64(x.Len()))
	for b.Loop() {
		Diff(x.String(), y.String())
	}
}
