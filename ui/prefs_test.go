package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"github.com/adrg/xdg"

	"github.com/latch-app/latch/core/grants"
)

// prefsHarness gives the window a private home, XDG config and project.
func prefsHarness(t *testing.T) (*harness, string) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	xdg.Reload()
	t.Cleanup(xdg.Reload)
	return newHarness(t), home
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func sectionText(s *grantsSection) string {
	return strings.Join(allText(s.list), "\n")
}

func TestPrefsShowAndEditSavedGrants(t *testing.T) {
	h, home := prefsHarness(t)
	user := filepath.Join(home, ".claude", "settings.json")
	writeFile(t, user, `{"model": "opus", "permissions": {"allow": ["Bash(ls:*)"], "additionalDirectories": ["/srv/data"]}}`)
	writeFile(t, grants.ProjectSettingsPath(h.mw.workdir), `{"permissions": {"allow": ["WebFetch"]}}`)
	p := newPrefsWindow(h.mw)
	defer p.win.Close()
	if len(p.sections) != 2 {
		t.Fatalf("%d sections", len(p.sections))
	}
	us, ps := p.sections[0], p.sections[1]
	if txt := sectionText(us); !strings.Contains(txt, "Bash(ls:*)") || !strings.Contains(txt, "/srv/data") {
		t.Errorf("user section shows %q", txt)
	}
	if txt := sectionText(ps); !strings.Contains(txt, "WebFetch") {
		t.Errorf("project section shows %q", txt)
	}

	us.rule.SetText("Read(~/notes/**)")
	us.addRule.OnTapped()
	h.q.waitOne(t) // the saved file shown
	perms, err := grants.NewStore(user).Read()
	if err != nil || !slices.Contains(perms.Allow, "Read(~/notes/**)") {
		t.Fatalf("rule not saved: %v %v", perms.Allow, err)
	}
	if !strings.Contains(sectionText(us), "Read(~/notes/**)") {
		t.Error("new rule not listed")
	}
	data, _ := os.ReadFile(user)
	if !strings.Contains(string(data), `"model": "opus"`) {
		t.Errorf("other settings lost: %s", data)
	}

	// Remove the first rule with its button.
	removeButton(t, us.list, "Bash(ls:*)").OnTapped()
	h.q.waitOne(t)
	perms, _ = grants.NewStore(user).Read()
	if strings.Contains(sectionText(us), "Bash(ls:*)") {
		t.Error("removed rule still listed")
	}
	if slices.Contains(perms.Allow, "Bash(ls:*)") {
		t.Error("rule not removed")
	}

	// An edit by another program shows while the window is open.
	writeFile(t, user, `{"permissions": {"allow": ["Bash(make:*)"]}}`)
	for !strings.Contains(sectionText(us), "Bash(make:*)") {
		h.q.waitOne(t)
	}
}

func TestPrefsMalformedSettingsAreLeftAlone(t *testing.T) {
	h, home := prefsHarness(t)
	user := filepath.Join(home, ".claude", "settings.json")
	bad := `{"permissions": {"allow": ["Bash",]}}`
	writeFile(t, user, bad)
	p := newPrefsWindow(h.mw)
	defer p.win.Close()
	s := p.sections[0]
	if !s.msg.Visible() || !strings.Contains(s.msg.Text, "will not change this file") {
		t.Errorf("error shown: %v %q", s.msg.Visible(), s.msg.Text)
	}
	if !s.addRule.Disabled() || !s.addDir.Disabled() {
		t.Error("adding is still possible")
	}
	if data, _ := os.ReadFile(user); string(data) != bad {
		t.Errorf("file changed: %s", data)
	}
}

func TestPrefsSaveConfig(t *testing.T) {
	h, _ := prefsHarness(t)
	p := newPrefsWindow(h.mw)
	defer p.win.Close()
	if p.command.Text != "claude" || !p.prompts.items[0].Selected || !p.baseline.Checked || p.dangerMsg.Visible() {
		t.Fatal("defaults not shown")
	}
	p.command.SetText("npx claude")
	p.prompts.pick(1)
	p.exper.SetChecked(true)
	p.danger.SetChecked(true)
	if !p.dangerMsg.Visible() {
		t.Error("no warning for skipping permissions")
	}
	h.mw.mu.Lock()
	h.mw.runner = h.r // a session is running
	h.mw.mu.Unlock()
	p.save.OnTapped()
	deadline := time.Now().Add(5 * time.Second)
	for {
		h.r.mu.Lock()
		n := h.r.reloads
		h.r.mu.Unlock()
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the running session was asked to reload %d times, want 1", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	cfg, err := grants.LoadConfig()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.ClaudeCommand != "npx claude" || cfg.PermissionPrompts != grants.PromptsAfterTurn ||
		!cfg.ExperimentalPermissionManagement || !cfg.DangerouslySkipPermissions || !cfg.BaselineTools {
		t.Errorf("saved %+v", cfg)
	}
	if !h.mw.dangerLbl.Visible() {
		t.Error("main window has no red marker")
	}
}

func TestPrefsMalformedConfigIsNotOverwritten(t *testing.T) {
	h, home := prefsHarness(t)
	path := filepath.Join(home, ".config", "latch", "config.json")
	writeFile(t, path, `{"claude_command": `)
	p := newPrefsWindow(h.mw)
	defer p.win.Close()
	if !p.save.Disabled() || !strings.Contains(p.cfgMsg.Text, "will not overwrite") {
		t.Errorf("save enabled %v, message %q", !p.save.Disabled(), p.cfgMsg.Text)
	}
	if data, _ := os.ReadFile(path); string(data) != `{"claude_command": ` {
		t.Error("config changed")
	}
}

func removeButton(t *testing.T, list *fyne.Container, value string) *kButton {
	t.Helper()
	for _, row := range list.Objects {
		txt := strings.Join(allText(row), "\n")
		if strings.Contains(txt, value) {
			for _, o := range row.(*fyne.Container).Objects {
				if b, ok := o.(*kButton); ok {
					return b
				}
			}
		}
	}
	t.Fatalf("no remove button for %q", value)
	return nil
}

func TestPrefsEscCloses(t *testing.T) {
	h, _ := prefsHarness(t)
	h.mw.showPrefs()
	c := h.mw.prefs.win.Canvas()
	c.Focus(h.mw.prefs.command)
	press(c, fyne.KeyEscape)
	if h.mw.prefs != nil {
		t.Error("Esc in the command field did not close Preferences")
	}
}
