package textdiff

// step is one line of the edit script: its op, and the 0-based positions in
// a and b it is at (for a Delete, j is where b stands, not a line of it;
// for an Insert, likewise i).
type step struct {
	op   Op
	i, j int
}

// hunks turns the marks into hunks with context unchanged lines around
// each change; changes closer than 2·context+1 lines share a hunk.
func hunks(a, b []text, delA, insB []bool, context int) []Hunk {
	script := make([]step, 0, max(len(a), len(b)))
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && delA[i]:
			script = append(script, step{Delete, i, j})
			i++
		case j < len(b) && insB[j]:
			script = append(script, step{Insert, i, j})
			j++
		default:
			script = append(script, step{Equal, i, j})
			i++
			j++
		}
	}
	var out []Hunk
	for k := 0; k < len(script); {
		if script[k].op == Equal {
			k++
			continue
		}
		start := max(k-context, 0)
		end := k // one past the last change in this hunk
		for end < len(script) {
			if script[end].op != Equal {
				end++
				continue
			}
			// A run of equal lines: does another change follow within
			// 2·context lines?
			run := end
			for run < len(script) && script[run].op == Equal && run-end <= 2*context {
				run++
			}
			if run < len(script) && script[run].op != Equal {
				end = run
				continue
			}
			break
		}
		stop := min(end+context, len(script))
		out = append(out, makeHunk(a, b, script[start:stop]))
		k = stop
	}
	return out
}

func makeHunk(a, b []text, steps []step) Hunk {
	h := Hunk{Lines: make([]Line, 0, len(steps))}
	for _, s := range steps {
		var l Line
		switch s.op {
		case Delete:
			l = Line{Op: Delete, Text: a[s.i].s, Old: s.i + 1, NoEOL: a[s.i].noEOL}
			h.OldLines++
		case Insert:
			l = Line{Op: Insert, Text: b[s.j].s, New: s.j + 1, NoEOL: b[s.j].noEOL}
			h.NewLines++
		default:
			l = Line{Op: Equal, Text: a[s.i].s, Old: s.i + 1, New: s.j + 1, NoEOL: a[s.i].noEOL}
			h.OldLines++
			h.NewLines++
		}
		h.Lines = append(h.Lines, l)
	}
	// The lines before the hunk, plus one when the side has lines.
	h.OldStart, h.NewStart = steps[0].i, steps[0].j
	if h.OldLines > 0 {
		h.OldStart++
	}
	if h.NewLines > 0 {
		h.NewStart++
	}
	return h
}
