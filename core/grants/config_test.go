package grants

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/adrg/xdg"
	"github.com/tidwall/gjson"
)

// useConfigHome points XDG_CONFIG_HOME at a fresh folder and returns the
// config file's path.
func useConfigHome(t *testing.T) string {
	t.Helper()
	t.Cleanup(xdg.Reload) // runs after t.Setenv restored the variable
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	xdg.Reload()
	path, err := ConfigPath()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "latch", "config.json"); path != want {
		t.Fatalf("ConfigPath() = %q, want %q", path, want)
	}
	return path
}

func writeConfig(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestLoadConfig(t *testing.T) {
	tests := []struct {
		name, content string
		want          func(c *Config)
		wantErr       string
	}{
		{name: "missing file", content: "-", want: func(*Config) {}},
		{name: "blank file", content: "\n", want: func(*Config) {}},
		{name: "partial", content: `{"claude_command": "npx -y @anthropic-ai/claude-code@2.1.328", "allowed_tools": ["WebFetch"], "phrase_detection": true, "theme": "dark"}`,
			want: func(c *Config) {
				c.ClaudeCommand = "npx -y @anthropic-ai/claude-code@2.1.328"
				c.AllowedTools = []string{"WebFetch"}
				c.PhraseDetection = true
				c.Theme = ThemeDark
			}},
		{name: "everything", content: `{"claude_command":"claude","allowed_tools":["A"],"add_dirs":["/d"],"baseline_tools":false,
"baseline_tools_set":true,"permission_prompts":"after_turn","experimental_permission_management":true,"phrase_detection":true,
"dangerously_skip_permissions":true,"grant_scope":"user","last_workdir":"/w","theme":"light"}`,
			want: func(c *Config) {
				*c = Config{ClaudeCommand: "claude", AllowedTools: []string{"A"}, AddDirs: []string{"/d"}, BaselineToolsSet: true,
					PermissionPrompts: PromptsAfterTurn, ExperimentalPermissionManagement: true, PhraseDetection: true,
					DangerouslySkipPermissions: true, GrantScope: GrantScopeUser, LastWorkdir: "/w", Theme: ThemeLight}
			}},
		{name: "malformed", content: "{\n  \"claude_command\": \"claude\",\n}\n", want: func(*Config) {}, wantErr: "config.json:3:1: invalid character '}'"},
		{name: "wrong type", content: "{\n  \"baseline_tools\": \"yes\"\n}", want: func(*Config) {}, wantErr: "config.json:2:21: baseline_tools must be true or false"},
		{name: "bad prompts value", content: `{"permission_prompts": "sometimes", "last_workdir": "/w"}`,
			want:    func(c *Config) { c.LastWorkdir = "/w" },
			wantErr: `permission_prompts is "sometimes"`},
		{name: "bad grant scope", content: `{"grant_scope": "everywhere", "phrase_detection": true}`,
			want:    func(c *Config) { c.PhraseDetection = true },
			wantErr: `grant_scope is "everywhere"`},
		{name: "bad theme", content: `{"theme": "solarized", "phrase_detection": true}`,
			want:    func(c *Config) { c.PhraseDetection = true },
			wantErr: `theme is "solarized"`},
		{name: "bad command", content: `{"claude_command": "claude \"oops"}`, want: func(*Config) {}, wantErr: "claude_command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := useConfigHome(t)
			if tt.content != "-" {
				writeConfig(t, path, tt.content)
			}
			got, err := LoadConfig()
			if tt.wantErr == "" && err != nil {
				t.Fatal(err)
			}
			if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
			}
			want := defaultConfig()
			tt.want(&want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
			if tt.content == "-" {
				if _, err := os.Stat(filepath.Dir(path)); !os.IsNotExist(err) {
					t.Error("LoadConfig created the config folder")
				}
			}
		})
	}
}

func TestDefaultConfig(t *testing.T) {
	c := defaultConfig()
	if c.ClaudeCommand != "claude" || c.Baseline() || c.BaselineChosen() || c.PermissionPrompts != "live" ||
		c.ExperimentalPermissionManagement || c.PhraseDetection || c.DangerouslySkipPermissions ||
		c.GrantScope != GrantScopeProject || c.LastWorkdir != "" || c.Theme != ThemeSystem {
		t.Errorf("defaultConfig() = %+v", c)
	}
	if err := c.Validate(); err != nil {
		t.Error(err)
	}
}

func TestUpdateConfigNewFile(t *testing.T) {
	path := useConfigHome(t)
	if err := UpdateConfigAt(path, func(c *Config) {
		c.AllowedTools = []string{"WebFetch", "Bash(git:*)"}
		c.LastWorkdir = `/home/u/my "project"`
	}); err != nil {
		t.Fatal(err)
	}
	want := `{
  "allowed_tools": [
    "WebFetch",
    "Bash(git:*)"
  ],
  "last_workdir": "/home/u/my \"project\""
}
`
	equalBytes(t, "new config", readFile(t, path), []byte(want))
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	if fi, _ := os.Stat(filepath.Dir(path)); fi.Mode().Perm() != 0o700 {
		t.Errorf("folder mode %v, want 0700", fi.Mode().Perm())
	}
	c := defaultConfig()
	c.AllowedTools = []string{"WebFetch", "Bash(git:*)"}
	c.LastWorkdir = `/home/u/my "project"`
	got, err := LoadConfig()
	if err != nil || !reflect.DeepEqual(got, c) {
		t.Errorf("round trip: %+v, %v; want %+v", got, err, c)
	}
}

func TestUpdateConfigKeepsUnknownKeysAndLayout(t *testing.T) {
	path := useConfigHome(t)
	before := "{\r\n    \"theme\": \"dark\",\r\n    \"claude_command\": \"claude\",\r\n    \"window\": {\"w\": 800, \"h\": 600},\r\n" +
		"    \"allowed_tools\": [\"WebFetch\"],\r\n    \"future_flag\": [1, 2, {\"x\": \"ü\"}]\r\n}\r\n"
	writeConfig(t, path, before)
	change := func(c *Config) {
		c.AllowedTools = append(c.AllowedTools, "WebSearch")
		c.LastWorkdir = "/w"
	}
	if err := UpdateConfigAt(path, change); err != nil {
		t.Fatal(err)
	}
	after := string(readFile(t, path))
	want := strings.Replace(before, `["WebFetch"]`, `["WebFetch", "WebSearch"]`, 1)
	want = strings.TrimSuffix(want, "\r\n}\r\n") + ",\r\n    \"last_workdir\": \"/w\"\r\n}\r\n"
	equalBytes(t, "saved config", []byte(after), []byte(want))

	// Saving the same values again changes nothing.
	if err := UpdateConfigAt(path, func(c *Config) { c.AllowedTools = []string{"WebFetch", "WebSearch"}; c.LastWorkdir = "/w" }); err != nil {
		t.Fatal(err)
	}
	equalBytes(t, "second save", readFile(t, path), []byte(after))
	if gjson.Get(after, "window.w").Int() != 800 || gjson.Get(after, "future_flag.2.x").String() != "ü" {
		t.Error("unknown keys lost")
	}
}

func TestUpdateConfigRefusesMalformedFile(t *testing.T) {
	path := useConfigHome(t)
	before := "{\n  \"claude_command\": \"claude\" // mine\n}\n"
	writeConfig(t, path, before)
	c, err := LoadConfig()
	var se *SyntaxError
	if !errors.As(err, &se) || se.file != path || se.line != 2 || se.column != 30 {
		t.Fatalf("LoadConfig error %#v, want a SyntaxError at %s:2:30", err, path)
	}
	if !reflect.DeepEqual(c, defaultConfig()) {
		t.Errorf("malformed config did not give the defaults: %+v", c)
	}
	if err := UpdateConfigAt(path, func(c *Config) { c.LastWorkdir = "/w" }); err == nil || !strings.Contains(err.Error(), path+":2:30") {
		t.Fatalf("UpdateConfigAt error %v, want one naming %s:2:30", err, path)
	}
	equalBytes(t, "malformed config", readFile(t, path), []byte(before))
}

func TestUpdateConfigRefusesInvalidConfig(t *testing.T) {
	path := useConfigHome(t)
	if err := UpdateConfigAt(path, func(c *Config) { c.PermissionPrompts = "never" }); err == nil {
		t.Fatal("invalid config saved")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Error("file written for an invalid config")
	}
}

func TestCommand(t *testing.T) {
	tests := []struct {
		cmd     string
		want    []string
		wantErr string
	}{
		{cmd: "claude", want: []string{"claude"}},
		{cmd: "npx -y @anthropic-ai/claude-code@2.1.328", want: []string{"npx", "-y", "@anthropic-ai/claude-code@2.1.328"}},
		{cmd: `"/Applications/My Tools/claude" --verbose`, want: []string{"/Applications/My Tools/claude", "--verbose"}},
		{cmd: `'/opt/my claude/bin/claude'`, want: []string{"/opt/my claude/bin/claude"}},
		{cmd: `/opt/my\ claude/claude`, want: []string{"/opt/my claude/claude"}},
		{cmd: `$HOME/bin/claude`, want: []string{"$HOME/bin/claude"}},
		{cmd: "", wantErr: "empty"},
		{cmd: "   ", wantErr: "empty"},
		{cmd: `"/opt/claude`, wantErr: "check quotes"},
		{cmd: "claude; rm -rf ~", wantErr: "shell operators"},
		{cmd: "claude | tee log", wantErr: "shell operators"},
	}
	for _, tt := range tests {
		got, err := Config{ClaudeCommand: tt.cmd}.Command()
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Command(%q) = %q, %v; want an error about %q", tt.cmd, got, err, tt.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("Command(%q) = %q, %v; want %q", tt.cmd, got, err, tt.want)
		}
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		change  func(*Config)
		wantErr string
	}{
		{change: func(*Config) {}},
		{change: func(c *Config) { c.PermissionPrompts = PromptsAfterTurn }},
		{change: func(c *Config) { c.PermissionPrompts = "" }, wantErr: "permission_prompts"},
		{change: func(c *Config) { c.PermissionPrompts = "Live" }, wantErr: "permission_prompts"},
		{change: func(c *Config) { c.ClaudeCommand = "" }, wantErr: "claude_command is empty"},
		{change: func(c *Config) { c.GrantScope = GrantScopeSession }},
		{change: func(c *Config) { c.GrantScope = GrantScopeUser }},
		{change: func(c *Config) { c.GrantScope = "" }, wantErr: "grant_scope"},
		{change: func(c *Config) { c.GrantScope = "once" }, wantErr: "grant_scope"},
		{change: func(c *Config) { c.Theme = ThemeLight }},
		{change: func(c *Config) { c.Theme = ThemeDark }},
		{change: func(c *Config) { c.Theme = "" }, wantErr: "theme"},
		{change: func(c *Config) { c.Theme = "Dark" }, wantErr: "theme"},
	}
	for i, tt := range tests {
		c := defaultConfig()
		tt.change(&c)
		err := c.Validate()
		if (err == nil) != (tt.wantErr == "") || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
			t.Errorf("case %d: Validate() = %v, want %q", i, err, tt.wantErr)
		}
	}
}

// TestBaselineNeverPersisted runs what a session does with the baseline:
// build --allowedTools, save a grant, save the config; neither file may
// gain a baseline tool.
func TestBaselineNeverPersisted(t *testing.T) {
	cfgPath := useConfigHome(t)
	t.Setenv("CLAUDE_CONFIG_DIR", t.TempDir())
	settings, err := UserSettingsPath()
	if err != nil {
		t.Fatal(err)
	}
	project := t.TempDir()
	cfg := defaultConfig()
	cfg.AllowedTools = []string{"WebFetch"}
	cfg.SetBaseline(true)
	tools := AllowedTools(cfg.Baseline(), cfg.AllowedTools, []string{"Bash(make:*)"})
	if !slices.Equal(tools[:4], BaselineTools) {
		t.Fatalf("baseline missing from --allowedTools: %q", tools)
	}
	if err := NewStore(settings).AddRules("Bash(make:*)"); err != nil {
		t.Fatal(err)
	}
	if err := NewStore(ProjectSettingsPath(project)).AddDirs(false, project); err != nil {
		t.Fatal(err)
	}
	if err := UpdateConfigAt(cfgPath, func(c *Config) { *c = cfg }); err != nil {
		t.Fatal(err)
	}
	check := func(file string, arrays ...string) {
		data := readFile(t, file)
		for _, a := range arrays {
			for _, v := range gjson.GetBytes(data, a).Array() {
				if slices.Contains(BaselineTools, v.String()) {
					t.Errorf("%s: %s holds baseline tool %q", file, a, v.String())
				}
			}
		}
	}
	check(settings, "permissions.allow")
	check(ProjectSettingsPath(project), "permissions.allow")
	check(cfgPath, "allowed_tools")
	if got, _ := NewStore(settings).Read(); !slices.Equal(got.Allow, []string{"Bash(make:*)"}) {
		t.Errorf("user settings allow = %q", got.Allow)
	}
}

func TestSettingsPaths(t *testing.T) {
	t.Setenv("CLAUDE_CONFIG_DIR", "/cfg")
	if p, err := UserSettingsPath(); err != nil || p != "/cfg/settings.json" {
		t.Errorf("UserSettingsPath() = %q, %v", p, err)
	}
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("HOME", "/home/u")
	if p, err := UserSettingsPath(); err != nil || p != "/home/u/.claude/settings.json" {
		t.Errorf("UserSettingsPath() = %q, %v", p, err)
	}
	if p := ProjectSettingsPath("/w/p"); p != "/w/p/.claude/settings.local.json" {
		t.Errorf("ProjectSettingsPath() = %q", p)
	}
}

// TestConfigBaseline: the baseline follows the prompt mode unless the
// person chose, and a 0.1.0 config (baseline_tools always written) reads
// as 0.1.0 meant it.
func TestConfigBaseline(t *testing.T) {
	tests := []struct {
		name, content   string
		live, afterTurn bool // Baseline() in each mode
		chosen          bool
	}{
		{name: "fresh install", content: `{}`, live: false, afterTurn: true},
		{name: "0.1.0 default: true without the marker", content: `{"baseline_tools": true}`, live: false, afterTurn: true},
		{name: "0.1.0 unticked: false is a choice", content: `{"baseline_tools": false}`, live: false, afterTurn: false, chosen: true},
		{name: "chosen on", content: `{"baseline_tools": true, "baseline_tools_set": true}`, live: true, afterTurn: true, chosen: true},
		{name: "chosen off", content: `{"baseline_tools": false, "baseline_tools_set": true}`, live: false, afterTurn: false, chosen: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := parseConfig("config.json", []byte(tt.content))
			if err != nil {
				t.Fatal(err)
			}
			if c.BaselineChosen() != tt.chosen {
				t.Errorf("BaselineChosen() = %v, want %v", c.BaselineChosen(), tt.chosen)
			}
			for mode, want := range map[string]bool{PromptsLive: tt.live, PromptsAfterTurn: tt.afterTurn} {
				c.PermissionPrompts = mode
				if got := c.Baseline(); got != want {
					t.Errorf("%s: Baseline() = %v, want %v", mode, got, want)
				}
			}
		})
	}
	c := defaultConfig()
	for _, on := range []bool{true, false} {
		c.SetBaseline(on)
		for _, mode := range []string{PromptsLive, PromptsAfterTurn} {
			c.PermissionPrompts = mode
			if !c.BaselineChosen() || c.Baseline() != on {
				t.Errorf("SetBaseline(%v), %s: Baseline() = %v, chosen %v", on, mode, c.Baseline(), c.BaselineChosen())
			}
		}
	}
}

func TestUpdateConfig(t *testing.T) {
	t.Run("writes only what changed", func(t *testing.T) {
		path := useConfigHome(t)
		before := "{\n  \"theme\": \"dark\",\n  \"baseline_tools\": false,\n  \"last_workdir\": \"/w\"\n}\n"
		writeConfig(t, path, before)
		if err := UpdateConfigAt(path, func(c *Config) { c.GrantScope = GrantScopeUser }); err != nil {
			t.Fatal(err)
		}
		want := strings.Replace(before, "\"/w\"\n", "\"/w\",\n  \"grant_scope\": \"user\"\n", 1)
		equalBytes(t, "updated config", readFile(t, path), []byte(want))
		// Setting a value the file already has writes nothing.
		if err := UpdateConfigAt(path, func(c *Config) { c.LastWorkdir = "/w"; c.GrantScope = GrantScopeUser }); err != nil {
			t.Fatal(err)
		}
		equalBytes(t, "same values", readFile(t, path), []byte(want))
	})
	t.Run("a missing file gets the changed key only", func(t *testing.T) {
		path := useConfigHome(t)
		if err := UpdateConfigAt(path, func(c *Config) { c.GrantScope = GrantScopeSession }); err != nil {
			t.Fatal(err)
		}
		equalBytes(t, "new config", readFile(t, path), []byte("{\n  \"grant_scope\": \"session\"\n}\n"))
	})
	t.Run("an invalid value elsewhere is left as it is", func(t *testing.T) {
		path := useConfigHome(t)
		before := `{"claude_command": "claude \"oops", "permission_prompts": "sometimes"}`
		writeConfig(t, path, before)
		if err := UpdateConfigAt(path, func(c *Config) { c.LastWorkdir = "/w" }); err != nil {
			t.Fatal(err)
		}
		got := string(readFile(t, path))
		if !strings.Contains(got, `"claude_command": "claude \"oops"`) || !strings.Contains(got, `"sometimes"`) ||
			gjson.Get(got, "last_workdir").String() != "/w" {
			t.Errorf("updated config: %s", got)
		}
	})
	t.Run("an invalid change is refused", func(t *testing.T) {
		path := useConfigHome(t)
		writeConfig(t, path, `{"phrase_detection": true}`)
		if err := UpdateConfigAt(path, func(c *Config) { c.GrantScope = "everywhere"; c.LastWorkdir = "/w" }); err == nil ||
			!strings.Contains(err.Error(), "grant_scope") {
			t.Errorf("error %v, want one about grant_scope", err)
		}
		equalBytes(t, "refused change", readFile(t, path), []byte(`{"phrase_detection": true}`))
	})
	t.Run("a malformed file is refused", func(t *testing.T) {
		path := useConfigHome(t)
		bad := "{\n  \"claude_command\": \"claude\",\n}\n"
		writeConfig(t, path, bad)
		var se *SyntaxError
		if err := UpdateConfigAt(path, func(c *Config) { c.LastWorkdir = "/w" }); !errors.As(err, &se) {
			t.Errorf("error %v, want a *SyntaxError", err)
		}
		equalBytes(t, "malformed config", readFile(t, path), []byte(bad))
	})
	t.Run("writers of different keys keep each other's", func(t *testing.T) {
		path := useConfigHome(t)
		scopes := []string{GrantScopeSession, GrantScopeUser}
		done := make(chan error)
		const n = 10
		for i := range n {
			go func() {
				done <- UpdateConfigAt(path, func(c *Config) {
					c.LastWorkdir = "/w"
					c.AllowedTools = append(c.AllowedTools, "T"+string(rune('0'+i)))
				})
			}()
			go func() { done <- UpdateConfigAt(path, func(c *Config) { c.GrantScope = scopes[i%2] }) }()
		}
		for range 2 * n {
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		}
		c, err := LoadConfig()
		if err != nil {
			t.Fatal(err)
		}
		if len(c.AllowedTools) != n || c.LastWorkdir != "/w" || !slices.Contains(scopes, c.GrantScope) {
			t.Errorf("after concurrent updates: %+v", c)
		}
	})
}
