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

	"github.com/latch-app/latch/app"
)

// prefsHarness gives the window a private home, XDG config and project;
// the window loads config ("" = none) as Latch's config.
func prefsHarness(t *testing.T, config string) (*harness, string) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	xdg.Reload()
	t.Cleanup(xdg.Reload)
	if config != "" {
		writeFile(t, filepath.Join(home, ".config", "latch", "config.json"), config)
	}
	return newHarness(t), home
}

// openPrefs builds and shows Preferences and waits for its first read of
// each settings file; it is closed when the test ends.
func openPrefs(t *testing.T, h *harness) *prefsWindow {
	t.Helper()
	p := newPrefsWindow(h.mw)
	p.Show()
	t.Cleanup(p.Dismiss)
	for range p.sections {
		h.q.waitOne(t)
	}
	return p
}

// savedGrants reads the settings file of a section of p as Preferences
// lists it, checking that it is the file at path.
func savedGrants(t *testing.T, p *prefsWindow, section int, path string) app.SavedGrants {
	t.Helper()
	f := p.sections[section].file
	if f.Path != path {
		t.Fatalf("section %d lists %s, want %s", section, f.Path, path)
	}
	g, err := f.Read()
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// savedSettings is the config as a new window would load it.
func savedSettings(t *testing.T) *app.Settings {
	t.Helper()
	s := app.LoadSettings()
	if err := s.LoadError(); err != nil {
		t.Fatal(err)
	}
	return s
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
	h, home := prefsHarness(t, "")
	user := filepath.Join(home, ".claude", "settings.json")
	writeFile(t, user, `{"model": "opus", "permissions": {"allow": ["Bash(ls:*)"], "additionalDirectories": ["/srv/data"]}}`)
	writeFile(t, filepath.Join(h.mw.workdir, ".claude", "settings.local.json"), `{"permissions": {"allow": ["WebFetch"]}}`)
	p := openPrefs(t, h)
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
	if saved := savedGrants(t, p, 0, user); !slices.Contains(saved.Rules, "Read(~/notes/**)") {
		t.Fatalf("rule not saved: %v", saved.Rules)
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
	if strings.Contains(sectionText(us), "Bash(ls:*)") {
		t.Error("removed rule still listed")
	}
	if slices.Contains(savedGrants(t, p, 0, user).Rules, "Bash(ls:*)") {
		t.Error("rule not removed")
	}

	// An edit by another program shows while the window is open.
	writeFile(t, user, `{"permissions": {"allow": ["Bash(make:*)"]}}`)
	for !strings.Contains(sectionText(us), "Bash(make:*)") {
		h.q.waitOne(t)
	}
}

func TestPrefsMalformedSettingsAreLeftAlone(t *testing.T) {
	h, home := prefsHarness(t, "")
	user := filepath.Join(home, ".claude", "settings.json")
	bad := `{"permissions": {"allow": ["Bash",]}}`
	writeFile(t, user, bad)
	p := openPrefs(t, h)
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
	h, _ := prefsHarness(t, "")
	p := openPrefs(t, h)
	if p.command.Text != "claude" || !p.prompts.items[0].Selected || p.baseline.Checked || p.dangerMsg.Visible() {
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
	h.q.waitOne(t) // saved
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
	cfg := savedSettings(t).Prefs()
	if cfg.ClaudeCommand != "npx claude" || cfg.Prompts != app.PromptsAfterTurn ||
		!cfg.Experimental || !cfg.DangerousSkip || !cfg.Baseline || cfg.BaselineChosen {
		t.Errorf("saved %+v", cfg)
	}
	if !h.mw.dangerLbl.Visible() {
		t.Error("main window has no red marker")
	}
}

func TestPrefsMalformedConfigIsNotOverwritten(t *testing.T) {
	h, home := prefsHarness(t, `{"claude_command": `)
	path := filepath.Join(home, ".config", "latch", "config.json")
	p := openPrefs(t, h)
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
	h, _ := prefsHarness(t, "")
	h.mw.showPrefs()
	c := h.mw.prefs.win.Canvas()
	c.Focus(h.mw.prefs.command)
	press(c, fyne.KeyEscape)
	if h.mw.prefs != nil {
		t.Error("Esc in the command field did not close Preferences")
	}
}

// TestPrefsBaselineFollowsTheMode: the toggle shows the baseline the next
// run has; untouched, it follows the selected mode, and once the person
// changes it, their choice is saved and wins in both modes.
func TestPrefsBaselineFollowsTheMode(t *testing.T) {
	const live, after = 0, 1
	type step struct {
		pick   int  // the mode to select, or -1
		toggle bool // then press Space on the toggle
		want   bool // the toggle shows this
	}
	tests := []struct {
		name, config string
		shown        bool // at open
		steps        []step
		chosen       bool // saved as the person's choice…
		saved        bool // …with this value (Baseline() in the saved mode)
	}{
		{"fresh: off live, on after the turn", ``, false,
			[]step{{after, false, true}, {live, false, false}, {after, false, true}}, false, true},
		{"0.1.0's default follows the mode", `{"baseline_tools": true, "permission_prompts": "after_turn"}`, true,
			[]step{{live, false, false}}, false, false},
		{"0.1.0's untick stays", `{"baseline_tools": false, "permission_prompts": "after_turn"}`, false,
			[]step{{live, false, false}, {after, false, false}}, true, false},
		{"a choice in the file wins", `{"baseline_tools": true, "baseline_tools_set": true}`, true,
			[]step{{after, false, true}, {live, false, true}}, true, true},
		{"ticked live, then the mode changes", ``, false,
			[]step{{-1, true, true}, {after, false, true}, {live, false, true}}, true, true},
		{"unticked after the turn", `{"permission_prompts": "after_turn"}`, true,
			[]step{{-1, true, false}, {live, false, false}, {after, false, false}}, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, _ := prefsHarness(t, tc.config)
			p := openPrefs(t, h)
			if p.baseline.Checked != tc.shown {
				t.Fatalf("shown %v at open, want %v", p.baseline.Checked, tc.shown)
			}
			for i, st := range tc.steps {
				if st.pick >= 0 {
					p.win.Canvas().Focus(p.prompts.items[st.pick])
					press(p.win.Canvas(), fyne.KeySpace)
				}
				if st.toggle {
					p.win.Canvas().Focus(p.baseline)
					press(p.win.Canvas(), fyne.KeySpace)
				}
				if p.baseline.Checked != st.want {
					t.Fatalf("step %d: shown %v, want %v", i, p.baseline.Checked, st.want)
				}
			}
			p.save.OnTapped()
			h.q.waitOne(t) // saved
			cfg := savedSettings(t).Prefs()
			if cfg.BaselineChosen != tc.chosen || cfg.Baseline != tc.saved {
				t.Errorf("saved: chosen %v, Baseline() %v; want %v, %v", cfg.BaselineChosen, cfg.Baseline, tc.chosen, tc.saved)
			}
			if cfg.Baseline != p.baseline.Checked {
				t.Errorf("the toggle shows %v, the next run has %v", p.baseline.Checked, cfg.Baseline)
			}
			if run, err := h.mw.settings().SessionConfig(h.mw.workdir); err != nil || slices.Contains(run.AllowedTools, "Bash") != cfg.Baseline {
				t.Errorf("the next run pre-approves %q (%v), want the baseline %v", run.AllowedTools, err, cfg.Baseline)
			}
		})
	}
}

func TestPrefsSaysWhatTheBaselineDoes(t *testing.T) {
	h, _ := prefsHarness(t, "")
	p := openPrefs(t, h)
	want := "Pre-approve Bash, Read, Write and Edit for every run (never saved to a settings file). " +
		"Default: on when permissions are asked after the turn, off when they are asked live."
	if !slices.Contains(allText(p.win.Content()), want) {
		t.Errorf("Preferences does not say %q", want)
	}
}

// TestPrefsSaveKeepsWhatWasRemembered: the folder and scope remembered
// while Preferences is open survive its save.
func TestPrefsSaveKeepsWhatWasRemembered(t *testing.T) {
	h, home := prefsHarness(t, `{"last_workdir": "/old", "grant_scope": "project", "theme": "dark"}`)
	path := filepath.Join(home, ".config", "latch", "config.json")
	p := openPrefs(t, h)
	h.mw.settings().RememberScope(app.ScopeUser)
	h.mw.settings().Flush()
	other := savedSettings(t) // another Latch
	other.RememberWorkdir("/new")
	other.Flush()
	if got := savedSettings(t).LastWorkdir(); got != "/new" {
		t.Fatalf("the other Latch saved last_workdir %q", got)
	}
	p.phrase.SetChecked(true)
	p.save.OnTapped()
	h.q.waitOne(t) // saved
	cfg := savedSettings(t)
	if cfg.LastWorkdir() != "/new" || cfg.Scope() != app.ScopeUser || !cfg.Prefs().PhraseDetection {
		data, _ := os.ReadFile(path)
		t.Errorf("saved %s", data)
	}
	if data, _ := os.ReadFile(path); !strings.Contains(string(data), `"theme": "dark"`) {
		t.Errorf("unknown key lost: %s", data)
	}
}
