package ui

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"github.com/rymdport/portal/filechooser"
)

// portalPick asks xdg-desktop-portal for a folder. It blocks until the
// person answers; it fails fast when there is no D-Bus or no portal.
// ok is false when the person cancelled.
var portalPick = func(title, start string) (path string, ok bool, err error) {
	uris, err := filechooser.OpenFile("", title, &filechooser.OpenFileOptions{
		Directory: true, CurrentFolder: start, AcceptLabel: "Choose",
	})
	if err != nil {
		return "", false, err
	}
	if len(uris) == 0 {
		return "", false, nil
	}
	return uriPath(uris[0]), true, nil
}

// uriPath turns a file:// URI from the portal into a path.
func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return strings.TrimPrefix(uri, "file://")
	}
	return u.Path
}

// chooseFolder lets the person pick a folder with the desktop's own chooser,
// or Fyne's when the portal is missing; picked runs on the UI goroutine.
func (mw *mainWindow) chooseFolder(start string, picked func(string)) {
	mw.chooseFolderOn(&mw.modals.modalStack, nil, start, picked)
}

// chooseFolderFor is chooseFolder for the dialog parent: Fyne's chooser is
// its child, and nothing is picked for it once it went down.
func (mw *mainWindow) chooseFolderFor(parent *modal, start string, picked func(string)) {
	mw.chooseFolderOn(parent.stack, parent, start, picked)
}

// chooseFolderOn asks the portal off the UI goroutine, where it waits for
// the person, and looks there too for the folder Fyne's chooser starts in.
func (mw *mainWindow) chooseFolderOn(st *modalStack, parent *modal, start string, picked func(string)) {
	go func() {
		p, ok, err := portalPick("Choose a folder", start)
		var loc fyne.ListableURI
		if err != nil {
			loc = startLocation(start)
		}
		mw.do(func() {
			if st.closed || (parent != nil && parent.closed) {
				return // what the folder was for went away
			}
			switch {
			case err != nil:
				st.newFolderDialog(parent, loc, picked).Show()
			case ok && p != "":
				picked(p)
			}
		})
	}()
}

// startLocation is start, or its nearest existing ancestor, for Fyne's
// chooser to open in; nil when there is none. It looks at the file system.
func startLocation(start string) fyne.ListableURI {
	for dir := start; dir != ""; dir = filepath.Dir(dir) {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			if l, err := storage.ListerForURI(storage.NewFileURI(dir)); err == nil {
				return l
			}
			return nil
		}
		if filepath.Dir(dir) == dir {
			return nil
		}
	}
	return nil
}

// newFolderDialog builds Fyne's folder chooser, opening in loc (nil: its
// default), over parent (nil: on its own on st). Esc cancels it.
func (st *modalStack) newFolderDialog(parent *modal, loc fyne.ListableURI, picked func(string)) *modal {
	m := st.newModal(parent, nil, 0)
	d := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
		m.Hide()
		if err != nil || u == nil {
			return
		}
		picked(u.Path())
	}, st.win)
	if loc != nil {
		d.SetLocation(loc)
	}
	if s := st.win.Canvas().Size(); s.Width > 100 {
		d.Resize(fyne.NewSize(s.Width*0.85, s.Height*0.85))
	}
	m.dlg = d
	m.cancel = d.Dismiss
	m.onKey = func(ev *fyne.KeyEvent) bool {
		if ev.Name == fyne.KeyEscape {
			m.Dismiss()
			return true
		}
		return false
	}
	return m
}
