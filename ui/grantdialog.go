package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

// grantDialog offers, after a turn, everything the turn was refused, each
// with an unticked checkbox: nothing is granted without a deliberate act.
// Folders are shown resolved, as they would be saved. The list scrolls;
// the scope and the buttons below it stay in view.
type grantDialog struct {
	m    *modal
	mw   *mainWindow
	r    app.GrantRequest
	done func(app.Decision)

	toolChecks   []*seenCheck
	rules        []*seenEntry
	folderChecks []*seenCheck
	folders      []*seenEntry
	access       []*choiceGroup // per folder: read, or read and write
	browses      []*seenButton
	heads        map[fyne.CanvasObject]fyne.CanvasObject // a section's first checkbox → its heading
	list         *container.Scroll
	scope        *choiceGroup
	hint         *widget.Label
	grant, later *kButton
}

// newGrantDialog builds the dialog for r on the window's stack; done gets
// the answer. Show it with Show.
func (mw *mainWindow) newGrantDialog(r app.GrantRequest, done func(app.Decision)) *modal {
	d := &grantDialog{mw: mw, r: r, done: done}
	d.m = mw.modals.newModal(nil, d, grantDialogWidth)
	d.m.onKey, d.m.onRune = d.key, func(rune) bool { return false }
	d.m.cancel = func() { d.done(app.Decision{Action: app.NotNow}) }
	d.m.onShown = func() {
		d.fit() // wrapped text has its height only once laid out at its width
		d.list.ScrollToTop()
	}
	title := "Grant what the last turn needed?"
	if r.Round > 1 {
		title = fmt.Sprintf("Grant what the retry needed? (round %d of %d)", r.Round, app.MaxRounds)
	}
	d.m.dlg = dialog.NewCustomWithoutButtons(title, d.content(), mw.win)
	return d.m
}

const grantDialogWidth = 700

// width is the dialog's width in the window, as modal.Show sets it.
func (d *grantDialog) width() float32 {
	w := float32(grantDialogWidth)
	if ws := d.mw.win.Canvas().Size(); ws.Width > 0 && w > ws.Width-40 {
		w = ws.Width - 40
	}
	return w
}

// fit gives the list the height the window has left after everything else
// in the dialog, so that the scope and the buttons are never pushed out of
// the window, however many calls were refused.
func (d *grantDialog) fit() {
	const minList = 96
	d.list.SetMinSize(fyne.Size{})
	fixed := d.m.dlg.MinSize().Height - d.list.MinSize().Height
	avail := d.mw.win.Canvas().Size().Height - fixed - 2*theme.Padding()
	h := min(d.list.Content.MinSize().Height, max(avail, minList))
	d.list.SetMinSize(fyne.NewSize(0, h))
	d.m.dlg.Resize(fyne.NewSize(d.width(), d.m.dlg.MinSize().Height))
	switch f := d.mw.win.Canvas().Focused().(type) {
	case *seenCheck, *seenEntry, *seenButton:
		d.scrollTo(f.(fyne.CanvasObject))
	}
}

// scrollTo scrolls the list just enough to show o, a control in it that
// got the focus: Tab must never move to something out of sight.
func (d *grantDialog) scrollTo(o fyne.CanvasObject) {
	drv := fyne.CurrentApp().Driver()
	content := drv.AbsolutePositionForObject(d.list.Content).Y
	bottom := drv.AbsolutePositionForObject(o).Y - content + o.Size().Height
	if h, ok := d.heads[o]; ok {
		o = h // show "Tools" or "Folders" with its first row
	}
	top := drv.AbsolutePositionForObject(o).Y - content
	off, view := d.list.Offset.Y, d.list.Size().Height
	switch {
	case top < off:
		off = top
	case bottom > off+view:
		off = bottom - view
	default:
		return
	}
	d.list.ScrollToOffset(fyne.NewPos(d.list.Offset.X, max(off, 0)))
}

// resolve is a folder as it would be granted: absolute (a relative one is
// taken from the working folder, ~ is the home folder), cleaned and with
// links resolved.
func (d *grantDialog) resolve(text string) string {
	f := strings.TrimSpace(text)
	if f == "" {
		return ""
	}
	if f == "~" || strings.HasPrefix(f, "~/") {
		if home, err := os.UserHomeDir(); err == nil && home != "" {
			f = filepath.Join(home, f[1:])
		}
	}
	real, err := app.ResolveFolder(f, d.r.Workdir)
	if err != nil {
		return f
	}
	return real
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
	intro := wrapped("These tool calls were refused. Tick what Claude may do from now on, then retry the turn.")
	var rows []fyne.CanvasObject
	d.heads = map[fyne.CanvasObject]fyne.CanvasObject{}
	if len(d.r.Tools) > 0 {
		h := widget.NewLabel("Tools")
		h.TextStyle.Bold = true
		rows = append(rows, h)
	}
	var tools, folders []fyne.CanvasObject
	for _, t := range d.r.Tools {
		c := newSeenCheck(t.Tool, d.m, d.scrollTo)
		rule := newSeenEntry(d.m, d.scrollTo)
		rule.SetText(t.Rule)
		if len(d.toolChecks) == 0 {
			d.heads[c] = rows[len(rows)-1]
		}
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
		c := newSeenCheck(label, d.m, d.scrollTo)
		e := newSeenEntry(d.m, d.scrollTo)
		e.SetText(d.resolve(f.Path))
		// What was typed is shown resolved once the focus moves on.
		e.left = func() {
			if real := d.resolve(e.Text); real != e.Text {
				e.SetText(real)
			}
		}
		if len(d.folderChecks) == 0 {
			d.heads[c] = rows[len(rows)-1]
		}
		browse := newSeenButton("Browse…", theme.FolderOpenIcon(), d.m, d.scrollTo)
		browse.OnTapped = func() {
			d.mw.chooseFolderFor(d.m, e.Text, func(p string) {
				e.SetText(d.resolve(p))
				c.SetChecked(true)
			})
		}
		acc := newChoiceGroup(folderAccessNames, false, d.m)
		acc.onFocus = d.scrollTo
		acc.items[folderAccessDefault(f.Write)].Selected = true
		d.folderChecks = append(d.folderChecks, c)
		d.folders = append(d.folders, e)
		d.access = append(d.access, acc)
		d.browses = append(d.browses, browse)
		folders = append(folders, c, container.NewBorder(nil, nil, nil, browse, e),
			layout.NewSpacer(), container.NewHBox(acc.objects()...))
		if s := detailLine(f.Reason, f.Example); s != "" {
			folders = append(folders, layout.NewSpacer(), caption(s))
		}
	}
	if len(folders) > 0 {
		rows = append(rows, container.New(layout.NewFormLayout(), folders...))
	}
	d.list = container.NewVScroll(container.NewVBox(rows...))

	d.scope = newChoiceGroup(grantScopeNames, false, d.m)
	d.scope.items[grantScopeIndex(d.mw.settings().Scope())].Selected = true
	d.hint = widget.NewLabel("")
	d.hint.Importance = widget.DangerImportance
	d.hint.Wrapping = fyne.TextWrapWord
	d.hint.Hide()
	d.later = newKButton("Not now", theme.CancelIcon(), d.m, d.m.Dismiss)
	d.grant = newKButton("Grant and retry", theme.ConfirmIcon(), d.m, d.submit)
	d.grant.Importance = widget.HighImportance
	bottom := container.NewVBox(widget.NewSeparator(), caption("Keep the grants for"), container.NewVBox(d.scope.objects()...),
		d.hint, widget.NewSeparator(),
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
	// The objects in reading order, which is the Tab order.
	return container.New(layout.NewBorderLayout(intro, bottom, nil, nil), intro, d.list, bottom)
}

func (d *grantDialog) say(msg string) {
	d.hint.SetText(msg)
	d.hint.Show()
	d.fit()
}

// submit collects what is ticked. Folders are resolved once more: when one
// is not what the dialog showed, it is shown as it would be saved and the
// person grants again; a broad or sensitive one is confirmed a second time.
func (d *grantDialog) submit() {
	dec := app.Decision{Action: app.Grant, Scope: app.ScopeProject}
	for i, it := range d.scope.items {
		if it.Selected {
			dec.Scope = grantScopeValues[i]
		}
	}
	for i, c := range d.toolChecks {
		if !c.Checked {
			continue
		}
		rule := strings.TrimSpace(d.rules[i].Text)
		if err := app.CheckRule(rule); err != nil {
			d.say(fmt.Sprintf("%q is not a rule Claude Code understands: %v", rule, err))
			return
		}
		dec.Rules = append(dec.Rules, rule)
	}
	var changed []string
	for i, c := range d.folderChecks {
		if !c.Checked {
			continue
		}
		e := d.folders[i]
		real := d.resolve(e.Text)
		if real != e.Text {
			e.SetText(real)
			changed = append(changed, real)
		}
		dec.Folders = append(dec.Folders, real)
		if d.access[i].items[0].Selected {
			dec.ReadOnly = append(dec.ReadOnly, real)
		}
	}
	if len(dec.Rules) == 0 && len(dec.Folders) == 0 {
		d.say("Nothing is ticked. Tick what to grant (Space), or press Esc for “Not now”.")
		return
	}
	if len(changed) > 0 {
		d.say(fmt.Sprintf("Shown now as it would be saved, with links resolved: %s. Check it, then press Enter to grant.",
			strings.Join(changed, ", ")))
		return
	}
	for _, f := range dec.Folders {
		if _, err := app.CheckFolder(f, true); err != nil {
			d.say(err.Error())
			return
		}
	}
	d.m.stack.confirmBroad(d.m, dec.Folders, func(force bool) {
		dec.Force = force
		d.mw.settings().RememberScope(dec.Scope)
		d.done(dec)
	})
}

func (d *grantDialog) key(ev *fyne.KeyEvent) bool {
	switch ev.Name {
	case fyne.KeyEscape:
		d.m.Dismiss()
		return true
	case fyne.KeyReturn, fyne.KeyEnter:
		switch b := d.mw.win.Canvas().Focused().(type) {
		case *kButton:
			if b != d.grant {
				b.OnTapped()
				return true
			}
		case *seenButton: // Browse…
			b.OnTapped()
			return true
		}
		d.submit()
		return true
	}
	return false
}

// confirmBroad calls ok(false) at once when no folder needs a second
// question (see app.BroadFolder); otherwise it shows one over parent (nil:
// on its own on st), naming each such folder as resolved and why, and
// calls ok(true) on a yes. The question goes down with parent.
func (st *modalStack) confirmBroad(parent *modal, folders []string, ok func(force bool)) {
	broad := broadFolders(folders)
	if len(broad) == 0 {
		ok(false)
		return
	}
	st.newBroadConfirm(parent, broad, ok).Show()
}

// broadFolders lists, as "folder — why", the folders that need a second
// question, resolved. A relative one is left out: folder grants need an
// absolute path, and it is refused when granted.
func broadFolders(folders []string) []string {
	var broad []string
	for _, f := range folders {
		f = strings.TrimSpace(f)
		if !filepath.IsAbs(f) {
			continue
		}
		real, err := app.ResolveFolder(f, "")
		if err != nil {
			continue
		}
		if why := app.BroadFolder(real); why != "" {
			broad = append(broad, real+" — "+why)
		}
	}
	return broad
}

// newBroadConfirm builds the second question for the broad folders (as
// broadFolders lists them) over parent (nil: on its own on st); ok(true)
// runs on a yes, nothing on Go back.
func (st *modalStack) newBroadConfirm(parent *modal, broad []string, ok func(force bool)) *modal {
	text := fmt.Sprintf("You are about to let Claude read and write %s. Grant it anyway?", broad[0])
	if len(broad) > 1 {
		text = "You are about to let Claude read and write:\n• " + strings.Join(broad, "\n• ") + "\nGrant them anyway?"
	}
	return st.newYesNo(parent, 480, "Grant a broad or sensitive folder?", []fyne.CanvasObject{wrapped(text)},
		"Go back", "Grant it anyway", theme.WarningIcon(), func() { ok(true) })
}

// seenCheck, seenEntry and seenButton are the grant list's controls: each
// has the list scrolled to it when it gets the focus. Fyne does not scroll
// to a focused widget by itself.
type seenCheck struct {
	kCheck
	seen func(fyne.CanvasObject)
}

func newSeenCheck(label string, sink keySink, seen func(fyne.CanvasObject)) *seenCheck {
	c := &seenCheck{seen: seen}
	c.Text, c.sink = label, sink
	c.ExtendBaseWidget(c)
	return c
}

func (c *seenCheck) FocusGained() {
	c.kCheck.FocusGained()
	c.seen(c)
}

type seenEntry struct {
	kEntry
	seen func(fyne.CanvasObject)
	left func() // the focus moved on
}

func newSeenEntry(sink keySink, seen func(fyne.CanvasObject)) *seenEntry {
	e := &seenEntry{seen: seen}
	e.sink = sink
	e.ExtendBaseWidget(e)
	return e
}

func (e *seenEntry) FocusGained() {
	e.kEntry.FocusGained()
	e.seen(e)
}

func (e *seenEntry) FocusLost() {
	e.kEntry.FocusLost()
	if e.left != nil {
		e.left()
	}
}

type seenButton struct {
	kButton
	seen func(fyne.CanvasObject)
}

func newSeenButton(label string, icon fyne.Resource, sink keySink, seen func(fyne.CanvasObject)) *seenButton {
	b := &seenButton{seen: seen}
	b.Text, b.Icon, b.sink = label, icon, sink
	b.ExtendBaseWidget(b)
	return b
}

func (b *seenButton) FocusGained() {
	b.kButton.FocusGained()
	b.seen(b)
}
