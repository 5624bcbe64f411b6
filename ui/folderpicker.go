package ui

import (
	"cmp"
	"errors"
	"image/color"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

// folderPicker is Latch's own folder chooser, for when the desktop has
// none (no portal). It is made for the keyboard:
//
//   - It opens with the folder in question in the path field, the whole
//     text selected and the keyboard there: typing replaces it; a path not
//     starting with "/" or "~" is read from the folder it opened at.
//   - The field always holds the folder Enter chooses; the line under it
//     says which, whole. Enter (in the field, the list, or anywhere but on
//     a button, which Enter presses) chooses it if it is a folder, else
//     says there is none.
//   - Tab in the field completes the last part of the path: to the one
//     subfolder that matches (with a "/", so its own subfolders show), or
//     to the longest common beginning of those that match. When there is
//     nothing to complete, Tab moves on, as everywhere: to the list (which
//     shows the candidates), "Up one folder", Cancel, Choose, and back.
//     Shift+Tab goes back.
//   - The list shows the subfolders of the folder the field names, those
//     that begin with what is typed after its last "/" (folders starting
//     with "." once a "." is typed). Down in the field goes to the list's
//     first entry. In the list, Up/Down/Home/End/Page keys move, and each
//     move puts the folder in the field; Right (or a double click) opens
//     it, Left or Backspace goes up one folder, Up at the top goes back to
//     the field.
//   - Esc cancels, from anywhere, and closes only the chooser: nothing
//     changes.
//
// Names are shown through app.VisibleLine. It lists folders on the UI
// goroutine, as it is asked: local folders list in milliseconds.
type folderPicker struct {
	m      *modal
	picked func(string)
	base   string // the folder it opened at; relative paths are read from here
	home   string

	path    *pathEntry
	status  *widget.Label
	where   *widget.Label
	empty   *widget.Label // over the list when it is empty
	list    *dirList
	ring    *canvas.Rectangle // the list's focus ring
	up      *kButton
	cancel  *kButton
	choose  *kButton
	content *fyne.Container

	dir     string   // the folder whose subfolders the list shows
	names   []string // the subfolders shown
	sel     int      // the one highlighted, -1 none
	syncing bool     // the field is being set from the list: the list stays
}

// pickerWidth and pickerHeight are the chooser's size, within the window.
const (
	pickerWidth  = 640
	pickerHeight = 520
)

// newFolderPicker builds Latch's chooser, titled title, opening at start
// (an existing folder; "" is the home folder), over parent (nil: on its own
// on st). picked gets the folder chosen, cleaned and absolute, after the
// chooser went down.
func (st *modalStack) newFolderPicker(parent *modal, title, start string, picked func(string)) *folderPicker {
	fp := &folderPicker{picked: picked, sel: -1}
	fp.home, _ = os.UserHomeDir()
	fp.base = startFolder(start)
	m := st.newModal(parent, fp, pickerWidth)
	fp.m = m
	m.onKey = fp.key
	m.onRune = func(rune) bool { return false }

	fp.path = newPathEntry(fp)
	fp.status = widget.NewLabel("")
	fp.status.Wrapping = fyne.TextWrapBreak
	fp.where = caption("")
	fp.where.Wrapping = fyne.TextWrapBreak
	fp.empty = caption("")
	fp.empty.Alignment = fyne.TextAlignCenter
	fp.empty.Wrapping = fyne.TextWrapWord
	fp.list = newDirList(fp)
	fp.ring = canvas.NewRectangle(color.Transparent)
	fp.ring.StrokeColor = color.Transparent
	fp.ring.StrokeWidth = 2
	fp.ring.CornerRadius = theme.InputRadiusSize()
	fp.up = newKButton("Up one folder", theme.MoveUpIcon(), m, fp.goUp)
	fp.cancel = newKButton("Cancel", theme.CancelIcon(), m, m.Hide)
	fp.choose = newKButton("Choose", theme.ConfirmIcon(), m, fp.chooseTyped)
	fp.choose.Importance = widget.HighImportance

	top := container.NewVBox(
		wrapped("Type a folder's path (Tab completes it) or pick one below. Enter chooses the folder in the field; Esc cancels."),
		fp.path, fp.status, fp.where)
	// The list keeps its room however few folders it shows.
	room := canvas.NewRectangle(color.Transparent)
	room.SetMinSize(fyne.NewSize(0, 200))
	center := container.NewStack(room, fp.list, fp.ring, container.NewVBox(layout.NewSpacer(), fp.empty, layout.NewSpacer()))
	bottom := container.NewVBox(
		caption("In the list: ↑↓ move · → opens · ← or Backspace goes up · ↑ at the top: back to the field"),
		container.NewHBox(fp.up, layout.NewSpacer(), fp.cancel, fp.choose))
	// Objects in Tab order: the field, the list, the buttons.
	fp.content = container.New(layout.NewBorderLayout(top, bottom, nil, nil), top, center, bottom)
	m.dlg = dialog.NewCustomWithoutButtons(title, fp.content, st.win)
	m.first = fp.path
	m.onShown = func() {
		// Taller than its least, within the window.
		h := m.dlg.MinSize().Height
		w := float32(pickerWidth)
		if s := st.win.Canvas().Size(); s.Width > 0 {
			h = max(h, min(pickerHeight, s.Height-40))
			w = min(w, s.Width-40)
		}
		m.dlg.Resize(fyne.NewSize(w, h))
		fp.path.TypedShortcut(&fyne.ShortcutSelectAll{})
	}

	fp.setField(withSlash(fp.base))
	return fp
}

// withSlash is dir with a "/" at its end, so the list shows what is in it.
func withSlash(dir string) string {
	if strings.HasSuffix(dir, "/") {
		return dir
	}
	return dir + "/"
}

// abs reads what was typed: "~" is the home folder, a relative path is read
// from the folder the chooser opened at. A "/" at its end is kept.
func (fp *folderPicker) abs(text string) string {
	text = expandHome(text, fp.home)
	if !strings.HasPrefix(text, "/") {
		text = withSlash(fp.base) + text
	}
	return text
}

// split is the folder a typed path is in (as typed, with its "/") and the
// beginning of a name after it.
func split(abs string) (dir, prefix string) {
	i := strings.LastIndex(abs, "/")
	return abs[:i+1], abs[i+1:]
}

// subfolders lists the folders in dir whose names start with prefix,
// sorted as a person reads them; names starting with "." only when prefix
// does. Links to folders count as folders.
func subfolders(dir, prefix string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, prefix) || (strings.HasPrefix(name, ".") && !strings.HasPrefix(prefix, ".")) {
			continue
		}
		isDir := e.IsDir()
		if !isDir && e.Type()&os.ModeSymlink != 0 {
			fi, err := os.Stat(filepath.Join(dir, name))
			isDir = err == nil && fi.IsDir()
		}
		if isDir {
			out = append(out, name)
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		return cmp.Or(cmp.Compare(strings.ToLower(a), strings.ToLower(b)), cmp.Compare(a, b))
	})
	return out, nil
}

// setField puts text in the field, cursor at its end, and lists what it
// names.
func (fp *folderPicker) setField(text string) {
	fp.syncing = true
	fp.path.SetText(text)
	fp.syncing = false
	fp.path.toEnd()
	fp.reload()
}

// typed: the field changed under the person's keys.
func (fp *folderPicker) typed(string) {
	if !fp.syncing {
		fp.reload()
	}
}

// reload lists the subfolders the field's text names, nothing highlighted.
func (fp *folderPicker) reload() {
	dir, prefix := split(fp.abs(fp.path.Text))
	names, err := subfolders(dir, prefix)
	fp.dir, fp.names, fp.sel = filepath.Clean(dir), names, -1
	fp.list.UnselectAll()
	fp.list.Refresh()
	fp.list.ScrollToOffset(0)
	fp.where.SetText("In " + app.VisibleLine(fp.dir) + ":")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		fp.empty.SetText("No such folder")
	case err != nil:
		fp.empty.SetText("Cannot list it: " + app.VisibleLine(errText(err)))
	case len(names) == 0 && prefix != "":
		fp.empty.SetText("No folder here begins with “" + app.VisibleLine(prefix) + "”")
	case len(names) == 0:
		fp.empty.SetText("No folders in here")
	default:
		fp.empty.SetText("")
	}
	fp.showTarget()
}

// errText is an error without the path the chooser already shows.
func errText(err error) string {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

// target is the folder Enter would choose: what the field names, cleaned;
// "" when the field is empty.
func (fp *folderPicker) target() string {
	if fp.path.Text == "" {
		return ""
	}
	return filepath.Clean(fp.abs(fp.path.Text))
}

// showTarget says what Enter would choose, whole.
func (fp *folderPicker) showTarget() {
	t := fp.target()
	switch fi, err := os.Stat(t); {
	case t == "":
		fp.say("Type a folder, or pick one in the list.", false)
	case err == nil && fi.IsDir():
		fp.say("Enter chooses "+app.VisibleLine(t), false)
	default:
		fp.say("There is no folder "+app.VisibleLine(t)+".", false)
	}
}

// say puts text in the line under the field (red when it is a refusal),
// and makes room for it: a whole path may take several lines.
func (fp *folderPicker) say(text string, refused bool) {
	fp.status.Importance = widget.MediumImportance
	if refused {
		fp.status.Importance = widget.DangerImportance
	}
	fp.status.SetText(text)
	if fp.content != nil {
		fp.content.Refresh()
	}
}

// completion is what Tab makes of the field: the one matching subfolder
// with a "/", or the longest beginning common to those that match; "" when
// Tab has nothing to add (then it moves on).
func (fp *folderPicker) completion() string {
	text := fp.path.Text
	dir, prefix := split(fp.abs(text))
	if prefix == "" {
		return ""
	}
	names, err := subfolders(dir, prefix)
	if err != nil || len(names) == 0 {
		return ""
	}
	done := names[0]
	if len(names) == 1 {
		done += "/"
	} else {
		for _, n := range names[1:] {
			done = commonPrefix(done, n)
		}
	}
	if done == prefix {
		return ""
	}
	return dir + done
}

// commonPrefix is the longest beginning a and b share, in whole characters.
func commonPrefix(a, b string) string {
	n := 0
	for i, r := range a {
		if i >= len(b) || !strings.HasPrefix(b[i:], string(r)) {
			break
		}
		n = i + len(string(r))
	}
	return a[:n]
}

// complete does what Tab does in the field; it reports whether it changed
// the field.
func (fp *folderPicker) complete() bool {
	c := fp.completion()
	if c == "" {
		return false
	}
	fp.setField(c)
	return true
}

// key: Esc cancels, Enter chooses (on a button, presses it).
func (fp *folderPicker) key(ev *fyne.KeyEvent) bool {
	switch ev.Name {
	case fyne.KeyEscape:
		fp.m.Hide()
		return true
	case fyne.KeyReturn, fyne.KeyEnter:
		if b, ok := fp.m.stack.win.Canvas().Focused().(*kButton); ok {
			b.OnTapped()
		} else {
			fp.chooseTyped()
		}
		return true
	}
	return false
}

// chooseTyped chooses the folder in the field, if there is one.
func (fp *folderPicker) chooseTyped() {
	if fp.m.closed {
		return
	}
	t := fp.target()
	if fi, err := os.Stat(t); t == "" || err != nil || !fi.IsDir() {
		if t == "" {
			fp.say("Type a folder first, or pick one in the list.", true)
		} else {
			fp.say("There is no folder "+app.VisibleLine(t)+".", true)
		}
		return
	}
	fp.m.Hide()
	fp.picked(t)
}

// highlight puts subfolder i in the field (the list moved to it).
func (fp *folderPicker) highlight(i int) {
	if i < 0 || i >= len(fp.names) {
		return
	}
	fp.sel = i
	fp.syncing = true
	fp.path.SetText(filepath.Join(fp.dir, fp.names[i]))
	fp.syncing = false
	fp.path.toEnd()
	fp.showTarget()
}

// move highlights subfolder i of the list, within its ends.
func (fp *folderPicker) move(i int) {
	if len(fp.names) == 0 {
		return
	}
	i = max(0, min(i, len(fp.names)-1))
	if i == fp.sel {
		return
	}
	fp.list.Select(i) // → highlight
}

// open lists what is in subfolder i.
func (fp *folderPicker) open(i int) {
	if i < 0 || i >= len(fp.names) {
		return
	}
	fp.setField(withSlash(filepath.Join(fp.dir, fp.names[i])))
}

// goUp lists the folder above the one listed.
func (fp *folderPicker) goUp() {
	if fp.m.closed {
		return
	}
	if up := filepath.Dir(fp.dir); up != fp.dir || fp.path.Text != withSlash(up) {
		fp.setField(withSlash(up))
	}
}

// pathEntry is the chooser's path field: Tab completes, Down goes to the
// list, Esc and Enter go to the chooser.
type pathEntry struct {
	shiftEntry // Shift down: Tab goes back, it does not complete
	fp         *folderPicker
}

func newPathEntry(fp *folderPicker) *pathEntry {
	e := &pathEntry{fp: fp}
	e.Wrapping = fyne.TextWrapOff
	e.OnChanged = fp.typed
	e.ExtendBaseWidget(e)
	return e
}

// AcceptsTab: the field takes Tab while it has something to complete; the
// window moves the focus on otherwise.
func (e *pathEntry) AcceptsTab() bool { return !e.shift && !shiftDown() && e.fp.completion() != "" }

func (e *pathEntry) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyTab:
		if !e.fp.complete() {
			if c := e.fp.m.stack.win.Canvas(); c != nil {
				c.FocusNext()
			}
		}
	case fyne.KeyEscape, fyne.KeyReturn, fyne.KeyEnter:
		e.fp.key(ev)
	case fyne.KeyDown:
		e.fp.m.stack.win.Canvas().Focus(e.fp.list)
		e.fp.move(0)
	default:
		e.Entry.TypedKey(ev)
	}
}

// toEnd puts the cursor after the last character, nothing selected.
func (e *pathEntry) toEnd() {
	e.Entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEnd})
}

// dirList is the list of subfolders: one stop for Tab, its own keys, and
// the highlighted entry is the list's selection.
type dirList struct {
	widget.List
	fp *folderPicker
}

func newDirList(fp *folderPicker) *dirList {
	l := &dirList{fp: fp}
	l.Length = func() int { return len(fp.names) }
	l.CreateItem = func() fyne.CanvasObject { return newDirRow(l) }
	l.UpdateItem = func(id widget.ListItemID, o fyne.CanvasObject) {
		if id < len(fp.names) {
			o.(*dirRow).set(id, app.VisibleLine(fp.names[id]))
		}
	}
	l.OnSelected = fp.highlight
	l.HideSeparators = true
	l.ExtendBaseWidget(l)
	return l
}

// FocusGained shows the list's own ring; widget.List's focus marker (an
// entry of its own choosing) stays off.
func (l *dirList) FocusGained() {
	l.fp.ring.StrokeColor = theme.Color(theme.ColorNameFocus)
	l.fp.ring.Refresh()
}

func (l *dirList) FocusLost() {
	l.fp.ring.StrokeColor = color.Transparent
	l.fp.ring.Refresh()
}

func (l *dirList) TypedKey(ev *fyne.KeyEvent) {
	fp := l.fp
	switch ev.Name {
	case fyne.KeyDown:
		fp.move(fp.sel + 1)
	case fyne.KeyUp:
		if fp.sel <= 0 {
			fp.m.stack.win.Canvas().Focus(fp.path)
			return
		}
		fp.move(fp.sel - 1)
	case fyne.KeyHome:
		fp.move(0)
	case fyne.KeyEnd:
		fp.move(len(fp.names) - 1)
	case fyne.KeyPageDown:
		fp.move(fp.sel + 10)
	case fyne.KeyPageUp:
		fp.move(max(fp.sel-10, 0))
	case fyne.KeyRight:
		fp.open(fp.sel)
	case fyne.KeyLeft, fyne.KeyBackspace:
		fp.goUp()
	default:
		fp.key(ev)
	}
}

func (l *dirList) TypedRune(rune) {}

// dirRow is one subfolder in the list: a click highlights it, a double
// click opens it.
type dirRow struct {
	widget.BaseWidget
	l     *dirList
	id    int
	label *widget.Label
}

func newDirRow(l *dirList) *dirRow {
	r := &dirRow{l: l, label: widget.NewLabel("")}
	r.label.Truncation = fyne.TextTruncateEllipsis // the field shows it whole
	r.ExtendBaseWidget(r)
	return r
}

func (r *dirRow) set(id int, name string) {
	r.id = id
	r.label.SetText(name)
}

func (r *dirRow) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewBorder(nil, nil, widget.NewIcon(theme.FolderIcon()), nil, r.label))
}

func (r *dirRow) Tapped(*fyne.PointEvent) {
	r.l.fp.m.stack.win.Canvas().Focus(r.l)
	r.l.Select(r.id)
}

func (r *dirRow) DoubleTapped(*fyne.PointEvent) { r.l.fp.open(r.id) }
