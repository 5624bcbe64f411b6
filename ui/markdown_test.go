package ui

import (
	"fmt"
	"image/color"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

// safeMarkdown is md drawn as an answer row draws it, its inline segments
// in order (links and images as the person sees them).
func safeMarkdown(md string, open func(*url.URL)) []widget.RichTextSegment {
	v := newMDView()
	v.set(&mdDoc{blocks: parseMarkdown(md)}, mdEnv{open: open})
	return mdSegments(v)
}

// mdObjects calls f for every object a view drew, depth first.
func mdObjects(o fyne.CanvasObject, f func(fyne.CanvasObject)) {
	f(o)
	switch v := o.(type) {
	case *mdView:
		mdObjects(v.col, f)
	case *fyne.Container:
		for _, c := range v.Objects {
			mdObjects(c, f)
		}
	case *codeBlock:
		mdObjects(v.root, f)
	case *mdTableView:
		mdObjects(v.scroll, f)
	case *container.Scroll:
		mdObjects(v.Content, f)
	}
}

func mdSegments(v *mdView) []widget.RichTextSegment {
	var segs []widget.RichTextSegment
	mdObjects(v, func(o fyne.CanvasObject) {
		if rt, ok := o.(*widget.RichText); ok {
			segs = append(segs, rt.Segments...)
		}
	})
	return segs
}

// mdText is the text a view shows: its paragraphs, then each code block's
// lines.
func mdText(v *mdView) string {
	var b strings.Builder
	mdObjects(v, func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *widget.RichText:
			for _, s := range x.Segments {
				switch t := s.(type) {
				case *widget.TextSegment:
					b.WriteString(t.Text)
				case *widget.HyperlinkSegment:
					b.WriteString(t.Text)
				}
			}
		case *codeView:
			b.WriteString(codeViewText(x))
		}
	})
	return b.String()
}

func codeViewText(v *codeView) string {
	var b strings.Builder
	for i, l := range v.lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		col := 0
		for _, r := range l {
			b.WriteString(strings.Repeat(" ", r.col-col))
			b.WriteString(r.text)
			col = r.col + runeLen(r.text)
		}
	}
	return b.String()
}

func (d *mdDoc) kinds() string {
	names := map[mdKind]string{mdPara: "p", mdHeading: "h", mdList: "list", mdQuote: "quote", mdCode: "code", mdTable: "table", mdHR: "hr", mdNote: "note"}
	var sb strings.Builder
	var walk func([]mdBlock)
	walk = func(bs []mdBlock) {
		for i, b := range bs {
			if i > 0 {
				sb.WriteString(" ")
			}
			sb.WriteString(names[b.kind])
			switch b.kind {
			case mdHeading:
				sb.WriteString(strconv.Itoa(b.level))
			case mdQuote:
				sb.WriteString("(")
				walk(b.quote)
				sb.WriteString(")")
			case mdList:
				if b.ordered {
					sb.WriteString(strconv.Itoa(b.start))
				}
				sb.WriteString("[")
				for j, it := range b.items {
					if j > 0 {
						sb.WriteString("; ")
					}
					walk(it)
				}
				sb.WriteString("]")
			case mdCode:
				sb.WriteString(":" + b.lang)
			}
		}
	}
	walk(d.blocks)
	return sb.String()
}

func TestMarkdownBlocks(t *testing.T) {
	tests := []struct{ md, want string }{
		{"# Title\n\n## Sub\n\n### Small", "h1 h2 h3"},
		{"- a\n  - b\n    - c\n- d", "list[p list[p list[p]]; p]"},
		{"3. three\n4. four\n   1. inner", "list3[p; p list1[p]]"},
		{"> quoted\n> > deeper", "quote(p quote(p))"},
		{"| a | b |\n|---|--:|\n| 1 | 2 |", "table"},
		{"text\n\n---\n\nmore", "p hr p"},
		{"```go\nx := 1\n```", "code:go"},
		{"```python\nprint(1)\n", "code:python"}, // unfinished: code so far
		{"    indented code", "code:"},
		{"<div>raw</div>", "p"},
	}
	for _, tc := range tests {
		d := &mdDoc{blocks: parseMarkdown(tc.md)}
		if got := d.kinds(); got != tc.want {
			t.Errorf("%q parsed as %s, want %s", tc.md, got, tc.want)
		}
	}
	// Inline runs: styles, code and links with their targets.
	bs := parseMarkdown("Use `snake_case` and **bold** _it_ ~~old~~ [docs](https://x.example/d) https://y.example")
	var got []string
	for _, s := range bs[0].spans {
		got = append(got, fmt.Sprintf("%q/%d/%v", s.text, s.style, s.link))
	}
	want := []string{`"Use "/0/<nil>`, `"snake_case"/4/<nil>`, `" and "/0/<nil>`, `"bold"/1/<nil>`, `" "/0/<nil>`, `"it"/2/<nil>`,
		`" "/0/<nil>`, `"old"/8/<nil>`, `" "/0/<nil>`, `"docs"/0/https://x.example/d`, `" "/0/<nil>`, `"https://y.example"/0/https://y.example`}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("spans:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	tb := parseMarkdown("| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |\n| x |")[0].table
	if fmt.Sprint(tb.align) != "[1 2 3]" || len(tb.rows) != 2 || plainText(tb.rows[1][0]) != "x" {
		t.Errorf("table: align %v rows %d", tb.align, len(tb.rows))
	}
}

// The code block's Copy button gives the code exactly as written: tabs,
// trailing spaces, blank lines.
func TestCodeBlockCopyIsExact(t *testing.T) {
	h := newHarness(t)
	code := "func main() {\n\tx := 1   \n\n\tfmt.Println(x)\t\n}\n"
	h.mw.surf.Show(app.Event{Kind: app.EvText, BlockID: "a", Text: "Here:\n\n```go\n" + code + "```\n\nDone."})
	h.mw.surf.flush()
	var blocks []*codeBlock
	for id := range h.mw.tr.entries {
		mdObjects(visibleRow(t, h.mw.tr, id).assistant, func(o fyne.CanvasObject) {
			if c, ok := o.(*codeBlock); ok {
				blocks = append(blocks, c)
			}
		})
	}
	if len(blocks) != 1 {
		t.Fatalf("%d code blocks", len(blocks))
	}
	test.Tap(blocks[0].copy)
	if got := h.mw.app.Clipboard().Content(); got != code {
		t.Errorf("copied %q, want %q", got, code)
	}
	if got := codeViewText(blocks[0].code); got != "func main() {\n    x := 1   \n\n    fmt.Println(x)  \n}" {
		t.Errorf("shown %q", got)
	}
}

// A link in a table cell or a list item shows its target and asks first.
func TestLinksInTablesAndListsConfirm(t *testing.T) {
	for _, md := range []string{
		"| name | where |\n|---|---|\n| docs | [the docs](file:///etc/passwd) |",
		"- one\n  - [the docs](file:///etc/passwd)",
	} {
		h := newHarness(t)
		rec := &recordingApp{App: h.mw.app}
		h.mw.app = rec
		h.mw.surf.Show(app.Event{Kind: app.EvText, BlockID: "a", Text: md})
		h.mw.surf.flush()
		ls := links(mdSegments(visibleRow(t, h.mw.tr, 0).assistant))
		if len(ls) != 1 || !strings.Contains(ls[0].Text, "file:///etc/passwd") {
			t.Fatalf("%q: links %v", md, ls)
		}
		ls[0].OnTapped()
		if len(rec.opened) != 0 || !overlayUp(h.c) {
			t.Fatalf("%q: tapping opened %v / asked %v", md, rec.opened, overlayUp(h.c))
		}
	}
}

// A streamed fenced block without its closing fence yet is drawn as code.
func TestUnfinishedCodeBlockStreams(t *testing.T) {
	h := newHarness(t)
	s := h.mw.surf
	s.Show(app.Event{Kind: app.EvText, BlockID: "a", Text: "```python\ndef f(x):\n"})
	s.flush()
	s.Show(app.Event{Kind: app.EvText, BlockID: "a", Text: "    return x_1\n"})
	s.flush()
	v := visibleRow(t, h.mw.tr, len(h.mw.tr.entries)-1).assistant
	var cv *codeView
	mdObjects(v, func(o fyne.CanvasObject) {
		if c, ok := o.(*codeView); ok {
			cv = c
		}
	})
	if cv == nil || codeViewText(cv) != "def f(x):\n    return x_1" {
		t.Fatalf("unfinished block shows %q", mdText(v))
	}
}

// A 2,000-row table and a 5,000-line code block lay out in bounded time:
// each row draws at most maxTableRows rows or maxCodeLines lines; Copy
// still gives all the code; every piece of the split table has its header.
func TestHugeTableAndCodeAreBounded(t *testing.T) {
	h := newHarness(t)
	var tb strings.Builder
	tb.WriteString("| n | name | value |\n|---|---|--:|\n")
	for i := range 2000 {
		fmt.Fprintf(&tb, "| %d | row_%d | %d |\n", i, i, i*i)
	}
	var code strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&code, "line_%d := %d\n", i, i)
	}
	h.mw.surf.Show(app.Event{Kind: app.EvText, BlockID: "t", Text: tb.String()})
	h.mw.surf.Show(app.Event{Kind: app.EvText, BlockID: "c", Text: "```go\n" + code.String() + "```\n"})
	h.mw.surf.flush()
	tr := h.mw.tr
	n := len(tr.entries)
	if n < 10 {
		t.Fatalf("%d rows: the table was not split", n)
	}
	// The first pieces of the table, its last, and the code block: each
	// is bound and laid out alone, in bounded time.
	slowest := time.Duration(0)
	for _, id := range []int{0, 1, n - 2, n - 1} {
		start := time.Now()
		tr.list.scroll.Offset.Y = float32(tr.list.heights.offset(id))
		tr.list.follow = false
		tr.list.layoutRows()
		slowest = max(slowest, time.Since(start))
		v := visibleRow(t, tr, id).assistant
		doc := cachedDoc(tr.entries[id])
		switch {
		case strings.HasPrefix(tr.entries[id].text.s, "|"):
			if doc.kinds() != "table" {
				t.Fatalf("table piece %d parsed as %s", id, doc.kinds())
			}
			var g *mdGrid
			mdObjects(v, func(o fyne.CanvasObject) {
				if c, ok := o.(*fyne.Container); ok {
					if gg, ok := c.Layout.(*mdGrid); ok {
						g = gg
					}
				}
			})
			if g == nil || g.rows > maxTableRows+1 || g.cols != 3 || !g.cells[0].Segments[0].(*widget.TextSegment).Style.TextStyle.Bold {
				t.Fatalf("table piece %d drawn wrong", id)
			}
		case strings.HasPrefix(tr.entries[id].text.s, "```"):
			var cb *codeBlock
			mdObjects(v, func(o fyne.CanvasObject) {
				if c, ok := o.(*codeBlock); ok {
					cb = c
				}
			})
			if cb == nil || len(cb.code.lines) > maxCodeLines {
				t.Fatalf("code drawn wrong")
			}
			if !strings.Contains(mdText(v), "more lines not shown") {
				t.Errorf("no note of the lines left out")
			}
			test.Tap(cb.copy)
			if got := h.mw.app.Clipboard().Content(); got != code.String() {
				t.Errorf("copied %d bytes, want %d", len(got), code.Len())
			}
		}
	}
	if slowest > 5*time.Second {
		t.Errorf("a row took %v to lay out", slowest)
	}
}

// A list the transcript broke at a blank line keeps its indentation: the
// nested item is not read as an indented code block.
func TestSplitListKeepsIndent(t *testing.T) {
	h := newHarness(t)
	h.mw.surf.Show(app.Event{Kind: app.EvText, BlockID: "a", Text: "1. first\n\n    - nested item\n\n2. second\n"})
	h.mw.surf.flush()
	var kinds []string
	for id := range h.mw.tr.entries {
		visibleRow(t, h.mw.tr, id)
		kinds = append(kinds, cachedDoc(h.mw.tr.entries[id]).kinds())
	}
	if got := strings.Join(kinds, " | "); got != "list1[p] | list[list[p]] | list2[p]" {
		t.Errorf("rows parsed as %s", got)
	}
}

// Every colour of the syntax palettes reads on the code's background in
// its variant: contrast of at least 4.5:1.
func TestCodePaletteContrast(t *testing.T) {
	a := test.NewTempApp(t)
	for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		a.Settings().SetTheme(latchTheme(v))
		bg := theme.Color(theme.ColorNameInputBackground)
		for k := codeClass(0); k < numCodeClasses; k++ {
			c := codeColor(k)
			if r := codeContrast(c, bg); r < 4.5 {
				t.Errorf("variant %d class %d: %v on %v has contrast %.2f", v, k, c, bg, r)
			}
		}
	}
}

func codeContrast(a, b color.Color) float64 {
	la, lb := codeLuminance(a), codeLuminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// Golden images of each construct in both themes.
var goldenMarkdown = []struct{ name, md string }{
	{"headings", "# Heading one snake_case_name\n\n## Heading two snake_case_name\n\n### Heading three\n\nBody text with snake_case_name and `inline_code_name`."},
	{"lists", "- first item\n  - nested item\n    - deeper item that is long enough to wrap onto a second line in this width\n- second item\n\n3. third\n4. fourth\n   1. nested ordered\n   2. another"},
	{"quote", "> A quoted paragraph with **bold** and *italic* text.\n>\n> > A nested quote."},
	{"table", "| Name | Kind | Size |\n|:-----|:----:|-----:|\n| `cart.go` | source | 1.2 KB |\n| README.md | a longer description of the file that has to wrap inside its cell because it is long | 4 KB |\n| [docs](https://example.com/docs) | link | — |"},
	{"widetable", "| c1 | c2 | c3 | c4 | c5 | c6 | c7 | c8 |\n|---|---|---|---|---|---|---|---|\n| alpha_beta_gamma | alpha_beta_gamma | alpha_beta_gamma | alpha_beta_gamma | alpha_beta_gamma | alpha_beta_gamma | alpha_beta_gamma | alpha_beta_gamma |"},
	{"links", "See [the docs](https://example.com/docs), <https://example.org> and ![logo](https://x.example/t.png).\n\n---\n\nAfter the rule."},
	{"go", "```go\n// Sum adds the numbers.\nfunc Sum(xs []int) (total int) {\n\tfor _, x := range xs {\n\t\ttotal += x // snake_case_name\n\t}\n\treturn total * 2\n}\n```"},
	{"python", "```python\ndef snake_case_name(x: int) -> str:\n    \"\"\"Docstring.\"\"\"\n    return f\"{x:_}\"  # comment\n```"},
	{"listcode", "1. Run the tests:\n   ```sh\n   go test ./...\n   ```\n2. Read the **failures**.\n\nThen a paragraph."},
	{"unfinished", "```sh\necho \"still streaming\"\nls -la /tmp/some_dir"},
}

func TestMarkdownGolden(t *testing.T) {
	for _, v := range []struct {
		name string
		v    fyne.ThemeVariant
	}{{"light", theme.VariantLight}, {"dark", theme.VariantDark}} {
		for _, g := range goldenMarkdown {
			t.Run(v.name+"_"+g.name, func(t *testing.T) {
				a := test.NewTempApp(t)
				a.Settings().SetTheme(latchTheme(v.v))
				view := newMDView()
				view.set(&mdDoc{blocks: parseMarkdown(g.md)}, mdEnv{})
				w := test.NewWindow(container.NewPadded(view))
				defer w.Close()
				w.Resize(fyne.NewSize(480, 100))
				h := w.Content().MinSize().Height
				w.Resize(fyne.NewSize(480, h))
				test.AssertImageMatches(t, "markdown_"+v.name+"_"+g.name+".png", w.Canvas().Capture())
			})
		}
	}
}

// sizedTheme is a theme with another body text size.
type sizedTheme struct {
	fyne.Theme
	text float32
}

func (s sizedTheme) Size(n fyne.ThemeSizeName) float32 {
	if n == theme.SizeNameText {
		return s.text
	}
	return s.Theme.Size(n)
}

// Underscores show at caption, body and heading sizes in prose, in inline
// code at body and heading sizes, and in code blocks at small, body and
// large text sizes (code blocks draw them as lines of their own).
func TestUnderscoresGolden(t *testing.T) {
	for _, v := range []struct {
		name string
		v    fyne.ThemeVariant
	}{{"light", theme.VariantLight}, {"dark", theme.VariantDark}} {
		t.Run(v.name, func(t *testing.T) {
			a := test.NewTempApp(t)
			a.Settings().SetTheme(latchTheme(v.v))
			var objs []fyne.CanvasObject
			for _, size := range []fyne.ThemeSizeName{theme.SizeNameCaptionText, theme.SizeNameText, theme.SizeNameSubHeadingText, theme.SizeNameHeadingText} {
				st := widget.RichTextStyleInline
				st.SizeName = size
				spans := []mdSpan{{text: "snake_case_name "}, {text: "snake_case_name", style: spanCode}}
				if size == theme.SizeNameCaptionText {
					// Fyne's own text clips a monospace underscore at caption
					// size; answers never draw code that small.
					spans = spans[:1]
				}
				objs = append(objs, mdRichText(spans, st, nil))
			}
			w := test.NewWindow(container.NewVBox(objs...))
			defer w.Close()
			w.Resize(fyne.NewSize(420, 100))
			w.Resize(fyne.NewSize(420, w.Content().MinSize().Height))
			test.AssertImageMatches(t, "markdown_"+v.name+"_underscores.png", w.Canvas().Capture())
			for _, size := range []float32{10, 14, 24} {
				a.Settings().SetTheme(sizedTheme{latchTheme(v.v), size})
				view := newMDView()
				view.set(&mdDoc{blocks: parseMarkdown("```\nsnake_case_name = __init__\n```")}, mdEnv{})
				w := test.NewWindow(view)
				w.Resize(fyne.NewSize(420, 100))
				w.Resize(fyne.NewSize(420, w.Content().MinSize().Height))
				test.AssertImageMatches(t, fmt.Sprintf("markdown_%s_underscores_code%g.png", v.name, size), w.Canvas().Capture())
				w.Close()
			}
		})
	}
}

// In a wide window prose keeps a readable line length; code and tables
// may use the whole width.
func TestReadableLineLength(t *testing.T) {
	h := newHarness(t)
	h.mw.win.Resize(fyne.NewSize(2400, 700))
	h.mw.surf.Show(app.Event{Kind: app.EvText, BlockID: "a", Text: strings.Repeat("word ", 400) + "\n```\ncode\n```"})
	h.mw.surf.flush()
	v := visibleRow(t, h.mw.tr, 0).assistant
	var para *widget.RichText
	var code *codeBlock
	mdObjects(v, func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *widget.RichText:
			if para == nil {
				para = x
			}
		case *codeBlock:
			code = x
		}
	})
	if para == nil || code == nil {
		t.Fatal("paragraph or code block missing")
	}
	if w := para.Size().Width; w > readableWidth()+1 || w < readableWidth()-1 {
		t.Errorf("prose is %.0f wide, want %.0f", w, readableWidth())
	}
	if w := code.Size().Width; w < 2000 {
		t.Errorf("code is %.0f wide", w)
	}
}
