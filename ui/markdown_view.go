package ui

import (
	"image/color"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// mdView draws a parsed answer row. Views are pooled by the transcript's
// list; a view rebuilds its objects only when it is bound to another
// parsed document (another row, or a new version of its row).
type mdView struct {
	widget.BaseWidget
	col *fyne.Container
	doc *mdDoc
	env mdEnv
	fg  color.Color // the theme's foreground when built
}

func newMDView() *mdView {
	v := &mdView{col: container.New(&mdColumn{capped: true})}
	v.ExtendBaseWidget(v)
	return v
}

func (v *mdView) CreateRenderer() fyne.WidgetRenderer {
	return &mdViewRenderer{WidgetRenderer: widget.NewSimpleRenderer(v.col), v: v}
}

// mdViewRenderer rebuilds the view when the theme changed: tables and
// quotes take their colours when built.
type mdViewRenderer struct {
	fyne.WidgetRenderer
	v *mdView
}

func (r *mdViewRenderer) Refresh() {
	if v := r.v; v.doc != nil && v.fg != theme.Color(theme.ColorNameForeground) {
		v.build()
	}
	r.WidgetRenderer.Refresh()
}

// mdEnv is what a document's objects act through.
type mdEnv struct {
	open func(*url.URL) // a link was tapped: confirm first
	copy func(string)   // put text on the clipboard
	row  string         // the row's whole text (for the code of a block cut short)
}

// set shows doc; env is used only when it has to rebuild.
func (v *mdView) set(doc *mdDoc, env mdEnv) {
	if v.doc == doc {
		return
	}
	v.doc, v.env = doc, env
	v.build()
	// Only the column is laid out again: the texts kept were refreshed
	// already, and new objects draw themselves when first shown.
	if size := v.col.Size(); !size.IsZero() {
		v.col.Layout.Layout(v.col.Objects, size)
	}
	canvas.Refresh(v.col)
}

// build makes the document's objects. A paragraph's text widget is kept
// from the document shown before, when that had one at the same place: a
// streamed paragraph then only re-wraps its text each frame.
func (v *mdView) build() {
	v.fg = theme.Color(theme.ColorNameForeground)
	old := v.col.Objects
	objs := make([]fyne.CanvasObject, len(v.doc.blocks))
	for i := range v.doc.blocks {
		b := &v.doc.blocks[i]
		if i < len(old) && (b.kind == mdPara || b.kind == mdHeading || b.kind == mdNote) {
			if rt, ok := old[i].(*widget.RichText); ok {
				rt.Segments = safeSegments(b.spans, textStyle(b), v.env.open)
				rt.Refresh()
				objs[i] = rt
				continue
			}
		}
		objs[i] = buildBlock(b, v.env)
	}
	v.col.Objects = objs
}

func buildBlocks(bs []mdBlock, env mdEnv, out []fyne.CanvasObject) []fyne.CanvasObject {
	for i := range bs {
		out = append(out, buildBlock(&bs[i], env))
	}
	return out
}

func buildBlock(b *mdBlock, env mdEnv) fyne.CanvasObject {
	switch b.kind {
	case mdHeading, mdNote:
		return mdRichText(b.spans, textStyle(b), env.open)
	case mdHR:
		return widget.NewSeparator()
	case mdQuote:
		bar := canvas.NewRectangle(theme.Color(theme.ColorNameDisabled))
		bar.SetMinSize(fyne.NewSize(3, 0))
		inner := container.New(&mdColumn{}, buildBlocks(b.quote, env, nil)...)
		return container.New(&mdIndent{width: 3 + 2*theme.Padding(), stretchMarker: true}, bar, inner)
	case mdList:
		return buildNestedList(b, env, 0)
	case mdCode:
		return newCodeBlock(b, env)
	case mdTable:
		return newMDTable(b.table, env)
	}
	return mdRichText(b.spans, textStyle(b), env.open)
}

// textStyle is the style of a paragraph's, heading's or note's text.
func textStyle(b *mdBlock) widget.RichTextStyle {
	switch b.kind {
	case mdHeading:
		st := widget.RichTextStyle{Inline: true, ColorName: theme.ColorNameForeground, SizeName: theme.SizeNameText, TextStyle: fyne.TextStyle{Bold: true}}
		switch b.level {
		case 1:
			st.SizeName = theme.SizeNameHeadingText
		case 2:
			st.SizeName = theme.SizeNameSubHeadingText
		}
		return st
	case mdNote:
		st := widget.RichTextStyleInline
		st.ColorName = theme.ColorNamePlaceHolder
		st.TextStyle.Italic = true
		return st
	}
	return widget.RichTextStyleInline
}

var bullets = [...]string{"•", "◦"}

func buildListItem(bs []mdBlock, env mdEnv, depth int) []fyne.CanvasObject {
	out := make([]fyne.CanvasObject, 0, len(bs))
	for i := range bs {
		b := &bs[i]
		if b.kind == mdList {
			out = append(out, buildNestedList(b, env, depth))
			continue
		}
		out = append(out, buildBlock(b, env))
	}
	return out
}

func buildNestedList(b *mdBlock, env mdEnv, depth int) fyne.CanvasObject {
	size := theme.TextSize()
	marker := func(i int) string {
		switch {
		case b.ordered:
			return strconv.Itoa(b.start+i) + "."
		case b.start < 0: // only an indent: a list's item continued in a row of its own
			return ""
		}
		return bullets[depth%len(bullets)]
	}
	widest := marker(len(b.items) - 1)
	if !b.ordered {
		widest = bullets[0]
	}
	width := fyne.MeasureText(widest, size, fyne.TextStyle{}).Width + 2*theme.InnerPadding() + theme.Padding()
	rows := make([]fyne.CanvasObject, 0, len(b.items))
	for i, it := range b.items {
		m := widget.NewRichText(&widget.TextSegment{Text: marker(i), Style: widget.RichTextStyle{Inline: true, Alignment: fyne.TextAlignTrailing, ColorName: theme.ColorNameForeground, SizeName: theme.SizeNameText}})
		content := container.New(&mdColumn{tight: true}, buildListItem(it, env, depth+1)...)
		rows = append(rows, container.New(&mdIndent{width: width}, m, content))
	}
	return container.New(&mdColumn{tight: true}, rows...)
}

// mdRichText is a wrapped paragraph of spans.
func mdRichText(spans []mdSpan, base widget.RichTextStyle, open func(*url.URL)) *widget.RichText {
	rt := widget.NewRichText(safeSegments(spans, base, open)...)
	rt.Wrapping = fyne.TextWrapWord
	return rt
}

// readableWidth is the widest prose is laid out: about 100 characters of
// body text, so lines stay readable in a wide window.
func readableWidth() float32 {
	size := theme.TextSize()
	if size != readableAt {
		const sample = "the quick brown fox jumps over a lazy dog"
		readableAt = size
		readableW = fyne.MeasureText(sample, size, fyne.TextStyle{}).Width / float32(len(sample)) * 100
	}
	return readableW
}

var readableAt, readableW float32

// mdColumn stacks blocks like a VBox. A capped column lays prose out at
// most readableWidth wide, left-aligned; code and tables may use the whole
// width.
type mdColumn struct {
	capped bool
	tight  bool // less space between blocks (list items)
}

// gap is the space between blocks a and b.
func (c *mdColumn) gap(a, b fyne.CanvasObject) float32 {
	if !c.tight {
		return theme.Padding()
	}
	if isCard(a) || isCard(b) {
		return 0
	}
	// Wrapped texts pad themselves; list items sit closer than paragraphs.
	return -theme.InnerPadding()
}

// isCard reports a block drawn as a card of its own (code, a table).
func isCard(o fyne.CanvasObject) bool {
	switch o.(type) {
	case *codeBlock, *mdTableView:
		return true
	}
	return false
}

func (c *mdColumn) widthFor(o fyne.CanvasObject, w float32) float32 {
	if !c.capped || isCard(o) {
		return w
	}
	return fyne.Min(w, readableWidth())
}

func (c *mdColumn) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	y := float32(0)
	var prev fyne.CanvasObject
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		if prev != nil {
			y += c.gap(prev, o)
		}
		w := c.widthFor(o, size.Width)
		if rt, ok := o.(*widget.RichText); ok {
			// Every resize of a text re-wraps it (twice), so a text is
			// resized only when its width changes; its height may then be
			// stale, which nothing draws, and MinSize gives the real one.
			if rt.Size().Width != w {
				rt.Resize(fyne.NewSize(w, rt.MinSize().Height))
			}
			rt.Move(fyne.NewPos(0, y))
			y += rt.MinSize().Height
			prev = o
			continue
		}
		o.Resize(fyne.NewSize(w, o.MinSize().Height))
		// A wrapped text's height follows its width.
		h := o.MinSize().Height
		o.Resize(fyne.NewSize(w, h))
		o.Move(fyne.NewPos(0, y))
		y += h
		prev = o
	}
}

func (c *mdColumn) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	var prev fyne.CanvasObject
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		if prev != nil {
			s.Height += c.gap(prev, o)
		}
		m := o.MinSize()
		s.Width = fyne.Max(s.Width, m.Width)
		s.Height += m.Height
		prev = o
	}
	return s
}

// mdIndent lays a marker (a bullet, a number, a quote's bar) in a column
// of fixed width left of its content.
type mdIndent struct {
	width         float32
	stretchMarker bool // the marker is as tall as the content (a quote's bar)
}

func (m *mdIndent) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if len(objs) < 2 {
		return
	}
	marker, content := objs[0], objs[1]
	cw := fyne.Max(0, size.Width-m.width)
	content.Resize(fyne.NewSize(cw, content.MinSize().Height))
	content.Move(fyne.NewPos(m.width, 0))
	content.Resize(fyne.NewSize(cw, content.MinSize().Height))
	if m.stretchMarker {
		marker.Move(fyne.NewPos(theme.Padding(), 0))
		marker.Resize(fyne.NewSize(marker.MinSize().Width, size.Height))
		return
	}
	marker.Move(fyne.NewPos(0, 0))
	marker.Resize(fyne.NewSize(m.width, marker.MinSize().Height))
}

func (m *mdIndent) MinSize(objs []fyne.CanvasObject) fyne.Size {
	if len(objs) < 2 {
		return fyne.Size{}
	}
	ms, cs := objs[0].MinSize(), objs[1].MinSize()
	h := cs.Height
	if !m.stretchMarker {
		h = fyne.Max(h, ms.Height)
	}
	return fyne.NewSize(m.width+cs.Width, h)
}

// mdTableView is a table: columns as wide as their content up to a cap,
// cells wrapped within them, in a horizontal scroll when wider than the row.
type mdTableView struct {
	widget.BaseWidget
	scroll *container.Scroll
	grid   *mdGrid
}

func (t *mdTableView) CreateRenderer() fyne.WidgetRenderer {
	return &mdTableRenderer{WidgetRenderer: widget.NewSimpleRenderer(t.scroll), t: t}
}

// mdTableRenderer fits the columns to the width before laying them out.
type mdTableRenderer struct {
	fyne.WidgetRenderer
	t *mdTableView
}

func (r *mdTableRenderer) Layout(size fyne.Size) {
	r.t.grid.fit(size.Width)
	r.WidgetRenderer.Layout(size)
}

const maxColumnWidth = 360

// exactRows is how many rows of a table have their text measured exactly.
const exactRows = 24

var (
	charWidthMu sync.Mutex
	charWidths  = map[charWidthKey]float32{}
)

type charWidthKey struct {
	size  float32
	style fyne.TextStyle
}

// avgCharWidth is the width of an average character of prose, rounded up.
func avgCharWidth(size float32, style fyne.TextStyle) float32 {
	charWidthMu.Lock()
	defer charWidthMu.Unlock()
	k := charWidthKey{size, style}
	if w, ok := charWidths[k]; ok {
		return w
	}
	const sample = "The Quick Brown Fox, 0123456789 jumps_over the lazy dog."
	w := fyne.MeasureText(sample, size, style).Width / float32(len(sample)) * 1.1
	charWidths[k] = w
	return w
}

func newMDTable(tb *mdTableData, env mdEnv) *mdTableView {
	cols := len(tb.header)
	for _, r := range tb.rows {
		cols = max(cols, len(r))
	}
	g := &mdGrid{cols: cols}
	size := theme.TextSize()
	pad := 2 * theme.InnerPadding()
	g.colW = make([]float32, cols)
	g.minW = make([]float32, cols)
	addRow := func(cells [][]mdSpan, head bool) {
		for c := 0; c < cols; c++ {
			var spans []mdSpan
			if c < len(cells) {
				spans = cells[c]
			}
			st := widget.RichTextStyleInline
			if head {
				st.TextStyle.Bold = true
			}
			if c < len(tb.align) {
				st.Alignment = map[mdAlign]fyne.TextAlign{alignCenter: fyne.TextAlignCenter, alignRight: fyne.TextAlignTrailing}[tb.align[c]]
			}
			rt := mdRichText(spans, st, env.open)
			text := plainText(spans)
			word := longestWord(text)
			var w, ww float32
			if g.rows <= exactRows {
				w = fyne.MeasureText(text, size, st.TextStyle).Width
				ww = fyne.MeasureText(word, size, st.TextStyle).Width
			} else {
				// Shaping text is slow: further rows are estimated, a little
				// wide; a cell estimated narrow wraps, it is never cut.
				cw := avgCharWidth(size, st.TextStyle)
				w, ww = float32(runeLen(text))*cw, float32(runeLen(word))*cw
			}
			g.colW[c] = fyne.Min(maxColumnWidth, fyne.Max(g.colW[c], w+pad))
			if word != "" {
				g.minW[c] = fyne.Min(maxColumnWidth, fyne.Max(g.minW[c], ww+pad))
			}
			g.cells = append(g.cells, rt)
		}
		g.rows++
	}
	addRow(tb.header, true)
	for _, r := range tb.rows {
		addRow(r, false)
	}
	for c := range g.colW {
		g.colW[c] = fyne.Max(g.colW[c], 3*pad)
	}
	g.headBG = canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	objs := []fyne.CanvasObject{g.headBG}
	for i := 0; i < g.rows; i++ {
		l := canvas.NewRectangle(theme.Color(theme.ColorNameSeparator))
		g.lines = append(g.lines, l)
		objs = append(objs, l)
	}
	for _, c := range g.cells {
		objs = append(objs, c)
	}
	var content fyne.CanvasObject = container.New(g, objs...)
	if tb.more > 0 {
		note := mdRichText([]mdSpan{{text: "… " + strconv.Itoa(tb.more) + " more rows not shown"}}, widget.RichTextStyle{Inline: true, ColorName: theme.ColorNamePlaceHolder, SizeName: theme.SizeNameText, TextStyle: fyne.TextStyle{Italic: true}}, nil)
		content = container.NewVBox(content, note)
	}
	g.natural = append([]float32(nil), g.colW...)
	v := &mdTableView{scroll: container.NewHScroll(content), grid: g}
	v.ExtendBaseWidget(v)
	return v
}

// mdGrid lays out a table's cells (row by row) with a tinted header and a
// line under each row.
type mdGrid struct {
	cols, rows int
	colW       []float32 // as laid out
	natural    []float32 // as wide as their content, up to maxColumnWidth
	minW       []float32 // as wide as their longest word, up to maxColumnWidth
	cells      []*widget.RichText
	headBG     *canvas.Rectangle
	lines      []*canvas.Rectangle
	rowH       []float32
}

func (g *mdGrid) width() float32 {
	w := float32(0)
	for _, c := range g.colW {
		w += c
	}
	return w
}

// minColumnWidth is as narrow as fit makes a column (or its longest word,
// if wider); a table that does not fit then scrolls sideways.
const minColumnWidth = 120

// fit narrows the widest columns to a common width (their cells wrap), so
// the table fits in w when it can; narrow columns keep their width.
func (g *mdGrid) fit(w float32) {
	sum := func(limit float32) float32 {
		t := float32(0)
		for c, n := range g.natural {
			t += fyne.Max(g.minW[c], fyne.Min(n, limit))
		}
		return t
	}
	limit := float32(maxColumnWidth)
	if sum(limit) > w {
		lo, hi := float32(minColumnWidth), float32(maxColumnWidth)
		for hi-lo > 1 {
			mid := (lo + hi) / 2
			if sum(mid) > w {
				hi = mid
			} else {
				lo = mid
			}
		}
		limit = lo
	}
	for c, n := range g.natural {
		g.colW[c] = fyne.Max(g.minW[c], fyne.Min(n, limit))
	}
}

func (g *mdGrid) measure() float32 {
	if len(g.rowH) != g.rows {
		g.rowH = make([]float32, g.rows)
	}
	total := float32(0)
	for r := 0; r < g.rows; r++ {
		h := float32(0)
		for c := 0; c < g.cols; c++ {
			cell := g.cells[r*g.cols+c]
			if cell.Size().Width != g.colW[c] {
				cell.Resize(fyne.NewSize(g.colW[c], cell.MinSize().Height))
			}
			h = fyne.Max(h, cell.MinSize().Height)
		}
		g.rowH[r] = h
		total += h + 1
	}
	return total
}

func (g *mdGrid) Layout(_ []fyne.CanvasObject, _ fyne.Size) {
	g.measure()
	w := g.width()
	y := float32(0)
	for r := 0; r < g.rows; r++ {
		x := float32(0)
		for c := 0; c < g.cols; c++ {
			cell := g.cells[r*g.cols+c]
			cell.Move(fyne.NewPos(x, y))
			cell.Resize(fyne.NewSize(g.colW[c], g.rowH[r]))
			x += g.colW[c]
		}
		if r == 0 {
			g.headBG.Move(fyne.NewPos(0, 0))
			g.headBG.Resize(fyne.NewSize(w, g.rowH[0]))
		}
		y += g.rowH[r]
		g.lines[r].Move(fyne.NewPos(0, y))
		g.lines[r].Resize(fyne.NewSize(w, 1))
		y++
	}
}

func (g *mdGrid) MinSize([]fyne.CanvasObject) fyne.Size {
	return fyne.NewSize(g.width(), g.measure())
}

// longestWord is the longest run of s without a space, by bytes.
func longestWord(s string) string {
	best := ""
	for _, w := range strings.Fields(s) {
		if len(w) > len(best) {
			best = w
		}
	}
	return best
}
