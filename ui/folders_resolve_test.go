package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

// folderWorld is a home with ~/.ssh, a project, a folder elsewhere, and
// links in the project to each and to /. HOME points at the home.
type folderWorld struct {
	root, home, ssh, project, data string
}

func newFolderWorld(t *testing.T) folderWorld {
	t.Helper()
	root := t.TempDir()
	w := folderWorld{root: root, home: filepath.Join(root, "home"), project: filepath.Join(root, "project"),
		data: filepath.Join(root, "data")}
	w.ssh = filepath.Join(w.home, ".ssh")
	for _, d := range []string{w.ssh, filepath.Join(w.project, "docs"), w.data} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range map[string]string{"slash": "/", "keys": w.ssh, "data": w.data} {
		if err := os.Symlink(target, filepath.Join(w.project, name)); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", w.home)
	return w
}

// climb is the suggestion: a long path inside the project that
// climbs back out to the absolute path to.
func (w folderWorld) climb(to string) string {
	long := filepath.Join(w.project, "docs", strings.Repeat("a", 120))
	ups := strings.Count(long, string(filepath.Separator))
	return long + "/" + strings.Repeat("../", ups) + strings.TrimPrefix(to, "/")
}

// labels is the text of every label under o.
func labels(o fyne.CanvasObject) string {
	var out []string
	visit(o, func(o fyne.CanvasObject) {
		if l, ok := o.(*widget.Label); ok {
			out = append(out, l.Text)
		}
	})
	return strings.Join(out, "\n")
}

func folderRequest(workdir string, paths ...string) app.GrantRequest {
	r := app.GrantRequest{Round: 1, Workdir: workdir}
	for _, p := range paths {
		r.Folders = append(r.Folders, app.FolderGrant{Path: p, Tool: "Read", Reason: "outside the working folder"})
	}
	return r
}

func TestGrantDialogShowsFoldersResolved(t *testing.T) {
	w := newFolderWorld(t)
	tests := []struct{ name, suggested, shown string }{
		{"the issue's climb", w.climb(w.ssh), w.ssh},
		{"a link", filepath.Join(w.project, "data"), w.data},
		{"a link to /", filepath.Join(w.project, "slash"), "/"},
		{"dots and double slashes", w.project + "//docs/./x/..", filepath.Join(w.project, "docs")},
		{"relative to the working folder", "docs", filepath.Join(w.project, "docs")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			_, d := openGrants(t, h, folderRequest(w.project, tt.suggested))
			if got := d.folders[0].Text; got != tt.shown {
				t.Errorf("the folder shows as %q, want %q", got, tt.shown)
			}
		})
	}
}

func TestGrantDialogShowsTypedFoldersAsSaved(t *testing.T) {
	w := newFolderWorld(t)
	link := filepath.Join(w.project, "data")

	t.Run("when the focus moves on", func(t *testing.T) {
		h := newHarness(t)
		_, d := openGrants(t, h, folderRequest(w.project, w.data))
		h.c.Focus(d.folders[0])
		d.folders[0].SetText("")
		typeRunes(h.c, link)
		if d.folders[0].Text != link {
			t.Fatalf("rewritten while typing: %q", d.folders[0].Text)
		}
		press(h.c, fyne.KeyTab)
		if got := d.folders[0].Text; got != w.data {
			t.Errorf("after Tab the folder shows %q, want %q", got, w.data)
		}
	})

	t.Run("Enter right after typing shows it first", func(t *testing.T) {
		h := newHarness(t)
		res, d := openGrants(t, h, folderRequest(w.project, w.data))
		press(h.c, fyne.KeySpace)
		press(h.c, fyne.KeyTab)
		d.folders[0].SetText("")
		typeRunes(h.c, link+"/")
		press(h.c, fyne.KeyReturn)
		select {
		case got := <-res:
			t.Fatalf("granted %+v before the saved form was shown", got)
		default:
		}
		if got := d.folders[0].Text; got != w.data {
			t.Errorf("the folder shows %q, want %q", got, w.data)
		}
		if !d.hint.Visible() || !strings.Contains(d.hint.Text, w.data) {
			t.Errorf("hint %q does not say what will be saved", d.hint.Text)
		}
		press(h.c, fyne.KeyReturn)
		if got := answer(t, res); got.Action != app.Grant || got.Force || !slices.Equal(got.Folders, []string{w.data}) {
			t.Errorf("got %+v, want %q granted", got, w.data)
		}
	})

	t.Run("Browse", func(t *testing.T) {
		old := portalPick
		t.Cleanup(func() { portalPick = old })
		portalPick = func(string, string) (string, bool, error) { return link, true, nil }
		h := newHarness(t)
		_, d := openGrants(t, h, folderRequest(w.project, filepath.Join(w.project, "docs")))
		h.c.Focus(d.browses[0])
		press(h.c, fyne.KeyReturn) // opens the chooser, grants nothing
		h.q.waitOne(t)
		if got := d.folders[0].Text; got != w.data || !d.folderChecks[0].Checked {
			t.Errorf("picked %q: the folder shows %q, ticked %v; want %q ticked", link, got, d.folderChecks[0].Checked, w.data)
		}
	})
}

func TestBroadFoldersAskTwiceNamingTheResolvedFolder(t *testing.T) {
	w := newFolderWorld(t)
	tests := []struct{ name, suggested, real, why string }{
		{"a link to /", filepath.Join(w.project, "slash"), "/", "the root of the file system"},
		{"the issue's climb", w.climb(w.ssh), w.ssh, "your SSH keys (~/.ssh)"},
		{"a link to ~/.ssh", filepath.Join(w.project, "keys"), w.ssh, "your SSH keys (~/.ssh)"},
		{"inside ~/.ssh", filepath.Join(w.project, "keys", "new"), filepath.Join(w.ssh, "new"), "part of your SSH keys (~/.ssh)"},
		{"home", w.home, w.home, "your home folder"},
		{"the folder holding home", w.root, w.root, "a folder that contains your home folder"},
		{"/etc", "/etc", "/etc", "system configuration (/etc)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.MkdirAll(tt.real, 0o700); err != nil {
				t.Fatal(err)
			}
			h := newHarness(t)
			res, _ := openGrants(t, h, folderRequest(w.project, tt.suggested))
			press(h.c, fyne.KeySpace)
			press(h.c, fyne.KeyReturn)
			if n := len(h.c.Overlays().List()); n != 2 {
				t.Fatalf("%d overlays, want the grant dialog and the second question", n)
			}
			want := "You are about to let Claude read and write " + tt.real + " — " + tt.why + ". Grant it anyway?"
			if txt := labels(h.c.Overlays().Top()); !strings.Contains(txt, want) {
				t.Errorf("the second question says\n%s\nwant %q", txt, want)
			}
			press(h.c, fyne.KeyReturn) // Go back
			select {
			case got := <-res:
				t.Fatalf("answered %+v after Go back", got)
			default:
			}
			press(h.c, fyne.KeyReturn)
			press(h.c, fyne.KeyTab)
			press(h.c, fyne.KeyReturn) // Grant it anyway
			got := answer(t, res)
			if got.Action != app.Grant || !got.Force || !slices.Equal(got.Folders, []string{tt.real}) {
				t.Errorf("got %+v, want %q with force", got, tt.real)
			}
		})
	}
}

func TestConfirmBroadJudgesTheResolvedFolder(t *testing.T) {
	w := newFolderWorld(t)
	tests := []struct {
		name    string
		folders []string
		ask     string // "" when no second question is due
	}{
		{"a plain link", []string{filepath.Join(w.project, "data")}, ""},
		{"relative: refused later, not here", []string{"keys"}, ""},
		{"a link to ~/.ssh", []string{filepath.Join(w.project, "keys")},
			"You are about to let Claude read and write " + w.ssh + " — your SSH keys (~/.ssh). Grant it anyway?"},
		{"two of them", []string{filepath.Join(w.project, "slash"), filepath.Join(w.project, "data"), filepath.Join(w.project, "keys")},
			"You are about to let Claude read and write:\n• / — the root of the file system\n• " + w.ssh +
				" — your SSH keys (~/.ssh)\nGrant them anyway?"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			var answers []bool
			h.mw.modals.confirmBroad(nil, tt.folders, func(force bool) { answers = append(answers, force) })
			if tt.ask == "" {
				if !slices.Equal(answers, []bool{false}) || overlayUp(h.c) {
					t.Errorf("answers %v, overlay %v; want false at once", answers, overlayUp(h.c))
				}
				return
			}
			if txt := labels(h.c.Overlays().Top()); !strings.Contains(txt, tt.ask) {
				t.Errorf("the second question says\n%s\nwant %q", txt, tt.ask)
			}
			press(h.c, fyne.KeyTab)
			press(h.c, fyne.KeyReturn)
			if !slices.Equal(answers, []bool{true}) {
				t.Errorf("answers %v, want true", answers)
			}
		})
	}
}

func TestPrefsAddFolderResolvesAndAsksTwice(t *testing.T) {
	tests := []struct {
		name, link string // the link in the project that is picked
		ask        bool   // a second question is due
		confirm    bool   // and answered yes
	}{
		{"a plain link", "data", false, false},
		{"a link to ~/.ssh, granted anyway", "keys", true, true},
		{"a link to ~/.ssh, gone back", "keys", true, false},
		{"a link to /, granted anyway", "slash", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, _ := prefsHarness(t, "")
			w := newFolderWorld(t) // its own HOME, after the harness's
			real := map[string]string{"data": w.data, "keys": w.ssh, "slash": "/"}[tt.link]
			user := filepath.Join(w.home, ".claude", "settings.json")
			p := openPrefs(t, h)
			s, c := p.sections[0], p.win.Canvas()
			s.addFolder(filepath.Join(w.project, tt.link))
			if tt.ask {
				if c.Overlays().Top() == nil {
					t.Fatal("no second question")
				}
				want := "You are about to let Claude read and write " + real + " — "
				if txt := labels(c.Overlays().Top()); !strings.Contains(txt, want) {
					t.Errorf("the second question says\n%s\nwant %q", txt, want)
				}
				if !tt.confirm {
					press(c, fyne.KeyReturn) // Go back
					if c.Overlays().Top() != nil {
						t.Error("still asking after Go back")
					}
					if _, err := os.Stat(user); !os.IsNotExist(err) {
						t.Errorf("settings written after Go back: %v", err)
					}
					return
				}
				press(c, fyne.KeyTab)
				press(c, fyne.KeyReturn)
			} else if c.Overlays().Top() != nil {
				t.Fatal("a second question for a plain folder")
			}
			h.q.waitOne(t)
			if saved := savedGrants(t, p, 0, user); !slices.Equal(saved.Folders, []string{real}) {
				t.Errorf("saved %q, want %q", saved.Folders, real)
			}
			if !strings.Contains(sectionText(s), real) {
				t.Errorf("the list shows %q", sectionText(s))
			}
		})
	}
}

func TestPrefsProjectLinkedOutsideIsListedNotWritten(t *testing.T) {
	h, _ := prefsHarness(t, "")
	outside := t.TempDir()
	content := `{"permissions": {"allow": ["Bash(ls:*)"]}}`
	writeFile(t, filepath.Join(outside, "settings.local.json"), content)
	if err := os.Symlink(outside, filepath.Join(h.mw.workdir, ".claude")); err != nil {
		t.Fatal(err)
	}
	p := openPrefs(t, h)
	s := p.sections[1]
	want := filepath.Join(h.mw.workdir, ".claude") + " is a symlink to " + outside + ", outside the project; Latch does not write through it"
	if !s.msg.Visible() || !strings.Contains(s.msg.Text, want) {
		t.Errorf("message %v %q, want %q", s.msg.Visible(), s.msg.Text, want)
	}
	if !strings.Contains(sectionText(s), "Bash(ls:*)") {
		t.Errorf("the file is not listed: %q", sectionText(s))
	}
	if !s.addRule.Disabled() || !s.addDir.Disabled() || !removeButton(t, s.list, "Bash(ls:*)").Disabled() {
		t.Error("the file can still be changed")
	}
	if data, _ := os.ReadFile(filepath.Join(outside, "settings.local.json")); string(data) != content {
		t.Errorf("the file outside changed: %s", data)
	}
}

func TestPrefsReadOnlySettingsAreLeftAlone(t *testing.T) {
	h, home := prefsHarness(t, "")
	user := filepath.Join(home, ".claude", "settings.json")
	content := `{"permissions": {"allow": ["Bash(ls:*)"]}}`
	writeFile(t, user, content)
	if err := os.Chmod(user, 0o444); err != nil {
		t.Fatal(err)
	}
	p := openPrefs(t, h)
	s := p.sections[0]
	s.rule.SetText("WebSearch")
	s.addRule.OnTapped()
	h.q.waitOne(t)
	if want := user + " is read-only; Latch leaves it as it is"; !s.msg.Visible() || s.msg.Text != want {
		t.Errorf("message %v %q, want %q", s.msg.Visible(), s.msg.Text, want)
	}
	if data, _ := os.ReadFile(user); string(data) != content {
		t.Errorf("file changed: %s", data)
	}
}
