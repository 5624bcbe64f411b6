// Package textdiff is a line diff: Myers' O(ND) algorithm in linear space,
// with a cost limit so that a large, very different pair of texts cannot
// take quadratic time, and unified-diff hunks with context and line numbers.
//
// Lines are split on "\n" only; a "\r" stays part of its line's text, so a
// CRLF file diffs line by line and a change of line endings shows as one.
package textdiff

import (
	"fmt"
	"strconv"
	"strings"
)

// Op is what a line of a diff does.
type Op int

const (
	Equal  Op = iota // in both texts (context)
	Delete           // only in the old text
	Insert           // only in the new text
)

// Line is one line of a hunk.
type Line struct {
	Op   Op
	Text string // without its "\n"
	// Old and New are the line's 1-based numbers in the old and new text;
	// 0 where it is absent (New of a Delete, Old of an Insert).
	Old, New int
	// NoEOL is set on the last line of a text that does not end in "\n".
	NoEOL bool
}

// Hunk is a run of changes with the unchanged lines around them.
// OldStart and NewStart are 1-based; when a side has no lines (OldLines or
// NewLines 0) its start is the number of the line before the hunk, as in
// a unified diff.
type Hunk struct {
	OldStart, OldLines int
	NewStart, NewLines int
	Lines              []Line
}

// Context is the number of unchanged lines Diff keeps around a change.
const Context = 3

// maxCost bounds the search of one split point: past it the diff takes the
// furthest point reached instead of the best one, so the result stays a
// correct edit script, possibly longer than the shortest, and the time
// stays O((N+M)·cost). The bound is lower for long texts, so that
// (N+M)·cost stays near costBudget; never below minCost.
const (
	maxCost    = 256
	minCost    = 32
	costBudget = 1 << 23
)

// costLimit is the cost bound for texts of n lines in all.
func costLimit(n int) int {
	if n == 0 {
		return maxCost
	}
	return max(minCost, min(maxCost, costBudget/n))
}

// Diff is the line diff of a and b as hunks with Context lines of context;
// nil when they are equal.
func Diff(a, b string) []Hunk {
	return diffContext(a, b, Context, 0)
}

// diffContext is Diff with context lines of context and a cost bound of
// limit (0: costLimit's).
func diffContext(a, b string, context, limit int) []Hunk {
	if a == b {
		return nil
	}
	la, lb := split(a), split(b)
	delA, insB := make([]bool, len(la)), make([]bool, len(lb))
	// The common head and tail are equal lines, left out of the rest.
	pre := 0
	for pre < len(la) && pre < len(lb) && la[pre] == lb[pre] {
		pre++
	}
	suf := 0
	for suf < len(la)-pre && suf < len(lb)-pre && la[len(la)-1-suf] == lb[len(lb)-1-suf] {
		suf++
	}
	ma, mb := la[pre:len(la)-suf], lb[pre:len(lb)-suf]
	// A line found on one side only is a change for certain: it is marked
	// here and left out of the search, which costs nothing in minimality
	// (no common subsequence holds it) and makes texts with little in
	// common cheap.
	ia, ib, ka, kb := intern(ma, mb)
	if limit <= 0 {
		limit = costLimit(len(ia) + len(ib))
	}
	d := &differ{a: ia, b: ib, delA: make([]bool, len(ia)), insB: make([]bool, len(ib)), limit: limit}
	d.compare(0, len(ia), 0, len(ib))
	for i, k := range ka {
		delA[pre+i] = k < 0 || d.delA[k]
	}
	for j, k := range kb {
		insB[pre+j] = k < 0 || d.insB[k]
	}
	return hunks(la, lb, delA, insB, context)
}

// Stats counts the lines the hunks add and remove.
func Stats(hs []Hunk) (added, removed int) {
	for _, h := range hs {
		for _, l := range h.Lines {
			switch l.Op {
			case Insert:
				added++
			case Delete:
				removed++
			}
		}
	}
	return added, removed
}

// Unified is hs as the text of a unified diff from pathA to pathB, "" when
// there are no hunks. Text is written as it is: the caller escapes it for
// wherever it is shown.
func Unified(pathA, pathB string, hs []Hunk) string {
	if len(hs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("--- " + pathA + "\n+++ " + pathB + "\n")
	for _, h := range hs {
		b.WriteString("@@ -" + span(h.OldStart, h.OldLines) + " +" + span(h.NewStart, h.NewLines) + " @@\n")
		for _, l := range h.Lines {
			switch l.Op {
			case Equal:
				b.WriteByte(' ')
			case Delete:
				b.WriteByte('-')
			case Insert:
				b.WriteByte('+')
			}
			b.WriteString(l.Text)
			b.WriteByte('\n')
			if l.NoEOL {
				b.WriteString("\\ No newline at end of file\n")
			}
		}
	}
	return b.String()
}

// span is a hunk header's range: "start,count", or "start" for one line.
func span(start, n int) string {
	if n == 1 {
		return strconv.Itoa(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// text is one line as compared: its text and whether a "\n" ended it.
type text struct {
	s     string
	noEOL bool
}

// split cuts s into lines; the text after the last "\n", when not empty,
// is a line without an end.
func split(s string) []text {
	if s == "" {
		return nil
	}
	out := make([]text, 0, strings.Count(s, "\n")+1)
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, text{s: s, noEOL: true})
			break
		}
		out = append(out, text{s: s[:i]})
		s = s[i+1:]
	}
	return out
}

// intern numbers the distinct lines of a and b, so comparing two lines
// costs one integer comparison, and keeps only the lines found on both
// sides: ia and ib are their numbers, ka and kb give each line of a and b
// its index in ia or ib, -1 for a line of one side only.
func intern(a, b []text) (ia, ib, ka, kb []int) {
	type seen struct{ id, inA, inB int }
	ids := make(map[text]*seen, len(a))
	all := make([]seen, 0, len(a)+len(b))
	num := func(ls []text, inB bool) []*seen {
		out := make([]*seen, len(ls))
		for i, l := range ls {
			s, ok := ids[l]
			if !ok {
				// all never grows past its capacity, so s stays valid.
				all = append(all, seen{id: len(ids)})
				s = &all[len(all)-1]
				ids[l] = s
			}
			if inB {
				s.inB++
			} else {
				s.inA++
			}
			out[i] = s
		}
		return out
	}
	sa, sb := num(a, false), num(b, true)
	keep := func(ss []*seen) (ids, idx []int) {
		idx = make([]int, len(ss))
		for i, s := range ss {
			idx[i] = -1
			if s.inA > 0 && s.inB > 0 {
				idx[i] = len(ids)
				ids = append(ids, s.id)
			}
		}
		return ids, idx
	}
	ia, ka = keep(sa)
	ib, kb = keep(sb)
	return ia, ib, ka, kb
}

// differ marks the lines of a to delete and of b to insert.
type differ struct {
	a, b       []int
	delA, insB []bool
	vf, vb     []int // the furthest-reaching x on each diagonal, reused
	limit      int   // the cost bound of one split (costLimit)
}

// compare marks the differences of a[aLo:aHi] and b[bLo:bHi]. It recurses
// only to a depth of O(log) on the split points, each strictly inside.
func (d *differ) compare(aLo, aHi, bLo, bHi int) {
	for {
		for aLo < aHi && bLo < bHi && d.a[aLo] == d.b[bLo] {
			aLo++
			bLo++
		}
		for aLo < aHi && bLo < bHi && d.a[aHi-1] == d.b[bHi-1] {
			aHi--
			bHi--
		}
		if aLo == aHi {
			for j := bLo; j < bHi; j++ {
				d.insB[j] = true
			}
			return
		}
		if bLo == bHi {
			for i := aLo; i < aHi; i++ {
				d.delA[i] = true
			}
			return
		}
		x, y := d.split(aLo, aHi, bLo, bHi)
		// Recurse into the smaller half, loop on the other: the stack
		// stays shallow whatever the input.
		if (x-aLo)+(y-bLo) < (aHi-x)+(bHi-y) {
			d.compare(aLo, x, bLo, y)
			aLo, bLo = x, y
		} else {
			d.compare(x, aHi, y, bHi)
			aHi, bHi = x, y
		}
	}
}

// split finds a point (x, y) on an edit path from (aLo, bLo) to (aHi, bHi),
// strictly between them: the middle of a shortest path when one is found
// within the cost limit, else the furthest point the forward search reached. The
// ranges are non-empty and differ in their first and last lines.
func (d *differ) split(aLo, aHi, bLo, bHi int) (int, int) {
	a, b := d.a[aLo:aHi], d.b[bLo:bHi]
	n, m := len(a), len(b)
	maxD := (n + m + 1) / 2
	// The rounds stop at d.limit, so only the diagonals within lim of 0
	// are ever written; the arrays are that wide, not n+m.
	lim := min(maxD, d.limit+1)
	off := lim + 1
	size := 2*lim + 3
	if cap(d.vf) < size {
		d.vf = make([]int, size)
		d.vb = make([]int, size)
	}
	vf, vb := d.vf[:size], d.vb[:size]
	// Only the diagonals of the current round are read, and those the
	// previous round wrote; -1 marks what no round wrote.
	for i := range vf {
		vf[i], vb[i] = -1, -1
	}
	vf[off+1], vb[off+1] = 0, 0
	delta := n - m
	odd := delta&1 != 0
	// Diagonals that left the grid are trimmed from the rounds after.
	fStart, fEnd, bStart, bEnd := 0, 0, 0, 0
	for k := 0; k <= maxD; k++ {
		if k > d.limit {
			return d.furthest(aLo, bLo, n, m, off, k-1, fStart, fEnd)
		}
		for kf := -k + fStart; kf <= k-fEnd; kf += 2 {
			var x int
			if kf == -k || (kf != k && vf[off+kf-1] < vf[off+kf+1]) {
				x = vf[off+kf+1]
			} else {
				x = vf[off+kf-1] + 1
			}
			y := x - kf
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			vf[off+kf] = x
			switch {
			case x > n:
				fEnd += 2
			case y > m:
				fStart += 2
			case odd:
				if kb := delta - kf; kb >= -lim-1 && kb <= lim+1 && vb[off+kb] != -1 && x >= n-vb[off+kb] {
					return aLo + x, bLo + y
				}
			}
		}
		for kb := -k + bStart; kb <= k-bEnd; kb += 2 {
			var x int
			if kb == -k || (kb != k && vb[off+kb-1] < vb[off+kb+1]) {
				x = vb[off+kb+1]
			} else {
				x = vb[off+kb-1] + 1
			}
			y := x - kb
			for x < n && y < m && a[n-x-1] == b[m-y-1] {
				x++
				y++
			}
			vb[off+kb] = x
			switch {
			case x > n:
				bEnd += 2
			case y > m:
				bStart += 2
			case !odd:
				if kf := delta - kb; kf >= -lim-1 && kf <= lim+1 && vf[off+kf] != -1 {
					fx := vf[off+kf]
					if fx >= n-x {
						return aLo + fx, bLo + fx - kf
					}
				}
			}
		}
	}
	// Not reached for a well-formed range (a path has at most n+m steps);
	// any inner point keeps the script correct.
	return d.furthest(aLo, bLo, n, m, off, maxD, fStart, fEnd)
}

// furthest is the point of round k of the forward search that is furthest
// along (largest x+y) and inside the grid, not at its end.
func (d *differ) furthest(aLo, bLo, n, m, off, k, fStart, fEnd int) (int, int) {
	bx, by := -1, -1
	for kf := -k + fStart; kf <= k-fEnd; kf += 2 {
		x := d.vf[off+kf]
		y := x - kf
		if x < 0 || x > n || y < 0 || y > m || (x == n && y == m) || x+y == 0 {
			continue
		}
		if x+y > bx+by {
			bx, by = x, y
		}
	}
	if bx < 0 {
		// Cannot happen after a round of at least one step; split the
		// ranges in their middles, which is still a correct script.
		bx, by = n/2, m/2
		if bx+by == 0 {
			bx = 1
		}
	}
	return aLo + bx, bLo + by
}
