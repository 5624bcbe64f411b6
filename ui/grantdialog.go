package ui

import (
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
	"github.com/latch-app/latch/core/grants"
)

// grantDialog offers, after a turn, everything the turn was refused, each
// with an unticked checkbox: nothing is granted without a deliberate act.
type grantDialog struct {
	m    *modal
	mw   *MainWindow
	r    app.GrantRequest
	done func(app.Decision)

	toolChecks   []*kCheck
	rules        []*kEntry
	folderChecks []*kCheck
	folders      []*kEntry
	scope        *choiceGroup
	hint         *widget.Label
	grant, later *kButton
}

func (mw *MainWindow) newGrantDialog(r app.GrantRequest, done func(app.Decision)) *modal {
	d := &grantDialog{mw: mw, r: r, done: done}
	d.m = &modal{win: mw.win, owner: d}
	d.m.onKey, d.m.onRune = d.key, func(rune) bool { return false }
	title := "Grant what the last turn needed?"
	if r.Round > 1 {
		title = fmt.Sprintf("Grant what the retry needed? (round %d of %d)", r.Round, app.MaxRounds)
	}
	d.m.dlg = dialog.NewCustomWithoutButtons(title, d.content(), mw.win)
	d.m.show(700)
	return d.m
}

func detailLine(reason, example string) string {
	var parts []string
	if reason != "" {
		parts = append(parts, reason)
	}
	if example != "" {
		parts = append(parts, "tried: "+example)
	}
	return strings.Join(parts, " · ")
}

func (d *grantDialog) content() fyne.CanvasObject {
	rows := []fyne.CanvasObject{wrapped("These tool calls were refused. Tick what Claude may do from now on, then retry the turn.")}
	if len(d.r.Tools) > 0 {
		h := widget.NewLabel("Tools")
		h.TextStyle.Bold = true
		rows = append(rows, h)
	}
	var tools, folders []fyne.CanvasObject
	for _, t := range d.r.Tools {
		c := newKCheck(t.Tool, d.m, nil)
		rule := newKEntry(d.m)
		rule.SetText(t.Rule)
		d.toolChecks = append(d.toolChecks, c)
		d.rules = append(d.rules, rule)
		tools = append(tools, c, rule)
		if s := detailLine(t.Reason, t.Example); s != "" {
			tools = append(tools, layout.NewSpacer(), caption(s))
		}
	}
	if len(tools) > 0 {
		rows = append(rows, container.New(layout.NewFormLayout(), tools...))
	}
	if len(d.r.Folders) > 0 {
		h := widget.NewLabel("Folders")
		h.TextStyle.Bold = true
		rows = append(rows, h)
	}
	for _, f := range d.r.Folders {
		label := "Folder"
		if f.Tool != "" {
			label = "Folder for " + f.Tool
		}
		c := newKCheck(label, d.m, nil)
		e := newKEntry(d.m)
		e.SetText(f.Path)
		browse := newKButton("Browse…", theme.FolderOpenIcon(), d.m, nil)
		browse.OnTapped = func() {
			d.mw.chooseFolder(e.Text, func(p string) {
				e.SetText(p)
				c.SetChecked(true)
			})
		}
		d.folderChecks = append(d.folderChecks, c)
		d.folders = append(d.folders, e)
		folders = append(folders, c, container.NewBorder(nil, nil, nil, browse, e))
		if s := detailLine(f.Reason, f.Example); s != "" {
			folders = append(folders, layout.NewSpacer(), caption(s))
		}
	}
	if len(folders) > 0 {
		rows = append(rows, container.New(layout.NewFormLayout(), folders...))
	}
	d.scope = newChoiceGroup([]string{
		"Your user settings (~/.claude/settings.json)",
		"This project (.claude/settings.local.json)",
		"This retry only",
	}, false, d.m)
	d.scope.items[0].Selected = true
	rows = append(rows, widget.NewSeparator(), caption("Save the grants in"), container.NewVBox(d.scope.objects()...))
	d.hint = widget.NewLabel("")
	d.hint.Importance = widget.DangerImportance
	d.hint.Wrapping = fyne.TextWrapWord
	d.hint.Hide()
	d.later = newKButton("Not now", theme.CancelIcon(), d.m, func() { d.done(app.Decision{Action: app.NotNow}) })
	d.grant = newKButton("Grant and retry", theme.ConfirmIcon(), d.m, d.submit)
	d.grant.Importance = widget.HighImportance
	rows = append(rows, d.hint, widget.NewSeparator(),
		container.NewHBox(caption("Tab moves · Space ticks · Enter grants and retries · Esc: not now"),
			layout.NewSpacer(), d.later, d.grant))
	switch {
	case len(d.toolChecks) > 0:
		d.m.first = d.toolChecks[0]
	case len(d.folderChecks) > 0:
		d.m.first = d.folderChecks[0]
	default:
		d.m.first = d.later
	}
	return container.NewVBox(rows...)
}

func (d *grantDialog) say(msg string) {
	d.hint.SetText(msg)
	d.hint.Show()
	d.m.dlg.Resize(fyne.NewSize(d.m.dlg.MinSize().Width, d.m.dlg.MinSize().Height))
}

// submit collects what is ticked; a grant of / or the home folder is
// confirmed a second time.
func (d *grantDialog) submit() {
	dec := app.Decision{Action: app.Grant}
	switch {
	case d.scope.items[1].Selected:
		dec.Scope = app.ScopeProject
	case d.scope.items[2].Selected:
		dec.Scope = app.ScopeOnce
	}
	for i, c := range d.toolChecks {
		if !c.Checked {
			continue
		}
		rule := strings.TrimSpace(d.rules[i].Text)
		if err := grants.ValidRule(rule); err != nil {
			d.say(fmt.Sprintf("%q is not a rule Claude Code understands: %v", rule, err))
			return
		}
		dec.Rules = append(dec.Rules, rule)
	}
	for i, c := range d.folderChecks {
		if !c.Checked {
			continue
		}
		dec.Folders = append(dec.Folders, strings.TrimSpace(d.folders[i].Text))
	}
	if len(dec.Rules) == 0 && len(dec.Folders) == 0 {
		d.say("Nothing is ticked. Tick what to grant (Space), or press Esc for “Not now”.")
		return
	}
	for _, f := range dec.Folders {
		if _, err := grants.CheckDir(f, true); err != nil {
			d.say(err.Error())
			return
		}
	}
	d.mw.confirmBroad(dec.Folders, func(force bool) {
		dec.Force = force
		d.done(dec)
	})
}

func (d *grantDialog) key(ev *fyne.KeyEvent) bool {
	switch ev.Name {
	case fyne.KeyEscape:
		d.done(app.Decision{Action: app.NotNow})
		return true
	case fyne.KeyReturn, fyne.KeyEnter:
		if b, ok := d.mw.win.Canvas().Focused().(*kButton); ok && b != d.grant {
			b.OnTapped()
			return true
		}
		d.submit()
		return true
	}
	return false
}

// confirmBroad calls ok(false) at once when no folder is / or the home
// folder; otherwise it asks a second time and calls ok(true) on a yes.
func (mw *MainWindow) confirmBroad(folders []string, ok func(force bool)) {
	mw.confirmBroadIn(mw.win, folders, ok)
}

func (mw *MainWindow) confirmBroadIn(win fyne.Window, folders []string, ok func(force bool)) {
	var broad []string
	for _, f := range folders {
		if _, err := grants.CheckDir(f, false); errors.Is(err, grants.ErrNeedsForce) {
			broad = append(broad, f)
		}
	}
	if len(broad) == 0 {
		ok(false)
		return
	}
	m := &modal{win: win}
	var back, yes *kButton
	m.onKey = func(ev *fyne.KeyEvent) bool {
		switch ev.Name {
		case fyne.KeyEscape:
			back.OnTapped()
			return true
		case fyne.KeyReturn, fyne.KeyEnter:
			if f, isBtn := win.Canvas().Focused().(*kButton); isBtn {
				f.OnTapped()
			} else {
				back.OnTapped()
			}
			return true
		}
		return false
	}
	m.onRune = func(rune) bool { return false }
	back = newKButton("Go back", nil, m, func() { m.close() })
	yes = newKButton("Grant it anyway", theme.WarningIcon(), m, func() {
		m.close()
		ok(true)
	})
	yes.Importance = widget.DangerImportance
	msg := wrapped(fmt.Sprintf("You are about to let Claude read and write %s. That opens nearly every file you have. Grant it anyway?",
		strings.Join(broad, " and ")))
	content := container.NewVBox(msg, container.NewHBox(layout.NewSpacer(), back, yes))
	m.dlg = dialog.NewCustomWithoutButtons("Grant such a broad folder?", content, win)
	m.first = back
	m.show(480)
}
