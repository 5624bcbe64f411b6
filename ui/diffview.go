package ui

import (
	"encoding/json"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

const (
	// maxDiffRows is the most rows (hunk headers, lines, notes) an
	// expanded diff draws; Copy diff gives the rest.
	maxDiffRows = 400
	// maxDiffLine is where a line is cut for display, before it is
	// escaped; the row then shows what fits its width.
	maxDiffLine = 2000
	// maxIndent is the widest leading indentation shown as spaces; a wider
	// one is named, like a long run of spaces anywhere.
	maxIndent = 32
	// tabWidth is the tab stop a diff line is shown with.
	tabWidth = 4
	// tintDiff is the alpha of a deleted or inserted line's tint (error or
	// success over the background).
	tintDiff = 48
)

// diffRowKind is what one row of a diffView shows.
type diffRowKind uint8

const (
	diffHeader diffRowKind = iota // "@@ -a,b +c,d @@"
	diffContext
	diffDeleted
	diffInserted
	diffNote // "\ No newline at end of file", "… N more lines"
)

// diffRow is one drawn row: the gutter (line numbers and mark) and the
// text, both already escaped for display.
type diffRow struct {
	kind   diffRowKind
	gutter string
	text   string
	runes  int // of text
}

// diffView is an expanded FileDiff: rows of one height in monospace, at
// most maxDiffRows of them, made when the diff is set (so binding a card
// to the same diff again costs nothing) and drawn with two texts and, for
// a changed line, a tint each.
type diffView struct {
	widget.BaseWidget
	fd   *app.FileDiff
	rows []diffRow
}

func newDiffView() *diffView {
	v := &diffView{}
	v.ExtendBaseWidget(v)
	return v
}

// setDiff shows fd; the rows are made again only for another diff.
func (v *diffView) setDiff(fd *app.FileDiff) {
	if fd == v.fd {
		return
	}
	v.fd = fd
	v.rows = diffRows(fd, maxDiffRows)
	v.Refresh()
}

// diffRows is fd as at most limit rows, the last saying how many lines
// are left out when there are more.
func diffRows(fd *app.FileDiff, limit int) []diffRow {
	if fd == nil {
		return nil
	}
	type raw struct {
		kind     diffRowKind
		old, new int
		text     string
	}
	var rs []raw
	more := 0 // lines of the diff not drawn
	add := func(r raw) bool {
		if len(rs) >= limit-1 {
			if r.kind != diffHeader && r.kind != diffNote {
				more++
			}
			return false
		}
		rs = append(rs, r)
		return true
	}
	if len(fd.Hunks) == 0 {
		// A new file (or a Write over a file not read): its first lines.
		for i, l := range fd.Head {
			add(raw{kind: diffInserted, new: i + 1, text: l})
		}
		if n := fd.Added - len(fd.Head); n > 0 {
			more += n
		}
	}
	for _, h := range fd.Hunks {
		add(raw{kind: diffHeader, text: hunkHeader(h)})
		for _, l := range h.Lines {
			k := diffContext
			switch l.Op {
			case app.DiffDelete:
				k = diffDeleted
			case app.DiffInsert:
				k = diffInserted
			}
			if add(raw{kind: k, old: l.Old, new: l.New, text: l.Text}) && l.NoEOL {
				add(raw{kind: diffNote, text: `\ No newline at end of file`})
			}
		}
	}
	if more > 0 {
		note := fmt.Sprintf("… %d more lines (Copy diff for all)", more)
		if len(fd.Hunks) == 0 {
			note = fmt.Sprintf("… %d more lines", more)
		}
		rs = append(rs, raw{kind: diffNote, text: note})
	}
	// The gutter is as wide as the largest line number drawn.
	width := 1
	for _, r := range rs {
		width = max(width, len(strconv.Itoa(r.old)), len(strconv.Itoa(r.new)))
	}
	num := func(n int) string {
		if n == 0 {
			return strings.Repeat(" ", width)
		}
		s := strconv.Itoa(n)
		return strings.Repeat(" ", width-len(s)) + s
	}
	out := make([]diffRow, len(rs))
	for i, r := range rs {
		mark := " "
		switch r.kind {
		case diffDeleted:
			mark = "-"
		case diffInserted:
			mark = "+"
		}
		text := r.text
		if r.kind != diffNote && r.kind != diffHeader {
			text = displayLine(r.text)
		}
		out[i] = diffRow{kind: r.kind, gutter: num(r.old) + " " + num(r.new) + " " + mark + " ", text: text, runes: utf8.RuneCountInString(text)}
	}
	return out
}

// hunkHeader is a hunk's unified header, "@@ -a,b +c,d @@".
func hunkHeader(h app.DiffHunk) string {
	return "@@ -" + diffSpan(h.OldStart, h.OldLines) + " +" + diffSpan(h.NewStart, h.NewLines) + " @@"
}

// diffSpan is a header's range: "start,count", or "start" for one line.
func diffSpan(start, n int) string {
	if n == 1 {
		return strconv.Itoa(start)
	}
	return strconv.Itoa(start) + "," + strconv.Itoa(n)
}

// displayLine is a line of a file as a diff row shows it: cut at
// maxDiffLine characters (marked), tabs at stops of tabWidth, leading
// indentation up to maxIndent columns as spaces, and everything else
// through app.VisibleLine, so a long run of blanks that could hide a tail,
// control characters, ANSI escapes and bidi overrides show as markers.
func displayLine(s string) string {
	cut := 0
	if utf8.RuneCountInString(s) > maxDiffLine {
		n, i := 0, 0
		for i = range s {
			if n == maxDiffLine {
				break
			}
			n++
		}
		cut = utf8.RuneCountInString(s[i:])
		s = s[:i]
	}
	var b strings.Builder
	col := 0
	lead := true
	for len(s) > 0 {
		// A run of blanks.
		j := 0
		w := col
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			if s[j] == '\t' {
				w += tabWidth - w%tabWidth
			} else {
				w++
			}
			j++
		}
		if j > 0 {
			run := s[:j]
			s = s[j:]
			if (lead && w <= maxIndent) || (!lead && w-col <= 2*tabWidth) {
				b.WriteString(strings.Repeat(" ", w-col))
				col = w
			} else {
				v := app.VisibleLine(run)
				b.WriteString(v)
				col += utf8.RuneCountInString(v)
			}
		}
		lead = false
		// The text up to the next blank.
		j = 0
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		if j > 0 {
			v := app.VisibleLine(s[:j])
			b.WriteString(v)
			col += utf8.RuneCountInString(v)
			s = s[j:]
		}
	}
	if cut > 0 {
		fmt.Fprintf(&b, " ⟨… %d more characters⟩", cut)
	}
	return b.String()
}

// displayText is a text of lines (a tool's output) as displayLine shows
// each line.
func displayText(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = displayLine(l)
	}
	return strings.Join(lines, "\n")
}

// unifiedDiff is fd as the exact text of a unified diff, nothing escaped:
// what Copy diff gives. A new file's lines come from the call's input
// (content, or an Edit's new_string), which the FileDiff does not keep.
func unifiedDiff(fd *app.FileDiff, input string) string {
	if fd == nil {
		return ""
	}
	var b strings.Builder
	if len(fd.Hunks) == 0 {
		var in struct {
			Content *string `json:"content"`
			New     *string `json:"new_string"`
		}
		_ = json.Unmarshal([]byte(input), &in)
		var content string
		switch {
		case in.Content != nil:
			content = *in.Content
		case in.New != nil:
			content = *in.New
		default:
			// Nothing parsed: the first lines are all there is.
			content = strings.Join(fd.Head, "\n")
		}
		from := fd.Path
		if fd.New {
			from = "/dev/null"
		}
		b.WriteString("--- " + from + "\n+++ " + fd.Path + "\n")
		if content == "" {
			return b.String()
		}
		n := strings.Count(strings.TrimSuffix(content, "\n"), "\n") + 1
		b.WriteString("@@ -0,0 +" + diffSpan(1, n) + " @@\n")
		for content != "" {
			line, rest, ok := strings.Cut(content, "\n")
			b.WriteString("+" + line + "\n")
			if !ok {
				b.WriteString("\\ No newline at end of file\n")
			}
			content = rest
		}
		return b.String()
	}
	b.WriteString("--- " + fd.Path + "\n+++ " + fd.Path + "\n")
	for _, h := range fd.Hunks {
		b.WriteString(hunkHeader(h) + "\n")
		for _, l := range h.Lines {
			switch l.Op {
			case app.DiffDelete:
				b.WriteByte('-')
			case app.DiffInsert:
				b.WriteByte('+')
			default:
				b.WriteByte(' ')
			}
			b.WriteString(l.Text + "\n")
			if l.NoEOL {
				b.WriteString("\\ No newline at end of file\n")
			}
		}
	}
	return b.String()
}

func (v *diffView) CreateRenderer() fyne.WidgetRenderer {
	r := &diffRenderer{v: v}
	r.Refresh()
	return r
}

// diffRenderer draws the rows; its texts and tints are pooled, so a
// card bound to another diff reuses them.
type diffRenderer struct {
	v       *diffView
	bgs     []*canvas.Rectangle
	gutters []*canvas.Text
	texts   []*canvas.Text
	objects []fyne.CanvasObject
	charW   float32
	rowH    float32
	cols    int // characters of text that fit, at the last layout
}

// metrics is the monospace cell of the current theme.
func (r *diffRenderer) metrics() {
	s := fyne.MeasureText("M", theme.TextSize(), fyne.TextStyle{Monospace: true})
	// Whole pixels, so the tints of adjacent rows meet without a seam.
	r.charW, r.rowH = s.Width, float32(math.Ceil(float64(s.Height)+2))
}

func (r *diffRenderer) Refresh() {
	r.metrics()
	rows := r.v.rows
	for len(r.texts) < len(rows) {
		bg := canvas.NewRectangle(color.Transparent)
		g := canvas.NewText("", color.Black)
		g.TextStyle.Monospace = true
		t := canvas.NewText("", color.Black)
		t.TextStyle.Monospace = true
		r.bgs, r.gutters, r.texts = append(r.bgs, bg), append(r.gutters, g), append(r.texts, t)
	}
	fg := theme.Color(theme.ColorNameForeground)
	dim := theme.Color(theme.ColorNamePlaceHolder)
	del, ins := tint(theme.ColorNameError, tintDiff), tint(theme.ColorNameSuccess, tintDiff)
	r.objects = r.objects[:0]
	for i, row := range rows {
		bg, g, t := r.bgs[i], r.gutters[i], r.texts[i]
		g.Text, g.Color, g.TextSize = row.gutter, dim, theme.TextSize()
		t.Color, t.TextSize, t.TextStyle.Italic = fg, theme.TextSize(), false
		switch row.kind {
		case diffDeleted:
			bg.FillColor = del
		case diffInserted:
			bg.FillColor = ins
		default:
			bg.FillColor = color.Transparent
		}
		switch row.kind {
		case diffHeader:
			t.Color = theme.Color(theme.ColorNamePrimary)
		case diffNote:
			t.Color, t.TextStyle.Italic = dim, true
		}
		if bg.FillColor != color.Transparent {
			r.objects = append(r.objects, bg)
		}
		r.objects = append(r.objects, g, t)
	}
	for i := len(rows); i < len(r.texts); i++ {
		r.gutters[i].Text, r.texts[i].Text = "", "" // hold no text of another diff
	}
	r.Layout(r.v.Size())
	for _, o := range r.objects {
		o.Refresh()
	}
}

func (r *diffRenderer) Layout(size fyne.Size) {
	if r.charW == 0 {
		r.metrics()
	}
	rows := r.v.rows
	gw := float32(0)
	if len(rows) > 0 {
		gw = r.charW * float32(utf8.RuneCountInString(rows[0].gutter))
	}
	r.cols = max(int((size.Width-gw)/r.charW), 4)
	for i, row := range rows {
		y := float32(i) * r.rowH
		r.bgs[i].Move(fyne.NewPos(0, y))
		r.bgs[i].Resize(fyne.NewSize(size.Width, r.rowH))
		r.gutters[i].Move(fyne.NewPos(0, y))
		r.gutters[i].Resize(fyne.NewSize(gw, r.rowH))
		t := r.texts[i]
		text := row.text
		if row.runes > r.cols {
			text = firstRunes(text, r.cols-1) + "…"
		}
		if t.Text != text {
			t.Text = text
			t.Refresh()
		}
		t.Move(fyne.NewPos(gw, y))
		t.Resize(fyne.NewSize(size.Width-gw, r.rowH))
	}
}

func (r *diffRenderer) MinSize() fyne.Size {
	if r.charW == 0 {
		r.metrics()
	}
	return fyne.NewSize(r.charW*30, r.rowH*float32(len(r.v.rows)))
}

func (r *diffRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *diffRenderer) Destroy()                     {}
