package ui

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"fyne.io/fyne/v2"
	"github.com/tidwall/gjson"

	"github.com/latch-app/latch/app"
)

func grantRequest(dir string) app.GrantRequest {
	return app.GrantRequest{Round: 1, Workdir: dir,
		Tools: []app.ToolGrant{
			{Rule: "Bash(touch:*)", Tool: "Bash", Reason: "blocked: permission channel closed", Example: "touch x.txt"},
			{Rule: "WebFetch", Tool: "WebFetch", Reason: "needs approval"},
		},
		Folders: []app.FolderGrant{{Path: dir, Tool: "Read", Reason: "outside the working folder", Example: filepath.Join(dir, "a.txt")}},
	}
}

func openGrants(t *testing.T, h *harness, r app.GrantRequest) (chan app.Decision, *grantDialog) {
	t.Helper()
	res := make(chan app.Decision, 1)
	go func() { res <- h.mw.surf.AskGrants(context.Background(), r) }()
	h.q.waitOne(t)
	if !overlayUp(h.c) {
		t.Fatal("no dialog")
	}
	return res, h.mw.modals.cur.m.owner.(*grantDialog)
}

func TestGrantDialogStartsUntickedWithFocusOnFirstCheckbox(t *testing.T) {
	h := newHarness(t)
	_, d := openGrants(t, h, grantRequest(t.TempDir()))
	for i, c := range append(append([]*seenCheck{}, d.toolChecks...), d.folderChecks...) {
		if c.Checked {
			t.Errorf("checkbox %d starts ticked", i)
		}
	}
	if h.c.Focused() != d.toolChecks[0] {
		t.Fatalf("focus is on %T, want the first checkbox", h.c.Focused())
	}
	var labels []string
	for _, it := range d.scope.items {
		labels = append(labels, it.Label)
	}
	// The same scopes as the live question, in its order.
	want := []string{"This session", "This project (.claude/settings.local.json)", "All my projects (~/.claude/settings.json)"}
	if !reflect.DeepEqual(labels, want) {
		t.Errorf("scopes %q, want %q", labels, want)
	}
	if got := d.scope.selected(); len(got) != 1 || got[0] != want[1] {
		t.Errorf("selected scope %q, want this project", got)
	}
}

func TestGrantDialogTabOrderIsReadingOrder(t *testing.T) {
	h := newHarness(t)
	_, d := openGrants(t, h, grantRequest(t.TempDir()))
	folderRow := d.folders[0]
	want := []fyne.Focusable{d.toolChecks[0], d.rules[0], d.toolChecks[1], d.rules[1], d.folderChecks[0], folderRow}
	var browse fyne.Focusable
	for i, w := range want {
		if h.c.Focused() != w {
			t.Fatalf("tab stop %d is %T %v", i, h.c.Focused(), h.c.Focused())
		}
		press(h.c, fyne.KeyTab)
	}
	browse = h.c.Focused()
	if b, ok := browse.(*seenButton); !ok || b.Text != "Browse…" {
		t.Fatalf("after the folder comes %T", browse)
	}
	press(h.c, fyne.KeyTab)
	for i, c := range d.access[0].items {
		if h.c.Focused() != c {
			t.Fatalf("folder access option %d is not next", i)
		}
		press(h.c, fyne.KeyTab)
	}
	for i := range d.scope.items {
		if h.c.Focused() != d.scope.items[i] {
			t.Fatalf("scope option %d is not next", i)
		}
		press(h.c, fyne.KeyTab)
	}
	if h.c.Focused() != d.later {
		t.Fatal("Not now is not next")
	}
	press(h.c, fyne.KeyTab)
	if h.c.Focused() != d.grant {
		t.Fatal("Grant and retry is not last")
	}
	shiftTab(h.c)
	if h.c.Focused() != d.later {
		t.Fatal("Shift+Tab does not go back")
	}
}

func TestGrantDialogKeys(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		keys func(h *harness, d *grantDialog)
		want app.Decision
	}{
		{"Esc is not now", func(h *harness, d *grantDialog) { press(h.c, fyne.KeyEscape) }, app.Decision{Action: app.NotNow}},
		{"Space ticks, Enter grants in this project", func(h *harness, d *grantDialog) {
			press(h.c, fyne.KeySpace)
			press(h.c, fyne.KeyReturn)
		}, app.Decision{Action: app.Grant, Rules: []string{"Bash(touch:*)"}, Scope: app.ScopeProject}},
		{"edited rule and the folder, all my projects", func(h *harness, d *grantDialog) {
			press(h.c, fyne.KeySpace)
			press(h.c, fyne.KeyTab)
			d.rules[0].SetText("")
			typeRunes(h.c, "Bash(touch x.txt)")
			press(h.c, fyne.KeyTab) // WebFetch stays unticked
			press(h.c, fyne.KeyTab)
			press(h.c, fyne.KeyTab)
			press(h.c, fyne.KeySpace) // the folder
			h.c.Focus(d.scope.items[2])
			press(h.c, fyne.KeySpace)
			press(h.c, fyne.KeyReturn)
		}, app.Decision{Action: app.Grant, Rules: []string{"Bash(touch x.txt)"}, Folders: []string{dir}, Scope: app.ScopeUser}},
		{"this session, Enter in a rule field", func(h *harness, d *grantDialog) {
			h.c.Focus(d.toolChecks[1])
			press(h.c, fyne.KeySpace)
			h.c.Focus(d.scope.items[0])
			press(h.c, fyne.KeySpace)
			h.c.Focus(d.rules[1])
			press(h.c, fyne.KeyReturn)
		}, app.Decision{Action: app.Grant, Rules: []string{"WebFetch"}, Scope: app.ScopeOnce}},
		{"Not now by Tab and Space", func(h *harness, d *grantDialog) {
			h.c.Focus(d.grant)
			shiftTab(h.c)
			press(h.c, fyne.KeySpace)
		}, app.Decision{Action: app.NotNow}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			isolateConfig(t, "")
			h := newHarness(t)
			res, d := openGrants(t, h, grantRequest(dir))
			tc.keys(h, d)
			got := answer(t, res)
			if got.Action != tc.want.Action || got.Scope != tc.want.Scope || got.Force ||
				!sameStrings(got.Rules, tc.want.Rules) || !sameStrings(got.Folders, tc.want.Folders) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
			if overlayUp(h.c) {
				t.Error("dialog still up")
			}
			if h.c.Focused() != h.mw.prompt || h.mw.prompt.Text != "" {
				t.Errorf("prompt box: focus %v, text %q", h.c.Focused() == h.mw.prompt, h.mw.prompt.Text)
			}
		})
	}
}

func TestGrantDialogNothingTickedGrantsNothing(t *testing.T) {
	h := newHarness(t)
	res, d := openGrants(t, h, grantRequest(t.TempDir()))
	press(h.c, fyne.KeyReturn)
	select {
	case got := <-res:
		t.Fatalf("Enter with nothing ticked answered %+v", got)
	default:
	}
	if !d.hint.Visible() {
		t.Error("no word on why nothing happened")
	}
	press(h.c, fyne.KeyEscape)
	if got := answer(t, res); got.Action != app.NotNow {
		t.Errorf("got %+v", got)
	}
}

func TestGrantDialogBadFolderIsExplained(t *testing.T) {
	h := newHarness(t)
	r := grantRequest(filepath.Join(t.TempDir(), "missing"))
	res, d := openGrants(t, h, r)
	h.c.Focus(d.folderChecks[0])
	press(h.c, fyne.KeySpace)
	press(h.c, fyne.KeyReturn)
	select {
	case got := <-res:
		t.Fatalf("a missing folder was granted: %+v", got)
	default:
	}
	if !d.hint.Visible() || d.hint.Text == "" {
		t.Error("no word on the missing folder")
	}
}

func TestGrantingHomeAsksTwice(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, tc := range []struct {
		name    string
		confirm bool
	}{{"go back", false}, {"grant anyway", true}} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			res, d := openGrants(t, h, app.GrantRequest{Folders: []app.FolderGrant{{Path: home, Tool: "Read"}}})
			press(h.c, fyne.KeySpace)
			press(h.c, fyne.KeyReturn)
			if n := len(h.c.Overlays().List()); n != 2 {
				t.Fatalf("%d overlays, want the grant dialog and the second question", n)
			}
			if b, ok := h.c.Focused().(*kButton); !ok || b.Text != "Go back" {
				t.Fatalf("the second question starts on %v, want Go back", h.c.Focused())
			}
			if !tc.confirm {
				press(h.c, fyne.KeyReturn)
				if n := len(h.c.Overlays().List()); n != 1 {
					t.Fatalf("%d overlays after Go back", n)
				}
				select {
				case got := <-res:
					t.Fatalf("answered %+v after Go back", got)
				default:
				}
				_ = d
				press(h.c, fyne.KeyEscape)
				if got := answer(t, res); got.Action != app.NotNow {
					t.Errorf("got %+v", got)
				}
				return
			}
			press(h.c, fyne.KeyTab)
			press(h.c, fyne.KeyReturn)
			got := answer(t, res)
			if got.Action != app.Grant || !got.Force || !sameStrings(got.Folders, []string{home}) {
				t.Errorf("got %+v", got)
			}
			if overlayUp(h.c) {
				t.Error("dialogs still up")
			}
		})
	}
}

func sameStrings(a, b []string) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	return reflect.DeepEqual(a, b)
}

// TestGrantDialogRemembersTheScope: the dialog opens on the scope chosen
// last, in it or in the live question, and a grant remembers its scope in
// Latch's config; "Not now" and "Go back" remember nothing.
func TestGrantDialogRemembersTheScope(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	path := isolateConfig(t, `{"grant_scope": "user"}`)
	h := newHarness(t)
	saved := func() string {
		t.Helper()
		h.mw.settings().Flush()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return gjson.GetBytes(data, "grant_scope").String()
	}
	r := grantRequest(t.TempDir())

	res, d := openGrants(t, h, r)
	if !d.scope.items[2].Selected {
		t.Fatalf("opened on %q, want all my projects as the config says", d.scope.selected())
	}
	press(h.c, fyne.KeySpace)
	h.c.Focus(d.scope.items[0])
	press(h.c, fyne.KeySpace)  // this session…
	press(h.c, fyne.KeyEscape) // …but not now
	if got := answer(t, res); got.Action != app.NotNow {
		t.Fatalf("got %+v", got)
	}
	if s := saved(); s != "user" {
		t.Errorf("Not now saved grant_scope %q", s)
	}

	res, d = openGrants(t, h, r)
	if !d.scope.items[2].Selected {
		t.Fatalf("after Not now, opened on %q", d.scope.selected())
	}
	press(h.c, fyne.KeySpace)
	h.c.Focus(d.scope.items[0])
	press(h.c, fyne.KeySpace)
	press(h.c, fyne.KeyReturn)
	if got := answer(t, res); got.Action != app.Grant || got.Scope != app.ScopeOnce {
		t.Fatalf("got %+v", got)
	}
	if s := saved(); s != "session" {
		t.Errorf("saved grant_scope %q, want session", s)
	}

	// The live question's choice is the next default too.
	h.mw.settings().RememberScope(app.ScopeProject)
	res, d = openGrants(t, h, app.GrantRequest{Folders: []app.FolderGrant{{Path: home, Tool: "Read"}}})
	if !d.scope.items[1].Selected {
		t.Fatalf("opened on %q, want this project", d.scope.selected())
	}
	press(h.c, fyne.KeySpace) // the home folder: asks twice
	h.c.Focus(d.scope.items[2])
	press(h.c, fyne.KeySpace)
	press(h.c, fyne.KeyReturn)
	press(h.c, fyne.KeyReturn) // Go back
	if got := h.mw.settings().Scope(); got != app.ScopeProject {
		t.Errorf("after Go back, lastScope() = %v", got)
	}
	press(h.c, fyne.KeyEscape)
	answer(t, res)
	if s := saved(); s != "project" {
		t.Errorf("saved grant_scope %q, want project", s)
	}
}
