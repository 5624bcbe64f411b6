package ui

import (
	"net/url"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"

	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Model-written markdown is parsed here into a small block list (mdBlock),
// once per version of a row, and drawn by markdown_view.go. Only a row's own
// text is parsed; a row that continues a table broken by the transcript's
// splitter borrows the table's header from the row it came from.

type mdKind uint8

const (
	mdPara mdKind = iota
	mdHeading
	mdList
	mdQuote
	mdCode
	mdTable
	mdHR
	mdNote // Latch's own words (what was left out), in the low colour
)

// spanStyle is how an inline run is drawn.
type spanStyle uint8

const (
	spanBold spanStyle = 1 << iota
	spanItalic
	spanCode
	spanStrike
)

// mdSpan is an inline run: text, with a style, or a link with its target.
type mdSpan struct {
	text  string
	style spanStyle
	link  *url.URL // non-nil: a link (shown with its target, asks first)
	image bool     // an image, never loaded: text names its source
}

// mdBlock is one block of an answer.
type mdBlock struct {
	kind  mdKind
	level int      // heading level 1–6
	spans []mdSpan // paragraph, heading, note

	// list
	ordered bool
	start   int
	items   [][]mdBlock

	quote []mdBlock // block quote

	// code
	lang, code string
	codeAt     int    // where the code starts in the parsed source (-1: unknown)
	fence      string // the opening fence ("```", "~~~~"), "" for indented code
	more       int    // lines not shown
	cut        bool   // the row's text was cut inside this block: Copy reads the row
	hl         [][]codeRun
	hlCols     int

	table *mdTableData
}

type mdAlign uint8

const (
	alignNone mdAlign = iota
	alignLeft
	alignCenter
	alignRight
)

type mdTableData struct {
	align  []mdAlign
	header [][]mdSpan   // one per column
	rows   [][][]mdSpan // rows of cells
	more   int          // rows not shown
}

// Limits on what one row draws, so a huge table or code block lays out in
// bounded time; Copy still gives all of the code.
const (
	maxTableRows = 200
	maxCodeLines = 400
)

var (
	mdParserOnce sync.Once
	mdParser     parser.Parser
	mdParserMu   sync.Mutex
)

func markdownParser() parser.Parser {
	mdParserOnce.Do(func() {
		mdParser = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Linkify)).Parser()
	})
	return mdParser
}

// parseMarkdown parses src into blocks. Spans and code are substrings of
// src where they can be.
func parseMarkdown(src string) []mdBlock {
	p := markdownParser()
	b := []byte(src)
	mdParserMu.Lock()
	doc := p.Parse(text.NewReader(b))
	mdParserMu.Unlock()
	c := mdConv{src: src, b: b}
	return c.blocks(doc)
}

type mdConv struct {
	src string
	b   []byte
}

func (c *mdConv) seg(s text.Segment) string { return c.src[s.Start:s.Stop] }

func (c *mdConv) lines(n ast.Node) string {
	ls := n.Lines()
	if ls.Len() == 0 {
		return ""
	}
	// Lines of a block are usually one stretch of the source.
	first, last := ls.At(0), ls.At(ls.Len()-1)
	contiguous := true
	for i := 1; i < ls.Len(); i++ {
		if ls.At(i).Start != ls.At(i-1).Stop || ls.At(i).Padding != 0 {
			contiguous = false
			break
		}
	}
	if contiguous && first.Padding == 0 {
		return c.src[first.Start:last.Stop]
	}
	var sb strings.Builder
	for i := 0; i < ls.Len(); i++ {
		s := ls.At(i)
		sb.WriteString(strings.Repeat(" ", s.Padding))
		sb.WriteString(c.src[s.Start:s.Stop])
	}
	return sb.String()
}

func (c *mdConv) blocks(parent ast.Node) []mdBlock {
	var out []mdBlock
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		switch v := n.(type) {
		case *ast.Paragraph, *ast.TextBlock:
			out = append(out, mdBlock{kind: mdPara, spans: c.inline(n, 0, nil)})
		case *ast.Heading:
			out = append(out, mdBlock{kind: mdHeading, level: v.Level, spans: c.inline(n, 0, nil)})
		case *ast.ThematicBreak:
			out = append(out, mdBlock{kind: mdHR})
		case *ast.Blockquote:
			out = append(out, mdBlock{kind: mdQuote, quote: c.blocks(n)})
		case *ast.List:
			l := mdBlock{kind: mdList, ordered: v.IsOrdered(), start: v.Start}
			for it := n.FirstChild(); it != nil; it = it.NextSibling() {
				l.items = append(l.items, c.blocks(it))
			}
			out = append(out, l)
		case *ast.FencedCodeBlock:
			b := mdBlock{kind: mdCode, code: c.lines(n), codeAt: -1}
			if v.Info != nil {
				b.lang = string(v.Language(c.b))
			}
			if ls := n.Lines(); ls.Len() > 0 {
				b.codeAt = ls.At(0).Start
				if i := strings.LastIndexByte(c.src[:max(0, b.codeAt-1)], '\n'); b.codeAt > 0 {
					b.fence = fenceOf(c.src[i+1 : b.codeAt])
				}
			}
			out = append(out, b)
		case *ast.CodeBlock:
			out = append(out, mdBlock{kind: mdCode, code: c.lines(n), codeAt: -1})
		case *ast.HTMLBlock:
			// Shown as written: Latch renders no HTML.
			s := c.lines(n)
			if v.HasClosure() {
				s += c.seg(v.ClosureLine)
			}
			out = append(out, mdBlock{kind: mdPara, spans: []mdSpan{{text: strings.TrimRight(s, "\n")}}})
		case *east.Table:
			out = append(out, mdBlock{kind: mdTable, table: c.table(v)})
		default:
			if n.HasChildren() {
				out = append(out, c.blocks(n)...)
			}
		}
	}
	return out
}

func fenceOf(s string) string {
	s = strings.TrimLeft(s, " ")
	if s == "" || (s[0] != '`' && s[0] != '~') {
		return ""
	}
	i := 0
	for i < len(s) && s[i] == s[0] {
		i++
	}
	return s[:i]
}

func (c *mdConv) table(t *east.Table) *mdTableData {
	tb := &mdTableData{}
	for _, a := range t.Alignments {
		tb.align = append(tb.align, map[east.Alignment]mdAlign{east.AlignLeft: alignLeft, east.AlignCenter: alignCenter, east.AlignRight: alignRight}[a])
	}
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		var cells [][]mdSpan
		for cell := r.FirstChild(); cell != nil; cell = cell.NextSibling() {
			cells = append(cells, c.inline(cell, 0, nil))
		}
		if _, ok := r.(*east.TableHeader); ok {
			tb.header = cells
			continue
		}
		if len(tb.rows) >= maxTableRows {
			tb.more++
			continue
		}
		tb.rows = append(tb.rows, cells)
	}
	return tb
}

// inline collects the inline runs under n.
func (c *mdConv) inline(n ast.Node, style spanStyle, out []mdSpan) []mdSpan {
	for k := n.FirstChild(); k != nil; k = k.NextSibling() {
		switch v := k.(type) {
		case *ast.Text:
			s := c.seg(v.Segment)
			out = appendSpan(out, mdSpan{text: s, style: style})
			if v.HardLineBreak() {
				out = appendSpan(out, mdSpan{text: "\n", style: style})
			} else if v.SoftLineBreak() {
				out = appendSpan(out, mdSpan{text: " ", style: style})
			}
		case *ast.String:
			out = appendSpan(out, mdSpan{text: string(v.Value), style: style})
		case *ast.CodeSpan:
			var sb strings.Builder
			for t := k.FirstChild(); t != nil; t = t.NextSibling() {
				if tx, ok := t.(*ast.Text); ok {
					sb.WriteString(c.seg(tx.Segment))
				} else if st, ok := t.(*ast.String); ok {
					sb.Write(st.Value)
				}
			}
			out = append(out, mdSpan{text: sb.String(), style: style | spanCode})
		case *ast.Emphasis:
			s := style | spanItalic
			if v.Level >= 2 {
				s = style | spanBold
			}
			out = c.inline(k, s, out)
		case *east.Strikethrough:
			out = c.inline(k, style|spanStrike, out)
		case *ast.Link:
			out = append(out, mdSpan{text: plainText(c.inline(k, 0, nil)), style: style, link: parseLink(string(v.Destination))})
		case *ast.AutoLink:
			u := string(v.URL(c.b))
			if v.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(u), "mailto:") {
				u = "mailto:" + u
			}
			out = append(out, mdSpan{text: string(v.Label(c.b)), style: style, link: parseLink(u)})
		case *ast.Image:
			out = append(out, mdSpan{text: imageLabel(plainText(c.inline(k, 0, nil)), string(v.Destination)), style: style, image: true})
		case *ast.RawHTML:
			var sb strings.Builder
			for i := 0; i < v.Segments.Len(); i++ {
				sb.WriteString(c.seg(v.Segments.At(i)))
			}
			out = appendSpan(out, mdSpan{text: sb.String(), style: style})
		default:
			out = c.inline(k, style, out)
		}
	}
	return out
}

// appendSpan adds s, joined to the run before it when both are plain text of
// one style and adjacent in the source (fewer segments to draw).
func appendSpan(out []mdSpan, s mdSpan) []mdSpan {
	if n := len(out); n > 0 && out[n-1].link == nil && !out[n-1].image && out[n-1].style == s.style && s.style&spanCode == 0 {
		out[n-1].text += s.text
		return out
	}
	return append(out, s)
}

func plainText(spans []mdSpan) string {
	if len(spans) == 1 {
		return spans[0].text
	}
	var sb strings.Builder
	for _, s := range spans {
		sb.WriteString(s.text)
	}
	return sb.String()
}

func parseLink(dest string) *url.URL {
	u, err := url.Parse(dest)
	if err != nil {
		return &url.URL{Opaque: dest}
	}
	return u
}

// mdDoc is the parsed form of one row's text, kept in the entry's md cache
// (a segment list, so the entry needs no field of its own) until the row
// changes. It is never drawn as a segment.
type mdDoc struct {
	blocks []mdBlock
	src    string // what was parsed
	offset int    // where the row's own text starts in src (after a borrowed header)
}

func (*mdDoc) Inline() bool              { return false }
func (*mdDoc) Textual() string           { return "" }
func (*mdDoc) Update(fyne.CanvasObject)  {}
func (*mdDoc) Visual() fyne.CanvasObject { return nil }
func (*mdDoc) Select(_, _ fyne.Position) {}
func (*mdDoc) SelectedText() string      { return "" }
func (*mdDoc) Unselect()                 {}

// cutSource is s cut to at most max bytes at a line end (or, for one long
// line, a character boundary); cut reports whether anything was left out.
func cutSource(s string, max int) (head string, cut bool) {
	if len(s) <= max {
		return s, false
	}
	i := strings.LastIndexByte(s[:max], '\n')
	if i <= 0 {
		i = max
		for i > 0 && (s[i]&0xC0) == 0x80 {
			i--
		}
	}
	return s[:i], true
}

// fullCode is the whole of code block b of a row whose text was cut before
// the block ended: from where it starts to its closing fence or the end.
func fullCode(row string, b *mdBlock) string {
	if b.codeAt < 0 || b.codeAt > len(row) {
		return b.code
	}
	s := row[b.codeAt:]
	if b.fence == "" {
		return s
	}
	for at := 0; at < len(s); {
		nl := strings.IndexByte(s[at:], '\n')
		line := s[at:]
		if nl >= 0 {
			line = s[at : at+nl]
		}
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, b.fence) && strings.Trim(t, b.fence[:1]) == "" {
			return s[:at]
		}
		if nl < 0 {
			break
		}
		at += nl + 1
	}
	return s
}
