package ui

import (
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

const (
	maxResultLines = 40
	maxResultCols  = 400
)

// rowView draws one transcript entry. Views are pooled by the list and
// re-bound to other entries, so every part is set on each bind.
type rowView struct {
	widget.BaseWidget
	box *fyne.Container
	t   *transcript
	id  int

	user      *textCard
	assistant *mdView
	thinking  *widget.Label
	notice    *widget.Label
	errCard   *textCard
	turn      *widget.Label
	tool      *toolCard
	grant     *grantRow
	errCopy   *widget.Button
	errHint   *widget.Label
	errRetry  *widget.Button
	retry     *widget.Label
	stopHead  *widget.Label
	stopNote  *widget.Label
	stopLine  *widget.Label
	cutOff    *widget.Label

	retryBox, stopBox, cutOffBox, empty *fyne.Container

	assistantBox, thinkingBox, noticeBox, turnBox *fyne.Container
}

func newRowView() fyne.CanvasObject {
	r := &rowView{box: container.NewStack()}
	r.ExtendBaseWidget(r)
	return r
}

func (r *rowView) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(r.box)
}

func (r *rowView) show(o fyne.CanvasObject) {
	if len(r.box.Objects) == 1 && r.box.Objects[0] == o {
		return
	}
	r.box.Objects = []fyne.CanvasObject{o}
	r.box.Refresh()
}

// textCard is a tinted card with a bold heading and wrapped text.
type textCard struct {
	root  *fyne.Container
	bg    *canvas.Rectangle
	head  *widget.Label
	body  *widget.Label
	icon  *widget.Icon
	inner *fyne.Container
	// The tint: a theme colour at alpha, made again when the theme changes.
	tintName  fyne.ThemeColorName
	tintAlpha uint8
}

func newTextCard(tintName fyne.ThemeColorName, tintAlpha uint8, icon fyne.Resource, headImp widget.Importance) *textCard {
	c := &textCard{bg: canvas.NewRectangle(tint(tintName, tintAlpha)), tintName: tintName, tintAlpha: tintAlpha}
	c.bg.CornerRadius = theme.InputRadiusSize()
	c.head = widget.NewLabel("")
	c.head.TextStyle.Bold = true
	c.head.Importance = headImp
	c.body = widget.NewLabel("")
	c.body.Wrapping = fyne.TextWrapWord
	c.icon = widget.NewIcon(icon)
	headRow := container.NewBorder(nil, nil, c.icon, nil, c.head)
	c.inner = container.NewVBox(headRow, c.body)
	c.root = container.NewPadded(container.NewStack(c.bg, container.NewPadded(c.inner)))
	return c
}

// retint gives the card the current theme's tint, if that changed.
func (c *textCard) retint() {
	if fill := tint(c.tintName, c.tintAlpha); fill != c.bg.FillColor {
		c.bg.FillColor = fill
		c.bg.Refresh()
	}
}

func (c *textCard) set(head, body string) {
	c.head.SetText(head)
	c.body.SetText(body)
	if body == "" {
		c.body.Hide()
	} else {
		c.body.Show()
	}
}

// The cards' tints: a theme colour at this alpha over the background
// (theme_test.go checks the texts drawn on them).
const (
	tintUser   = 28 // a prompt card: primary
	tintError  = 30 // an error card: error
	tintDanger = 40 // the red bar of a dangerous mode: error
)

func tint(name fyne.ThemeColorName, alpha uint8) color.Color {
	r, g, b, _ := theme.Color(name).RGBA()
	return color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: alpha}
}

// bind shows entry id in view o.
func (t *transcript) bind(id int, o fyne.CanvasObject) {
	r := o.(*rowView)
	r.t, r.id = t, id
	e := t.entries[id]
	switch e.kind {
	case rowUser:
		if r.user == nil {
			r.user = newTextCard(theme.ColorNamePrimary, tintUser, theme.AccountIcon(), widget.HighImportance)
		}
		r.user.retint()
		if e.auto {
			r.user.icon.SetResource(theme.InfoIcon())
			r.user.set("Latch", capTextAt(e.text.String(), softRowText))
		} else {
			r.user.icon.SetResource(theme.AccountIcon())
			r.user.set("You", capTextAt(e.text.String(), softRowText))
		}
		r.show(r.user.root)
	case rowAssistant:
		r.bindAssistant(t, id)
	case rowThinking:
		if r.thinking == nil {
			r.thinking = widget.NewLabel("")
			r.thinking.Wrapping = fyne.TextWrapWord
			r.thinking.TextStyle.Italic = true
			r.thinking.Importance = widget.LowImportance
			r.thinkingBox = container.NewPadded(r.thinking)
		}
		r.thinking.SetText("Thinking: " + strings.TrimSpace(capText(e.text.String())))
		r.show(r.thinkingBox)
	case rowGrant:
		if r.grant == nil {
			r.grant = newGrantRow(r)
		}
		r.grant.set(e.grant)
		r.show(r.grant.root)
	case rowTool:
		if r.tool == nil {
			r.tool = newToolCard(r)
		}
		r.tool.set(e)
		r.show(r.tool.root)
	case rowNotice:
		if r.notice == nil {
			r.notice = widget.NewLabel("")
			r.notice.Wrapping = fyne.TextWrapWord
			r.notice.Importance = widget.LowImportance
			r.notice.TextStyle.Italic = true
			r.noticeBox = container.NewBorder(nil, nil, widget.NewIcon(theme.InfoIcon()), nil, r.notice)
		}
		r.notice.SetText(capTextAt(e.text.String(), softRowText))
		r.show(r.noticeBox)
	case rowError:
		if r.errCard == nil {
			r.newErrCard()
		}
		r.errCard.retint()
		r.errCard.set(e.title, capTextAt(e.text.String(), softRowText))
		if e.full != "" {
			r.errCopy.Show()
		} else {
			r.errCopy.Hide()
		}
		if e.fail != nil && e.fail.hint != "" {
			r.errHint.SetText(capTextAt(e.fail.hint, softRowText))
			r.errHint.Show()
		} else {
			r.errHint.Hide()
		}
		if e.fail != nil && e.fail.retry && t.actions.retry != nil {
			r.errRetry.Show()
		} else {
			r.errRetry.Hide()
		}
		r.show(r.errCard.root)
	case rowTurn:
		if r.turn == nil {
			r.turn = widget.NewLabel("")
			r.turn.Importance = widget.LowImportance
			r.turn.SizeName = theme.SizeNameCaptionText
			r.turn.Alignment = fyne.TextAlignTrailing
			r.turnBox = container.NewVBox(r.turn, widget.NewSeparator())
		}
		r.turn.SetText(turnLine(e.turn))
		r.show(r.turnBox)
	case rowRetry:
		if e.text.Len() == 0 {
			// The retries ended: the row takes no room.
			if r.empty == nil {
				r.empty = container.NewStack()
			}
			r.show(r.empty)
			return
		}
		if r.retry == nil {
			r.retry = widget.NewLabel("")
			r.retry.Importance = widget.LowImportance
			r.retry.Wrapping = fyne.TextWrapWord
			r.retryBox = container.NewBorder(nil, nil, widget.NewIcon(theme.ViewRefreshIcon()), nil, r.retry)
		}
		r.retry.SetText(e.text.String())
		r.show(r.retryBox)
	case rowStopped:
		if r.stopHead == nil {
			r.stopHead = widget.NewLabel("Stopped by you")
			r.stopHead.TextStyle.Bold = true
			r.stopNote = widget.NewLabel("")
			r.stopNote.Importance = widget.LowImportance
			r.stopNote.Wrapping = fyne.TextWrapWord
			r.stopLine = widget.NewLabel("")
			r.stopLine.Importance = widget.LowImportance
			r.stopLine.SizeName = theme.SizeNameCaptionText
			r.stopLine.Alignment = fyne.TextAlignTrailing
			head := container.NewBorder(nil, nil, widget.NewIcon(theme.MediaStopIcon()), nil, r.stopHead)
			r.stopBox = container.NewVBox(head, r.stopNote, r.stopLine, widget.NewSeparator())
		}
		if e.turn.Note != "" {
			r.stopNote.SetText(app.Visible(e.turn.Note))
			r.stopNote.Show()
		} else {
			r.stopNote.Hide()
		}
		r.stopLine.SetText(turnFigures(e.turn))
		r.show(r.stopBox)
	case rowIncomplete:
		if r.cutOff == nil {
			r.cutOff = caption("")
			r.cutOff.Wrapping = fyne.TextWrapWord
			r.cutOffBox = container.NewBorder(nil, nil, widget.NewIcon(theme.WarningIcon()), nil, r.cutOff)
		}
		r.cutOff.SetText(e.text.String())
		r.show(r.cutOffBox)
	}
}

// newErrCard builds the error card: the title, the detail (the end of it,
// where the reason is), what to do about it, Copy (all of it) and Retry.
func (r *rowView) newErrCard() {
	r.errCard = newTextCard(theme.ColorNameError, tintError, theme.ErrorIcon(), widget.DangerImportance)
	r.errCard.body.Importance = widget.DangerImportance
	r.errCopy = widget.NewButtonWithIcon("Copy", theme.ContentCopyIcon(), func() {
		if r.t != nil && r.id < len(r.t.entries) && r.t.copy != nil {
			r.t.copy(r.t.entries[r.id].full)
		}
	})
	r.errCopy.Importance = widget.LowImportance
	r.errCard.inner.Objects[0] = container.NewBorder(nil, nil, r.errCard.icon, r.errCopy, r.errCard.head)
	r.errHint = widget.NewLabel("")
	r.errHint.Wrapping = fyne.TextWrapWord
	r.errRetry = widget.NewButtonWithIcon("Retry", theme.ViewRefreshIcon(), func() {
		if r.t == nil || r.id >= len(r.t.entries) || r.t.actions.retry == nil {
			return
		}
		if e := r.t.entries[r.id]; e.kind == rowError && e.fail != nil && e.fail.retry {
			r.t.actions.retry()
		}
	})
	r.errCard.inner.Add(r.errHint)
	r.errCard.inner.Add(container.NewHBox(r.errRetry))
}

// estimate guesses a row's height before it is shown: a line per ~90
// characters of text. The row's MinSize corrects it when it shows. It is
// called for every row added, so it reads at most what the row shows and
// allocates nothing.
func (t *transcript) estimate(id int, width float32) float32 {
	e := t.entries[id]
	line := float32(22)
	chars := float32(90)
	if width > 0 {
		chars = fyne.Max(20, width/8)
	}
	// lines counts the wrapped lines of the first max bytes of s, plus the
	// note capTextAt puts under a text it cuts.
	lines := func(s string, max int) float32 {
		n := float32(0)
		if len(s) > max {
			s, n = s[:max], 2
		}
		for {
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				return n + 1 + float32(int(float32(len(s))/chars))
			}
			n += 1 + float32(int(float32(i)/chars))
			s = s[i+1:]
		}
	}
	switch e.kind {
	case rowTool:
		h := float32(56)
		if e.tool.Denial != "" {
			h += line
		}
		return h
	case rowTurn:
		return 30
	case rowGrant:
		return 44
	case rowNotice, rowIncomplete:
		return 36
	case rowRetry:
		if e.text.Len() == 0 {
			return 0
		}
		return 36
	case rowStopped:
		h := float32(70)
		if e.turn.Note != "" {
			h += line * lines(e.turn.Note, softRowText)
		}
		return h
	case rowError:
		h := 56 + line*lines(e.text.s, softRowText)
		if e.fail != nil {
			if e.fail.hint != "" {
				h += 8 + line*lines(e.fail.hint, softRowText)
			}
			if e.fail.retry {
				h += 44
			}
		}
		return h
	case rowUser:
		return 56 + line*lines(e.text.s, softRowText)
	case rowAssistant:
		return estimateAssistant(e.text.s, width)
	}
	return 16 + line*lines(e.text.s, maxRowText)
}

// turnLine is the line under a turn. After a failure it is the figures
// only: the error card above says what failed.
func turnLine(tu *app.TurnInfo) string {
	if tu.Earlier {
		if tu.Denials > 0 {
			return "Earlier turn  ·  " + plural(tu.Denials, "denial", "denials")
		}
		return "Earlier turn"
	}
	if tu.IsError {
		return turnFigures(tu)
	}
	return "Turn finished  ·  " + turnFigures(tu)
}

// turnFigures is a turn's time, cost, tokens and denials.
func turnFigures(tu *app.TurnInfo) string {
	var parts []string
	if s := seconds(tu.Duration); s != "" {
		parts = append(parts, s)
	}
	parts = append(parts, money(tu.CostUSD), tokens(tu.InputTokens)+" in / "+tokens(tu.OutputTokens)+" out")
	if tu.Denials > 0 {
		parts = append(parts, plural(tu.Denials, "denial", "denials"))
	}
	return strings.Join(parts, "  ·  ")
}
