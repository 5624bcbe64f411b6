package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

// askDialog is the live permission question, laid out like Claude Code's
// own prompt: 1 Allow once, 2 Always allow, 3 Deny, Esc deny and stop.
type askDialog struct {
	m    *modal
	mw   *mainWindow
	q    app.Question
	done func(app.Decision)

	rule   *kEntry
	scope  *choiceGroup
	msg    *kEntry
	folder *kEntry
	groups []*choiceGroup // AskUserQuestion

	ruleNote *widget.Label // what is wrong with the rule, or how broad it is
	access   *choiceGroup  // the folder grant: read, or read and write
	review   *reviewBox    // the call, shown whole
	gateNote *widget.Label // says why the allow keys wait

	allowOnce, always, deny, grantFolder, answer *kButton
	stopTurn                                     *kButton // Esc: the window's Stop button is behind the dialog
	buttons                                      []*kButton
}

// newAskDialog builds the dialog for q on the window's stack; done gets
// the answer. Show it with Show.
func (mw *mainWindow) newAskDialog(q app.Question, done func(app.Decision)) *modal {
	d := &askDialog{mw: mw, q: q, done: done}
	d.m = mw.modals.newModal(nil, d, 640)
	d.m.onKey, d.m.onRune = d.key, d.rune
	d.m.cancel = func() { d.finish(app.DenyStop) }
	d.m.onShown = d.updateGate // the call's box has its size only once shown
	var content fyne.CanvasObject
	title := "Allow " + toolName(q) + "?"
	if len(q.Questions) > 0 {
		title = "Claude has a question"
		content = d.questionContent()
	} else {
		content = d.permissionContent()
	}
	d.m.dlg = dialog.NewCustomWithoutButtons(title, content, mw.win)
	return d.m
}

func toolName(q app.Question) string {
	if q.DisplayName != "" {
		return q.DisplayName
	}
	if q.Tool != "" {
		return q.Tool
	}
	return "this tool"
}

func wrapped(s string) *widget.Label {
	l := widget.NewLabel(s)
	l.Wrapping = fyne.TextWrapWord
	return l
}

func caption(s string) *widget.Label {
	l := widget.NewLabel(s)
	l.Importance = widget.LowImportance
	l.SizeName = theme.SizeNameCaptionText
	return l
}

func (d *askDialog) permissionContent() fyne.CanvasObject {
	q := d.q
	var rows []fyne.CanvasObject
	if q.Description != "" {
		rows = append(rows, wrapped(app.Visible(q.Description)))
	}
	// The call itself is shown whole; when it is taller than its box, the
	// allow keys wait until its end has been in view.
	switch {
	case q.Diff != "":
		if q.Path != "" {
			rows = append(rows, caption("Change to "+app.VisibleLine(q.Path)))
		}
		d.review = newReviewBox(q.Diff, true, 260)
	case q.Command != "":
		rows = append(rows, caption("Command"))
		d.review = newReviewBox(q.Command, false, 200)
	case q.Path != "":
		rows = append(rows, caption("Path"))
		d.review = newReviewBox(q.Path, false, 80)
	case q.Input != "":
		rows = append(rows, caption("Input"))
		d.review = newReviewBox(q.Input, false, 200)
	case q.Summary != "":
		d.review = newReviewBox(q.Summary, false, 80)
	}
	if d.review != nil {
		d.review.changed = d.updateGate
		d.gateNote = caption("It is longer than this box: scroll to its end (End or Page Down) before you allow it.")
		d.gateNote.Importance = widget.WarningImportance
		d.gateNote.Wrapping = fyne.TextWrapWord
		d.gateNote.Hide()
		rows = append(rows, indent(d.review.scroll), d.gateNote)
	}
	if q.BlockedPath != "" {
		l := wrapped("Blocked path: " + app.VisibleLine(q.BlockedPath))
		l.Importance = widget.WarningImportance
		rows = append(rows, l)
	}
	if q.Reason != "" {
		l := wrapped("Why it asks: " + app.Visible(q.Reason))
		l.Importance = widget.LowImportance
		rows = append(rows, l)
	}
	if q.MatchedAskRule != "" {
		rows = append(rows, wrapped("An ask rule makes Claude Code ask: "+app.Visible(q.MatchedAskRule)))
	}
	if q.AgentID != "" {
		l := wrapped("A subagent asks (" + app.VisibleLine(q.AgentID) + ").")
		l.Importance = widget.WarningImportance
		rows = append(rows, l)
	}
	if q.NoPersistent {
		rows = append(rows, caption("Claude Code asks that nothing about this call be allowed for good: it can be allowed once only."))
	}
	rows = append(rows, widget.NewSeparator())

	d.rule = newKEntry(d.m)
	d.rule.SetText(q.Rule)
	d.rule.SetPlaceHolder("Type a rule, e.g. Bash(npm test:*)")
	d.ruleNote = caption("")
	d.ruleNote.Wrapping = fyne.TextWrapWord
	d.rule.OnChanged = func(string) { d.checkRule() }
	d.checkRule()
	d.scope = newChoiceGroup(grantScopeNames, false, d.m)
	d.scope.items[grantScopeIndex(d.mw.settings().Scope())].Selected = true
	d.msg = newKEntry(d.m)
	d.msg.SetPlaceHolder(app.DefaultDenyMessage)
	var form []fyne.CanvasObject
	if !q.NoPersistent {
		form = append(form, caption("Rule to always allow"), d.rule, d.ruleNote,
			caption("Keep it for"), container.NewHBox(d.scope.objects()...))
	}
	form = append(form, caption("Message if you deny"), d.msg)
	d.allowOnce = newKButton("1  Allow once", theme.ConfirmIcon(), d.m, func() { d.finish(app.AllowOnce) })
	d.always = newKButton("2  Always allow", nil, d.m, func() { d.finish(app.AllowAlways) })
	d.deny = newKButton("3  Deny", theme.CancelIcon(), d.m, func() { d.finish(app.Deny) })
	d.buttons = []*kButton{d.allowOnce}
	if !q.NoPersistent {
		d.buttons = append(d.buttons, d.always)
	} else {
		d.always = nil
	}
	d.buttons = append(d.buttons, d.deny)
	if q.Folder != "" {
		d.folder = newKEntry(d.m)
		d.folder.SetText(q.Folder)
		browse := newKButton("Browse…", theme.FolderOpenIcon(), d.m, func() {
			d.mw.chooseFolderFor(d.m, d.folder.Text, func(p string) { d.folder.SetText(p) })
		})
		d.access = newChoiceGroup(folderAccessNames, false, d.m)
		d.access.items[folderAccessDefault(q.Writes)].Selected = true
		form = append(form, caption("Folder to grant"), container.NewBorder(nil, nil, nil, browse, d.folder),
			container.NewHBox(d.access.objects()...))
		d.grantFolder = newKButton("4  Grant folder", theme.FolderIcon(), d.m, func() { d.finish(app.GrantFolder) })
		d.buttons = append(d.buttons, d.grantFolder)
	}
	if q.DefaultToNo {
		d.deny.Importance = widget.HighImportance
	} else {
		d.allowOnce.Importance = widget.HighImportance
	}
	rows = append(rows, form...)
	rows = append(rows, widget.NewSeparator())
	btns := []fyne.CanvasObject{}
	for _, b := range d.buttons {
		btns = append(btns, b)
	}
	d.stopTurn = newKButton("Stop the turn", theme.MediaStopIcon(), d.m, func() { d.finish(app.DenyStop) })
	btns = append(btns, layout.NewSpacer(), d.stopTurn)
	hint := "Digits choose at once (outside text fields) · Enter presses the focused button · Esc denies and stops the turn"
	switch {
	case q.Deliberate:
		hint = "Claude Code asks for a deliberate answer: digits do nothing here. Tab to a button and press Enter · Esc denies and stops the turn"
	case q.DefaultToNo:
		hint = "Deny is the default here: digits only deny (3). Tab to a button and press Enter to allow · Esc denies and stops the turn"
	}
	rows = append(rows, container.NewHBox(btns...), caption(hint))
	d.m.first = d.allowOnce
	if q.DefaultToNo {
		d.m.first = d.deny
	}
	return container.NewVBox(rows...)
}

func (d *askDialog) questionContent() fyne.CanvasObject {
	var rows []fyne.CanvasObject
	for i, it := range d.q.Questions {
		if i > 0 {
			rows = append(rows, widget.NewSeparator())
		}
		if it.Header != "" {
			h := widget.NewLabel(it.Header)
			h.TextStyle.Bold = true
			rows = append(rows, h)
		}
		rows = append(rows, wrapped(it.Question))
		g := newChoiceGroup(it.Options, it.MultiSelect, d.m)
		if !it.MultiSelect && len(g.items) > 0 {
			g.items[0].Selected = true
		}
		d.groups = append(d.groups, g)
		rows = append(rows, container.NewVBox(g.objects()...))
	}
	d.answer = newKButton("Answer", theme.ConfirmIcon(), d.m, func() { d.finish(app.AllowOnce) })
	d.answer.Importance = widget.HighImportance
	d.deny = newKButton("Don't answer", theme.CancelIcon(), d.m, func() { d.finish(app.Deny) })
	d.buttons = []*kButton{d.answer, d.deny}
	rows = append(rows, widget.NewSeparator(),
		container.NewHBox(layout.NewSpacer(), d.deny, d.answer),
		caption("Space picks the focused option · digits pick an option · Enter answers · Esc stops the turn"))
	if len(d.groups) > 0 && len(d.groups[0].items) > 0 {
		d.m.first = d.groups[0].items[0]
	} else {
		d.m.first = d.answer
	}
	return container.NewVBox(rows...)
}

// gated reports whether an allow must wait: the call is longer than its box
// and its end has not been in view yet.
func (d *askDialog) gated() bool {
	return d.review != nil && !d.review.reviewed()
}

// updateGate enables the allow buttons once the whole call has been seen.
func (d *askDialog) updateGate() {
	if d.review == nil {
		return
	}
	gated := d.gated()
	for _, b := range []*kButton{d.allowOnce, d.always, d.grantFolder} {
		if b == nil {
			continue
		}
		if gated {
			b.Disable()
		} else {
			b.Enable()
		}
	}
	if gated {
		d.gateNote.Show()
	} else {
		d.gateNote.Hide()
	}
}

func (d *askDialog) finish(a app.Action) {
	switch a {
	case app.AllowOnce, app.AllowAlways, app.GrantFolder:
		if len(d.groups) == 0 && d.gated() {
			d.updateGate()
			return // the person has not seen the whole call
		}
	}
	dec := app.Decision{Action: a}
	switch a {
	case app.AllowOnce:
		if len(d.groups) > 0 {
			dec.Answers = map[string]string{}
			for i, g := range d.groups {
				dec.Answers[d.q.Questions[i].Question] = strings.Join(g.selected(), ", ")
			}
		}
	case app.AllowAlways:
		if d.q.NoPersistent {
			return
		}
		if !d.checkRule() {
			d.mw.win.Canvas().Focus(d.rule)
			return // the note says what to fix
		}
		dec.Rule = strings.TrimSpace(d.rule.Text)
		dec.Scope = d.scopeValue()
		d.mw.settings().RememberScope(dec.Scope)
	case app.Deny, app.DenyStop:
		dec.Message = d.denyMessage()
	case app.GrantFolder:
		dec.Folder = strings.TrimSpace(d.folder.Text)
		if d.access != nil && d.access.items[0].Selected {
			dec.ReadOnly = []string{dec.Folder}
		}
		dec.Scope = d.scopeValue()
		if d.q.NoPersistent {
			dec.Scope = app.ScopeOnce
		} else {
			d.mw.settings().RememberScope(dec.Scope)
		}
		d.m.stack.confirmBroad(d.m, []string{dec.Folder}, func(force bool) {
			dec.Force = force
			d.done(dec)
		})
		return
	}
	d.done(dec)
}

func (d *askDialog) scopeValue() app.Scope {
	if d.scope != nil {
		for i, it := range d.scope.items {
			if it.Selected {
				return grantScopeValues[i]
			}
		}
	}
	return app.ScopeProject
}

// checkRule explains the rule as it is typed: why it is invalid, or that a
// bare tool name allows every call of that tool.
func (d *askDialog) checkRule() (ok bool) {
	rule := strings.TrimSpace(d.rule.Text)
	d.ruleNote.Importance = widget.DangerImportance
	switch {
	case rule == "":
		d.ruleNote.SetText("No narrow rule fits this call: type one to always allow it.")
		d.ruleNote.Importance = widget.WarningImportance
	case app.CheckRule(rule) != nil:
		d.ruleNote.SetText(strings.TrimPrefix(app.CheckRule(rule).Error(), "invalid rule "))
	case app.IsBroadRule(rule):
		d.ruleNote.SetText("A bare " + rule + " allows every " + rule + " call, not just this one.")
		d.ruleNote.Importance = widget.WarningImportance
		ok = true
	case app.Visible(rule) != rule:
		d.ruleNote.SetText("The rule holds hidden characters: " + app.Visible(rule))
		d.ruleNote.Importance = widget.WarningImportance
		ok = true
	default:
		d.ruleNote.SetText("")
		ok = true
	}
	if d.ruleNote.Text == "" {
		d.ruleNote.Hide()
	} else {
		d.ruleNote.Show()
	}
	d.ruleNote.Refresh()
	return ok
}

func (d *askDialog) denyMessage() string {
	if d.msg != nil {
		if s := strings.TrimSpace(d.msg.Text); s != "" {
			return s
		}
	}
	return app.DefaultDenyMessage
}

func (d *askDialog) key(ev *fyne.KeyEvent) bool {
	switch ev.Name {
	case fyne.KeyEscape:
		d.m.Dismiss()
		return true
	case fyne.KeyPageDown, fyne.KeyPageUp, fyne.KeyHome, fyne.KeyEnd:
		if d.review == nil {
			return false
		}
		d.review.scrollBy(map[fyne.KeyName]int{fyne.KeyPageDown: 1, fyne.KeyPageUp: -1, fyne.KeyHome: -2, fyne.KeyEnd: 2}[ev.Name])
		return true
	case fyne.KeyReturn, fyne.KeyEnter:
		switch f := d.mw.win.Canvas().Focused().(type) {
		case *kButton:
			f.OnTapped()
		case *choice:
			if d.access != nil && f.group == d.access {
				d.finish(app.GrantFolder)
			} else if d.answer == nil { // a "keep it for" option: always allow there
				d.finish(app.AllowAlways)
			} else {
				d.finish(app.AllowOnce)
			}
		case *kEntry:
			switch f {
			case d.rule:
				d.finish(app.AllowAlways)
			case d.msg:
				d.finish(app.Deny)
			case d.folder:
				d.finish(app.GrantFolder)
			}
		default:
			if !d.q.DefaultToNo && !d.q.Deliberate {
				d.finish(app.AllowOnce)
			}
		}
		return true
	}
	return false
}

func (d *askDialog) rune(r rune) bool {
	if r < '1' || r > '9' {
		return false
	}
	n := int(r - '1')
	if len(d.groups) > 0 {
		g := d.groups[0]
		if c, ok := d.mw.win.Canvas().Focused().(*choice); ok {
			g = c.group
		}
		g.pick(n)
		return true
	}
	// Digits keep their meaning whatever is shown: 1 once, 2 always,
	// 3 deny, 4 folder. The CLI can ask for no one-key answers at all, or
	// for none that allow.
	if d.q.Deliberate {
		return true
	}
	b := map[rune]*kButton{'1': d.allowOnce, '2': d.always, '3': d.deny, '4': d.grantFolder}[r]
	if b == nil || (d.q.DefaultToNo && b != d.deny) {
		return true
	}
	b.OnTapped()
	return true
}
