package grants

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/adrg/xdg"
	"github.com/mattn/go-shellwords"
	"github.com/tidwall/gjson"
)

// Values of Config.PermissionPrompts.
const (
	PromptsLive      = "live"       // ask while the CLI waits
	PromptsAfterTurn = "after_turn" // collect denials, ask after the turn
)

// Values of Config.GrantScope: where grants go, as last chosen in a
// permission dialog.
const (
	GrantScopeSession = "session" // this session only, saved nowhere
	GrantScopeProject = "project" // <workdir>/.claude/settings.local.json
	GrantScopeUser    = "user"    // ~/.claude/settings.json
)

// Values of Config.Theme: Latch's colours, light or dark.
const (
	ThemeSystem = "system" // follow the desktop's light or dark preference
	ThemeLight  = "light"
	ThemeDark   = "dark"
)

// Config is Latch's own per-machine config.
type Config struct {
	ClaudeCommand string   `json:"claude_command"`
	AllowedTools  []string `json:"allowed_tools"`
	AddDirs       []string `json:"add_dirs"`
	// BaselineTools and BaselineToolsSet: use Baseline and SetBaseline.
	BaselineTools                    bool   `json:"baseline_tools"`
	BaselineToolsSet                 bool   `json:"baseline_tools_set"`
	PermissionPrompts                string `json:"permission_prompts"`
	ExperimentalPermissionManagement bool   `json:"experimental_permission_management"`
	PhraseDetection                  bool   `json:"phrase_detection"`
	DangerouslySkipPermissions       bool   `json:"dangerously_skip_permissions"`
	GrantScope                       string `json:"grant_scope"`
	LastWorkdir                      string `json:"last_workdir"`
	Theme                            string `json:"theme"`
}

// defaultConfig is the config of a fresh install. BaselineTools is true
// with no BaselineToolsSet: no choice made, the baseline follows the mode.
func defaultConfig() Config {
	return Config{
		ClaudeCommand:     "claude",
		AllowedTools:      []string{},
		AddDirs:           []string{},
		BaselineTools:     true,
		PermissionPrompts: PromptsLive,
		GrantScope:        GrantScopeProject,
		Theme:             ThemeSystem,
	}
}

// Baseline reports whether a run pre-approves the baseline tools. Unless
// the person chose, it follows the prompt mode: on after the turn, where
// nothing can ask, off live, where Claude Code asks as in a terminal.
//
// A choice is baseline_tools_set (written when the toggle is changed in
// Preferences), or baseline_tools false. Latch 0.1.0 wrote baseline_tools
// in every save, true unless the person unticked it: its true is only the
// old default and now follows the mode, while its false was a choice and
// stays one, so an upgrade never turns on tools someone turned off.
func (c Config) Baseline() bool {
	if c.BaselineChosen() {
		return c.BaselineTools
	}
	return c.PermissionPrompts == PromptsAfterTurn
}

// BaselineChosen reports whether the baseline is the person's choice
// rather than the prompt mode's default.
func (c Config) BaselineChosen() bool { return c.BaselineToolsSet || !c.BaselineTools }

// SetBaseline records the person's choice, which then wins over the mode.
func (c *Config) SetBaseline(on bool) { c.BaselineTools, c.BaselineToolsSet = on, true }

// ConfigPath is $XDG_CONFIG_HOME/latch/config.json (platform equivalents
// elsewhere). Looking it up creates nothing.
func ConfigPath() (string, error) {
	if xdg.ConfigHome == "" {
		return "", errors.New("no config folder (XDG_CONFIG_HOME or home) found")
	}
	return filepath.Join(xdg.ConfigHome, "latch", "config.json"), nil
}

// LoadConfig reads the config. A missing file gives the defaults and no
// error. A malformed file gives the defaults and a *SyntaxError; invalid
// values are replaced by their defaults and reported.
func LoadConfig() (Config, error) {
	path, err := ConfigPath()
	if err != nil {
		return defaultConfig(), err
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return defaultConfig(), nil
	}
	if err != nil {
		return defaultConfig(), err
	}
	return parseConfig(path, data)
}

func parseConfig(file string, data []byte) (Config, error) {
	c, err := decodeConfig(file, data)
	if err != nil {
		return defaultConfig(), err
	}
	if err := c.Validate(); err != nil {
		def := defaultConfig()
		if _, cerr := c.Command(); cerr != nil {
			c.ClaudeCommand = def.ClaudeCommand
		}
		if !validPrompts(c.PermissionPrompts) {
			c.PermissionPrompts = def.PermissionPrompts
		}
		if !validGrantScope(c.GrantScope) {
			c.GrantScope = def.GrantScope
		}
		if !validTheme(c.Theme) {
			c.Theme = def.Theme
		}
		return c, fmt.Errorf("%s: %w (using the default)", file, err)
	}
	return c, nil
}

// decodeConfig reads data as it is, defaults for missing keys, invalid
// values kept. Only a malformed file is an error.
func decodeConfig(file string, data []byte) (Config, error) {
	c := defaultConfig()
	if blank(data) {
		return c, nil
	}
	if err := checkObject(file, data); err != nil {
		return c, err
	}
	if err := json.Unmarshal(trimBOM(data), &c); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			pos := int(te.Offset)
			if v := rootObject(data).Get(strings.Split(te.Field, ".")[0]); v.Exists() {
				pos = v.Index
			}
			return defaultConfig(), syntaxErrorAt(file, data, pos,
				fmt.Sprintf("%s must be %s, not %s", te.Field, jsonKind(te.Type), te.Value))
		}
		return defaultConfig(), fmt.Errorf("%s: %w", file, err)
	}
	if c.AllowedTools == nil {
		c.AllowedTools = []string{}
	}
	if c.AddDirs == nil {
		c.AddDirs = []string{}
	}
	return c, nil
}

func trimBOM(data []byte) []byte {
	if len(data) >= 3 && string(data[:3]) == string(utf8BOM) {
		return data[3:]
	}
	return data
}

func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		return "a list of strings"
	}
	return t.String()
}

// UpdateConfigAt applies change to the config file at path (ConfigPath) as
// the file holds it, under the file's lock, and writes only the keys change
// changed. Writers that each own a few keys (the last folder, the last
// scope, Preferences) so never undo each other, and a value Latch finds
// invalid stays as it is unless change replaces it. A malformed file is
// refused, and so is an invalid value set by change. The caller looks the
// path up, so it can do that on one goroutine and write on another.
func UpdateConfigAt(path string, change func(*Config)) error {
	return editFile(path, false, "", func(old []byte) ([]byte, error) {
		before, err := decodeConfig(path, old)
		if err != nil {
			return nil, err
		}
		after := before
		after.AllowedTools = slices.Clone(before.AllowedTools)
		after.AddDirs = slices.Clone(before.AddDirs)
		change(&after)
		// Judge only what changed: the defaults are valid.
		check := defaultConfig()
		cv, av, bv := reflect.ValueOf(&check).Elem(), reflect.ValueOf(after), reflect.ValueOf(before)
		for i := range av.NumField() {
			if !reflect.DeepEqual(av.Field(i).Interface(), bv.Field(i).Interface()) {
				cv.Field(i).Set(av.Field(i))
			}
		}
		if err := check.Validate(); err != nil {
			return nil, err
		}
		return mergeConfig(path, old, after, &before)
	})
}

// mergeConfig writes c's values into data; with before, only those that
// differ from it.
func mergeConfig(file string, data []byte, c Config, before *Config) ([]byte, error) {
	if blank(data) {
		data = newDocument()
	}
	if err := checkObject(file, data); err != nil {
		return nil, err
	}
	v := reflect.ValueOf(c)
	for i := range v.NumField() {
		key := strings.Split(v.Type().Field(i).Tag.Get("json"), ",")[0]
		val := v.Field(i).Interface()
		if before != nil && reflect.DeepEqual(val, reflect.ValueOf(*before).Field(i).Interface()) {
			continue
		}
		root := rootObject(data)
		st := detectStyle(data, root)
		cur := root.Get(key)
		if !cur.Exists() {
			data = insertMember(data, root, true, st, key, func(ind string, inline bool) string {
				return formatValue(st, val, ind, inline)
			})
			continue
		}
		if sameJSON(cur.Raw, val) {
			continue
		}
		inline := !st.hasNL || (len(cur.Array()) > 0 && !strings.Contains(cur.Raw, "\n"))
		var err error
		data, err = replaceValue(data, []string{key}, cur, formatValue(st, val, lineIndent(data, cur.Index), inline))
		if err != nil {
			return nil, err
		}
	}
	return data, nil
}

func formatValue(st style, val any, ind string, inline bool) string {
	switch x := val.(type) {
	case string:
		return quote(x)
	case bool:
		if x {
			return "true"
		}
		return "false"
	case []string:
		return st.array(x, ind, inline)
	}
	panic(fmt.Sprintf("grants: no JSON format for %T", val))
}

// sameJSON reports that raw already holds val (null and [] equal an empty list).
func sameJSON(raw string, val any) bool {
	ptr := reflect.New(reflect.TypeOf(val))
	if err := json.Unmarshal([]byte(raw), ptr.Interface()); err != nil {
		return false
	}
	got := ptr.Elem().Interface()
	if a, ok := val.([]string); ok {
		b, _ := got.([]string)
		return len(a) == len(b) && (len(a) == 0 || reflect.DeepEqual(a, b))
	}
	return reflect.DeepEqual(got, val) && gjson.Parse(raw).Type != gjson.Null
}

// Command splits ClaudeCommand into argv the way a shell would split words,
// without running a shell: no variables, substitutions or operators.
func (c Config) Command() ([]string, error) {
	if strings.TrimSpace(c.ClaudeCommand) == "" {
		return nil, errors.New("claude_command is empty")
	}
	p := shellwords.NewParser()
	argv, err := p.Parse(c.ClaudeCommand)
	if err != nil {
		return nil, fmt.Errorf("claude_command %q: %v (check quotes)", c.ClaudeCommand, err)
	}
	if p.Position >= 0 {
		return nil, fmt.Errorf("claude_command %q: shell operators such as ; | & < > are not supported", c.ClaudeCommand)
	}
	if len(argv) == 0 || argv[0] == "" {
		return nil, fmt.Errorf("claude_command %q names no program", c.ClaudeCommand)
	}
	return argv, nil
}

func validPrompts(s string) bool { return s == PromptsLive || s == PromptsAfterTurn }

func validGrantScope(s string) bool {
	return s == GrantScopeSession || s == GrantScopeProject || s == GrantScopeUser
}

func validTheme(s string) bool { return s == ThemeSystem || s == ThemeLight || s == ThemeDark }

// Validate reports every value Latch cannot run with.
func (c Config) Validate() error {
	var errs []error
	if _, err := c.Command(); err != nil {
		errs = append(errs, err)
	}
	if !validPrompts(c.PermissionPrompts) {
		errs = append(errs, fmt.Errorf("permission_prompts is %q, want %q or %q", c.PermissionPrompts, PromptsLive, PromptsAfterTurn))
	}
	if !validGrantScope(c.GrantScope) {
		errs = append(errs, fmt.Errorf("grant_scope is %q, want %q, %q or %q", c.GrantScope, GrantScopeSession, GrantScopeProject, GrantScopeUser))
	}
	if !validTheme(c.Theme) {
		errs = append(errs, fmt.Errorf("theme is %q, want %q, %q or %q", c.Theme, ThemeSystem, ThemeLight, ThemeDark))
	}
	return errors.Join(errs...)
}
