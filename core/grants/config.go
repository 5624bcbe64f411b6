package grants

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
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

// Config is Latch's own per-machine config.
type Config struct {
	ClaudeCommand                    string   `json:"claude_command"`
	AllowedTools                     []string `json:"allowed_tools"`
	AddDirs                          []string `json:"add_dirs"`
	BaselineTools                    bool     `json:"baseline_tools"`
	PermissionPrompts                string   `json:"permission_prompts"`
	ExperimentalPermissionManagement bool     `json:"experimental_permission_management"`
	PhraseDetection                  bool     `json:"phrase_detection"`
	DangerouslySkipPermissions       bool     `json:"dangerously_skip_permissions"`
	LastWorkdir                      string   `json:"last_workdir"`
}

func DefaultConfig() Config {
	return Config{
		ClaudeCommand:     "claude",
		AllowedTools:      []string{},
		AddDirs:           []string{},
		BaselineTools:     true,
		PermissionPrompts: PromptsLive,
	}
}

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
		return DefaultConfig(), err
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return DefaultConfig(), nil
	}
	if err != nil {
		return DefaultConfig(), err
	}
	return parseConfig(path, data)
}

func parseConfig(file string, data []byte) (Config, error) {
	c := DefaultConfig()
	if blank(data) {
		return c, nil
	}
	if err := checkObject(file, data); err != nil {
		return DefaultConfig(), err
	}
	if err := json.Unmarshal(trimBOM(data), &c); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			pos := int(te.Offset)
			if v := rootObject(data).Get(strings.Split(te.Field, ".")[0]); v.Exists() {
				pos = v.Index
			}
			return DefaultConfig(), syntaxErrorAt(file, data, pos,
				fmt.Sprintf("%s must be %s, not %s", te.Field, jsonKind(te.Type), te.Value))
		}
		return DefaultConfig(), fmt.Errorf("%s: %w", file, err)
	}
	if c.AllowedTools == nil {
		c.AllowedTools = []string{}
	}
	if c.AddDirs == nil {
		c.AddDirs = []string{}
	}
	if err := c.Validate(); err != nil {
		def := DefaultConfig()
		if _, cerr := c.Command(); cerr != nil {
			c.ClaudeCommand = def.ClaudeCommand
		}
		if !validPrompts(c.PermissionPrompts) {
			c.PermissionPrompts = def.PermissionPrompts
		}
		return c, fmt.Errorf("%s: %w (using the default)", file, err)
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

// SaveConfig writes c, keeping unknown keys and the file's layout, and
// leaving keys whose value did not change byte for byte as they were. It
// refuses an invalid c, and a malformed existing file (left untouched).
func SaveConfig(c Config) error {
	if err := c.Validate(); err != nil {
		return err
	}
	path, err := ConfigPath()
	if err != nil {
		return err
	}
	return editFile(path, false, "", func(old []byte) ([]byte, error) { return mergeConfig(path, old, c) })
}

func mergeConfig(file string, data []byte, c Config) ([]byte, error) {
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

// Validate reports every value Latch cannot run with.
func (c Config) Validate() error {
	var errs []error
	if _, err := c.Command(); err != nil {
		errs = append(errs, err)
	}
	if !validPrompts(c.PermissionPrompts) {
		errs = append(errs, fmt.Errorf("permission_prompts is %q, want %q or %q", c.PermissionPrompts, PromptsLive, PromptsAfterTurn))
	}
	return errors.Join(errs...)
}
