package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// bindAssistant shows answer row id in r: parsed once per version of the
// row (the document is kept in the entry's md cache), built into objects
// only when the view shows another document than before.
func (r *rowView) bindAssistant(t *transcript, id int) {
	e := t.entries[id]
	if r.assistant == nil {
		r.assistant = newMDView()
		r.assistantBox = container.NewPadded(r.assistant)
	}
	doc := cachedDoc(e)
	if doc == nil || e.mdVer != e.version {
		doc = t.parseRow(id)
		e.md, e.mdVer = []widget.RichTextSegment{doc}, e.version
	}
	r.assistant.set(doc, mdEnv{open: t.actions.openLink, copy: t.copy, row: e.text.s})
	r.show(r.assistantBox)
}

func cachedDoc(e *entry) *mdDoc {
	if len(e.md) == 1 {
		if d, ok := e.md[0].(*mdDoc); ok {
			return d
		}
	}
	return nil
}

// parseRow parses answer row id. Only the row's own text is read, with two
// exceptions that keep a construct whole when the transcript split it: a
// row that continues a table broken at a line end borrows the table's
// header, and a row that continues a list after a blank line (an indented
// item or paragraph) is read without its indent and drawn indented.
func (t *transcript) parseRow(id int) *mdDoc {
	e := t.entries[id]
	s := e.text.s
	head, cut := cutSource(s, maxRowText)
	src, offset, indent := head, 0, 0
	if prefix := t.tableHeader(id); prefix != "" {
		src, offset = prefix+head, len(prefix)
	} else if n := t.listIndent(id); n > 0 {
		src, indent = dedent(head, n), n
	}
	doc := &mdDoc{blocks: parseMarkdown(src), src: src, offset: offset}
	if cut {
		if n := len(doc.blocks); n > 0 && doc.blocks[n-1].kind == mdCode && offset == 0 && indent == 0 && doc.blocks[n-1].fence != "" {
			b := &doc.blocks[n-1]
			full := fullCode(s, b)
			if len(full) > len(b.code) {
				b.cut = true
				b.more = strings.Count(full[len(b.code):], "\n")
			}
		} else {
			doc.blocks = append(doc.blocks, mdBlock{kind: mdNote, spans: []mdSpan{{text: "… " + tokens(len(s)-len(head)) + " more characters not shown"}}})
		}
	}
	if indent > 0 {
		level := max(1, (indent+2)/4)
		for range level {
			doc.blocks = []mdBlock{{kind: mdList, items: [][]mdBlock{doc.blocks}, start: -1}}
		}
	}
	return doc
}

// continues reports whether row id is a piece of the same streamed block
// as the row before it, and what stood between them.
func (t *transcript) continues(id int) (*entry, bool) {
	if id == 0 {
		return nil, false
	}
	e, prev := t.entries[id], t.entries[id-1]
	if prev.kind != e.kind || prev.block != e.block || e.block == "" || e.joiner == "" {
		return nil, false
	}
	return prev, true
}

// tableHeader is the header and delimiter lines of the table row id
// continues, when the transcript broke a long table at a line end.
func (t *transcript) tableHeader(id int) string {
	e := t.entries[id]
	if e.joiner != "\n" || !strings.HasPrefix(strings.TrimLeft(e.text.s, " "), "|") {
		return ""
	}
	// The table starts in the first row of the chain broken at line ends.
	first := id
	for first > 0 {
		if _, ok := t.continues(first); !ok || t.entries[first].joiner != "\n" {
			break
		}
		first--
	}
	if first == id {
		return ""
	}
	s := t.entries[first].text.s
	// The last delimiter line of that row, and the line before it.
	lines := strings.SplitAfter(s, "\n")
	for i := len(lines) - 1; i > 0; i-- {
		if isDelimiterRow(lines[i]) {
			h, d := lines[i-1], lines[i]
			if !strings.HasSuffix(d, "\n") {
				d += "\n"
			}
			return h + d
		}
	}
	return ""
}

// isDelimiterRow reports a table's |---|:--:| line.
func isDelimiterRow(l string) bool {
	l = strings.TrimSpace(l)
	if !strings.Contains(l, "-") || !strings.Contains(l, "|") && !strings.Contains(l, "---") {
		return false
	}
	return strings.Trim(l, "|-: \t") == ""
}

// listIndent is the indent of row id when it continues a list after a
// blank line (the transcript made each paragraph a row): 0 otherwise.
func (t *transcript) listIndent(id int) int {
	e := t.entries[id]
	prev, ok := t.continues(id)
	if !ok || len(e.joiner) < 2 {
		return 0
	}
	n := len(e.text.s) - len(strings.TrimLeft(e.text.s, " "))
	if n < 2 || !looksListed(prev.text.s) {
		return 0
	}
	return n
}

// looksListed reports whether a row starts with a list item (indented or
// not), or is itself an indented continuation of one.
func looksListed(s string) bool {
	t := strings.TrimLeft(s, " ")
	if len(s)-len(t) >= 2 {
		return true
	}
	if len(t) > 1 && (t[0] == '-' || t[0] == '*' || t[0] == '+') && t[1] == ' ' {
		return true
	}
	i := 0
	for i < len(t) && i < 9 && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && t[i+1] == ' '
}

// dedent removes up to n leading spaces from every line of s.
func dedent(s string, n int) string {
	var sb strings.Builder
	sb.Grow(len(s))
	for len(s) > 0 {
		line := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line = s[:i+1]
		}
		s = s[len(line):]
		k := 0
		for k < n && k < len(line) && line[k] == ' ' {
			k++
		}
		sb.WriteString(line[k:])
	}
	return sb.String()
}

// estimateAssistant guesses an answer row's height without parsing it: a
// line per readable line width of text (prose is laid out at most ~100
// characters wide), and a line per line of code. It reads at most what
// the row shows and allocates nothing.
func estimateAssistant(s string, width float32) float32 {
	const line = 22
	chars := float32(90)
	if width > 0 {
		chars = fyne.Max(20, fyne.Min(width/8, 100))
	}
	n := float32(0)
	if len(s) > maxRowText {
		s, n = s[:maxRowText], 2
	}
	fences, inCode, code := 0, false, 0
	for {
		i := strings.IndexByte(s, '\n')
		l := s
		if i >= 0 {
			l = s[:i]
		}
		if strings.HasPrefix(strings.TrimLeft(l, " "), "```") {
			fences++
			inCode, code = !inCode, 0
		}
		switch {
		case inCode:
			// A code block draws at most maxCodeLines lines, unwrapped.
			if code++; code <= maxCodeLines+1 {
				n++
			}
		default:
			n += 1 + float32(int(float32(len(l))/chars))
		}
		if i < 0 {
			break
		}
		s = s[i+1:]
	}
	// A code block's card adds a header line.
	return 16 + line*n + float32(fences+1)/2*line
}
