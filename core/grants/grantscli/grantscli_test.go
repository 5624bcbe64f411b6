package grantscli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

type env struct {
	home, claudeDir, project, dir string
}

// setup points HOME and CLAUDE_CONFIG_DIR at temp folders.
func setup(t *testing.T) env {
	t.Helper()
	e := env{home: t.TempDir(), claudeDir: t.TempDir(), project: t.TempDir(), dir: t.TempDir()}
	t.Setenv("HOME", e.home)
	t.Setenv("CLAUDE_CONFIG_DIR", e.claudeDir)
	return e
}

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestListJSONEmpty(t *testing.T) {
	e := setup(t)
	code, out, stderr := runCLI(t, "list", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	file, _ := json.Marshal(filepath.Join(e.claudeDir, "settings.json"))
	want := `{"file":` + string(file) + `,"allow":[],"deny":[],"ask":[],"additionalDirectories":[]}` + "\n"
	if out != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
	if _, err := os.Stat(filepath.Join(e.claudeDir, "settings.json")); !os.IsNotExist(err) {
		t.Error("list created the settings file")
	}
}

func TestEditAndList(t *testing.T) {
	e := setup(t)
	settings := filepath.Join(e.claudeDir, "settings.json")
	before := "{\n  \"model\": \"opus\",\n  \"hooks\": {\"Stop\": []}\n}\n"
	if err := os.WriteFile(settings, []byte(before), 0o600); err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		args []string
		code int
	}{
		{[]string{"allow", "Bash(npm run test:*)", "WebFetch(domain:go.dev)"}, 0},
		{[]string{"allow", "Bash(npm run test:*)"}, 0},
		{[]string{"add-dir", e.dir}, 0},
		{[]string{"revoke", "WebFetch(domain:go.dev)"}, 0},
	}
	for _, s := range steps {
		if code, _, stderr := runCLI(t, s.args...); code != s.code {
			t.Fatalf("%q: exit %d, want %d: %s", s.args, code, s.code, stderr)
		}
	}
	code, out, _ := runCLI(t, "list", "--json")
	if code != 0 {
		t.Fatal(code)
	}
	var l listing
	if err := json.Unmarshal([]byte(out), &l); err != nil {
		t.Fatal(err)
	}
	if l.File != settings || !slices.Equal(l.Allow, []string{"Bash(npm run test:*)"}) ||
		!slices.Equal(l.AdditionalDirectories, []string{e.dir}) {
		t.Errorf("list = %+v", l)
	}
	data, _ := os.ReadFile(settings)
	if !strings.HasPrefix(string(data), "{\n  \"model\": \"opus\",\n  \"hooks\": {\"Stop\": []},\n  \"permissions\": {") {
		t.Errorf("other keys not kept:\n%s", data)
	}

	code, out, _ = runCLI(t, "list")
	for _, want := range []string{settings, "allow:\n  Bash(npm run test:*)\n", "deny: (none)", "additionalDirectories:\n  " + e.dir} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("list output lacks %q:\n%s", want, out)
		}
	}

	if code, _, stderr := runCLI(t, "remove-dir", e.dir+"/"); code != 0 {
		t.Fatalf("remove-dir: %d %s", code, stderr)
	}
	_, out, _ = runCLI(t, "list", "--json")
	if !strings.Contains(out, `"additionalDirectories":[]`) {
		t.Errorf("folder not removed: %s", out)
	}
}

func TestProjectFlag(t *testing.T) {
	e := setup(t)
	if code, _, stderr := runCLI(t, "--project", e.project, "allow", "Bash(make:*)"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	local := filepath.Join(e.project, ".claude", "settings.local.json")
	data, err := os.ReadFile(local)
	if err != nil || !strings.Contains(string(data), `"Bash(make:*)"`) {
		t.Fatalf("project file: %s %v", data, err)
	}
	if _, err := os.Stat(filepath.Join(e.claudeDir, "settings.json")); !os.IsNotExist(err) {
		t.Error("--project wrote user settings")
	}
	_, out, _ := runCLI(t, "--project", e.project, "list", "--json")
	if !strings.Contains(out, `"file":"`+local+`"`) || !strings.Contains(out, `"allow":["Bash(make:*)"]`) {
		t.Errorf("list --json: %s", out)
	}
}

func TestErrorsChangeNothing(t *testing.T) {
	e := setup(t)
	settings := filepath.Join(e.claudeDir, "settings.json")
	good := "{\n  \"permissions\": {\"allow\": [\"Bash\"]}\n}\n"
	file := filepath.Join(e.dir, "file.txt")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, content string
		args          []string
		wantErr       string
	}{
		{"malformed settings", "{\n  \"permissions\": {,}\n}\n", []string{"allow", "Read"}, settings + ":2:19"},
		{"malformed list", "{\n  // hi\n}\n", []string{"list"}, settings + ":2:3"},
		{"invalid rule", good, []string{"allow", "Read", "Bash(oops"}, "closing parenthesis"},
		{"relative dir", good, []string{"add-dir", "docs"}, "absolute path"},
		{"missing dir", good, []string{"add-dir", filepath.Join(e.dir, "nope")}, "no such folder"},
		{"a file", good, []string{"add-dir", file}, "not a folder"},
		{"home needs force", good, []string{"add-dir", e.home}, "--force"},
		{"root needs force", good, []string{"add-dir", "/"}, "--force"},
		{"missing project", good, []string{"--project", filepath.Join(e.dir, "nope"), "allow", "Read"}, "--project"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(settings, []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			code, _, stderr := runCLI(t, tt.args...)
			if code != 1 || !strings.Contains(stderr, tt.wantErr) {
				t.Errorf("exit %d, stderr %q; want 1 and %q", code, stderr, tt.wantErr)
			}
			if data, _ := os.ReadFile(settings); string(data) != tt.content {
				t.Errorf("file changed:\n%s", data)
			}
		})
	}
	if err := os.WriteFile(settings, []byte(good), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "add-dir", "--force", e.home); code != 0 {
		t.Errorf("add-dir --force home: %d %s", code, stderr)
	}
}

func TestUsage(t *testing.T) {
	setup(t)
	tests := [][]string{
		{},
		{"frobnicate"},
		{"allow"},
		{"revoke"},
		{"add-dir", "--force"},
		{"remove-dir"},
		{"list", "extra"},
		{"list", "--yaml"},
		{"--project"},
		{"--bogus", "list"},
	}
	for _, args := range tests {
		code, out, stderr := runCLI(t, args...)
		if code != 2 || !strings.Contains(stderr, "usage: latch grants") || out != "" {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and a usage line", args, code, out, stderr)
		}
	}
	if code, out, _ := runCLI(t, "--help"); code != 0 || !strings.Contains(out, "usage: latch grants") {
		t.Errorf("--help: exit %d, %q", code, out)
	}
}
