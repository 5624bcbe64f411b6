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
func (mw *MainWindow) chooseFolder(start string, picked func(string)) {
	mw.chooseFolderIn(mw.win, start, picked)
}

func (mw *MainWindow) chooseFolderIn(win fyne.Window, start string, picked func(string)) {
	go func() {
		p, ok, err := portalPick("Choose a folder", start)
		mw.do(func() {
			switch {
			case err != nil:
				fyneFolderDialog(win, start, picked)
			case ok && p != "":
				picked(p)
			}
		})
	}()
}

func fyneFolderDialog(win fyne.Window, start string, picked func(string)) {
	d := dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
		if err != nil || u == nil {
			return
		}
		picked(u.Path())
	}, win)
	for dir := start; dir != ""; dir = filepath.Dir(dir) {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			if l, err := storage.ListerForURI(storage.NewFileURI(dir)); err == nil {
				d.SetLocation(l)
			}
			break
		}
		if filepath.Dir(dir) == dir {
			break
		}
	}
	if s := win.Canvas().Size(); s.Width > 100 {
		d.Resize(fyne.NewSize(s.Width*0.85, s.Height*0.85))
	}
	d.Show()
}
