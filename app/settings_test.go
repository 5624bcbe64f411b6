package app

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/adrg/xdg"
	"github.com/tidwall/gjson"

	"github.com/latch-app/latch/core/grants"
)

// settingsWorld gives the test its own home, Claude Code config folder and
// Latch config holding config ("" = no file); it returns the config's path.
func settingsWorld(t *testing.T, config string) (home, path string) {
	t.Helper()
	home = t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Cleanup(xdg.Reload) // after t.Setenv restored the variable
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	xdg.Reload()
	path = filepath.Join(home, ".config", "latch", "config.json")
	if config != "" {
		writeTestFile(t, path, config)
	}
	return home, path
}

func writeTestFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readTestFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(data)
}

func TestLoadSettings(t *testing.T) {
	defaults := Prefs{ClaudeCommand: "claude", Prompts: PromptsLive, Theme: ThemeSystem}
	tests := []struct {
		name, config string
		prefs        Prefs
		scope        Scope
		err          string // in LoadError; "" = none
		malformed    bool
	}{
		{"no file", "", defaults, ScopeProject, "", false},
		{"values", `{"claude_command": "npx claude --verbose", "permission_prompts": "after_turn", "grant_scope": "user",
			"phrase_detection": true, "last_workdir": "/w"}`,
			Prefs{ClaudeCommand: "npx claude --verbose", Prompts: PromptsAfterTurn, Baseline: true, PhraseDetection: true, Theme: ThemeSystem}, ScopeUser, "", false},
		{"a theme", `{"theme": "light"}`,
			Prefs{ClaudeCommand: "claude", Prompts: PromptsLive, Theme: ThemeLight}, ScopeProject, "", false},
		{"an unknown theme follows the desktop", `{"theme": "sepia"}`, defaults, ScopeProject, "theme", false},
		{"a choice of baseline", `{"baseline_tools": true, "baseline_tools_set": true}`,
			Prefs{ClaudeCommand: "claude", Prompts: PromptsLive, Baseline: true, BaselineChosen: true, Theme: ThemeSystem}, ScopeProject, "", false},
		{"invalid values are the defaults", `{"permission_prompts": "sometimes", "claude_command": "claude | tee", "grant_scope": "x"}`,
			defaults, ScopeProject, "permission_prompts", false},
		{"malformed", `{"claude_command": `, defaults, ScopeProject, "config.json", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			settingsWorld(t, tc.config)
			s := LoadSettings()
			if got := s.Prefs(); got != tc.prefs {
				t.Errorf("Prefs() = %+v, want %+v", got, tc.prefs)
			}
			if got := s.Scope(); got != tc.scope {
				t.Errorf("Scope() = %v, want %v", got, tc.scope)
			}
			if err := s.LoadError(); (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
				t.Errorf("LoadError() = %v, want one naming %q", err, tc.err)
			}
			if s.Malformed() != tc.malformed {
				t.Errorf("Malformed() = %v", s.Malformed())
			}
			if argv, err := s.Command(); err != nil || strings.Join(argv, " ") != tc.prefs.ClaudeCommand {
				t.Errorf("Command() = %q, %v", argv, err)
			}
		})
	}
}

// SavePrefs validates every value once, before anything is written, and
// writes only the keys Preferences owns.
func TestSavePrefs(t *testing.T) {
	const before = "{\n  \"theme\": \"dark\",\n  \"last_workdir\": \"/old\",\n  \"grant_scope\": \"user\"\n}\n"
	good := Prefs{ClaudeCommand: "  npx 'claude code' --verbose ", Prompts: PromptsAfterTurn, Experimental: true, DangerousSkip: true}

	for _, tc := range []struct {
		name string
		p    func(p Prefs) Prefs
		want string // in the error
	}{
		{"empty command", func(p Prefs) Prefs { p.ClaudeCommand = "  "; return p }, "claude_command is empty"},
		{"shell operators", func(p Prefs) Prefs { p.ClaudeCommand = "claude; rm -rf ~"; return p }, "shell operators"},
		{"an open quote", func(p Prefs) Prefs { p.ClaudeCommand = `claude "--verbose`; return p }, "check quotes"},
		{"an unknown mode", func(p Prefs) Prefs { p.Prompts = "sometimes"; return p }, "permission_prompts"},
		{"an unknown theme", func(p Prefs) Prefs { p.Theme = "sepia"; return p }, "theme"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, path := settingsWorld(t, before)
			s := LoadSettings()
			err := s.SavePrefs(tc.p(good))
			var invalid *InvalidSettingError
			if !errors.As(err, &invalid) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("SavePrefs = %v, want an *InvalidSettingError naming %q", err, tc.want)
			}
			if got := readTestFile(t, path); got != before {
				t.Errorf("an invalid value was written: %s", got)
			}
			if s.Prefs().ClaudeCommand != "claude" {
				t.Errorf("an invalid value was kept: %+v", s.Prefs())
			}
		})
	}

	t.Run("valid", func(t *testing.T) {
		_, path := settingsWorld(t, before)
		s := LoadSettings()
		other := LoadSettings() // another Latch, remembering a folder meanwhile
		other.RememberWorkdir("/new")
		other.Flush()
		if err := s.SavePrefs(good); err != nil {
			t.Fatal(err)
		}
		data := readTestFile(t, path)
		for key, want := range map[string]string{"theme": "dark", "last_workdir": "/new", "grant_scope": "user",
			"claude_command": "npx 'claude code' --verbose", "permission_prompts": "after_turn",
			"experimental_permission_management": "true", "dangerously_skip_permissions": "true"} {
			if got := gjson.Get(data, key).String(); got != want {
				t.Errorf("%s = %q, want %q in\n%s", key, got, want, data)
			}
		}
		if gjson.Get(data, "baseline_tools_set").Bool() {
			t.Errorf("no baseline was chosen, but the file says one was: %s", data)
		}
		// The next session runs with what was saved.
		cfg, err := s.SessionConfig("/w")
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(cfg.Command, []string{"npx", "claude code", "--verbose"}) || cfg.Prompts != PromptsAfterTurn ||
			!cfg.Experimental || !cfg.DangerousSkip || !slices.Equal(cfg.AllowedTools, grants.BaselineTools) {
			t.Errorf("SessionConfig = %+v", cfg)
		}
		if got := LoadSettings().Prefs(); got.ClaudeCommand != "npx 'claude code' --verbose" || !got.Baseline || got.BaselineChosen {
			t.Errorf("loaded back %+v", got)
		}
	})

	t.Run("the theme", func(t *testing.T) {
		_, path := settingsWorld(t, before)
		s := LoadSettings()
		if got := s.Prefs().Theme; got != ThemeDark {
			t.Fatalf("loaded theme %q", got)
		}
		p := s.Prefs()
		p.Theme = ThemeLight
		if err := s.SavePrefs(p); err != nil {
			t.Fatal(err)
		}
		// Only the theme's value changed, in place.
		if got, want := readTestFile(t, path), strings.Replace(before, `"dark"`, `"light"`, 1); got != want {
			t.Errorf("saved\n%s\nwant\n%s", got, want)
		}
		if s.Prefs().Theme != ThemeLight || LoadSettings().Prefs().Theme != ThemeLight {
			t.Error("the theme was not kept")
		}
	})

	t.Run("a malformed file is left alone", func(t *testing.T) {
		const bad = `{"claude_command": "claude",}`
		_, path := settingsWorld(t, bad)
		s := LoadSettings()
		if err := s.SavePrefs(good); err == nil {
			t.Error("saved over a malformed file")
		}
		if got := readTestFile(t, path); got != bad {
			t.Errorf("the file changed: %s", got)
		}
	})
}

// TestSessionConfigBaseline: the baseline tools reach --allowedTools after
// the turn, not live, unless the config holds the person's choice.
func TestSessionConfigBaseline(t *testing.T) {
	tests := []struct {
		name, baseline  string // the config's baseline keys, "" = none
		live, afterTurn bool   // the baseline is in AllowedTools
	}{
		{"no choice", ``, false, true},
		{"0.1.0's default", `"baseline_tools": true,`, false, true},
		{"0.1.0, unticked", `"baseline_tools": false,`, false, false},
		{"chosen on", `"baseline_tools": true, "baseline_tools_set": true,`, true, true},
		{"chosen off", `"baseline_tools": false, "baseline_tools_set": true,`, false, false},
	}
	for _, tc := range tests {
		for _, mode := range []string{PromptsLive, PromptsAfterTurn} {
			t.Run(tc.name+", "+mode, func(t *testing.T) {
				settingsWorld(t, `{`+tc.baseline+` "allowed_tools": ["WebFetch"], "permission_prompts": "`+mode+`"}`)
				s := LoadSettings()
				cfg, err := s.SessionConfig(t.TempDir())
				if err != nil {
					t.Fatal(err)
				}
				want := []string{"WebFetch"}
				if (mode == PromptsLive && tc.live) || (mode == PromptsAfterTurn && tc.afterTurn) {
					want = append(slices.Clone(grants.BaselineTools), want...)
				}
				if !slices.Equal(cfg.AllowedTools, want) || cfg.Prompts != mode {
					t.Errorf("AllowedTools %q, Prompts %q; want %q, %q", cfg.AllowedTools, cfg.Prompts, want, mode)
				}
				if p := s.Prefs(); p.Baseline != slices.Contains(cfg.AllowedTools, "Bash") {
					t.Errorf("Preferences shows the baseline %v, the run has %q", p.Baseline, cfg.AllowedTools)
				}
				if BaselineDefault(mode) != (mode == PromptsAfterTurn) {
					t.Errorf("BaselineDefault(%s) = %v", mode, BaselineDefault(mode))
				}
			})
		}
	}
}

func TestRememberScopeAndWorkdir(t *testing.T) {
	t.Run("in memory at once, on disk after Flush, the newest wins", func(t *testing.T) {
		_, path := settingsWorld(t, "{\n  \"theme\": \"dark\"\n}\n")
		s := LoadSettings()
		for range 20 {
			s.RememberScope(ScopeUser)
			s.RememberScope(ScopeOnce)
			s.RememberWorkdir("/a")
			s.RememberWorkdir("/b")
		}
		if s.Scope() != ScopeOnce || s.LastWorkdir() != "/b" {
			t.Errorf("Scope() %v, LastWorkdir() %q right after", s.Scope(), s.LastWorkdir())
		}
		s.Flush()
		data := readTestFile(t, path)
		if gjson.Get(data, "grant_scope").String() != "session" || gjson.Get(data, "last_workdir").String() != "/b" ||
			gjson.Get(data, "theme").String() != "dark" {
			t.Errorf("saved %s", data)
		}
		if n := LoadSettings(); n.Scope() != ScopeOnce || n.LastWorkdir() != "/b" {
			t.Errorf("loaded back %v %q", n.Scope(), n.LastWorkdir())
		}
	})

	t.Run("an unchanged value is not written", func(t *testing.T) {
		_, path := settingsWorld(t, "")
		s := LoadSettings()
		s.RememberScope(ScopeProject) // the default
		s.RememberWorkdir("")
		s.Flush()
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("the config was written: %v", err)
		}
	})

	t.Run("a malformed config is left alone", func(t *testing.T) {
		const bad = `{"grant_scope": "user",}`
		_, path := settingsWorld(t, bad)
		s := LoadSettings()
		s.RememberScope(ScopeOnce)
		s.RememberWorkdir("/w")
		s.Flush()
		if s.Scope() != ScopeOnce || s.LastWorkdir() != "/w" {
			t.Errorf("Scope() %v, LastWorkdir() %q: what was chosen here is forgotten", s.Scope(), s.LastWorkdir())
		}
		if got := readTestFile(t, path); got != bad {
			t.Errorf("malformed config rewritten: %s", got)
		}
	})
}

// What the UI goroutine calls never waits for a write: writes hold only
// their own lock, and the lock of the values is never held during I/O.
func TestSettingsReadsDoNotWaitForWrites(t *testing.T) {
	settingsWorld(t, "")
	s := LoadSettings()
	s.write.Lock() // a write stuck on the file's lock
	saved := make(chan error, 1)
	go func() { saved <- s.SavePrefs(Prefs{ClaudeCommand: "claude", Prompts: PromptsAfterTurn}) }()
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.RememberScope(ScopeUser)
		s.RememberWorkdir("/w")
		_ = s.Prefs()
		_ = s.Scope()
		_ = s.LastWorkdir()
		_, _ = s.Command()
		_, _ = s.SessionConfig("/w")
		_ = s.GrantFiles("/w")
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("reading the settings waited for a write")
	}
	if s.Scope() != ScopeUser {
		t.Errorf("Scope() = %v while the write waits", s.Scope())
	}
	s.write.Unlock()
	if err := <-saved; err != nil {
		t.Fatal(err)
	}
	s.Flush()
	if p := LoadSettings(); p.Prefs().Prompts != PromptsAfterTurn || p.Scope() != ScopeUser || p.LastWorkdir() != "/w" {
		t.Errorf("saved %+v, %v, %q", p.Prefs(), p.Scope(), p.LastWorkdir())
	}
}

func TestGrantFiles(t *testing.T) {
	home, _ := settingsWorld(t, "")
	work := t.TempDir()
	s := LoadSettings()
	files := s.GrantFiles(work)
	user, project := filepath.Join(home, ".claude", "settings.json"), filepath.Join(work, ".claude", "settings.local.json")
	if len(files) != 2 || files[0].Scope != ScopeUser || files[0].Path != user ||
		files[1].Scope != ScopeProject || files[1].Path != project {
		t.Fatalf("GrantFiles = %+v", files)
	}
	if n := len(s.GrantFiles("")); n != 1 {
		t.Errorf("%d files without a project", n)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude")); !os.IsNotExist(err) {
		t.Errorf("looking the files up created something: %v", err)
	}

	writeTestFile(t, user, `{"model": "opus", "permissions": {"allow": ["Bash(ls:*)"]}}`)
	f := files[0]
	folder := t.TempDir()
	for _, step := range []func() error{
		func() error { return f.AddRule("WebSearch") },
		func() error { return f.RemoveRule("Bash(ls:*)") },
		func() error { return f.AddFolder(folder, false) },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	g, err := f.Read()
	if err != nil || !slices.Equal(g.Rules, []string{"WebSearch"}) || !slices.Equal(g.Folders, []string{folder}) || g.Refused != nil {
		t.Fatalf("read %+v, %v", g, err)
	}
	if !strings.Contains(readTestFile(t, user), `"model": "opus"`) {
		t.Error("other settings lost")
	}
	if err := f.AddRule("Bash("); err == nil || !strings.Contains(err.Error(), "closing parenthesis") {
		t.Errorf("an invalid rule: %v", err)
	}
	if err := f.AddFolder(home, false); !errors.Is(err, grants.ErrNeedsForce) {
		t.Errorf("the home folder without force: %v", err)
	}
	if err := f.RemoveFolder(folder); err != nil {
		t.Fatal(err)
	}
	if g, _ := f.Read(); len(g.Folders) != 0 {
		t.Errorf("folders %q after the removal", g.Folders)
	}

	// A project whose .claude links out of it is listed, never written.
	outside := t.TempDir()
	writeTestFile(t, filepath.Join(outside, "settings.local.json"), `{"permissions": {"allow": ["WebFetch"]}}`)
	if err := os.Symlink(outside, filepath.Join(work, ".claude")); err != nil {
		t.Fatal(err)
	}
	p := files[1]
	g, err = p.Read()
	if err != nil || !slices.Equal(g.Rules, []string{"WebFetch"}) || g.Refused == nil {
		t.Errorf("read %+v, %v; want the rule listed and the file refused", g, err)
	}
	if err := p.AddRule("WebSearch"); err == nil || err.Error() != g.Refused.Error() {
		t.Errorf("AddRule on a refused file: %v", err)
	}
	if err := p.RemoveRule("WebFetch"); err == nil {
		t.Error("RemoveRule wrote a refused file")
	}

	// A malformed file is an error, and left alone.
	const bad = `{"permissions": {"allow": ["Bash",]}}`
	writeTestFile(t, user, bad)
	if _, err := f.Read(); err == nil {
		t.Error("a malformed file read without an error")
	}
	if err := f.AddRule("WebSearch"); err == nil || readTestFile(t, user) != bad {
		t.Errorf("AddRule on a malformed file: %v", err)
	}
}

func TestFolderAndRuleChecks(t *testing.T) {
	home, _ := settingsWorld(t, "")
	dir := t.TempDir()
	link := filepath.Join(dir, "home")
	if err := os.Symlink(home, link); err != nil {
		t.Fatal(err)
	}
	if got, err := ResolveFolder("home", dir); err != nil || got != home {
		t.Errorf("ResolveFolder = %q, %v; want %q", got, err, home)
	}
	if BroadFolder(home) != "your home folder" || BroadFolder(dir) != "" {
		t.Errorf("BroadFolder: home %q, a temp folder %q", BroadFolder(home), BroadFolder(dir))
	}
	if _, err := CheckFolder(link, false); !errors.Is(err, grants.ErrNeedsForce) {
		t.Errorf("CheckFolder(link to home) = %v", err)
	}
	if got, err := CheckFolder(link, true); err != nil || got != home {
		t.Errorf("CheckFolder(link to home, force) = %q, %v", got, err)
	}
	if _, err := CheckFolder("relative", true); err == nil {
		t.Error("a relative folder passed")
	}
	if CheckRule("Bash(npm test:*)") != nil || CheckRule("Bash()") == nil || CheckRule(" Bash") == nil {
		t.Error("CheckRule does not judge as Claude Code reads rules")
	}
}
