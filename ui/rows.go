package ui

import (
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
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
	assistant *widget.RichText
	thinking  *widget.Label
	notice    *widget.Label
	errCard   *textCard
	turn      *widget.Label
	tool      *toolCard
	grant     *grantRow
	errCopy   *widget.Button

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
}

func newTextCard(fill color.Color, icon fyne.Resource, headImp widget.Importance) *textCard {
	c := &textCard{bg: canvas.NewRectangle(fill)}
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

func (c *textCard) set(head, body string) {
	c.head.SetText(head)
	c.body.SetText(body)
	if body == "" {
		c.body.Hide()
	} else {
		c.body.Show()
	}
}

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
			r.user = newTextCard(tint(theme.ColorNamePrimary, 28), theme.AccountIcon(), widget.HighImportance)
		}
		if e.auto {
			r.user.icon.SetResource(theme.InfoIcon())
			r.user.set("Latch", capTextAt(e.text.String(), softRowText))
		} else {
			r.user.icon.SetResource(theme.AccountIcon())
			r.user.set("You", capTextAt(e.text.String(), softRowText))
		}
		r.show(r.user.root)
	case rowAssistant:
		if r.assistant == nil {
			r.assistant = widget.NewRichText()
			r.assistant.Wrapping = fyne.TextWrapWord
			r.assistantBox = container.NewPadded(r.assistant)
		}
		if e.md == nil || e.mdVer != e.version {
			// Model-written markdown: links ask before they open, images
			// are never loaded.
			r.assistant.Segments = safeMarkdown(capText(e.text.String()), t.actions.openLink)
			r.assistant.Refresh()
			e.md, e.mdVer = r.assistant.Segments, e.version
		} else {
			r.assistant.Segments = e.md
			r.assistant.Refresh()
		}
		r.show(r.assistantBox)
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
			r.errCard = newTextCard(tint(theme.ColorNameError, 30), theme.ErrorIcon(), widget.DangerImportance)
			r.errCard.body.Importance = widget.DangerImportance
			// The card shows the end of the error, where the reason is; Copy
			// gives all of it.
			r.errCopy = widget.NewButtonWithIcon("Copy", theme.ContentCopyIcon(), func() {
				if r.t != nil && r.id < len(r.t.entries) && r.t.copy != nil {
					r.t.copy(r.t.entries[r.id].full)
				}
			})
			r.errCopy.Importance = widget.LowImportance
			r.errCard.inner.Objects[0] = container.NewBorder(nil, nil, r.errCard.icon, r.errCopy, r.errCard.head)
		}
		r.errCard.set(e.title, capTextAt(e.text.String(), softRowText))
		if e.full != "" {
			r.errCopy.Show()
		} else {
			r.errCopy.Hide()
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
		r.turn.SetText(turnLine(e))
		r.show(r.turnBox)
	}
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
	case rowNotice:
		return 36
	case rowUser, rowError:
		return 56 + line*lines(e.text.s, softRowText)
	}
	return 16 + line*lines(e.text.s, maxRowText)
}

func turnLine(e *entry) string {
	tu := e.turn
	parts := []string{"Turn finished"}
	if tu.IsError {
		parts[0] = "Turn failed"
	}
	if s := seconds(tu.Duration); s != "" {
		parts = append(parts, s)
	}
	parts = append(parts, money(tu.CostUSD), tokens(tu.InputTokens)+" in / "+tokens(tu.OutputTokens)+" out")
	if tu.Denials > 0 {
		parts = append(parts, plural(tu.Denials, "denial", "denials"))
	}
	return strings.Join(parts, "  ·  ")
}
