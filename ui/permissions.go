package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

// permsTitle is the Permissions window's title.
const permsTitle = "Latch Permissions"

// permsWindow shows every rule and working folder that applies in the
// working folder, layer by layer, as the running Claude Code or the files
// say, with Remove for what Latch may change, the folder's trust, and the
// rule tester. Everything it reads or changes goes through an
// app.Inspector, off the UI goroutine.
type permsWindow struct {
	mw     *mainWindow
	win    fyne.Window
	modals modalStack // the dialogs over this window
	ctx    context.Context
	cancel context.CancelFunc
	gone   bool // the window was closed
	esc    escSink

	folderLbl *widget.Label
	modeLbl   *widget.Label
	trustLbl  *widget.Label
	trustBtn  *seenButton
	originLbl *widget.Label
	msg       *widget.Label // what failed, in words
	layers    *fyne.Container
	scroll    *container.Scroll
	reloadBtn *kButton
	tester    *ruleTester

	// UI goroutine only.
	insp   app.Inspector // the one the shown view came from
	view   app.PermissionView
	loaded bool
	loads  uint64 // loads started; only the last one is shown
	failed string // a change's failure, shown with the view read after it
}

// showPermissions opens the Permissions window for the working folder, or
// brings it to the front.
func (mw *mainWindow) showPermissions() {
	if mw.perms != nil {
		mw.perms.win.RequestFocus()
		mw.perms.load()
		return
	}
	mw.perms = newPermsWindow(mw)
	mw.perms.Show()
}

// inspector is what answers the Permissions window for the working folder:
// the shown session when it is one, else one that reads the files. nil
// when there is neither.
func (mw *mainWindow) inspector() app.Inspector {
	mw.mu.Lock()
	r := mw.runner
	mw.mu.Unlock()
	if in, ok := r.(app.Inspector); ok && in != nil {
		return in
	}
	if s := mw.settings(); s != nil && mw.workdir != "" {
		return s.Inspector(mw.workdir)
	}
	return nil
}

// newPermsWindow builds the window; Show shows it and starts reading.
func newPermsWindow(mw *mainWindow) *permsWindow {
	p := &permsWindow{mw: mw, win: mw.app.NewWindow(permsTitle)}
	p.modals.win = p.win
	p.ctx, p.cancel = context.WithCancel(context.Background())
	p.esc = escSink(p.Dismiss)

	p.folderLbl = widget.NewLabel("")
	p.folderLbl.TextStyle.Monospace = true
	p.folderLbl.Wrapping = fyne.TextWrapBreak
	p.modeLbl = widget.NewLabel("")
	p.trustLbl = widget.NewLabel("")
	p.trustLbl.Wrapping = fyne.TextWrapWord
	p.trustBtn = newSeenButton("Trust this folder…", theme.ConfirmIcon(), p.esc, p.scrollTo)
	p.trustBtn.OnTapped = p.confirmTrust
	p.trustBtn.Hide()
	p.originLbl = caption("Loading…")
	p.msg = widget.NewLabel("")
	p.msg.Wrapping = fyne.TextWrapWord
	p.msg.Importance = widget.DangerImportance
	p.msg.Hide()
	p.layers = container.NewVBox(wrapped("Loading…"))
	p.tester = newRuleTester(p)

	head := func(s string) *widget.Label {
		l := widget.NewLabel(s)
		l.TextStyle.Bold = true
		return l
	}
	top := container.NewVBox(
		container.NewBorder(nil, nil, head("Folder"), nil, p.folderLbl),
		container.NewBorder(nil, nil, head("Permission mode"), nil, p.modeLbl),
		container.NewBorder(nil, nil, nil, p.trustBtn, p.trustLbl),
		p.originLbl,
		p.msg,
	)
	body := container.NewVBox(top, widget.NewSeparator(), p.tester.box, widget.NewSeparator(), p.layers)
	p.scroll = container.NewVScroll(container.NewPadded(body))
	p.reloadBtn = newKButton("Reload", theme.ViewRefreshIcon(), p.esc, p.load)
	closeBtn := newKButton("Close", nil, p.esc, p.Dismiss)
	p.win.SetContent(container.NewBorder(nil,
		container.NewPadded(container.NewHBox(caption("Tab moves · Esc closes"), layout.NewSpacer(), p.reloadBtn, closeBtn)),
		nil, nil, p.scroll))
	p.win.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if ev.Name == fyne.KeyEscape {
			p.Dismiss()
		}
	})
	p.win.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyW, Modifier: fyne.KeyModifierShortcutDefault},
		func(fyne.Shortcut) { p.Dismiss() })
	p.win.SetOnClosed(func() {
		p.gone = true
		p.cancel()
		p.modals.close()
		if mw.perms == p {
			mw.perms = nil
		}
	})
	p.win.Resize(fyne.NewSize(820, 760))
	p.win.Canvas().Focus(p.tester.tool)
	return p
}

// Show shows the window and starts reading the permissions.
func (p *permsWindow) Show() {
	p.win.Show()
	p.load()
}

// Dismiss closes the window with its dialogs.
func (p *permsWindow) Dismiss() {
	if !p.gone {
		p.win.Close()
	}
}

// say shows what went wrong, in words; "" hides it.
func (p *permsWindow) say(msg string) {
	p.msg.SetText(msg)
	if msg == "" {
		p.msg.Hide()
	} else {
		p.msg.Show()
	}
}

// load reads the view off the UI goroutine and shows it, unless a newer
// read started meanwhile.
func (p *permsWindow) load() {
	if p.gone {
		return
	}
	in := p.mw.inspector()
	if in == nil {
		p.insp = nil
		p.originLbl.SetText("")
		p.folderLbl.SetText(visibleHead(p.mw.workdir, 400))
		p.layers.Objects = []fyne.CanvasObject{wrapped("Choose a working folder first: the permissions shown here are the ones that apply in it.")}
		p.layers.Refresh()
		return
	}
	p.loads++
	n := p.loads
	p.originLbl.SetText("Loading…")
	go func() {
		v, err := in.Permissions(p.ctx)
		p.mw.do(func() {
			if p.gone || n != p.loads {
				return
			}
			if err != nil {
				p.originLbl.SetText("")
				p.say("The permissions could not be read: " + err.Error())
				if !p.loaded {
					p.layers.Objects = nil
					p.layers.Refresh()
				}
				return
			}
			p.insp = in
			p.show(v)
		})
	}()
}

// originText says where the view came from.
func originText(origin string) string {
	if origin == app.OriginCLI {
		return "Rules from the running Claude Code."
	}
	return "Rules read from the files (no Claude Code runs in this folder yet)."
}

// show lists the view. UI goroutine.
func (p *permsWindow) show(v app.PermissionView) {
	p.view, p.loaded = v, true
	p.say(p.failed)
	p.failed = ""
	dir := v.Workdir
	if dir == "" {
		dir = p.mw.workdir
	}
	p.folderLbl.SetText(app.Visible(dir))
	mode := v.Mode
	if mode == "" {
		mode = "default"
	}
	p.modeLbl.TextStyle.Bold = mode == modeBypass
	p.modeLbl.Importance = widget.MediumImportance
	if mode == modeBypass {
		p.modeLbl.Importance = widget.DangerImportance
		p.modeLbl.SetText("Bypass (bypassPermissions): Claude Code runs every tool call without asking")
	} else {
		p.modeLbl.SetText(modeTitle(mode) + " (" + visibleHead(mode, 40) + ")")
	}
	if v.Trusted {
		p.trustLbl.Importance = widget.SuccessImportance
		p.trustLbl.SetText("Trusted in Claude Code")
		p.trustBtn.Hide()
	} else {
		p.trustLbl.Importance = widget.WarningImportance
		p.trustLbl.SetText("Not trusted: Claude Code ignores this project's shared allow rules")
		p.trustBtn.Show()
	}
	p.originLbl.SetText(originText(v.Origin))
	var objs []fyne.CanvasObject
	if len(v.Differences) > 0 {
		// Where the running CLI and the files disagree: a file edited
		// since the CLI read it, or a rule the CLI reads and drops.
		head := widget.NewLabel("Claude Code and the settings files disagree:")
		head.Importance = widget.WarningImportance
		objs = append(objs, head)
		for _, d := range v.Differences {
			objs = append(objs, wrapped("• "+app.Visible(d)))
		}
		objs = append(objs, widget.NewSeparator())
	}
	for i, l := range v.Layers {
		if i > 0 {
			objs = append(objs, widget.NewSeparator())
		}
		objs = append(objs, p.layerSection(l))
	}
	if len(objs) == 0 {
		objs = append(objs, wrapped("No settings layer applies here."))
	}
	p.layers.Objects = objs
	p.layers.Refresh()
}

// layerSection shows one layer: its file and state, its rules grouped by
// behaviour, its folders.
func (p *permsWindow) layerSection(l app.PermissionLayer) fyne.CanvasObject {
	title := widget.NewLabel(visibleHead(l.Title, 120))
	title.TextStyle.Bold = true
	rows := []fyne.CanvasObject{title}
	if l.File != "" {
		f := caption(app.Visible(l.File))
		f.Wrapping = fyne.TextWrapBreak
		rows = append(rows, f)
	}
	switch l.State {
	case app.FileMissing:
		rows = append(rows, caption("no file"))
	case app.FileMalformed, app.FileUnreadable:
		what := "Malformed: Claude Code skips this file, and Latch will not change it until it is fixed."
		if l.State == app.FileUnreadable {
			what = "Unreadable: Claude Code cannot use this file."
		}
		bad := wrapped(what)
		bad.Importance = widget.DangerImportance
		detail := l.Error
		if detail == "" && l.Line > 0 {
			detail = fmt.Sprintf("%s:%d:%d", l.File, l.Line, l.Column)
		}
		rows = append(rows, bad)
		if detail != "" {
			// Not a selectable label: Fyne's selectable text keeps Esc
			// from the window. Copy takes the place to an editor.
			e := widget.NewLabel(app.Visible(detail))
			e.TextStyle.Monospace = true
			e.Wrapping = fyne.TextWrapBreak
			cp := newKButton("Copy", theme.ContentCopyIcon(), p.esc, func() {
				p.mw.app.Clipboard().SetContent(detail)
			})
			cp.Importance = widget.LowImportance
			rows = append(rows, container.NewBorder(nil, nil, nil, cp, e))
		}
	}
	if !l.Editable && l.ReadOnly != "" {
		ro := caption("Read-only: " + app.Visible(l.ReadOnly))
		ro.Wrapping = fyne.TextWrapWord
		rows = append(rows, ro)
	}
	for _, b := range []struct{ behavior, head string }{
		{app.BehaviorAllow, "Allow"}, {app.BehaviorAsk, "Ask"}, {app.BehaviorDeny, "Deny"},
	} {
		var group []fyne.CanvasObject
		for _, r := range l.Rules {
			if r.Behavior == b.behavior {
				group = append(group, p.ruleRow(r))
			}
		}
		if len(group) == 0 {
			continue
		}
		h := widget.NewLabel(fmt.Sprintf("%s (%d)", b.head, len(group)))
		h.TextStyle.Bold = true
		switch b.behavior {
		case app.BehaviorAllow:
			h.Importance = widget.SuccessImportance
		case app.BehaviorAsk:
			h.Importance = widget.WarningImportance
		case app.BehaviorDeny:
			h.Importance = widget.DangerImportance
		}
		rows = append(rows, h)
		rows = append(rows, group...)
	}
	if len(l.Folders) > 0 {
		h := widget.NewLabel(fmt.Sprintf("Folders (%d)", len(l.Folders)))
		h.TextStyle.Bold = true
		rows = append(rows, h)
		for _, f := range l.Folders {
			rows = append(rows, p.folderRow(f))
		}
	}
	if len(l.Rules)+len(l.Folders) == 0 && l.State != app.FileMalformed && l.State != app.FileUnreadable {
		rows = append(rows, caption("No rules or folders."))
	}
	return container.NewVBox(rows...)
}

// ruleRow is one rule, verbatim and made visible, with its readings and
// a Remove button when Latch may remove it.
func (p *permsWindow) ruleRow(r app.PermissionRule) fyne.CanvasObject {
	parts := []fyne.CanvasObject{wholeText(r.Rule, false)}
	if r.Reading != "" && r.Reading != r.Rule {
		c := caption(app.Visible(r.Reading))
		c.Wrapping = fyne.TextWrapWord
		parts = append(parts, c)
	}
	if r.CLIReading != "" && r.CLIReading != r.Reading {
		c := caption("Claude Code reads it as: " + app.Visible(r.CLIReading))
		c.Wrapping = fyne.TextWrapWord
		parts = append(parts, c)
	}
	if r.Ignored != "" {
		c := widget.NewLabel("ignored: " + app.Visible(r.Ignored))
		c.Importance = widget.WarningImportance
		c.Wrapping = fyne.TextWrapWord
		parts = append(parts, c)
	}
	var remove fyne.CanvasObject
	if r.Editable {
		b := newSeenButton("Remove", theme.DeleteIcon(), p.esc, p.scrollTo)
		b.Importance = widget.LowImportance
		b.OnTapped = func() { p.confirmRemoveRule(r) }
		remove = container.NewVBox(b)
	}
	return container.NewBorder(nil, nil, nil, remove, container.NewVBox(parts...))
}

// folderRow is one working folder, with Remove when Latch may remove it.
func (p *permsWindow) folderRow(f app.PermissionFolder) fyne.CanvasObject {
	var remove fyne.CanvasObject
	if f.Editable {
		b := newSeenButton("Remove", theme.DeleteIcon(), p.esc, p.scrollTo)
		b.Importance = widget.LowImportance
		b.OnTapped = func() { p.confirmRemoveFolder(f) }
		remove = container.NewVBox(b)
	}
	return container.NewBorder(nil, nil, nil, remove, wholeText(f.Path, false))
}

// scrollTo scrolls the window just enough to show o, a control that got
// the focus: Tab never moves to something out of sight.
func (p *permsWindow) scrollTo(o fyne.CanvasObject) {
	drv := fyne.CurrentApp().Driver()
	content := drv.AbsolutePositionForObject(p.scroll.Content).Y
	top := drv.AbsolutePositionForObject(o).Y - content
	bottom := top + o.Size().Height
	off, view := p.scroll.Offset.Y, p.scroll.Size().Height
	switch {
	case view <= 0:
		return
	case top < off:
		off = top
	case bottom > off+view:
		off = bottom - view
	default:
		return
	}
	p.scroll.ScrollToOffset(fyne.NewPos(p.scroll.Offset.X, max(off, 0)))
}

// layerName is a source as the view titles it.
func (p *permsWindow) layerName(source string) string {
	for _, l := range p.view.Layers {
		if l.Source == source && l.Title != "" {
			return visibleHead(l.Title, 120)
		}
	}
	return visibleHead(source, 120)
}

func (p *permsWindow) confirmRemoveRule(r app.PermissionRule) {
	in := p.insp
	text := fmt.Sprintf("Remove this %s rule from %s? Claude Code stops applying it at once.",
		r.Behavior, p.layerName(r.Source))
	p.modals.newConfirm(nil, "Remove this rule?", text, r.Rule, r.File, "Remove", func() {
		p.change(func() error { return in.RemoveRule(r) }, "The rule was not removed: ")
	}).Show()
}

func (p *permsWindow) confirmRemoveFolder(f app.PermissionFolder) {
	in := p.insp
	text := fmt.Sprintf("Remove this working folder from %s? Claude Code stops using it at once.", p.layerName(f.Source))
	p.modals.newConfirm(nil, "Remove this folder?", text, f.Path, f.File, "Remove", func() {
		p.change(func() error { return in.RemoveFolder(f) }, "The folder was not removed: ")
	}).Show()
}

// trustWords say what trusting a folder means; the confirmation shows them.
const trustWords = "Claude Code asks once for every folder whether you trust it. " +
	"Trusting this folder lets Claude Code apply the project's shared settings (.claude/settings.json): " +
	"its allow rules, so the tool calls they match run without asking, and its hooks and MCP servers, which run programs. " +
	"Trust only a folder whose files you trust."

func (p *permsWindow) confirmTrust() {
	in := p.insp
	if in == nil {
		return
	}
	where := ""
	if p.view.TrustFile != "" {
		where = p.view.TrustFile
	}
	p.modals.newConfirm(nil, "Trust this folder?", trustWords, p.folderLbl.Text, where, "Trust this folder", func() {
		p.change(func() error { return in.TrustFolder(p.ctx) }, "The folder was not marked trusted: ")
	}).Show()
}

// change runs f off the UI goroutine, then reads the view again; a
// failure shows in words.
func (p *permsWindow) change(f func() error, failed string) {
	go func() {
		err := f()
		p.mw.do(func() {
			if p.gone {
				return
			}
			if err != nil {
				p.failed = failed + err.Error()
				p.say(p.failed)
			}
			p.load()
		})
	}()
}

// newConfirm builds a yes-or-no question over parent (nil: on its own on
// st): text, then what it is about (subject, shown whole and made
// visible, and where, a file), then Cancel and yes. yes runs on the yes
// button only; Esc and Cancel do nothing.
func (st *modalStack) newConfirm(parent *modal, title, text, subject, where, yes string, ok func()) *modal {
	rows := []fyne.CanvasObject{wrapped(text)}
	if subject != "" {
		rows = append(rows, newReviewBox(subject, false, 200).scroll)
	}
	if where != "" {
		c := caption(app.Visible(where))
		c.Wrapping = fyne.TextWrapBreak
		rows = append(rows, c)
	}
	return st.newYesNo(parent, 560, title, rows, "Cancel", yes, theme.ConfirmIcon(), ok)
}

// commonTools are the tools the tester offers; any other name can be typed.
var commonTools = []string{"Bash", "Read", "Write", "Edit", "MultiEdit", "Glob", "Grep",
	"WebFetch", "WebSearch", "NotebookEdit", "mcp__"}

// ruleTester says how the rules decide one call: Latch's reading of
// Claude Code's matching (Inspector.TestCall).
type ruleTester struct {
	p       *permsWindow
	tool    *kSelectEntry
	input   *testerEntry
	testBtn *kButton
	pickBtn *kButton
	verdict *widget.Label
	why     *widget.Label
	rule    *fyne.Container // the deciding rule, whole
	where   *widget.Label   // its layer and file
	cli     *widget.Label   // the CLI's reading of it
	box     *fyne.Container
	tests   uint64 // tests started; only the last one is shown
}

func newRuleTester(p *permsWindow) *ruleTester {
	t := &ruleTester{p: p}
	t.tool = newKSelectEntry(commonTools, p.esc)
	t.tool.SetPlaceHolder("Bash")
	t.tool.onEnter = t.run
	t.input = newTesterEntry(p.esc, t.run)
	t.input.SetPlaceHolder("a command, a path, a URL, or the JSON input   (Enter tests, Shift+Enter: new line)")
	t.input.SetMinRowsVisible(2)
	t.testBtn = newKButton("Test", theme.SearchIcon(), p.esc, t.run)
	t.testBtn.Importance = widget.HighImportance
	t.pickBtn = newKButton("Pick a call…", theme.ListIcon(), p.esc, t.pick)
	t.verdict = widget.NewLabel("")
	t.verdict.TextStyle.Bold = true
	t.why = wrapped("")
	t.rule = container.NewVBox()
	t.where = caption("")
	t.where.Wrapping = fyne.TextWrapBreak
	t.cli = caption("")
	t.cli.Wrapping = fyne.TextWrapWord
	for _, o := range []fyne.CanvasObject{t.verdict, t.why, t.rule, t.where, t.cli} {
		o.Hide()
	}
	head := widget.NewLabel("Test a call")
	head.TextStyle.Bold = true
	form := container.New(layout.NewFormLayout(),
		caption("Tool"), container.NewBorder(nil, nil, nil, t.pickBtn, t.tool),
		caption("Input"), container.NewBorder(nil, nil, nil, container.NewVBox(t.testBtn), t.input))
	t.box = container.NewVBox(
		container.NewHBox(head, caption("Latch's reading of Claude Code's rules")),
		form, t.verdict, t.why, t.where, t.rule, t.cli)
	return t
}

// prefill puts a call in the tester, with the keyboard on Test.
func (t *ruleTester) prefill(tool, input string) {
	t.tool.SetText(tool)
	t.input.SetText(input)
	t.p.win.Canvas().Focus(t.testBtn)
}

// run tests the call off the UI goroutine and shows the verdict.
func (t *ruleTester) run() {
	tool := strings.TrimSpace(t.tool.Text)
	if tool == "" {
		t.show(nil, "Name a tool first: Bash, Read, WebFetch, mcp__server__tool, …")
		return
	}
	in := t.p.insp
	if in == nil {
		in = t.p.mw.inspector()
	}
	if in == nil {
		t.show(nil, "Choose a working folder first.")
		return
	}
	input := t.input.Text
	t.tests++
	n := t.tests
	t.verdict.Importance = widget.LowImportance
	t.verdict.SetText("Testing…")
	t.verdict.Show()
	go func() {
		v, err := in.TestCall(t.p.ctx, tool, input)
		t.p.mw.do(func() {
			if t.p.gone || n != t.tests {
				return
			}
			if err != nil {
				t.show(nil, "The call could not be tested: "+err.Error())
				return
			}
			t.show(&v, "")
		})
	}()
}

// show shows a verdict, or, with v nil, why there is none.
func (t *ruleTester) show(v *app.Verdict, failed string) {
	for _, o := range []fyne.CanvasObject{t.why, t.rule, t.where, t.cli} {
		o.Hide()
	}
	if v == nil {
		t.verdict.Importance = widget.DangerImportance
		t.verdict.SetText(failed)
		t.verdict.Show()
		return
	}
	switch v.Behavior {
	case app.BehaviorAllow:
		t.verdict.Importance = widget.SuccessImportance
		t.verdict.SetText("Allow")
	case app.BehaviorAsk:
		t.verdict.Importance = widget.WarningImportance
		t.verdict.SetText("Ask")
	case app.BehaviorDeny:
		t.verdict.Importance = widget.DangerImportance
		t.verdict.SetText("Deny")
	default:
		t.verdict.Importance = widget.MediumImportance
		t.verdict.SetText(visibleHead(v.Behavior, 40))
	}
	t.verdict.Show()
	if v.Why != "" {
		t.why.SetText(app.Visible(v.Why))
		t.why.Show()
	}
	if r := v.Rule; r != nil {
		setWholeText(t.rule, r.Rule, false)
		t.rule.Show()
		where := "Decided by this rule, in " + t.p.layerName(r.Source)
		if r.File != "" {
			where += " — " + app.Visible(r.File)
		}
		t.where.SetText(where)
		t.where.Show()
		if r.CLIReading != "" {
			t.cli.SetText("Claude Code reads this rule as: " + app.Visible(r.CLIReading))
			t.cli.Show()
		}
	}
}

// pick offers the shown session's recent tool calls; the one picked goes
// into the tester.
func (t *ruleTester) pick() {
	t.p.modals.newCallPicker(t.p.mw.recent, func(tc app.ToolCall) {
		input := tc.Input
		if input == "" {
			input = tc.Summary
		}
		t.prefill(tc.Name, input)
	}).Show()
}

// newCallPicker lists calls, newest first, each a button; picked gets the
// one chosen.
func (st *modalStack) newCallPicker(calls []app.ToolCall, picked func(app.ToolCall)) *modal {
	m := st.newModal(nil, nil, 620)
	m.onKey = func(ev *fyne.KeyEvent) bool {
		if ev.Name == fyne.KeyEscape {
			m.Dismiss()
			return true
		}
		return false
	}
	m.onRune = func(rune) bool { return false }
	list := container.NewVBox()
	for i := len(calls) - 1; i >= 0; i-- {
		tc := calls[i]
		what := tc.Summary
		if what == "" {
			what = tc.Input
		}
		b := newKButton(visibleHead(tc.Name, 40)+"  ·  "+visibleHead(what, 70), nil, m, func() {
			m.Hide()
			picked(tc)
		})
		b.Alignment = widget.ButtonAlignLeading
		if m.first == nil {
			m.first = b
		}
		list.Add(b)
	}
	if len(calls) == 0 {
		list.Add(wrapped("No tool calls in this session yet."))
	}
	cancel := newKButton("Cancel", nil, m, m.Hide)
	if m.first == nil {
		m.first = cancel
	}
	scroll := container.NewVScroll(list)
	scroll.SetMinSize(fyne.NewSize(0, fyne.Min(360, list.MinSize().Height)))
	content := container.NewBorder(nil, container.NewHBox(layout.NewSpacer(), cancel), nil, nil, scroll)
	m.dlg = dialog.NewCustomWithoutButtons("Pick a call of this session", content, st.win)
	return m
}

// kSelectEntry is a text field with a list of suggestions that passes Esc
// to its window and runs onEnter on Enter.
type kSelectEntry struct {
	widget.SelectEntry
	sink    keySink
	onEnter func()
}

func newKSelectEntry(options []string, sink keySink) *kSelectEntry {
	e := &kSelectEntry{sink: sink}
	e.ExtendBaseWidget(e)
	e.Wrapping = fyne.TextWrap(fyne.TextTruncateClip)
	e.SetOptions(options)
	// The drop-down button passes Esc and Enter on like the field.
	if b, ok := e.ActionItem.(*widget.Button); ok {
		k := newKButton("", b.Icon, sink, b.OnTapped)
		k.Importance = widget.LowImportance
		e.ActionItem = k
	}
	return e
}

func (e *kSelectEntry) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		if e.onEnter != nil {
			e.onEnter()
			return
		}
	case fyne.KeyEscape:
		if e.sink != nil && e.sink.key(ev) {
			return
		}
	}
	e.SelectEntry.TypedKey(ev)
}

// testerEntry is the tester's multi-line input: Enter tests, Shift+Enter
// starts a new line, Tab moves on, Esc goes to the window.
type testerEntry struct {
	shiftEntry
	sink  keySink
	enter func()
}

func newTesterEntry(sink keySink, enter func()) *testerEntry {
	e := &testerEntry{sink: sink, enter: enter}
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapBreak
	e.ExtendBaseWidget(e)
	return e
}

// AcceptsTab: Tab moves the focus on, as everywhere in the window.
func (e *testerEntry) AcceptsTab() bool { return false }

func (e *testerEntry) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		if !e.shift && e.enter != nil {
			e.enter()
			return
		}
	case fyne.KeyEscape:
		if e.sink != nil && e.sink.key(ev) {
			return
		}
	}
	e.Entry.TypedKey(ev)
}
