package ui

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/latch-app/latch/app"
)

// focusables lists the widgets under o that Tab should reach: visible,
// enabled, focusable, in tree order.
func focusables(o fyne.CanvasObject) []fyne.Focusable {
	var out []fyne.Focusable
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if o == nil || !o.Visible() {
			return
		}
		if f, ok := o.(fyne.Focusable); ok {
			if d, ok := o.(fyne.Disableable); !ok || !d.Disabled() {
				out = append(out, f)
			}
		}
		switch w := o.(type) {
		case *fyne.Container:
			for _, c := range w.Objects {
				walk(c)
			}
		case fyne.Widget:
			for _, c := range test.WidgetRenderer(w).Objects() {
				walk(c)
			}
		}
	}
	walk(o)
	return out
}

// dialogCase opens one of Latch's dialogs or windows: the canvas it is on,
// what it shows, and whether it is gone.
type dialogCase struct {
	name string
	open func(t *testing.T, h *harness) (c fyne.Canvas, root func() fyne.CanvasObject, gone func() bool)
}

func overlayCase(h *harness) (fyne.Canvas, func() fyne.CanvasObject, func() bool) {
	return h.c, func() fyne.CanvasObject { return h.c.Overlays().Top() }, func() bool { return !overlayUp(h.c) && !h.mw.modals.active() }
}

var dialogCases = []dialogCase{
	{"question", func(t *testing.T, h *harness) (fyne.Canvas, func() fyne.CanvasObject, func() bool) {
		dir := t.TempDir()
		ask(h, context.Background(), app.Question{Tool: "Read", Path: dir + "/f", Folder: dir})
		h.q.waitOne(t)
		return overlayCase(h)
	}},
	{"question from the CLI", func(t *testing.T, h *harness) (fyne.Canvas, func() fyne.CanvasObject, func() bool) {
		ask(h, context.Background(), app.Question{Tool: "AskUserQuestion", Input: `{"questions":[{"question":"Which?","options":[{"label":"a"},{"label":"b"}]}]}`})
		h.q.waitOne(t)
		return overlayCase(h)
	}},
	{"grant dialog", func(t *testing.T, h *harness) (fyne.Canvas, func() fyne.CanvasObject, func() bool) {
		root := t.TempDir()
		openGrants(t, h, folderRequest(root, filepath.Join(root, "a")))
		return overlayCase(h)
	}},
	{"link confirmation", func(t *testing.T, h *harness) (fyne.Canvas, func() fyne.CanvasObject, func() bool) {
		u, _ := url.Parse("https://example.com/docs")
		h.mw.confirmLink(u)
		return overlayCase(h)
	}},
	{"folder picker", func(t *testing.T, h *harness) (fyne.Canvas, func() fyne.CanvasObject, func() bool) {
		h.mw.modals.newFolderPicker(nil, grantFolderTitle, pickerTree(t), func(string) {}).m.Show()
		return overlayCase(h)
	}},
	{"desktop chooser wait", func(t *testing.T, h *harness) (fyne.Canvas, func() fyne.CanvasObject, func() bool) {
		h.mw.modals.newPortalWait(nil, workFolderTitle).m.Show()
		return overlayCase(h)
	}},
	{"preferences", func(t *testing.T, h *harness) (fyne.Canvas, func() fyne.CanvasObject, func() bool) {
		h.mw.showPrefs()
		p := h.mw.prefs
		t.Cleanup(func() {
			if h.mw.prefs != nil {
				h.mw.prefs.Dismiss()
			}
		})
		return p.win.Canvas(), p.win.Content, func() bool { return h.mw.prefs == nil }
	}},
	{"permissions", func(t *testing.T, h *harness) (fyne.Canvas, func() fyne.CanvasObject, func() bool) {
		p := openPerms(t, h, &fakeInspector{view: testView(h.mw.workdir)})
		return p.win.Canvas(), p.win.Content, func() bool { return h.mw.perms == nil }
	}},
	{"history", func(t *testing.T, h *harness) (fyne.Canvas, func() fyne.CanvasObject, func() bool) {
		v := openHistory(t, h, testLog(h.mw.workdir))
		return v.win.Canvas(), v.win.Content, func() bool { return h.mw.history == nil || v.gone }
	}},
}

func dialogHarness(t *testing.T) *harness {
	home := t.TempDir()
	t.Setenv("HOME", home)
	isolateConfig(t, "")
	return newHarness(t)
}

func name(f fyne.Focusable) string { return fmt.Sprintf("%T", f) }

// Every dialog works with Tab and Shift+Tab alone: each goes round every
// control, none keeps the keyboard.
func TestDialogsTabRound(t *testing.T) {
	for _, dc := range dialogCases {
		t.Run(dc.name, func(t *testing.T) {
			h := dialogHarness(t)
			c, root, _ := dc.open(t, h)
			all := focusables(root())
			if len(all) == 0 || c.Focused() == nil {
				t.Fatalf("%d controls, focus on %v", len(all), c.Focused())
			}
			for _, shift := range []bool{false, true} {
				reached := map[fyne.Focusable]bool{}
				stuck := 0
				for i := 0; i < 3*len(all)+6; i++ {
					before := c.Focused()
					tabKey(c, shift)
					reached[c.Focused()] = true
					if c.Focused() == before && len(all) > 1 {
						if stuck++; stuck > 2 {
							t.Fatalf("shift %v: the keyboard stays on %s", shift, name(before))
						}
					} else {
						stuck = 0
					}
				}
				for _, f := range focusables(root()) {
					if !reached[f] {
						t.Errorf("shift %v: Tab never reached %s", shift, name(f))
					}
				}
			}
		})
	}
}

// Esc closes every dialog whatever control has the keyboard (one of each
// kind), and with none.
func TestDialogsEscFromEveryControl(t *testing.T) {
	for _, dc := range dialogCases {
		t.Run(dc.name, func(t *testing.T) {
			h := dialogHarness(t)
			_, root, _ := dc.open(t, h)
			var kinds []string
			for _, f := range focusables(root()) {
				if !slices.Contains(kinds, name(f)) {
					kinds = append(kinds, name(f))
				}
			}
			kinds = append(kinds, "nothing focused")
			for _, kind := range kinds {
				t.Run(kind, func(t *testing.T) {
					h := dialogHarness(t)
					c, root, gone := dc.open(t, h)
					if kind == "nothing focused" {
						c.Unfocus()
					} else {
						for _, f := range focusables(root()) {
							if name(f) == kind {
								c.Focus(f)
								break
							}
						}
					}
					press(c, fyne.KeyEscape)
					if !gone() {
						t.Errorf("Esc on %s did not close it", kind)
					}
				})
			}
		})
	}
}

// Over the grant dialog, Latch's folder chooser works by keyboard alone:
// Tab (which completes first) and Shift+Tab (which never completes) reach
// the list, arrows move in it, Enter chooses; Esc from any control, or
// none, closes the chooser and only it.
func TestFolderPickerKeyboardOverParent(t *testing.T) {
	root := pickerTree(t)
	old := portalPick
	t.Cleanup(func() { portalPick = old })
	portalPick = func(string, string) (string, bool, error) { return "", false, fmt.Errorf("no portal") }
	browse := func(t *testing.T) (*harness, *grantDialog, *folderPicker) {
		h := newHarness(t)
		_, d := openGrants(t, h, folderRequest(root, filepath.Join(root, "alpha")))
		h.c.Focus(d.browses[0])
		press(h.c, fyne.KeySpace)
		h.q.waitOne(t) // the portal failed: Latch's chooser
		fp, ok := h.mw.modals.top().owner.(*folderPicker)
		if !ok || fp.m.parent != d.m {
			t.Fatalf("top dialog %T", h.mw.modals.top().owner)
		}
		return h, d, fp
	}
	for _, where := range []string{"field", "list", "Up one folder", "Cancel", "Choose", "nothing focused"} {
		t.Run("Esc on "+where, func(t *testing.T) {
			h, d, fp := browse(t)
			switch where {
			case "list":
				tabKey(h.c, false)
			case "Up one folder":
				h.c.Focus(fp.up)
			case "Cancel":
				h.c.Focus(fp.cancel)
			case "Choose":
				h.c.Focus(fp.choose)
			case "nothing focused":
				h.c.Unfocus()
			}
			if where == "list" && h.c.Focused() != fp.list {
				t.Fatalf("Tab from the field reached %T, not the list", h.c.Focused())
			}
			press(h.c, fyne.KeyEscape)
			if !fp.m.closed || d.m.closed || len(h.c.Overlays().List()) != 1 || d.folderChecks[0].Checked {
				t.Fatalf("after Esc: chooser closed %v, grant dialog closed %v, %d overlays", fp.m.closed, d.m.closed, len(h.c.Overlays().List()))
			}
			if h.c.Focused() != d.browses[0] {
				t.Errorf("the keyboard went to %T, not back to Browse…", h.c.Focused())
			}
		})
	}
	t.Run("Tab, arrows, Enter", func(t *testing.T) {
		h, d, fp := browse(t)
		typeRunes(h.c, root+"/b")
		tabKey(h.c, true) // Shift+Tab goes back, it does not complete
		if fp.path.Text != root+"/b" || h.c.Focused() != fp.choose {
			t.Fatalf("Shift+Tab: field %q, focus %T", fp.path.Text, h.c.Focused())
		}
		tabKey(h.c, false)
		tabKey(h.c, false) // completes
		if fp.path.Text != root+"/beta/" || h.c.Focused() != fp.path {
			t.Fatalf("Tab: field %q, focus %T", fp.path.Text, h.c.Focused())
		}
		tabKey(h.c, false) // nothing more to complete: the list
		if h.c.Focused() != fp.list {
			t.Fatalf("the list is not in the Tab order: %T", h.c.Focused())
		}
		press(h.c, fyne.KeyDown)
		if fp.path.Text != filepath.Join(root, "beta", "inner") {
			t.Fatalf("Down put %q in the field", fp.path.Text)
		}
		press(h.c, fyne.KeyReturn)
		if !fp.m.closed || d.m.closed || d.folders[0].Text != filepath.Join(root, "beta", "inner") || !d.folderChecks[0].Checked {
			t.Fatalf("Enter: chooser closed %v, folder %q ticked %v", fp.m.closed, d.folders[0].Text, d.folderChecks[0].Checked)
		}
	})
}
