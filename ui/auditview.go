package ui

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

// historyTitle is the Permission History window's title.
const historyTitle = "Latch Permission History"

// auditLoader reads the whole audit log, newest first.
type auditLoader func(ctx context.Context) ([]app.AuditEntry, error)

// Filtering more entries than syncFilterMax runs off the UI goroutine; the
// text fields wait filterDelay after the last key before filtering.
const (
	syncFilterMax = 5000
	filterDelay   = 250 * time.Millisecond
)

// The kinds the history can be narrowed to; "all" is none.
var historyKinds = []string{"all", app.AuditAsk, app.AuditAnswer, app.AuditDenial, app.AuditAllowed,
	app.AuditGrant, app.AuditRevoke, app.AuditUndo, app.AuditMode, app.AuditTrust}

const (
	thisFolder = "This folder"
	allFolders = "All folders"
)

// auditWindow lists Latch's permission audit log, newest first, one line
// per entry (only the rows in view exist: widget.List with rows of one
// height), with filters and the selected entry's details in full.
type auditWindow struct {
	mw     *mainWindow
	win    fyne.Window
	ctx    context.Context
	cancel context.CancelFunc
	gone   bool
	esc    escSink
	load   auditLoader // nil: the log is off

	folderSel *kSelect
	toolEntry *kSelectEntry
	kindSel   *kSelect
	textEntry *kEntry
	list      *kList
	count     *widget.Label
	msg       *widget.Label
	details   *fyne.Container
	detailBox *container.Scroll
	grantBtn  *kButton
	testBtn   *kButton

	// UI goroutine only.
	folder   string           // the working folder when the window opened
	all      []app.AuditEntry // the log, newest first
	shown    []int32          // indices into all of the entries the filters let through
	selected int              // the row whose details show, or -1
	filters  uint64           // filterings started; only the last one is shown
	timer    *time.Timer      // the pending filtering after typing
}

// showHistory opens the Permission History window, or brings it to the
// front.
func (mw *mainWindow) showHistory() {
	if mw.history != nil {
		mw.history.win.RequestFocus()
		return
	}
	var load auditLoader
	if a := mw.opts.Audit; a != nil {
		load = a.Read
	}
	mw.history = newAuditWindow(mw, load)
	mw.history.Show()
}

// newAuditWindow builds the window reading the log with load (nil: the
// log is off); Show shows it and starts reading.
func newAuditWindow(mw *mainWindow, load auditLoader) *auditWindow {
	v := &auditWindow{mw: mw, win: mw.app.NewWindow(historyTitle), load: load, folder: mw.workdir, selected: -1}
	v.ctx, v.cancel = context.WithCancel(context.Background())
	v.esc = escSink(v.Dismiss)

	folders := []string{allFolders}
	if v.folder != "" {
		folders = []string{thisFolder + ": " + visibleHead(v.folder, 50), allFolders}
	}
	v.folderSel = newKSelect(folders, v.esc, func(string) { v.refilter() })
	v.folderSel.SetSelectedIndex(0)
	v.toolEntry = newKSelectEntry(commonTools[:len(commonTools)-1], v.esc)
	v.toolEntry.SetPlaceHolder("any tool")
	v.toolEntry.OnChanged = func(string) { v.later() }
	v.toolEntry.onEnter = v.refilter
	v.kindSel = newKSelect(historyKinds, v.esc, func(string) { v.refilter() })
	v.kindSel.SetSelectedIndex(0)
	v.textEntry = newKEntry(v.esc)
	v.textEntry.SetPlaceHolder("text in the input, rule, folder, message…")
	v.textEntry.OnChanged = func(string) { v.later() }
	v.textEntry.OnSubmitted = func(string) { v.refilter() }

	v.list = newKList(v.esc, func() int { return len(v.shown) }, newAuditRow, func(id widget.ListItemID, o fyne.CanvasObject) {
		if id >= 0 && id < len(v.shown) {
			o.(*auditRow).set(&v.all[v.shown[id]], v.folder)
		}
	})
	v.list.OnSelected = v.choose
	v.list.OnUnselected = func(widget.ListItemID) { v.choose(-1) }
	v.count = caption("")
	v.msg = widget.NewLabel("")
	v.msg.Wrapping = fyne.TextWrapWord
	v.msg.Hide()
	v.details = container.NewVBox(caption("Select an entry to see it whole."))
	v.detailBox = container.NewVScroll(container.NewPadded(v.details))
	v.grantBtn = newKButton("Grant and retry", theme.ConfirmIcon(), v.esc, v.grantSelected)
	v.grantBtn.Importance = widget.HighImportance
	v.testBtn = newKButton("Test in Permissions…", theme.SearchIcon(), v.esc, v.testSelected)
	v.grantBtn.Hide()
	v.testBtn.Hide()

	field := func(name string, o fyne.CanvasObject) fyne.CanvasObject {
		return container.NewBorder(caption(name), nil, nil, nil, o)
	}
	filters := container.NewGridWithColumns(4,
		field("Folder", v.folderSel), field("Tool", v.toolEntry),
		field("Kind", v.kindSel), field("Text", v.textEntry))
	head := container.NewBorder(nil, nil, nil, nil, newAuditHeader())
	lower := container.NewBorder(nil, container.NewHBox(v.grantBtn, v.testBtn), nil, nil, v.detailBox)
	split := container.NewVSplit(container.NewBorder(head, nil, nil, nil, v.list), lower)
	split.Offset = 0.68
	closeBtn := newKButton("Close", nil, v.esc, v.Dismiss)
	bottom := container.NewVBox(v.msg, container.NewHBox(v.count, layout.NewSpacer(), caption("Tab moves · Esc closes"), closeBtn))
	v.win.SetContent(container.NewBorder(container.NewPadded(filters), container.NewPadded(bottom), nil, nil, split))
	v.win.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if ev.Name == fyne.KeyEscape {
			v.Dismiss()
		}
	})
	v.win.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyW, Modifier: fyne.KeyModifierShortcutDefault},
		func(fyne.Shortcut) { v.Dismiss() })
	v.win.SetOnClosed(func() {
		v.gone = true
		v.cancel()
		if v.timer != nil {
			v.timer.Stop()
		}
		if mw.history == v {
			mw.history = nil
		}
	})
	v.win.Resize(fyne.NewSize(980, 700))
	v.win.Canvas().Focus(v.textEntry)
	return v
}

// Show shows the window and reads the log off the UI goroutine.
func (v *auditWindow) Show() {
	v.win.Show()
	if v.load == nil {
		v.say(true, "The audit log is off: Latch records no permission history.")
		v.count.SetText("")
		return
	}
	v.count.SetText("Loading…")
	load := v.load
	go func() {
		entries, err := load(v.ctx)
		sortNewestFirst(entries)
		v.mw.do(func() {
			if v.gone {
				return
			}
			if err != nil {
				v.count.SetText("")
				v.say(true, "The permission history could not be read: "+err.Error())
				return
			}
			v.setEntries(entries)
		})
	}()
}

// sortNewestFirst orders entries by time, newest first, keeping the log's
// order among entries of the same time.
func sortNewestFirst(entries []app.AuditEntry) {
	if slices.IsSortedFunc(entries, func(a, b app.AuditEntry) int { return b.Time.Compare(a.Time) }) {
		return
	}
	slices.SortStableFunc(entries, func(a, b app.AuditEntry) int { return cmp.Compare(b.Time.UnixNano(), a.Time.UnixNano()) })
}

// Dismiss closes the window.
func (v *auditWindow) Dismiss() {
	if !v.gone {
		v.win.Close()
	}
}

func (v *auditWindow) say(bad bool, msg string) {
	v.msg.Importance = widget.MediumImportance
	if bad {
		v.msg.Importance = widget.DangerImportance
	}
	v.msg.SetText(msg)
	if msg == "" {
		v.msg.Hide()
	} else {
		v.msg.Show()
	}
}

// setEntries shows the log (newest first) through the filters.
func (v *auditWindow) setEntries(entries []app.AuditEntry) {
	v.all = entries
	v.refilter()
}

// filter is what the filter controls select.
func (v *auditWindow) filter() app.AuditFilter {
	var f app.AuditFilter
	if v.folder != "" && v.folderSel.SelectedIndex() == 0 {
		f.Folder = v.folder
	}
	f.Tool = strings.TrimSpace(v.toolEntry.Text)
	if k := v.kindSel.Selected; k != "" && k != "all" {
		f.Decision = k
	}
	f.Text = strings.TrimSpace(v.textEntry.Text)
	return f
}

// later filters filterDelay after the last key typed into a text field.
func (v *auditWindow) later() {
	if v.timer != nil {
		v.timer.Stop()
	}
	v.timer = time.AfterFunc(filterDelay, func() { v.mw.do(v.refilter) })
}

// refilter applies the filters now: on the UI goroutine for a short log,
// off it for a long one, showing only the newest filtering.
func (v *auditWindow) refilter() {
	if v.gone || v.list == nil { // nil: the window is being built
		return
	}
	if v.timer != nil {
		v.timer.Stop()
		v.timer = nil
	}
	f := v.filter()
	v.filters++
	n := v.filters
	all := v.all
	if len(all) <= syncFilterMax {
		v.showFiltered(filterEntries(all, f))
		return
	}
	v.count.SetText("Filtering…")
	go func() {
		shown := filterEntries(all, f)
		v.mw.do(func() {
			if !v.gone && n == v.filters {
				v.showFiltered(shown)
			}
		})
	}()
}

// filterEntries lists the indices of the entries f lets through.
func filterEntries(all []app.AuditEntry, f app.AuditFilter) []int32 {
	shown := make([]int32, 0, min(len(all), 1024))
	match := f.Matcher()
	for i := range all {
		if match(&all[i]) {
			shown = append(shown, int32(i))
		}
	}
	return shown
}

func (v *auditWindow) showFiltered(shown []int32) {
	v.shown = shown
	v.list.UnselectAll()
	v.choose(-1)
	v.list.ScrollToTop()
	v.list.Refresh()
	v.count.SetText(fmt.Sprintf("%s of %s", plural(len(shown), "entry", "entries"), plural(len(v.all), "entry", "entries")))
}

// entry is the entry of row id, or nil.
func (v *auditWindow) entry(id int) *app.AuditEntry {
	if id < 0 || id >= len(v.shown) {
		return nil
	}
	return &v.all[v.shown[id]]
}

// choose shows row id's entry whole below the list (-1: none).
func (v *auditWindow) choose(id int) {
	v.selected = id
	e := v.entry(id)
	v.grantBtn.Hide()
	v.testBtn.Hide()
	if e == nil {
		v.details.Objects = []fyne.CanvasObject{caption("Select an entry to see it whole.")}
		v.details.Refresh()
		return
	}
	v.details.Objects = entryDetails(e)
	v.details.Refresh()
	v.detailBox.ScrollToTop()
	if e.Kind == app.AuditDenial {
		v.grantBtn.Show()
		if v.folder != "" && e.Folder != "" && e.Folder != v.folder {
			v.grantBtn.Disable()
			v.grantBtn.SetText("Grant and retry (open that folder first)")
		} else {
			v.grantBtn.Enable()
			v.grantBtn.SetText("Grant and retry")
		}
	}
	if e.Tool != "" {
		v.testBtn.Show()
	}
}

// entryDetails shows every field of e that is set, whole and made visible.
func entryDetails(e *app.AuditEntry) []fyne.CanvasObject {
	var rows []fyne.CanvasObject
	add := func(name, value string) {
		if value == "" {
			return
		}
		rows = append(rows, container.NewBorder(nil, nil, container.NewGridWrap(fyne.NewSize(90, 30), caption(name)), nil, wholeText(value, false)))
	}
	add("Time", e.Time.Local().Format("2006-01-02 15:04:05 MST"))
	add("Kind", e.Kind)
	add("Decision", e.Decision)
	add("Tool", e.Tool)
	add("Input", e.Input)
	add("Path", e.Path)
	add("Folder", e.Folder)
	add("Class", e.Class)
	add("Decider", e.Decider)
	add("Rule", e.Rule)
	add("Source", e.Source)
	add("File", e.File)
	add("Scope", e.Scope)
	add("Mode", e.Mode)
	add("Message", e.Message)
	add("Rules", strings.Join(e.Rules, "\n"))
	add("Folders", strings.Join(e.Folders, "\n"))
	add("Session", e.Session)
	add("Tool use", e.ToolUseID)
	return rows
}

// grantSelected offers the grant dialog for the selected denial in the
// main window, through the shown session (started as the first prompt
// starts one, when none runs yet), off the UI goroutine.
func (v *auditWindow) grantSelected() {
	e := v.entry(v.selected)
	if e == nil || e.Kind != app.AuditDenial {
		return
	}
	entry := *e
	mw := v.mw
	dir := mw.workdir
	if dir == "" {
		v.say(true, "Choose a working folder in the main window first.")
		return
	}
	if entry.Folder != "" && entry.Folder != dir {
		v.say(true, "This denial is from another folder; open that folder in the main window to grant it.")
		return
	}
	v.say(false, "The grant dialog opens in the main window.")
	mw.win.RequestFocus()
	go func() {
		r, err := mw.runnerFor(dir)
		if err == nil {
			if g, ok := r.(retrier); ok {
				err = g.GrantAndRetry(entry)
			} else {
				err = errors.New("this session cannot grant from the history")
			}
		}
		mw.do(func() {
			if v.gone {
				return
			}
			if err != nil {
				v.say(true, "Not granted: "+err.Error())
			}
		})
	}()
}

// testSelected puts the selected entry's call into the Permissions
// window's tester.
func (v *auditWindow) testSelected() {
	e := v.entry(v.selected)
	if e == nil || e.Tool == "" {
		return
	}
	v.mw.showPermissions()
	if p := v.mw.perms; p != nil {
		p.tester.prefill(e.Tool, e.Input)
	}
}

// auditCols are the widths of the history's fixed columns (time, kind,
// tool); input, folder and decider share the rest.
var auditCols = [3]float32{140, 150, 110}

// auditColumns lays out one row: the fixed columns, then the rest split.
type auditColumns struct{}

func (auditColumns) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	x := float32(0)
	rest := size.Width - auditCols[0] - auditCols[1] - auditCols[2]
	if rest < 0 {
		rest = 0
	}
	share := [3]float32{0.45, 0.2, 0.35}
	for i, o := range objs {
		w := float32(0)
		if i < 3 {
			w = auditCols[i]
		} else if i-3 < len(share) {
			w = rest * share[i-3]
		}
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(w, size.Height))
		x += w
	}
}

func (auditColumns) MinSize(objs []fyne.CanvasObject) fyne.Size {
	h := float32(0)
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	return fyne.NewSize(auditCols[0]+auditCols[1]+auditCols[2]+120, h)
}

func newAuditHeader() fyne.CanvasObject {
	var objs []fyne.CanvasObject
	for _, s := range []string{"Time", "Kind", "Tool", "Input", "Folder", "Decided by"} {
		l := widget.NewLabel(s)
		l.TextStyle.Bold = true
		l.Truncation = fyne.TextTruncateEllipsis
		objs = append(objs, l)
	}
	return container.New(auditColumns{}, objs...)
}

// auditRow is one entry on one line: every string made visible, clipped.
type auditRow struct {
	widget.BaseWidget
	cols [6]*widget.Label
	box  *fyne.Container
}

func newAuditRow() fyne.CanvasObject {
	r := &auditRow{}
	objs := make([]fyne.CanvasObject, len(r.cols))
	for i := range r.cols {
		l := widget.NewLabel("")
		l.Truncation = fyne.TextTruncateEllipsis
		if i >= 3 {
			l.TextStyle.Monospace = true
		}
		r.cols[i] = l
		objs[i] = l
	}
	r.box = container.New(auditColumns{}, objs...)
	r.ExtendBaseWidget(r)
	return r
}

func (r *auditRow) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(r.box) }

// rowMax is the most runes a row's column shows; the details show all.
const rowMax = 200

// set shows e; here is the window's working folder, shown as such.
func (r *auditRow) set(e *app.AuditEntry, here string) {
	r.cols[0].SetText(shortTime(e.Time))
	kind := e.Kind
	if e.Decision != "" {
		kind += ": " + e.Decision
	}
	r.cols[1].Importance = entryImportance(e)
	r.cols[1].SetText(visibleHead(kind, 40))
	tool := e.Tool
	if tool == "" && e.Kind == app.AuditMode {
		tool = e.Mode
	}
	r.cols[2].SetText(visibleHead(tool, 60))
	r.cols[3].SetText(visibleHead(entryInput(e), rowMax))
	folder := e.Folder
	if folder != "" && folder == here {
		folder = "(this folder)"
	}
	r.cols[4].SetText(visibleHead(folder, rowMax))
	r.cols[5].SetText(visibleHead(joinSet(" · ", e.Decider, e.Rule, e.Source), rowMax))
}

// entryImportance colours a kind: refusals red, grants and allows green.
func entryImportance(e *app.AuditEntry) widget.Importance {
	switch e.Kind {
	case app.AuditDenial, app.AuditRevoke:
		return widget.DangerImportance
	case app.AuditGrant:
		return widget.SuccessImportance
	case app.AuditAnswer:
		switch e.Decision {
		case "deny", "deny_stop":
			return widget.DangerImportance
		case "once", "session", "always", "folder":
			return widget.SuccessImportance
		}
	}
	return widget.MediumImportance
}

// entryInput is what a row shows as the entry's input.
func entryInput(e *app.AuditEntry) string {
	switch {
	case e.Input != "":
		return e.Input
	case e.Path != "":
		return e.Path
	case len(e.Rules)+len(e.Folders) > 0:
		return strings.Join(append(append([]string(nil), e.Rules...), e.Folders...), ", ")
	case e.Mode != "":
		return e.Mode
	}
	return e.Message
}

func joinSet(sep string, parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
}

// shortTime is t in local time: the time of day for today, else the date too.
func shortTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	t = t.Local()
	now := time.Now()
	if y, m, d := t.Date(); y == now.Year() && m == now.Month() && d == now.Day() {
		return t.Format("15:04:05")
	}
	return t.Format("2006-01-02 15:04")
}

// kSelect is a drop-down that passes Esc to its window.
type kSelect struct {
	widget.Select
	sink keySink
}

func newKSelect(options []string, sink keySink, changed func(string)) *kSelect {
	s := &kSelect{sink: sink}
	s.Options, s.OnChanged, s.PlaceHolder = options, changed, "(choose)"
	s.ExtendBaseWidget(s)
	return s
}

func (s *kSelect) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape && s.sink != nil && s.sink.key(ev) {
		return
	}
	s.Select.TypedKey(ev)
}

// kList is a list that passes Esc to its window.
type kList struct {
	widget.List
	sink keySink
}

func newKList(sink keySink, length func() int, create func() fyne.CanvasObject, update func(widget.ListItemID, fyne.CanvasObject)) *kList {
	l := &kList{sink: sink}
	l.Length, l.CreateItem, l.UpdateItem = length, create, update
	l.ExtendBaseWidget(l)
	return l
}

func (l *kList) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape && l.sink != nil && l.sink.key(ev) {
		return
	}
	l.List.TypedKey(ev)
}
