package ui

import (
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

// wholePiece is the most text one wrapped widget lays out: Fyne's wrapping
// costs grow with the square of a widget's text, so a long text is shown as
// a column of pieces and costs time linear in its length.
const wholePiece = 2 << 10

// wholeText shows s whole — never clipped at a column or a line count — in
// monospace, wrapped at any character, with everything invisible made
// visible (app.Visible). With diff set, lines starting with + and - are
// coloured as added and removed.
func wholeText(s string, diff bool) *fyne.Container {
	box := container.NewVBox()
	setWholeText(box, s, diff)
	return box
}

// setWholeText replaces what box shows.
func setWholeText(box *fyne.Container, s string, diff bool) {
	var objs []fyne.CanvasObject
	for _, piece := range pieces(app.Visible(strings.TrimRight(s, "\n")), wholePiece) {
		rt := widget.NewRichText()
		rt.Wrapping = fyne.TextWrapBreak
		for _, l := range strings.Split(piece, "\n") {
			seg := &widget.TextSegment{Text: l, Style: widget.RichTextStyle{
				TextStyle: fyne.TextStyle{Monospace: true},
				ColorName: theme.ColorNameForeground,
			}}
			if diff {
				switch {
				case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
					seg.Style.ColorName = theme.ColorNamePrimary
				case strings.HasPrefix(l, "+"):
					seg.Style.ColorName = theme.ColorNameSuccess
				case strings.HasPrefix(l, "-"):
					seg.Style.ColorName = theme.ColorNameError
				}
			}
			rt.Segments = append(rt.Segments, seg)
		}
		rt.Refresh()
		objs = append(objs, rt)
	}
	box.Objects = objs
	box.Refresh()
}

// pieces cuts s into parts of at most max bytes, at a line end when there
// is one in the second half of the part, else at a rune boundary. Joined
// with "\n" where a cut fell on one, they are s again.
func pieces(s string, max int) []string {
	var out []string
	for len(s) > max {
		cut := strings.LastIndexByte(s[:max], '\n')
		if cut >= max/2 {
			out = append(out, s[:cut])
			s = s[cut+1:]
			continue
		}
		cut = max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return append(out, s)
}

// reviewBox is a whole text in a scroll area of at most maxH. When the text
// is taller than that, it remembers whether the person has had its end in
// view, so a dialog can refuse to act on a text whose tail was never seen.
type reviewBox struct {
	scroll  *container.Scroll
	content *fyne.Container
	maxH    float32
	seenEnd bool
	changed func()
}

func newReviewBox(s string, diff bool, maxH float32) *reviewBox {
	r := &reviewBox{content: wholeText(s, diff), maxH: maxH}
	r.scroll = container.NewVScroll(r.content)
	r.scroll.SetMinSize(fyne.NewSize(200, fyne.Min(maxH, r.content.MinSize().Height)))
	r.scroll.OnScrolled = func(fyne.Position) { r.check() }
	return r
}

// overflows reports whether the text does not fit the box.
func (r *reviewBox) overflows() bool {
	view := r.scroll.Size().Height
	if view <= 0 {
		view = r.maxH
	}
	return r.content.MinSize().Height > view+1
}

// check records that the end has been in view.
func (r *reviewBox) check() {
	if r.seenEnd {
		return
	}
	view := r.scroll.Size().Height
	if !r.overflows() || (view > 0 && r.scroll.Offset.Y+view >= r.content.MinSize().Height-1) {
		r.seenEnd = true
		if r.changed != nil {
			r.changed()
		}
	}
}

// reviewed reports whether the whole text has been in view.
func (r *reviewBox) reviewed() bool {
	r.check()
	return r.seenEnd
}

// scrollBy moves the view by a page (dir -1 up, +1 down), to the start
// (-2) or to the end (+2).
func (r *reviewBox) scrollBy(dir int) {
	view := r.scroll.Size().Height
	if view <= 0 {
		view = r.maxH
	}
	y := r.scroll.Offset.Y
	switch dir {
	case -2:
		y = 0
	case 2:
		y = r.content.MinSize().Height
	default:
		y += float32(dir) * (view - 20)
	}
	r.scroll.ScrollToOffset(fyne.NewPos(0, y)) // clamps, and calls OnScrolled
	r.check()
}
