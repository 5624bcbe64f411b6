package ui

import (
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The folder chooser: the desktop's own, through the portal (portal.go),
// modal to the window that asked, opening at the folder in question; Latch's
// own (folderpicker.go) when there is no portal. While the desktop's chooser
// is open, a small dialog of Latch's says so over the dialog that asked,
// which waits under it; its Cancel (or Esc) closes the desktop's chooser.
// A cancel anywhere changes nothing.

// The choosers' titles: what the folder is for.
const (
	grantFolderTitle = "Choose a folder to grant to Claude"
	workFolderTitle  = "Choose the working folder"
)

// portalPick, when set (tests), stands in for the desktop's chooser: it
// gets the title and the folder to open in, and answers as the portal does
// (an error: there is none).
var portalPick func(title, start string) (path string, ok bool, err error)

// openPortal asks the desktop for a folder (portalFolder; tests replace it).
var openPortal = portalFolder

// chooseFolder lets the person pick the working folder, starting at start;
// picked runs on the UI goroutine.
func (mw *mainWindow) chooseFolder(start string, picked func(string)) {
	mw.askFolder(&mw.modals.modalStack, nil, workFolderTitle, start, picked)
}

// chooseFolderFor lets the person pick a folder to grant, for the dialog
// parent: the choosers are its children, and nothing is picked for it once
// it went down.
func (mw *mainWindow) chooseFolderFor(parent *modal, start string, picked func(string)) {
	mw.askFolder(parent.stack, parent, grantFolderTitle, start, picked)
}

// chooseFolderOn lets the person pick a folder to grant, on the stack st
// (another window's), as chooseFolderFor does.
func (mw *mainWindow) chooseFolderOn(st *modalStack, parent *modal, start string, picked func(string)) {
	mw.askFolder(st, parent, grantFolderTitle, start, picked)
}

// askFolder asks the portal off the UI goroutine, where it waits for the
// person, with a dialog of Latch's up over parent meanwhile; when there is
// no portal, Latch's own chooser takes that dialog's place.
func (mw *mainWindow) askFolder(st *modalStack, parent *modal, title, start string, picked func(string)) {
	if parent != nil {
		st = parent.stack
	}
	wait := st.newPortalWait(parent, title)
	wait.m.Show()
	ask := folderAsk{parent: windowHandle(st.win), title: title}
	pick := openPortal
	if portalPick != nil {
		pick = func(a folderAsk, _ func(func())) (string, bool, error) { return portalPick(a.title, a.start) }
	}
	go func() {
		ask.start = startFolder(start)
		p, ok, err := pick(ask, func(close func()) { mw.do(func() { wait.up(close) }) })
		mw.do(func() {
			// Cancelled in Latch, or what the folder was for went away.
			gone := wait.m.closed || st.closed || (parent != nil && parent.closed)
			st.hold(func() {
				wait.m.Hide()
				switch {
				case gone:
				case err != nil:
					st.newFolderPicker(parent, title, ask.start, picked).m.Show()
				case ok && p != "":
					picked(p)
				}
			})
		})
	}()
}

// startFolder is where a chooser opens for start: start, or its nearest
// existing ancestor ("~" is the home folder; a relative path is read from
// the current folder); the home folder when there is none; "/" at worst.
// It looks at the file system.
func startFolder(start string) string {
	home, _ := os.UserHomeDir()
	dir := expandHome(start, home)
	if dir != "" && !filepath.IsAbs(dir) {
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
	}
	for dir != "" && filepath.IsAbs(dir) {
		dir = filepath.Clean(dir)
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return dir
		}
		if filepath.Dir(dir) == dir {
			break
		}
		dir = filepath.Dir(dir)
	}
	if fi, err := os.Stat(home); err == nil && fi.IsDir() && filepath.IsAbs(home) {
		return home
	}
	return "/"
}

// expandHome reads a leading "~" as home; the rest is kept as it is.
func expandHome(p, home string) string {
	if home == "" {
		return p
	}
	if p == "~" {
		return home
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return strings.TrimSuffix(home, "/") + "/" + rest
	}
	return p
}

// portalWait is Latch's dialog while the desktop's chooser is open: the
// dialog under it waits, and its Cancel closes the desktop's chooser.
type portalWait struct {
	m     *modal
	msg   *widget.Label
	close func() // takes the desktop's chooser down, once it is up
}

// newPortalWait builds the waiting dialog over parent (nil: on its own on
// st). Hiding it, however that comes (its Cancel or Esc, its parent going
// down), closes the desktop's chooser.
func (st *modalStack) newPortalWait(parent *modal, title string) *portalWait {
	w := &portalWait{}
	m := st.newModal(parent, w, 460)
	w.m = m
	cancel := newKButton("Cancel", theme.CancelIcon(), m, m.Hide)
	m.onKey = func(ev *fyne.KeyEvent) bool {
		switch ev.Name {
		case fyne.KeyEscape, fyne.KeyReturn, fyne.KeyEnter:
			m.Hide()
			return true
		}
		return false
	}
	m.onRune = func(rune) bool { return false }
	w.msg = wrapped("Opening the desktop's folder chooser…")
	d := dialog.NewCustomWithoutButtons(title, container.NewVBox(w.msg,
		container.NewHBox(caption("Esc cancels"), layout.NewSpacer(), cancel)), st.win)
	d.SetOnClosed(func() {
		// Called on every hide, also when the stack puts the dialog back
		// up over one that went down under it; only m.closed is for good.
		if m.closed && w.close != nil {
			w.close()
		}
	})
	m.dlg = d
	m.first = cancel
	return w
}

// up: the desktop's chooser is open; close takes it down.
func (w *portalWait) up(close func()) {
	if w.m.closed {
		close() // cancelled before it came up
		return
	}
	w.close = close
	w.msg.SetText("Choose the folder in the desktop's chooser; Latch waits for it. Cancel here closes it.")
}
