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

	"github.com/latch-app/latch/app"
)

// toolCard is a tool call: name, one-line input, its state; for a file
// change its summary, which opens the diff; and on demand the Details:
// the input as labelled fields, the result (with a Bash exit code) and
// Copy as JSON for the raw form.
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
	input   *fyne.Container // the input's labelled fields (setFields)
	inputOf string          // what input shows
	result  *widget.TextGrid
	more    *widget.Label
	resLbl  *widget.Label
	// Details read as labelled fields (details.go); inputOf, nameOf and
	// diffOf are what the fields were made from.
	nameOf   string
	diffOf   *app.FileDiff
	exit     *widget.Label // Bash: the exit code, when the result says it
	copyJSON *widget.Button
	// The change of an Edit, MultiEdit or Write: its summary, which opens
	// the diff (diffview.go); the state is the entry's (diffOpen).
	diffBox    *fyne.Container
	diffToggle *widget.Button
	diffSum    *widget.Label
	copyDiff   *widget.Button
	diff       *diffView
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
	c.resLbl = widget.NewLabel("Output")
	c.resLbl.SizeName = theme.SizeNameCaptionText
	c.exit = widget.NewLabel("")
	c.exit.Hide()
	c.copyJSON = widget.NewButtonWithIcon("Copy as JSON", theme.ContentCopyIcon(), func() {
		if r.t == nil || r.id >= len(r.t.entries) || r.t.copy == nil {
			return
		}
		if tc := r.t.entries[r.id].tool; tc != nil {
			r.t.copy(callJSON(tc))
		}
	})
	c.copyJSON.Importance = widget.LowImportance
	c.diffToggle = widget.NewButtonWithIcon("", theme.MenuExpandIcon(), func() {
		if r.t == nil || r.id >= len(r.t.entries) {
			return
		}
		e := r.t.entries[r.id]
		e.diffOpen = !e.diffOpen
		r.t.changed(r.id)
		r.t.list.Sync()
	})
	c.diffToggle.Importance = widget.LowImportance
	c.copyDiff = widget.NewButtonWithIcon("Copy diff", theme.ContentCopyIcon(), func() {
		if r.t == nil || r.id >= len(r.t.entries) || r.t.copy == nil {
			return
		}
		if tc := r.t.entries[r.id].tool; tc != nil && tc.Diff != nil {
			r.t.copy(unifiedDiff(tc.Diff, tc.Input))
		}
	})
	c.copyDiff.Importance = widget.LowImportance
	c.diffSum = widget.NewLabel("")
	c.diffSum.TextStyle.Monospace = true
	c.diffSum.Wrapping = fyne.TextWrapBreak
	c.diff = newDiffView()
	c.diffBox = container.NewVBox(container.NewBorder(nil, nil, c.diffToggle, c.copyDiff, c.diffSum), indent(c.diff))
	c.diffBox.Hide()
	head := container.NewBorder(nil, nil,
		container.NewHBox(widget.NewIcon(theme.ComputerIcon()), c.name),
		container.NewHBox(c.state, c.grant, c.toggle), c.summary)
	caption := func(s string) *widget.Label {
		l := widget.NewLabel(s)
		l.Importance = widget.LowImportance
		l.SizeName = theme.SizeNameCaptionText
		return l
	}
	c.details = container.NewVBox(caption("Input"), c.input, c.resLbl, indent(c.exit), indent(c.result), c.more, container.NewHBox(c.copyJSON))
	body := container.NewVBox(head, c.denial, c.diffBox, c.details)
	c.root = container.NewPadded(container.NewStack(c.bg, container.NewPadded(body)))
	return c
}

func (c *toolCard) set(e *entry) {
	// The theme may have changed since the card was made.
	c.bg.FillColor = theme.Color(theme.ColorNameInputBackground)
	c.bg.StrokeColor = theme.Color(theme.ColorNameInputBorder)
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
	if fd := tc.Diff; fd != nil {
		c.diffSum.SetText(app.VisibleLine(fd.Summary))
		if e.diffOpen {
			c.diffToggle.SetIcon(theme.MenuDropDownIcon())
			c.diff.setDiff(fd)
			c.diff.Show()
			c.copyDiff.Show()
		} else {
			c.diffToggle.SetIcon(theme.MenuExpandIcon())
			c.diff.setDiff(nil) // a pooled card keeps no rows of a closed diff
			c.diff.Hide()
			c.copyDiff.Hide()
		}
		c.diffBox.Show()
	} else {
		c.diff.setDiff(nil)
		c.diffBox.Hide()
	}
	if e.expanded {
		c.toggle.SetText("Hide")
		// The input is what was asked and run: labelled fields, each value
		// shown whole, never clipped.
		if c.inputOf != tc.Input || c.nameOf != tc.Name || c.diffOf != tc.Diff || len(c.input.Objects) == 0 {
			c.inputOf, c.nameOf, c.diffOf = tc.Input, tc.Name, tc.Diff
			setFields(c.input, inputFields(tc.Name, tc.Input, tc.Diff))
		}
		c.setExit(e)
		out, more := clip(tc.Result, maxResultLines, maxResultCols)
		if out == "" {
			out = "(no output yet)"
			if e.finished {
				out = "(no output)"
			}
		}
		c.result.SetText(displayText(out)) // escaped, tabs as spaces
		if tc.IsError {
			red := &widget.CustomTextGridStyle{FGColor: theme.Color(theme.ColorNameError)}
			for i := range c.result.Rows {
				c.result.SetRowStyle(i, red)
			}
			c.resLbl.Importance = widget.DangerImportance
			c.resLbl.SetText("Output — error")
		} else {
			c.resLbl.Importance = widget.LowImportance
			c.resLbl.SetText("Output")
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

// setExit shows a Bash call's exit code when its result says it, and
// that it is not known when the call failed without saying it.
func (c *toolCard) setExit(e *entry) {
	tc := e.tool
	if tc.Name != "Bash" || !e.finished || tc.Denial != "" {
		c.exit.Hide()
		return
	}
	code, ok := exitCode(tc.Result)
	switch {
	case ok:
		c.exit.SetText("Exit code " + code)
		c.exit.Importance = widget.MediumImportance
		if code != "0" {
			c.exit.Importance = widget.DangerImportance
		}
	case tc.IsError:
		c.exit.SetText("Exit code not reported")
		c.exit.Importance = widget.LowImportance
	default:
		c.exit.Hide()
		return
	}
	c.exit.Refresh()
	c.exit.Show()
}

// indent lines a monospace grid up with the labels around it.
func indent(o fyne.CanvasObject) fyne.CanvasObject {
	return container.New(layout.NewCustomPaddedLayout(0, 0, theme.Padding()*2, 0), o)
}
