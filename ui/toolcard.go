package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// toolCard is a tool call: name, one-line input, its state, and on demand
// the full input and the raw result in a monospace grid.
type toolCard struct {
	root    *fyne.Container
	bg      *canvas.Rectangle
	name    *widget.Label
	summary *widget.Label
	state   *widget.Label
	toggle  *widget.Button
	grant   *widget.Button // Grant…: a refused call offered again, after the turn
	denial  *widget.Label
	details *fyne.Container
	input   *fyne.Container // the whole input, wrapped (wholeText)
	inputOf string          // what input shows
	result  *widget.TextGrid
	more    *widget.Label
	resLbl  *widget.Label
}

func newToolCard(r *rowView) *toolCard {
	c := &toolCard{bg: canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))}
	c.bg.CornerRadius = theme.InputRadiusSize()
	c.bg.StrokeColor = theme.Color(theme.ColorNameInputBorder)
	c.bg.StrokeWidth = 1
	c.name = widget.NewLabel("")
	c.name.TextStyle.Bold = true
	c.summary = widget.NewLabel("")
	c.summary.TextStyle.Monospace = true
	c.summary.Truncation = fyne.TextTruncateEllipsis
	c.state = widget.NewLabel("")
	c.toggle = widget.NewButton("Details", func() {
		if r.t == nil || r.id >= len(r.t.entries) {
			return
		}
		e := r.t.entries[r.id]
		e.expanded = !e.expanded
		r.t.changed(r.id)
		r.t.list.Sync()
	})
	c.toggle.Importance = widget.LowImportance
	c.grant = widget.NewButtonWithIcon("Grant…", theme.ConfirmIcon(), func() {
		if r.t == nil || r.id >= len(r.t.entries) || r.t.actions.grantLater == nil {
			return
		}
		if tc := r.t.entries[r.id].tool; tc != nil && tc.ID != "" {
			r.t.actions.grantLater(tc.ID)
		}
	})
	c.grant.Importance = widget.LowImportance
	c.grant.Hide()
	c.denial = widget.NewLabel("")
	c.denial.Wrapping = fyne.TextWrapWord
	c.denial.Importance = widget.DangerImportance
	c.input = wholeText("", false)
	c.result = widget.NewTextGrid()
	c.result.Scroll = fyne.ScrollHorizontalOnly
	c.more = widget.NewLabel("")
	c.more.Importance = widget.LowImportance
	c.more.SizeName = theme.SizeNameCaptionText
	c.resLbl = widget.NewLabel("Result")
	c.resLbl.SizeName = theme.SizeNameCaptionText
	head := container.NewBorder(nil, nil,
		container.NewHBox(widget.NewIcon(theme.ComputerIcon()), c.name),
		container.NewHBox(c.state, c.grant, c.toggle), c.summary)
	caption := func(s string) *widget.Label {
		l := widget.NewLabel(s)
		l.Importance = widget.LowImportance
		l.SizeName = theme.SizeNameCaptionText
		return l
	}
	c.details = container.NewVBox(caption("Input"), indent(c.input), c.resLbl, indent(c.result), c.more)
	body := container.NewVBox(head, c.denial, c.details)
	c.root = container.NewPadded(container.NewStack(c.bg, container.NewPadded(body)))
	return c
}

func (c *toolCard) set(e *entry) {
	tc := e.tool
	name := tc.Name
	if name == "" {
		name = "Tool"
	}
	c.name.SetText(name)
	c.summary.SetText(tc.Summary)
	switch {
	case !e.finished:
		c.state.Importance = widget.LowImportance
		c.state.SetText("running…")
	case tc.Denial != "":
		c.state.Importance = widget.DangerImportance
		c.state.SetText("denied")
	case tc.IsError:
		c.state.Importance = widget.DangerImportance
		c.state.SetText("error")
	default:
		c.state.Importance = widget.SuccessImportance
		c.state.SetText("done")
	}
	if tc.Denial != "" {
		// The class in words reads as a sentence: "Needs approval.",
		// "Denied by rule.", "Blocked: permission channel closed."
		msg := strings.ToUpper(tc.Denial[:1]) + tc.Denial[1:] + "."
		if tc.Grantable && e.finished {
			msg += " Grant… offers it again, and Claude retries it."
			c.grant.Show()
		} else {
			c.grant.Hide()
		}
		c.denial.SetText(msg)
		c.denial.Show()
	} else {
		c.denial.Hide()
		c.grant.Hide()
	}
	if e.expanded {
		c.toggle.SetText("Hide")
		// The input is what was asked and run: shown whole, never clipped.
		if c.inputOf != tc.Input || len(c.input.Objects) == 0 {
			c.inputOf = tc.Input
			setWholeText(c.input, tc.Input, false)
		}
		out, more := clip(tc.Result, maxResultLines, maxResultCols)
		if out == "" {
			out = "(no output yet)"
			if e.finished {
				out = "(no output)"
			}
		}
		c.result.SetText(out)
		if tc.IsError {
			red := &widget.CustomTextGridStyle{FGColor: theme.Color(theme.ColorNameError)}
			for i := range c.result.Rows {
				c.result.SetRowStyle(i, red)
			}
			c.resLbl.Importance = widget.DangerImportance
			c.resLbl.SetText("Result — error")
		} else {
			c.resLbl.Importance = widget.LowImportance
			c.resLbl.SetText("Result")
		}
		if more > 0 {
			c.more.SetText(fmt.Sprintf("… %d more lines not shown", more))
			c.more.Show()
		} else {
			c.more.Hide()
		}
		c.details.Show()
	} else {
		c.toggle.SetText("Details")
		c.details.Hide()
	}
}

// indent lines a monospace grid up with the labels around it.
func indent(o fyne.CanvasObject) fyne.CanvasObject {
	return container.New(layout.NewCustomPaddedLayout(0, 0, theme.Padding()*2, 0), o)
}
