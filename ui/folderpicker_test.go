package ui

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/latch-app/latch/app"
)

// pickerTree is a folder with alpha, alphabet, beta/inner, .hidden, home
// (HOME), a link to beta, and a file.
func pickerTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, d := range []string{"alpha", "alphabet", "beta/inner", ".hidden", "home"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, "beta"), filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, "file.txt"), "x")
	t.Setenv("HOME", filepath.Join(root, "home"))
	return root
}

// pressTab presses Tab as the desktop driver does: a focused widget that
// accepts Tab gets it, otherwise the focus moves on.
func pressTab(c fyne.Canvas) {
	if f, ok := c.Focused().(fyne.Tabbable); ok && f.AcceptsTab() {
		c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyTab})
		return
	}
	c.FocusNext()
}

// openPicker shows Latch's chooser on its own on the main window, opening
// at start; chosen gets what it picks.
func openPicker(t *testing.T, start string) (*harness, *folderPicker, *[]string) {
	t.Helper()
	h := newHarness(t)
	var chosen []string
	fp := h.mw.modals.newFolderPicker(nil, grantFolderTitle, start, func(p string) { chosen = append(chosen, p) })
	fp.m.Show()
	return h, fp, &chosen
}

func (fp *folderPicker) shownNames() []string { return slices.Clone(fp.names) }

func TestFolderPickerOpensAtTheFolderInQuestion(t *testing.T) {
	root := pickerTree(t)
	h, fp, _ := openPicker(t, root)
	if h.c.Focused() != fp.path {
		t.Fatalf("the keyboard is on %T, not the path field", h.c.Focused())
	}
	if fp.path.Text != root+"/" || fp.path.SelectedText() != root+"/" {
		t.Errorf("field %q, selected %q; want %q, all selected", fp.path.Text, fp.path.SelectedText(), root+"/")
	}
	if got, want := fp.shownNames(), []string{"alpha", "alphabet", "beta", "home", "link"}; !slices.Equal(got, want) {
		t.Errorf("the list shows %q, want %q (folders and links to folders; no file, nothing hidden)", got, want)
	}
	if txt := labels(h.c.Overlays().Top()); !strings.Contains(txt, grantFolderTitle) || !strings.Contains(txt, "Enter chooses "+root) {
		t.Errorf("the chooser says\n%s\nwant its title and %q", txt, "Enter chooses "+root)
	}

	t.Run("a folder that is not there: its nearest existing ancestor", func(t *testing.T) {
		_, fp, _ := openPicker(t, filepath.Join(root, "beta", "gone", "deeper"))
		if fp.path.Text != filepath.Join(root, "beta")+"/" || !slices.Equal(fp.shownNames(), []string{"inner"}) {
			t.Errorf("field %q, list %q", fp.path.Text, fp.shownNames())
		}
	})
	t.Run("no folder: home", func(t *testing.T) {
		_, fp, _ := openPicker(t, "")
		if fp.path.Text != filepath.Join(root, "home")+"/" {
			t.Errorf("field %q, want the home folder", fp.path.Text)
		}
	})
}

func TestFolderPickerChoosesByKeyboardAlone(t *testing.T) {
	root := pickerTree(t)
	t.Run("a whole path typed, Enter", func(t *testing.T) {
		h, fp, chosen := openPicker(t, filepath.Join(root, "alpha"))
		typeRunes(h.c, filepath.Join(root, "beta", "inner")) // replaces the selected text
		press(h.c, fyne.KeyReturn)
		if want := []string{filepath.Join(root, "beta", "inner")}; !slices.Equal(*chosen, want) {
			t.Errorf("chose %q, want %q", *chosen, want)
		}
		if overlayUp(h.c) || !fp.m.closed || h.mw.modals.active() {
			t.Error("the chooser is still up")
		}
	})
	t.Run("a name typed is read from the folder it opened at", func(t *testing.T) {
		h, _, chosen := openPicker(t, root)
		typeRunes(h.c, "beta/")
		press(h.c, fyne.KeyEnter)
		if want := []string{filepath.Join(root, "beta")}; !slices.Equal(*chosen, want) {
			t.Errorf("chose %q, want %q", *chosen, want)
		}
	})
	t.Run("~ is home", func(t *testing.T) {
		h, _, chosen := openPicker(t, root)
		typeRunes(h.c, "~")
		press(h.c, fyne.KeyReturn)
		if want := []string{filepath.Join(root, "home")}; !slices.Equal(*chosen, want) {
			t.Errorf("chose %q, want %q", *chosen, want)
		}
	})
	t.Run("Enter on no folder chooses nothing and says so", func(t *testing.T) {
		h, fp, chosen := openPicker(t, root)
		typeRunes(h.c, "nothing-here")
		press(h.c, fyne.KeyReturn)
		typeRunes(h.c, "/")
		press(h.c, fyne.KeyReturn)
		if len(*chosen) != 0 || fp.m.closed {
			t.Fatalf("chose %q, closed %v", *chosen, fp.m.closed)
		}
		if !strings.Contains(fp.status.Text, "There is no folder "+filepath.Join(root, "nothing-here")) {
			t.Errorf("the chooser says %q", fp.status.Text)
		}
		// A file is not a folder either.
		fp.path.SetText(filepath.Join(root, "file.txt"))
		press(h.c, fyne.KeyReturn)
		if len(*chosen) != 0 || fp.m.closed {
			t.Errorf("chose the file: %q", *chosen)
		}
	})
	t.Run("the list: Down, Right opens, Left goes up, Enter chooses", func(t *testing.T) {
		h, fp, chosen := openPicker(t, root)
		press(h.c, fyne.KeyDown) // the list's first entry
		if h.c.Focused() != fp.list || fp.path.Text != filepath.Join(root, "alpha") {
			t.Fatalf("after Down: focus %T, field %q", h.c.Focused(), fp.path.Text)
		}
		press(h.c, fyne.KeyDown)
		press(h.c, fyne.KeyDown)
		if fp.path.Text != filepath.Join(root, "beta") || !strings.Contains(fp.status.Text, "Enter chooses "+filepath.Join(root, "beta")) {
			t.Fatalf("field %q, status %q", fp.path.Text, fp.status.Text)
		}
		press(h.c, fyne.KeyRight) // opens beta
		if fp.path.Text != filepath.Join(root, "beta")+"/" || !slices.Equal(fp.shownNames(), []string{"inner"}) || h.c.Focused() != fp.list {
			t.Fatalf("after Right: field %q, list %q, focus %T", fp.path.Text, fp.shownNames(), h.c.Focused())
		}
		press(h.c, fyne.KeyLeft) // back up
		if fp.path.Text != root+"/" || len(fp.shownNames()) != 5 {
			t.Fatalf("after Left: field %q, list %q", fp.path.Text, fp.shownNames())
		}
		press(h.c, fyne.KeyDown)
		press(h.c, fyne.KeyUp) // at the top: back to the field
		if h.c.Focused() != fp.path {
			t.Fatalf("Up at the top left the focus on %T", h.c.Focused())
		}
		press(h.c, fyne.KeyDown)
		press(h.c, fyne.KeyEnd)
		press(h.c, fyne.KeyReturn)
		if want := []string{filepath.Join(root, "link")}; !slices.Equal(*chosen, want) {
			t.Errorf("chose %q, want %q", *chosen, want)
		}
	})
	t.Run("Up one folder, then Choose", func(t *testing.T) {
		h, fp, chosen := openPicker(t, filepath.Join(root, "beta", "inner"))
		h.c.Focus(fp.up)
		press(h.c, fyne.KeyReturn) // presses the focused button
		press(h.c, fyne.KeyReturn)
		if fp.path.Text != root+"/" || len(*chosen) != 0 {
			t.Fatalf("after Up twice: field %q, chose %q", fp.path.Text, *chosen)
		}
		h.c.Focus(fp.choose)
		press(h.c, fyne.KeySpace)
		if want := []string{root}; !slices.Equal(*chosen, want) {
			t.Errorf("chose %q, want %q", *chosen, want)
		}
	})
}

func TestFolderPickerCompletes(t *testing.T) {
	root := pickerTree(t)
	h, fp, chosen := openPicker(t, root)
	typeRunes(h.c, root+"/b")
	pressTab(h.c)
	if fp.path.Text != root+"/beta/" || h.c.Focused() != fp.path || !slices.Equal(fp.shownNames(), []string{"inner"}) {
		t.Fatalf("Tab made %q (focus %T), list %q; want %q and its subfolders", fp.path.Text, h.c.Focused(), fp.shownNames(), root+"/beta/")
	}
	typeRunes(h.c, "i")
	pressTab(h.c)
	if fp.path.Text != root+"/beta/inner/" {
		t.Fatalf("Tab made %q", fp.path.Text)
	}

	// Several match: their common beginning, then the list shows them.
	fp.path.SetText("")
	typeRunes(h.c, root+"/a")
	pressTab(h.c)
	if fp.path.Text != root+"/alpha" || h.c.Focused() != fp.path {
		t.Fatalf("Tab made %q (focus %T), want the common beginning %q", fp.path.Text, h.c.Focused(), root+"/alpha")
	}
	if !slices.Equal(fp.shownNames(), []string{"alpha", "alphabet"}) {
		t.Errorf("the list shows %q, want the candidates", fp.shownNames())
	}
	pressTab(h.c) // nothing more to add: on to the candidates
	if h.c.Focused() != fp.list || fp.path.Text != root+"/alpha" {
		t.Fatalf("second Tab: focus %T, field %q", h.c.Focused(), fp.path.Text)
	}
	press(h.c, fyne.KeyDown)
	press(h.c, fyne.KeyDown)
	if fp.path.Text != root+"/alphabet" {
		t.Fatalf("the second candidate put %q in the field", fp.path.Text)
	}

	// Relative and hidden names complete too; nothing matching: Tab moves on.
	h.c.Focus(fp.path)
	fp.path.SetText("")
	typeRunes(h.c, "be")
	pressTab(h.c)
	typeRunes(h.c, "../.h")
	pressTab(h.c)
	if fp.path.Text != root+"/beta/../.hidden/" {
		t.Fatalf("Tab made %q", fp.path.Text)
	}
	typeRunes(h.c, "zz")
	pressTab(h.c)
	if h.c.Focused() != fp.list || fp.path.Text != root+"/beta/../.hidden/zz" {
		t.Fatalf("Tab with nothing to complete: focus %T, field %q", h.c.Focused(), fp.path.Text)
	}
	if !strings.Contains(fp.empty.Text, "No folder here begins with “zz”") {
		t.Errorf("the empty list says %q", fp.empty.Text)
	}
	h.c.Focus(fp.path)
	press(h.c, fyne.KeyBackspace)
	press(h.c, fyne.KeyBackspace)
	press(h.c, fyne.KeyReturn)
	if want := []string{filepath.Join(root, ".hidden")}; !slices.Equal(*chosen, want) {
		t.Errorf("chose %q, want %q", *chosen, want)
	}
}

func TestFolderPickerTabReachesEveryControl(t *testing.T) {
	root := pickerTree(t)
	h, fp, _ := openPicker(t, root)
	order := []fyne.Focusable{fp.path, fp.list, fp.up, fp.cancel, fp.choose, fp.path}
	for i, want := range order[1:] {
		pressTab(h.c)
		if h.c.Focused() != want {
			t.Fatalf("Tab %d reached %T %v, want %T", i+1, h.c.Focused(), h.c.Focused(), want)
		}
	}
	for i := len(order) - 2; i >= 0; i-- {
		shiftTab(h.c)
		if h.c.Focused() != order[i] {
			t.Fatalf("Shift+Tab reached %T, want %T", h.c.Focused(), order[i])
		}
	}
	// While Shift is down, the field does not take Tab to complete.
	typeRunes(h.c, root+"/b")
	fp.path.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	if fp.path.AcceptsTab() {
		t.Error("Shift+Tab would complete instead of going back")
	}
	fp.path.KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	if !fp.path.AcceptsTab() {
		t.Error("Tab would not complete")
	}
}

func TestFolderPickerEscCancels(t *testing.T) {
	root := pickerTree(t)
	for _, where := range []string{"field", "list", "button", "nothing focused"} {
		t.Run(where, func(t *testing.T) {
			h, fp, chosen := openPicker(t, root)
			typeRunes(h.c, "beta")
			switch where {
			case "list":
				press(h.c, fyne.KeyDown)
			case "button":
				h.c.Focus(fp.choose)
			case "nothing focused":
				h.c.Unfocus()
			}
			press(h.c, fyne.KeyEscape)
			if len(*chosen) != 0 || overlayUp(h.c) || h.mw.modals.active() || h.c.Focused() != h.mw.prompt {
				t.Errorf("after Esc: chose %q, overlay %v, prompt focused %v", *chosen, overlayUp(h.c), h.c.Focused() == h.mw.prompt)
			}
		})
	}
}

// From the grant dialog, with no portal: Browse opens Latch's chooser over
// it at the dialog's folder; Esc there closes only it and changes nothing;
// a folder typed and Enter fills the dialog's field and ticks it.
func TestGrantDialogBrowseWithoutPortal(t *testing.T) {
	root := pickerTree(t)
	old := portalPick
	t.Cleanup(func() { portalPick = old })
	var asked []string
	portalPick = func(title, start string) (string, bool, error) {
		asked = append(asked, title+" @ "+start)
		return "", false, errors.New("no portal")
	}
	h := newHarness(t)
	res, d := openGrants(t, h, folderRequest(root, filepath.Join(root, "alpha")))
	browse := func() *folderPicker {
		t.Helper()
		h.c.Focus(d.browses[0])
		press(h.c, fyne.KeyReturn)
		h.q.waitOne(t) // the portal failed
		fp, ok := h.mw.modals.top().owner.(*folderPicker)
		if !ok || fp.m.parent != d.m || len(h.c.Overlays().List()) != 2 {
			t.Fatalf("top dialog %T over the grant dialog: %v; %d overlays", h.mw.modals.top().owner, ok && fp.m.parent == d.m, len(h.c.Overlays().List()))
		}
		return fp
	}

	fp := browse()
	if want := grantFolderTitle + " @ " + filepath.Join(root, "alpha"); !slices.Equal(asked, []string{want}) {
		t.Errorf("asked the portal %q, want %q", asked, want)
	}
	if fp.path.Text != filepath.Join(root, "alpha")+"/" || h.c.Focused() != fp.path {
		t.Errorf("the chooser opened at %q, focus %T", fp.path.Text, h.c.Focused())
	}
	typeRunes(h.c, filepath.Join(root, "beta"))
	press(h.c, fyne.KeyEscape)
	select {
	case got := <-res:
		t.Fatalf("Esc in the chooser answered the grant dialog: %+v", got)
	default:
	}
	if d.m.closed || len(h.c.Overlays().List()) != 1 || d.folders[0].Text != filepath.Join(root, "alpha") || d.folderChecks[0].Checked {
		t.Fatalf("after Esc: grant dialog closed %v, %d overlays, folder %q, ticked %v",
			d.m.closed, len(h.c.Overlays().List()), d.folders[0].Text, d.folderChecks[0].Checked)
	}
	if h.c.Focused() != d.browses[0] {
		t.Errorf("the keyboard went to %T, not back to Browse…", h.c.Focused())
	}

	browse()
	typeRunes(h.c, filepath.Join(root, "beta", "inner"))
	press(h.c, fyne.KeyReturn)
	if d.folders[0].Text != filepath.Join(root, "beta", "inner") || !d.folderChecks[0].Checked || len(h.c.Overlays().List()) != 1 {
		t.Fatalf("picked: folder %q, ticked %v, %d overlays", d.folders[0].Text, d.folderChecks[0].Checked, len(h.c.Overlays().List()))
	}
	press(h.c, fyne.KeyEscape) // not now
	if got := answer(t, res); got.Action == app.Grant {
		t.Errorf("got %+v", got)
	}
}

// Folder names are shown through app.VisibleLine.
func TestFolderPickerShowsNamesVisibly(t *testing.T) {
	root := t.TempDir()
	odd := "evil\u202etxt.exe\nx"
	if err := os.Mkdir(filepath.Join(root, odd), 0o700); err != nil {
		t.Skip("the file system refuses the name:", err)
	}
	h, fp, _ := openPicker(t, root)
	txt := labels(h.c.Overlays().Top())
	if strings.Contains(txt, "\u202e") || !strings.Contains(txt, app.VisibleLine(odd)) {
		t.Errorf("the list shows\n%q\nwant %q", txt, app.VisibleLine(odd))
	}
	press(h.c, fyne.KeyDown)
	if !strings.Contains(fp.status.Text, app.VisibleLine(filepath.Join(root, odd))) {
		t.Errorf("status %q", fp.status.Text)
	}
}
