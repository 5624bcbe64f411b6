package ui

import (
	"image/color"
	"math"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// codeClass is the colour class of a run of code.
type codeClass uint8

const (
	codePlain codeClass = iota
	codeKeyword
	codeString
	codeComment
	codeNumber
	codeFunction
	codeType
	numCodeClasses
)

// codeRun is a run of one class on one line, at column col (tabs expanded).
type codeRun struct {
	text  string
	col   int
	class codeClass
}

// Syntax palettes, the only fixed colours Latch draws: each is readable on
// the theme's input background (the code's background) of its variant,
// contrast ≥ 4.5:1 (TestCodePaletteContrast). Plain code uses the theme's
// foreground.
var (
	codeLight = [numCodeClasses]color.NRGBA{
		codeKeyword:  {R: 0xb3, G: 0x1d, B: 0x28, A: 0xff},
		codeString:   {R: 0x0a, G: 0x30, B: 0x69, A: 0xff},
		codeComment:  {R: 0x53, G: 0x5c, B: 0x66, A: 0xff},
		codeNumber:   {R: 0x05, G: 0x50, B: 0xae, A: 0xff},
		codeFunction: {R: 0x6f, G: 0x42, B: 0xc1, A: 0xff},
		codeType:     {R: 0x95, G: 0x38, B: 0x00, A: 0xff},
	}
	codeDark = [numCodeClasses]color.NRGBA{
		codeKeyword:  {R: 0xff, G: 0x7b, B: 0x72, A: 0xff},
		codeString:   {R: 0xa5, G: 0xd6, B: 0xff, A: 0xff},
		codeComment:  {R: 0x9d, G: 0xa5, B: 0xae, A: 0xff},
		codeNumber:   {R: 0x79, G: 0xc0, B: 0xff, A: 0xff},
		codeFunction: {R: 0xd2, G: 0xa8, B: 0xff, A: 0xff},
		codeType:     {R: 0xff, G: 0xa6, B: 0x57, A: 0xff},
	}
)

// codeColor is the colour of class k on the current theme's code
// background: the dark palette on a dark background, else the light one.
func codeColor(k codeClass) color.Color {
	if k == codePlain {
		return theme.Color(theme.ColorNameForeground)
	}
	if codeLuminance(theme.Color(theme.ColorNameInputBackground)) < 0.3 {
		return codeDark[k]
	}
	return codeLight[k]
}

// codeLuminance is c's relative luminance (WCAG 2).
func codeLuminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		x := float64(v) / 0xffff
		if x <= 0.03928 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

func classOf(t chroma.TokenType) codeClass {
	switch {
	case t == chroma.KeywordType || t == chroma.NameClass || t == chroma.NameBuiltin || t == chroma.NameBuiltinPseudo:
		return codeType
	case t == chroma.KeywordConstant || t == chroma.NameConstant || t.InSubCategory(chroma.LiteralNumber):
		return codeNumber
	case t.InCategory(chroma.Keyword) || t == chroma.NameDecorator || t == chroma.CommentPreproc:
		return codeKeyword
	case t.InSubCategory(chroma.LiteralString):
		return codeString
	case t.InCategory(chroma.Comment):
		return codeComment
	case t.InSubCategory(chroma.NameFunction):
		return codeFunction
	}
	return codePlain
}

// highlight splits the first maxCodeLines lines of code into coloured runs,
// tabs expanded to stops of 4. cols is the widest line.
func highlight(lang, code string) (lines [][]codeRun, cols int) {
	shown := code
	if n := nthLineEnd(code, maxCodeLines); n >= 0 {
		shown = code[:n]
	}
	shown = strings.TrimSuffix(shown, "\n")
	var lexer chroma.Lexer
	if lang != "" {
		lexer = lexers.Get(lang)
	}
	line := []codeRun(nil)
	col := 0
	add := func(s string, k codeClass) {
		for {
			i := strings.IndexByte(s, '\n')
			part := s
			if i >= 0 {
				part = s[:i]
			}
			if part != "" {
				text, w := expandTabs(part, col)
				if n := len(line); n > 0 && line[n-1].class == k && line[n-1].col+runeLen(line[n-1].text) == col && !strings.Contains(part, "\t") && !strings.Contains(line[n-1].text, "\t") {
					line[n-1].text += text
				} else {
					line = append(line, codeRun{text: text, col: col, class: k})
				}
				col += w
			}
			if i < 0 {
				return
			}
			lines = append(lines, line)
			cols = max(cols, col)
			line, col = nil, 0
			s = s[i+1:]
		}
	}
	if lexer != nil {
		if it, err := chroma.Coalesce(lexer).Tokenise(nil, shown); err == nil {
			for tok := it(); tok != chroma.EOF; tok = it() {
				add(tok.Value, classOf(tok.Type))
			}
		} else {
			lexer = nil
		}
	}
	if lexer == nil {
		add(shown, codePlain)
	}
	// Lexers add a final newline; a last line without one still counts.
	if line != nil || len(lines) == 0 {
		lines = append(lines, line)
		cols = max(cols, col)
	}
	for len(lines) > 1 && len(lines[len(lines)-1]) == 0 && !strings.HasSuffix(shown, "\n") && countLines(shown) < len(lines) {
		lines = lines[:len(lines)-1]
	}
	return lines, cols
}

func countLines(s string) int { return strings.Count(s, "\n") + 1 }

func runeLen(s string) int {
	n := 0
	for range s {
		n++
	}
	return n
}

// nthLineEnd is the index just past the n-th '\n' of s, or -1.
func nthLineEnd(s string, n int) int {
	at := 0
	for i := 0; i < n; i++ {
		j := strings.IndexByte(s[at:], '\n')
		if j < 0 {
			return -1
		}
		at += j + 1
	}
	if at >= len(s) {
		return -1
	}
	return at
}

// expandTabs is s, starting at column col, with tabs as spaces to the next
// stop of 4; w is its width in columns.
func expandTabs(s string, col int) (string, int) {
	if !strings.Contains(s, "\t") {
		return s, runeLen(s)
	}
	var sb strings.Builder
	c := col
	for _, r := range s {
		if r == '\t' {
			n := 4 - c%4
			sb.WriteString(strings.Repeat(" ", n))
			c += n
			continue
		}
		sb.WriteRune(r)
		c++
	}
	return sb.String(), c - col
}

// codeBlock is a fenced code block: a tinted card with the language and a
// Copy button over the coloured code, which scrolls sideways when wide.
type codeBlock struct {
	widget.BaseWidget
	root *fyne.Container
	bg   *canvas.Rectangle
	code *codeView
	copy *widget.Button
}

func newCodeBlock(b *mdBlock, env mdEnv) *codeBlock {
	if b.hl == nil {
		b.hl, b.hlCols = highlight(b.lang, b.code)
		total := countLines(strings.TrimSuffix(b.code, "\n"))
		if b.code == "" {
			total = 0
		}
		b.more += max(0, total-len(b.hl))
	}
	c := &codeBlock{bg: canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))}
	c.bg.CornerRadius = theme.InputRadiusSize()
	name := b.lang
	if name == "" {
		name = "code"
	}
	label := widget.NewLabel(name)
	label.SizeName = theme.SizeNameCaptionText
	label.Importance = widget.LowImportance
	label.Truncation = fyne.TextTruncateEllipsis
	whole := func() string {
		if b.cut {
			return fullCode(env.row, b)
		}
		return b.code
	}
	c.copy = widget.NewButtonWithIcon("Copy", theme.ContentCopyIcon(), func() {
		if env.copy != nil {
			env.copy(whole())
		}
	})
	c.copy.Importance = widget.LowImportance
	head := container.NewBorder(nil, nil, nil, c.copy, label)
	c.code = newCodeView(b.hl, b.hlCols)
	var foot fyne.CanvasObject
	if b.more > 0 {
		foot = mdRichText([]mdSpan{{text: "… " + strconv.Itoa(b.more) + " more lines not shown (Copy gives all of them)"}},
			widget.RichTextStyle{Inline: true, ColorName: theme.ColorNamePlaceHolder, SizeName: theme.SizeNameCaptionText, TextStyle: fyne.TextStyle{Italic: true}}, nil)
	}
	body := container.NewBorder(head, foot, nil, nil, container.NewHScroll(c.code))
	c.root = container.NewStack(c.bg, container.New(&codePadding{}, body))
	c.ExtendBaseWidget(c)
	return c
}

func (c *codeBlock) CreateRenderer() fyne.WidgetRenderer {
	return &codeBlockRenderer{c: c, WidgetRenderer: widget.NewSimpleRenderer(c.root)}
}

type codeBlockRenderer struct {
	fyne.WidgetRenderer
	c *codeBlock
}

func (r *codeBlockRenderer) Refresh() {
	r.c.bg.FillColor = theme.Color(theme.ColorNameInputBackground)
	r.c.bg.CornerRadius = theme.InputRadiusSize()
	r.WidgetRenderer.Refresh()
}

// codePadding insets the card's content by the theme's inner padding on the
// sides and the plain padding above and below.
type codePadding struct{}

func (codePadding) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	side, top := theme.InnerPadding(), theme.Padding()
	for _, o := range objs {
		o.Move(fyne.NewPos(side, top))
		o.Resize(fyne.NewSize(fyne.Max(0, size.Width-2*side), fyne.Max(0, size.Height-2*top)))
	}
}

func (codePadding) MinSize(objs []fyne.CanvasObject) fyne.Size {
	side, top := theme.InnerPadding(), theme.Padding()
	var s fyne.Size
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	return s.Add(fyne.NewSize(2*side, 2*top))
}

// codeView draws highlighted lines in the theme's monospace font, one
// text object per run, at fixed columns; nothing wraps.
type codeView struct {
	widget.BaseWidget
	lines [][]codeRun
	cols  int
}

func newCodeView(lines [][]codeRun, cols int) *codeView {
	v := &codeView{lines: lines, cols: cols}
	v.ExtendBaseWidget(v)
	return v
}

func (v *codeView) CreateRenderer() fyne.WidgetRenderer {
	r := &codeViewRenderer{v: v}
	for i, l := range v.lines {
		for _, run := range l {
			text := run.text
			if strings.IndexByte(text, '_') >= 0 {
				// The painter draws a text within its font's line height, and
				// at small sizes an underscore falls below it: underscores are
				// drawn as lines of their own.
				col := run.col
				for _, ch := range text {
					if ch == '_' {
						r.lows = append(r.lows, canvas.NewRectangle(color.Transparent))
						r.lowAt = append(r.lowAt, codePos{line: i, col: col, class: run.class})
					}
					col++
				}
				text = strings.ReplaceAll(text, "_", " ")
			}
			t := canvas.NewText(text, color.Transparent)
			t.TextStyle = fyne.TextStyle{Monospace: true}
			r.texts = append(r.texts, t)
			r.at = append(r.at, codePos{line: i, col: run.col, class: run.class})
		}
	}
	r.objs = make([]fyne.CanvasObject, 0, len(r.texts)+len(r.lows))
	for _, t := range r.texts {
		r.objs = append(r.objs, t)
	}
	for _, l := range r.lows {
		r.objs = append(r.objs, l)
	}
	r.style()
	return r
}

type codePos struct {
	line, col int
	class     codeClass
}

type codeViewRenderer struct {
	v     *codeView
	texts []*canvas.Text
	at    []codePos
	lows  []*canvas.Rectangle // underscores
	lowAt []codePos
	objs  []fyne.CanvasObject

	cw, lh   float32 // a character's width, a line's height
	baseline float32 // from a line's top
}

func (r *codeViewRenderer) metrics() {
	size := theme.TextSize()
	mono := fyne.TextStyle{Monospace: true}
	r.cw = fyne.MeasureText("M", size, mono).Width
	m, base := fyne.CurrentApp().Driver().RenderedTextSize("M", size, mono, nil)
	r.lh = m.Height + 2
	r.baseline = base + 1
}

func (r *codeViewRenderer) Layout(fyne.Size) {
	for i, t := range r.texts {
		p := r.at[i]
		t.Move(fyne.NewPos(float32(p.col)*r.cw, float32(p.line)*r.lh))
		t.Resize(fyne.NewSize(float32(runeLen(t.Text))*r.cw, r.lh))
	}
	size := theme.TextSize()
	thick := fyne.Max(1, float32(int(size*0.07+0.5)))
	y := fyne.Min(r.baseline+fyne.Max(1, size*0.12), r.lh-thick)
	for i, l := range r.lows {
		p := r.lowAt[i]
		l.Move(fyne.NewPos(float32(p.col)*r.cw, float32(p.line)*r.lh+y))
		l.Resize(fyne.NewSize(r.cw, thick))
	}
}

func (r *codeViewRenderer) MinSize() fyne.Size {
	return fyne.NewSize(float32(r.v.cols)*r.cw+1, float32(len(r.v.lines))*r.lh)
}

func (r *codeViewRenderer) Refresh() {
	r.style()
	r.Layout(r.v.Size())
	for _, o := range r.objs {
		o.Refresh()
	}
}

// style sets the texts' size and colours from the theme.
func (r *codeViewRenderer) style() {
	r.metrics()
	size := theme.TextSize()
	for i, t := range r.texts {
		t.TextSize = size
		t.Color = codeColor(r.at[i].class)
	}
	for i, l := range r.lows {
		l.FillColor = codeColor(r.lowAt[i].class)
	}
}

func (r *codeViewRenderer) Objects() []fyne.CanvasObject { return r.objs }
func (r *codeViewRenderer) Destroy()                     {}
