package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

// grantRow is a grant in the transcript — what was allowed, where it was
// saved — with an Undo that takes exactly that back.
type grantRow struct {
	root  *fyne.Container
	text  *widget.Label
	undo  *widget.Button
	grant *app.GrantInfo
}

func newGrantRow(r *rowView) *grantRow {
	g := &grantRow{text: widget.NewLabel("")}
	g.text.Wrapping = fyne.TextWrapWord
	g.text.Importance = widget.SuccessImportance
	g.undo = widget.NewButtonWithIcon("Undo", theme.ContentUndoIcon(), func() {
		if g.grant == nil || g.grant.Undone || r.t == nil || r.t.actions.undo == nil {
			return
		}
		g.undo.Disable() // once; the undo row says when it is done
		r.t.actions.undo(g.grant.ID)
	})
	g.undo.Importance = widget.LowImportance
	g.root = container.NewBorder(nil, nil, widget.NewIcon(theme.ConfirmIcon()), g.undo, g.text)
	return g
}

func (g *grantRow) set(info *app.GrantInfo) {
	g.grant = info
	if info.Undone {
		g.text.Importance = widget.LowImportance
		g.text.SetText(info.Text + " — undone")
		g.undo.Hide()
		return
	}
	g.text.Importance = widget.SuccessImportance
	g.text.SetText(info.Text)
	g.undo.Enable()
	g.undo.Show()
}
