package grantscli

import (
	"bytes"
	"encoding/json"
	"github.com/latch-app/latch/core/grants"
	"os"
	"path/filepath"
	"reflect"
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
	code = RunWith(args, &out, &errb, Options{})
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
		{"list", "--effective", "extra"},
		{"list", "--effective", "--project"},
		{"test"},
		{"test", "Bash"},
		{"test", "Bash", "ls", "extra"},
		{"test", "--bogus", "Bash", "ls"},
		{"--project", "/a", "test", "Bash", "ls", "--project", "/b"},
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

// climb is a folder suggestion that wanders through project and climbs
// back out to the absolute path to.
func climb(project, to string) string {
	long := filepath.Join(project, "docs", strings.Repeat("a", 120))
	ups := strings.Count(long, string(filepath.Separator))
	return long + "/" + strings.Repeat("../", ups) + strings.TrimPrefix(to, "/")
}

func TestAddDirResolvesAndRefusesBroadFolders(t *testing.T) {
	e := setup(t)
	settings := filepath.Join(e.claudeDir, "settings.json")
	ssh := filepath.Join(e.home, ".ssh")
	data := filepath.Join(e.dir, "data")
	for _, d := range []string{ssh, data} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"slash": "/", "keys": ssh, "data": data} {
		if err := os.Symlink(target, filepath.Join(e.project, link)); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, dir string
		real      string // what is saved with --force
		why       string // "" when no --force is needed
	}{
		{"ssh", ssh, ssh, "your SSH keys (~/.ssh)"},
		{"a link to ~/.ssh", filepath.Join(e.project, "keys"), ssh, "your SSH keys (~/.ssh)"},
		{"the issue's climb", climb(e.project, ssh), ssh, "your SSH keys (~/.ssh)"},
		{"a link to /", filepath.Join(e.project, "slash"), "/", "the root of the file system"},
		{"the folder holding home", filepath.Dir(e.home), filepath.Dir(e.home), "a folder that contains your home folder"},
		{"/etc", "/etc", "/etc", "system configuration (/etc)"},
		{"a plain link", filepath.Join(e.project, "data"), data, ""},
	}
	const before = "{\n  \"model\": \"opus\"\n}\n"
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(settings, []byte(before), 0o600); err != nil {
				t.Fatal(err)
			}
			if tt.why != "" {
				code, out, stderr := runCLI(t, "add-dir", tt.dir)
				want := "latch grants: " + tt.real + " is " + tt.why + "; granting it needs a second confirmation: add --force if you mean it\n"
				if code != 1 || stderr != want || out != "" {
					t.Errorf("without --force: exit %d, stdout %q, stderr %q; want 1 and %q", code, out, stderr, want)
				}
				if got, _ := os.ReadFile(settings); string(got) != before {
					t.Errorf("refused, yet the file changed:\n%s", got)
				}
			}
			code, out, stderr := runCLI(t, "add-dir", "--force", tt.dir)
			if code != 0 || out != settings+": add-dir "+tt.real+"\n" {
				t.Fatalf("with --force: exit %d, stdout %q, stderr %q", code, out, stderr)
			}
			_, out, _ = runCLI(t, "list", "--json")
			var l listing
			if err := json.Unmarshal([]byte(out), &l); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(l.AdditionalDirectories, []string{tt.real}) {
				t.Errorf("saved %q, want the resolved %q", l.AdditionalDirectories, tt.real)
			}
		})
	}
}

func TestProjectLinkedOutsideIsNotWritten(t *testing.T) {
	e := setup(t)
	outside := filepath.Join(e.dir, "settings.json")
	content := "{\"permissions\": {\"allow\": [\"Read\"]}}\n"
	if err := os.WriteFile(outside, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(e.dir, filepath.Join(e.project, ".claude")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("settings.json", filepath.Join(e.dir, "settings.local.json")); err != nil {
		t.Fatal(err)
	}
	want := "latch grants: " + filepath.Join(e.project, ".claude") + " is a symlink to " + e.dir +
		", outside the project; Latch does not write through it\n"
	for _, args := range [][]string{{"allow", "Bash"}, {"revoke", "Read"}, {"add-dir", e.project}, {"remove-dir", e.dir}} {
		code, _, stderr := runCLI(t, append([]string{"--project", e.project}, args...)...)
		if code != 1 || stderr != want {
			t.Errorf("%q: exit %d, stderr %q; want 1 and %q", args, code, stderr, want)
		}
	}
	if data, _ := os.ReadFile(outside); string(data) != content {
		t.Errorf("the file outside the project changed:\n%s", data)
	}
	if code, out, _ := runCLI(t, "--project", e.project, "list", "--json"); code != 0 || !strings.Contains(out, `"allow":["Read"]`) {
		t.Errorf("list: exit %d, %s", code, out)
	}
}

func TestReadOnlySettingsAreNotReplaced(t *testing.T) {
	e := setup(t)
	settings := filepath.Join(e.claudeDir, "settings.json")
	content := "{\"permissions\": {\"allow\": [\"Read\"]}}\n"
	if err := os.WriteFile(settings, []byte(content), 0o444); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI(t, "allow", "Bash")
	if want := "latch grants: " + settings + " is read-only; Latch leaves it as it is\n"; code != 1 || stderr != want {
		t.Errorf("exit %d, stderr %q; want 1 and %q", code, stderr, want)
	}
	if data, _ := os.ReadFile(settings); string(data) != content {
		t.Errorf("file changed:\n%s", data)
	}
}

// list shows what Claude Code honours: of keys that occur twice, the last;
// rules whose parentheses do not balance; files nested 20,000 levels deep.
func TestListShowsWhatClaudeCodeHonours(t *testing.T) {
	tests := []struct {
		file string
		want listing // File is filled in
	}{
		{"dup_permissions.json", listing{Allow: []string{"Bash(npm run test:*)"}, Deny: []string{"Bash(rm -rf build)", "Read(./.env)"},
			Ask: []string{}, AdditionalDirectories: []string{}}},
		{"dup_keys.json", listing{Allow: []string{"Bash(git status)", "Bash(git diff:*)"}, Deny: []string{},
			Ask: []string{"Bash(git push:*)"}, AdditionalDirectories: []string{"/srv/new"}}},
		{"paren_rules.json", listing{Allow: []string{`Bash(grep -n "eval\(" src/*.py)`, `Bash(touch "z)" last.txt)`, `Bash(echo ')(')`},
			Deny: []string{"Bash(rm -rf (*)"}, Ask: []string{}, AdditionalDirectories: []string{}}},
		{"deep_20000.json", listing{Allow: []string{"Bash(ls)"}, Deny: []string{}, Ask: []string{}, AdditionalDirectories: []string{}}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			e := setup(t)
			settings := filepath.Join(e.claudeDir, "settings.json")
			data, err := os.ReadFile(filepath.Join("..", "testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(settings, data, 0o600); err != nil {
				t.Fatal(err)
			}
			code, out, stderr := runCLI(t, "list", "--json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var got listing
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			tt.want.File = settings
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("list:\n got %+v\nwant %+v", got, tt.want)
			}
			// Allowing what is allowed already writes nothing.
			if len(tt.want.Allow) > 0 {
				if code, _, stderr := runCLI(t, append([]string{"allow"}, tt.want.Allow...)...); code != 0 {
					t.Fatalf("allow: exit %d: %s", code, stderr)
				}
				if after, _ := os.ReadFile(settings); !bytes.Equal(after, data) {
					t.Error("allowing rules already there changed the file")
				}
				if _, err := os.Stat(settings + ".latch-bak"); !os.IsNotExist(err) {
					t.Error("allowing rules already there wrote a backup")
				}
			}
		})
	}
}

// allow then revoke, and add-dir then remove-dir, leave the file as it was.
func TestUndoGivesBackTheFile(t *testing.T) {
	e := setup(t)
	settings := filepath.Join(e.claudeDir, "settings.json")
	before := "{\n  \"model\": \"opus\",\n  \"hooks\": {\"Stop\": []}\n}\n"
	if err := os.WriteFile(settings, []byte(before), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"allow", "Bash(npm run test:*)"}, {"add-dir", e.dir}, {"remove-dir", e.dir}, {"revoke", "Bash(npm run test:*)"},
	} {
		if code, _, stderr := runCLI(t, args...); code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
	}
	if after, _ := os.ReadFile(settings); string(after) != before {
		t.Errorf("got %q\nwant %q", after, before)
	}
}

// writeFile writes content to path, making its folder.
func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestListEffective(t *testing.T) {
	e := setup(t)
	writeFile(t, filepath.Join(e.claudeDir, "settings.json"),
		`{"permissions": {"allow": ["Bash(npm test:*)"], "additionalDirectories": ["/srv/shared"], "defaultMode": "acceptEdits"}}`)
	writeFile(t, filepath.Join(e.project, ".claude", "settings.json"),
		`{"permissions": {"allow": ["Bash(make:*)"], "deny": ["Read(./.env)"]}}`)
	writeFile(t, filepath.Join(e.project, ".claude", "settings.local.json"), "{\n  \"permissions\": {\"ask\": [,]}\n}\n")
	claudeJSON := filepath.Join(e.claudeDir, ".claude.json")

	code, out, stderr := runCLI(t, "list", "--effective", "--project", e.project)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"Folder:  " + e.project + "\nMode:    acceptEdits\nTrusted: no: Claude Code ignores the allow rules of .claude/settings.json here (recorded in " + claudeJSON + ")\n",
		"\nManaged policy",
		"\nUser settings: " + filepath.Join(e.claudeDir, "settings.json") + " (ok)\n" +
			"  allow  Bash(npm test:*)  — Any Bash command starting with npm test\n" +
			"  folder /srv/shared\n",
		"\nProject settings (shared): " + filepath.Join(e.project, ".claude", "settings.json") + " (ok)\n" +
			"  read-only: Shared with everyone",
		"  allow  Bash(make:*)  — Any Bash command starting with make (ignored: not applied: this folder is not trusted in Claude Code)\n" +
			"  deny   Read(./.env)  — Read .env (relative to the working folder)\n",
		"\nProject settings (local): " + filepath.Join(e.project, ".claude", "settings.local.json") +
			" (malformed: " + filepath.Join(e.project, ".claude", "settings.local.json") + ":2:27: invalid character ','",
		"\nLatch grant layer\n  read-only: Latch's grant layer",
		"\nThis session\n  (nothing)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	// Trusted now, and from the current folder, as JSON.
	if err := os.WriteFile(claudeJSON, []byte(`{"projects": {`+strconvQuote(e.project)+`: {"hasTrustDialogAccepted": true}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(e.project)
	code, out, stderr = runCLI(t, "list", "--json", "--effective")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var v struct {
		Workdir string
		Trusted bool
		Layers  []struct {
			Source string
			Rules  []struct{ Rule, Ignored string }
		}
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if !strings.HasPrefix(out, "{\n  \"workdir\": ") {
		t.Errorf("not indented JSON:\n%s", out)
	}
	if v.Workdir != e.project || !v.Trusted || len(v.Layers) != 7 || v.Layers[2].Source != "projectSettings" ||
		len(v.Layers[2].Rules) != 2 || v.Layers[2].Rules[0].Ignored != "" {
		t.Errorf("view: %+v", v)
	}
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// test prints the verdict and the rule that decided it, and exits 0 for
// allow, 3 for ask, 4 for deny. It needs the real matcher (View.Test).
func TestTestCommand(t *testing.T) {
	e := setup(t)
	local := filepath.Join(e.project, ".claude", "settings.local.json")
	writeFile(t, local, `{"permissions": {
		"allow": ["Bash(npm test:*)"],
		"ask": ["Bash(git push:*)"],
		"deny": ["Bash(rm:*)", "WebFetch(domain:evil.example)"]}}`)
	from := "from: Project settings (local), " + local + "\n"
	tests := []struct {
		name   string
		args   []string
		code   int
		prefix string // the output starts with it
	}{
		{"deny", []string{"test", "Bash", "rm -rf x"}, 4, "deny\nrule: Bash(rm:*)  — Any Bash command starting with rm\n" + from + "why:  "},
		{"deny, JSON input", []string{"test", "Bash", `{"command": "rm -rf x"}`}, 4, "deny\nrule: Bash(rm:*)"},
		{"deny a URL", []string{"test", "WebFetch", "https://evil.example/x"}, 4, "deny\nrule: WebFetch(domain:evil.example)  — Fetch from evil.example\n" + from},
		{"allow", []string{"test", "Bash", "npm test --watch"}, 0, "allow\nrule: Bash(npm test:*)  — Any Bash command starting with npm test\n" + from},
		{"ask by a rule", []string{"test", "Bash", "git push origin main"}, 3, "ask\nrule: Bash(git push:*)"},
		{"ask by no rule", []string{"test", "Bash", "make build"}, 3, "ask\nrule: (none)\nwhy:  "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// --project may come before the subcommand or after its operands.
			for _, args := range [][]string{
				append([]string{"--project", e.project}, tt.args...),
				append(slices.Clone(tt.args), "--project", e.project),
			} {
				code, out, stderr := runCLI(t, args...)
				if code != tt.code || !strings.HasPrefix(out, tt.prefix) || stderr != "" {
					t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d and %q…", args, code, out, stderr, tt.code, tt.prefix)
				}
			}
		})
	}
}

// test's plumbing, which holds whatever the matcher: no rule asks for a
// command, bad folders are errors and bad command lines usage errors.
func TestTestCommandPlumbing(t *testing.T) {
	e := setup(t)
	t.Chdir(e.project) // the default folder
	if code, out, stderr := runCLI(t, "test", "Bash", "make build"); code != 3 || !strings.HasPrefix(out, "ask\n") || stderr != "" {
		t.Errorf("no rule: exit %d, %q, %q; want 3 and ask", code, out, stderr)
	}
	if code, _, stderr := runCLI(t, "test", "--project", filepath.Join(e.dir, "nope"), "Bash", "ls"); code != 1 || !strings.Contains(stderr, "--project") {
		t.Errorf("missing folder: exit %d, %q; want 1", code, stderr)
	}
	if code, _, stderr := runCLI(t, "test", "--", "Bash", "-x"); code != 3 || stderr != "" {
		t.Errorf("operands after --: exit %d, %q; want 3", code, stderr)
	}
}

// What the caller knows beyond the files (Latch's own flags) is part of the
// view and of the tester's verdict.
func TestViewInputFromTheCaller(t *testing.T) {
	e := setup(t)
	var asked string
	opt := Options{ViewInput: func(dir string) grants.ViewInput {
		asked = dir
		return grants.ViewInput{Workdir: dir, AllowedTools: []string{"Bash(make build)"}}
	}}
	var out, errb strings.Builder
	if code := RunWith([]string{"test", "--project", e.project, "Bash", "make build"}, &out, &errb, opt); code != 0 || !strings.Contains(out.String(), "Bash(make build)") {
		t.Errorf("exit %d, %q %q; want 0, allowed by the caller's flag", code, out.String(), errb.String())
	}
	if asked != e.project {
		t.Errorf("the view was asked for %q, want %q", asked, e.project)
	}
	out.Reset()
	if code := RunWith([]string{"list", "--effective", "--project", e.project}, &out, &errb, opt); code != 0 || !strings.Contains(out.String(), "Bash(make build)") {
		t.Errorf("list --effective: exit %d, %q", code, out.String())
	}
}
