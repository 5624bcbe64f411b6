package ui

import (
	"testing"

	"fyne.io/fyne/v2"

	"github.com/latch-app/latch/app"
)

// A folder grant says what it allows: read only, or read and write; the
// default follows the call, and the person can change it by keyboard.
func TestAskDialogFolderAccess(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name     string
		tool     string
		pick     int // -1: keep the default
		readOnly bool
	}{
		{"a write defaults to read and write", "Write", -1, false},
		{"a read defaults to read only", "Read", -1, true},
		{"write narrowed to read only", "Write", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			isolateConfig(t, "")
			h := newHarness(t)
			res := openAsk(t, h, app.Question{Tool: tc.tool, Writes: tc.tool == "Write", Path: dir + "/f", Folder: dir, Rule: "Edit(/" + dir + "/**)"})
			d := currentAsk(h)
			if tc.pick >= 0 {
				h.c.Focus(d.access.items[tc.pick])
				press(h.c, fyne.KeySpace)
			}
			h.c.Focus(d.allowOnce)
			typeRunes(h.c, "4")
			got := answer(t, res)
			if got.Action != app.GrantFolder || (len(got.ReadOnly) == 1) != tc.readOnly {
				t.Errorf("got %+v, read only %v", got, tc.readOnly)
			}
		})
	}
}

func TestGrantDialogFolderAccess(t *testing.T) {
	dir := t.TempDir()
	isolateConfig(t, "")
	h := newHarness(t)
	res, d := openGrants(t, h, app.GrantRequest{Round: 1, Workdir: dir,
		Folders: []app.FolderGrant{{Path: dir, Tool: "Write", Write: true}}})
	if !d.access[0].items[1].Selected {
		t.Fatal("a folder for a write does not default to read and write")
	}
	press(h.c, fyne.KeySpace) // tick the folder (the first stop)
	h.c.Focus(d.access[0].items[0])
	press(h.c, fyne.KeySpace)
	press(h.c, fyne.KeyReturn)
	got := <-res
	if got.Action != app.Grant || len(got.Folders) != 1 || len(got.ReadOnly) != 1 || got.ReadOnly[0] != got.Folders[0] {
		t.Errorf("got %+v", got)
	}
}
