package ui

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

// fitLabel shows in its label the text pick chooses for the width it is
// given: the status line drops its less important parts, the folder bar
// elides the middle of a long path. The label keeps its own truncation
// for what still does not fit.
type fitLabel struct {
	widget.BaseWidget
	lbl   *widget.Label
	pick  func(fits func(string) bool) string
	width float32 // as laid out; 0 before
}

func newFitLabel(lbl *widget.Label, pick func(fits func(string) bool) string) *fitLabel {
	f := &fitLabel{lbl: lbl, pick: pick}
	f.ExtendBaseWidget(f)
	return f
}

// update shows the text for the width the label has now.
func (f *fitLabel) update() {
	if text := f.pick(f.fits); text != f.lbl.Text {
		f.lbl.SetText(text)
	}
}

// fits reports whether s shows whole in the label at its width; all does
// before the label is laid out.
func (f *fitLabel) fits(s string) bool {
	return f.width <= 0 || textWidth(f.lbl, s) <= f.width
}

// textWidth is the width label l needs to show s whole.
func textWidth(l *widget.Label, s string) float32 {
	size := theme.TextSize()
	if l.SizeName != "" {
		size = theme.Size(l.SizeName)
	}
	return fyne.MeasureText(s, size, l.TextStyle).Width + 2*theme.InnerPadding()
}

func (f *fitLabel) CreateRenderer() fyne.WidgetRenderer { return &fitRenderer{f: f} }

type fitRenderer struct{ f *fitLabel }

func (r *fitRenderer) Layout(size fyne.Size) {
	r.f.width = size.Width
	r.f.update()
	r.f.lbl.Move(fyne.NewPos(0, 0))
	r.f.lbl.Resize(size)
}

func (r *fitRenderer) MinSize() fyne.Size           { return r.f.lbl.MinSize() }
func (r *fitRenderer) Refresh()                     { r.f.update(); r.f.lbl.Refresh() }
func (r *fitRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.f.lbl} }
func (r *fitRenderer) Destroy()                     {}

// statusSep separates the status line's parts.
const statusSep = "   ·   "

// statusTexts is the status line from the whole of it to the shortest:
// the state, the prompt mode and the cost stay; the session id, the model
// and the token counts go first, then the words get shorter. The
// permission mode is the selector's, beside the line.
func statusTexts(st app.Status, last *app.TurnInfo) []string {
	state := st.State.String()
	state = strings.ToUpper(state[:1]) + state[1:]
	id := st.SessionID
	if len(id) > 8 {
		id = id[:8]
	}
	prompts, short := "", ""
	switch st.Prompts {
	case app.PromptsAfterTurn:
		prompts, short = "permissions asked after the turn", "after the turn"
	case app.PromptsLive, "":
		prompts, short = "permissions asked live", "live"
	}
	var turn, sess, turnShort, sessShort string
	if t := last; t != nil {
		turn = fmt.Sprintf("last turn %s, %s in / %s out", money(t.CostUSD), tokens(t.InputTokens), tokens(t.OutputTokens))
		sess = fmt.Sprintf("session %s, %s in / %s out", money(t.SessionCostUSD), tokens(t.SessionInputTokens), tokens(t.SessionOutputTokens))
		turnShort, sessShort = "last turn "+money(t.CostUSD), "session "+money(t.SessionCostUSD)
	}
	line := func(parts ...string) string {
		parts = slices.DeleteFunc(parts, func(s string) bool { return s == "" })
		return strings.Join(parts, statusSep)
	}
	model := app.VisibleLine(st.Model)
	if id != "" {
		id = "session " + app.VisibleLine(id)
	}
	out := []string{
		line(state, id, model, prompts, turn, sess),
		line(state, model, prompts, turn, sess),
		line(state, prompts, turn, sess),
		line(state, prompts, turnShort, sessShort),
		line(state, short, turnShort, sessShort),
	}
	return slices.Compact(out)
}

// firstFit is the first of texts that fits, else the last.
func firstFit(texts []string, fits func(string) bool) string {
	for _, s := range texts {
		if fits(s) {
			return s
		}
	}
	return texts[len(texts)-1]
}

// elidePath is path shortened in the middle until it fits: the first
// folders and the last ones stay ("/home/ada/…/projects/shop-frontend"),
// the folder's own name always; a name too long even alone loses its
// beginning.
func elidePath(path string, fits func(string) bool) string {
	if fits(path) {
		return path
	}
	sep := "/"
	if !strings.Contains(path, sep) && strings.Contains(path, `\`) {
		sep = `\`
	}
	parts := strings.Split(strings.TrimRight(path, sep), sep)
	n := len(parts)
	// Keep head parts from the start and tail parts from the end, the most
	// that fit, the end favoured; the name is always among them.
	for keep := n - 1; keep >= 1; keep-- {
		tail := (keep + 1) / 2
		head := keep - tail
		if parts[0] == "" && head > 0 {
			head++ // the root's empty part costs nothing
		}
		if head+tail >= n {
			continue
		}
		s := strings.Join(parts[:head], sep) + sep + "…" + sep + strings.Join(parts[n-tail:], sep)
		if head == 0 {
			s = "…" + sep + strings.Join(parts[n-tail:], sep)
		}
		if fits(s) {
			return s
		}
	}
	name := parts[n-1]
	for i := range name {
		if i > 0 && utf8.RuneStart(name[i]) && fits("…"+name[i:]) {
			return "…" + name[i:]
		}
	}
	return "…" + name
}

// copiedFor is how long the status line says "Copied".
var copiedFor = 2 * time.Second

// flash shows msg beside the status line for d, until another flash.
func (mw *mainWindow) flash(msg string, d time.Duration) {
	mw.flashes++
	n := mw.flashes
	mw.flashLbl.SetText(msg)
	mw.flashLbl.Show()
	time.AfterFunc(d, func() {
		mw.do(func() {
			if mw.flashes == n {
				mw.flashLbl.Hide()
			}
		})
	})
}
