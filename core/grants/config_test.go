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
			}},
		{name: "everything", content: `{"claude_command":"claude","allowed_tools":["A"],"add_dirs":["/d"],"baseline_tools":false,
"permission_prompts":"after_turn","experimental_permission_management":true,"phrase_detection":true,
"dangerously_skip_permissions":true,"last_workdir":"/w"}`,
			want: func(c *Config) {
				*c = Config{ClaudeCommand: "claude", AllowedTools: []string{"A"}, AddDirs: []string{"/d"}, PermissionPrompts: PromptsAfterTurn,
					ExperimentalPermissionManagement: true, PhraseDetection: true, DangerouslySkipPermissions: true, LastWorkdir: "/w"}
			}},
		{name: "malformed", content: "{\n  \"claude_command\": \"claude\",\n}\n", want: func(*Config) {}, wantErr: "config.json:3:1: invalid character '}'"},
		{name: "wrong type", content: "{\n  \"baseline_tools\": \"yes\"\n}", want: func(*Config) {}, wantErr: "config.json:2:21: baseline_tools must be true or false"},
		{name: "bad prompts value", content: `{"permission_prompts": "sometimes", "last_workdir": "/w"}`,
			want:    func(c *Config) { c.LastWorkdir = "/w" },
			wantErr: `permission_prompts is "sometimes"`},
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
			want := DefaultConfig()
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
	c := DefaultConfig()
	if c.ClaudeCommand != "claude" || !c.BaselineTools || c.PermissionPrompts != "live" ||
		c.ExperimentalPermissionManagement || c.PhraseDetection || c.DangerouslySkipPermissions || c.LastWorkdir != "" {
		t.Errorf("DefaultConfig() = %+v", c)
	}
	if err := c.Validate(); err != nil {
		t.Error(err)
	}
}

func TestSaveConfigNewFile(t *testing.T) {
	path := useConfigHome(t)
	c := DefaultConfig()
	c.AllowedTools = []string{"WebFetch", "Bash(git:*)"}
	c.LastWorkdir = `/home/u/my "project"`
	if err := SaveConfig(c); err != nil {
		t.Fatal(err)
	}
	want := `{
  "claude_command": "claude",
  "allowed_tools": [
    "WebFetch",
    "Bash(git:*)"
  ],
  "add_dirs": [],
  "baseline_tools": true,
  "permission_prompts": "live",
  "experimental_permission_management": false,
  "phrase_detection": false,
  "dangerously_skip_permissions": false,
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
	got, err := LoadConfig()
	if err != nil || !reflect.DeepEqual(got, c) {
		t.Errorf("round trip: %+v, %v; want %+v", got, err, c)
	}
}

func TestSaveConfigKeepsUnknownKeysAndLayout(t *testing.T) {
	path := useConfigHome(t)
	before := "{\r\n    \"theme\": \"dark\",\r\n    \"claude_command\": \"claude\",\r\n    \"window\": {\"w\": 800, \"h\": 600},\r\n" +
		"    \"allowed_tools\": [\"WebFetch\"],\r\n    \"future_flag\": [1, 2, {\"x\": \"ü\"}]\r\n}\r\n"
	writeConfig(t, path, before)
	c, err := LoadConfig()
	if err != nil {
		t.Fatal(err)
	}
	c.AllowedTools = append(c.AllowedTools, "WebSearch")
	c.LastWorkdir = "/w"
	if err := SaveConfig(c); err != nil {
		t.Fatal(err)
	}
	after := string(readFile(t, path))
	want := strings.Replace(before, `["WebFetch"]`, `["WebFetch", "WebSearch"]`, 1)
	want = strings.TrimSuffix(want, "\r\n}\r\n") + ",\r\n    \"add_dirs\": [],\r\n    \"baseline_tools\": true,\r\n" +
		"    \"permission_prompts\": \"live\",\r\n    \"experimental_permission_management\": false,\r\n    \"phrase_detection\": false,\r\n" +
		"    \"dangerously_skip_permissions\": false,\r\n    \"last_workdir\": \"/w\"\r\n}\r\n"
	equalBytes(t, "saved config", []byte(after), []byte(want))

	// Saving the same config again changes nothing.
	if err := SaveConfig(c); err != nil {
		t.Fatal(err)
	}
	equalBytes(t, "second save", readFile(t, path), []byte(after))
	if gjson.Get(after, "window.w").Int() != 800 || gjson.Get(after, "future_flag.2.x").String() != "ü" {
		t.Error("unknown keys lost")
	}
}

func TestSaveConfigRefusesMalformedFile(t *testing.T) {
	path := useConfigHome(t)
	before := "{\n  \"claude_command\": \"claude\" // mine\n}\n"
	writeConfig(t, path, before)
	c, err := LoadConfig()
	var se *SyntaxError
	if !errors.As(err, &se) || se.File != path || se.Line != 2 || se.Column != 30 {
		t.Fatalf("LoadConfig error %#v, want a SyntaxError at %s:2:30", err, path)
	}
	if !reflect.DeepEqual(c, DefaultConfig()) {
		t.Errorf("malformed config did not give the defaults: %+v", c)
	}
	c.LastWorkdir = "/w"
	if err := SaveConfig(c); err == nil || !strings.Contains(err.Error(), path+":2:30") {
		t.Fatalf("SaveConfig error %v, want one naming %s:2:30", err, path)
	}
	equalBytes(t, "malformed config", readFile(t, path), []byte(before))
}

func TestSaveConfigRefusesInvalidConfig(t *testing.T) {
	path := useConfigHome(t)
	c := DefaultConfig()
	c.PermissionPrompts = "never"
	if err := SaveConfig(c); err == nil {
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
	}
	for i, tt := range tests {
		c := DefaultConfig()
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
	cfg := DefaultConfig()
	cfg.AllowedTools = []string{"WebFetch"}
	tools := AllowedTools(cfg.BaselineTools, cfg.AllowedTools, []string{"Bash(make:*)"})
	if !slices.Equal(tools[:4], BaselineTools) {
		t.Fatalf("baseline missing from --allowedTools: %q", tools)
	}
	if err := NewStore(settings).AddRules("Bash(make:*)"); err != nil {
		t.Fatal(err)
	}
	if err := NewStore(ProjectSettingsPath(project)).AddDirs(false, project); err != nil {
		t.Fatal(err)
	}
	if err := SaveConfig(cfg); err != nil {
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
