package grants

import (
	"bytes"
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

var updateView = flag.Bool("update-view", false, "rewrite testdata/view/*/want.json")

// copyTree copies testdata/view/name into a fresh folder, with $ROOT in
// every file replaced by that folder, and returns the folder.
func copyTree(t *testing.T, name string) string {
	t.Helper()
	root := t.TempDir()
	src := filepath.Join("testdata", "view", name)
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(root, rel), 0o700)
		}
		if rel == "want.json" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(root, rel), bytes.ReplaceAll(data, []byte("$ROOT"), []byte(root)), 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// viewInput reads the tree copyTree made: proj is the working folder,
// the user, policy and state files sit beside it.
func viewInput(root string) ViewInput {
	return ViewInput{
		Workdir:         filepath.Join(root, "proj"),
		UserSettings:    filepath.Join(root, "user.json"),
		ManagedSettings: filepath.Join(root, "policy.json"),
		ClaudeJSON:      filepath.Join(root, "claude.json"),
	}
}

// The whole view of each testdata/view folder, against its want.json
// ($ROOT stands for the folder). Run with -update-view to rewrite them.
func TestComputeViewGolden(t *testing.T) {
	tests := []struct {
		name string
		more func(*ViewInput) // what Latch's flags, grant layer and session add
	}{
		// Every layer holds something; the folder is trusted.
		{"layers", func(in *ViewInput) {
			in.FlagAllow = []string{"Bash(npm run build)"}
			in.FlagAsk = []string{"Bash(npm publish:*)"}
			in.FlagDirs = []string{"/srv/granted"}
			in.AllowedTools = []string{"Bash", "Read", "Write", "Edit"}
			in.AddDirs = []string{"/tmp/latch-123"}
			in.SessionRules = []string{"WebFetch(domain:pkg.go.dev)"}
			in.SessionDirs = []string{"/srv/once"}
		}},
		// Only a subfolder and a sibling are trusted: the shared file's
		// allow rules are ignored, its ask and deny rules and the local
		// file's allow rules are not.
		{"untrusted", nil},
		// A malformed user and shared file give nothing and say where; a
		// blank local file counts as missing and stays editable.
		{"malformed", nil},
		// Keys that occur twice count as their last, defaultMode too; the
		// folder is trusted through its parent.
		{"dupkeys", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := copyTree(t, tt.name)
			in := viewInput(root)
			if tt.more != nil {
				tt.more(&in)
			}
			got, err := json.MarshalIndent(ComputeView(in), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(bytes.ReplaceAll(got, []byte(root), []byte("$ROOT")), '\n')
			wantFile := filepath.Join("testdata", "view", tt.name, "want.json")
			if *updateView {
				if err := os.WriteFile(wantFile, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(wantFile)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("view differs from %s:\n%s", wantFile, got)
			}
		})
	}
}

// viewLayer returns v's layer for source.
func viewLayer(t *testing.T, v View, source string) Layer {
	t.Helper()
	for _, l := range v.Layers {
		if l.Source == source {
			return l
		}
	}
	t.Fatalf("no %s layer", source)
	return Layer{}
}

func TestComputeViewLayerOrder(t *testing.T) {
	v := ComputeView(viewInput(t.TempDir()))
	if len(v.Layers) != len(Sources) {
		t.Fatalf("%d layers, want %d", len(v.Layers), len(Sources))
	}
	for i, l := range v.Layers {
		if l.Source != Sources[i] || l.Title == "" || l.Rules == nil || l.Folders == nil {
			t.Errorf("layer %d = %+v; want source %s, a title and non-nil lists", i, l, Sources[i])
		}
	}
	if v.Origin != "files" || v.Mode != "default" {
		t.Errorf("origin %q, mode %q", v.Origin, v.Mode)
	}
}

// The mode is the live one, else defaultMode of the first file that sets
// it in Claude Code's order: policy, local, shared project, user.
func TestComputeViewMode(t *testing.T) {
	file := func(mode string) string {
		if mode == "" {
			return `{"permissions": {}}`
		}
		return `{"permissions": {"defaultMode": "` + mode + `"}}`
	}
	tests := []struct {
		name                               string
		policy, local, project, user, live string
		want                               string
	}{
		{"none", "", "", "", "", "", "default"},
		{"user", "", "", "", "acceptEdits", "", "acceptEdits"},
		{"project over user", "", "", "plan", "acceptEdits", "", "plan"},
		{"local over project", "", "dontAsk", "plan", "acceptEdits", "", "dontAsk"},
		{"policy over all", "default", "dontAsk", "plan", "acceptEdits", "", "default"},
		{"the live mode over the files", "plan", "", "", "", "acceptEdits", "acceptEdits"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			in := viewInput(root)
			in.Mode = tt.live
			if err := os.MkdirAll(filepath.Join(in.Workdir, ".claude"), 0o700); err != nil {
				t.Fatal(err)
			}
			for path, mode := range map[string]string{
				in.ManagedSettings: tt.policy, in.UserSettings: tt.user,
				filepath.Join(in.Workdir, ".claude", "settings.json"): tt.project,
				ProjectSettingsPath(in.Workdir):                       tt.local,
			} {
				if err := os.WriteFile(path, []byte(file(mode)), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if got := ComputeView(in).Mode; got != tt.want {
				t.Errorf("mode %q, want %q", got, tt.want)
			}
		})
	}
}

// Latch edits the user and local files unless it cannot write them; it
// never edits the others.
func TestComputeViewEditable(t *testing.T) {
	const rules = `{"permissions": {"allow": ["Bash(ls)"], "additionalDirectories": ["/srv/x"]}}`
	tests := []struct {
		name         string
		prepare      func(t *testing.T, in ViewInput)
		source       string
		want         bool
		wantState    string
		wantReadOnly string // part of it; "" when editable
	}{
		{"user file", func(t *testing.T, in ViewInput) { writeMode(t, in.UserSettings, rules, 0o600) },
			SourceUser, true, FileOK, ""},
		{"missing user file", func(*testing.T, ViewInput) {}, SourceUser, true, FileMissing, ""},
		{"read-only user file", func(t *testing.T, in ViewInput) { writeMode(t, in.UserSettings, rules, 0o444) },
			SourceUser, false, FileOK, "read-only on disk"},
		{"malformed local file", func(t *testing.T, in ViewInput) { writeMode(t, ProjectSettingsPath(in.Workdir), "{,}", 0o600) },
			SourceLocal, false, FileMalformed, "line 1, column 2"},
		{"unreadable local file", func(t *testing.T, in ViewInput) {
			if err := os.MkdirAll(ProjectSettingsPath(in.Workdir), 0o700); err != nil {
				t.Fatal(err)
			}
		}, SourceLocal, false, FileUnreadable, "cannot read"},
		{"local file linked out of the project", func(t *testing.T, in ViewInput) {
			outside := t.TempDir()
			writeMode(t, filepath.Join(outside, "settings.local.json"), rules, 0o600)
			if err := os.Symlink(outside, filepath.Join(in.Workdir, ".claude")); err != nil {
				t.Fatal(err)
			}
		}, SourceLocal, false, FileOK, "outside the project"},
		{"local file", func(t *testing.T, in ViewInput) { writeMode(t, ProjectSettingsPath(in.Workdir), rules, 0o600) },
			SourceLocal, true, FileOK, ""},
		{"shared project file", func(t *testing.T, in ViewInput) {
			writeMode(t, filepath.Join(in.Workdir, ".claude", "settings.json"), rules, 0o600)
		}, SourceProject, false, FileOK, "Shared with everyone"},
		{"policy", func(t *testing.T, in ViewInput) { writeMode(t, in.ManagedSettings, rules, 0o600) },
			SourcePolicy, false, FileOK, "administrator"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := viewInput(t.TempDir())
			if err := os.Mkdir(in.Workdir, 0o700); err != nil {
				t.Fatal(err)
			}
			tt.prepare(t, in)
			l := viewLayer(t, ComputeView(in), tt.source)
			if l.Editable != tt.want || l.State != tt.wantState || (tt.wantReadOnly == "") != (l.ReadOnly == "") ||
				!strings.Contains(l.ReadOnly, tt.wantReadOnly) {
				t.Errorf("editable %v, state %s, read-only %q; want %v, %s, %q", l.Editable, l.State, l.ReadOnly, tt.want, tt.wantState, tt.wantReadOnly)
			}
			for _, r := range l.Rules {
				if r.Editable != tt.want {
					t.Errorf("rule %s editable %v, want %v", r.Rule, r.Editable, tt.want)
				}
			}
			for _, f := range l.Folders {
				if f.Editable != tt.want {
					t.Errorf("folder %s editable %v, want %v", f.Path, f.Editable, tt.want)
				}
			}
			if tt.wantState == FileOK && len(l.Rules)+len(l.Folders) != 2 {
				t.Errorf("rules %v, folders %v; want one of each", l.Rules, l.Folders)
			}
		})
	}
}

func writeMode(t *testing.T, path, content string, mode fs.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// Without a working folder there are no project files to read.
func TestComputeViewNoWorkdir(t *testing.T) {
	in := viewInput(t.TempDir())
	in.Workdir = ""
	v := ComputeView(in)
	for _, src := range []string{SourceProject, SourceLocal} {
		if l := viewLayer(t, v, src); l.File != "" || l.State != FileMissing || l.Editable {
			t.Errorf("%s: %+v", src, l)
		}
	}
	if v.Trusted {
		t.Error("no folder is trusted")
	}
}

func TestManagedSettingsPath(t *testing.T) {
	want := map[string]string{
		"darwin":  "/Library/Application Support/ClaudeCode/managed-settings.json",
		"windows": `C:\Program Files\ClaudeCode\managed-settings.json`,
		"linux":   "/etc/claude-code/managed-settings.json",
	}[runtime.GOOS]
	if want == "" {
		want = "/etc/claude-code/managed-settings.json"
	}
	if got := ManagedSettingsPath(); got != want {
		t.Errorf("%s: %q, want %q", runtime.GOOS, got, want)
	}
}

func TestReadingOf(t *testing.T) {
	tests := []struct{ rule, want string }{
		{"Bash", "Any Bash command"},
		{"PowerShell", "Any PowerShell command"},
		{"Read", "Any use of the Read tool"},
		{"WebFetch", "Any use of the WebFetch tool"},
		{"Bash(npm test:*)", "Any Bash command starting with npm test"},
		{"Bash(:*)", "Any Bash command"},
		{"Bash(npm test)", "The Bash command npm test, exactly"},
		{"Bash(git * main)", "Bash commands matching git * main (* is any text)"},
		{"Bash(npm run *)", "Bash commands matching npm run * (* is any text)"},
		{`Bash(grep -n "eval\(" src/*.py)`, `Bash commands matching grep -n "eval(" src/*.py (* is any text)`},
		{`Bash(touch "z\)")`, `The Bash command touch "z)", exactly`},
		{"Read(//srv/**)", "Read files in /srv and below"},
		{"Read(//**)", "Read files in / and below"},
		{"Read(//etc/hosts)", "Read /etc/hosts"},
		{"Read(//var/log/*.log)", "Read files matching /var/log/*.log"},
		{"Edit(~/x/**)", "Edit files in ~/x and below (your home)"},
		{"Edit(~/**)", "Edit files in your home folder and below"},
		{"Read(~/.zshrc)", "Read ~/.zshrc (your home)"},
		{"Read(/src/**)", "Read files in src below this settings file's folder"},
		{"Read(/**)", "Read files in this settings file's folder and below"},
		{"Edit(/src/**/*.ts)", "Edit files matching src/**/*.ts below this settings file's folder"},
		{"Read(./a/*.env)", "Read files matching a/*.env (relative to the working folder)"},
		{"Read(a/*.env)", "Read files matching a/*.env (relative to the working folder)"},
		{"Read(./.env)", "Read .env (relative to the working folder)"},
		{"Edit(docs/**)", "Edit files in docs and below (relative to the working folder)"},
		{"Edit(**)", "Edit files in the working folder and below"},
		{"Edit(./**)", "Edit files in the working folder and below"},
		{"Write(//tmp/out/**)", "Write files in /tmp/out and below"},
		{"MultiEdit(src/*.go)", "Edit files matching src/*.go (relative to the working folder)"},
		{"Grep(//srv/**)", "Search files in /srv and below"},
		{"WebFetch(domain:example.com)", "Fetch from example.com"},
		{"WebFetch(domain:*.example.com)", "Fetch from *.example.com"},
		{"mcp__srv", "Every tool of MCP server srv"},
		{"mcp__srv__*", "Every tool of MCP server srv"},
		{"mcp__srv__tool", "MCP tool tool of server srv"},
		{"mcp__my_srv__do__it", "MCP tool do__it of server my_srv"},
		{"WebSearch(query:golang)", "The WebSearch tool with query golang"},
		{"Task(Explore)", "The Task tool for Explore"},
		{"Agent(url:http://x)", "The Agent tool with url http://x"},
		{"Bash(oops", "Not a rule Claude Code reads: missing the closing parenthesis"},
		{"Bash()", "Not a rule Claude Code reads: empty parentheses; use the bare tool name to allow all of it"},
		{"", "Not a rule Claude Code reads: empty"},
	}
	for _, tt := range tests {
		if got := ReadingOf(tt.rule); got != tt.want {
			t.Errorf("ReadingOf(%q) = %q, want %q", tt.rule, got, tt.want)
		}
	}
}

func TestCallInput(t *testing.T) {
	tests := []struct{ tool, input, want string }{
		{"Bash", "rm -rf x", `{"command":"rm -rf x"}`},
		{"Bash", `echo "<a&b>" \ ok`, `{"command":"echo \"<a&b>\" \\ ok"}`},
		{"PowerShell", "Get-Item x", `{"command":"Get-Item x"}`},
		{"Read", "/etc/hosts", `{"file_path":"/etc/hosts"}`},
		{"Write", "out.txt", `{"file_path":"out.txt"}`},
		{"Edit", "a.go", `{"file_path":"a.go"}`},
		{"MultiEdit", "a.go", `{"file_path":"a.go"}`},
		{"NotebookEdit", "n.ipynb", `{"notebook_path":"n.ipynb"}`},
		{"Glob", "**/*.go", `{"pattern":"**/*.go"}`},
		{"Glob", "src/*.go", `{"pattern":"src/*.go"}`},
		{"Glob", "/etc", `{"path":"/etc"}`},
		{"Grep", "TODO", `{"pattern":"TODO"}`},
		{"Grep", "~/notes", `{"path":"~/notes"}`},
		{"Grep", "../lib", `{"path":"../lib"}`},
		{"Grep", ".", `{"path":"."}`},
		{"LS", "docs", `{"path":"docs"}`},
		{"WebFetch", "https://example.com/x", `{"url":"https://example.com/x"}`},
		{"WebSearch", "go generics", `{"query":"go generics"}`},
		{"mcp__srv__tool", "x", `{}`},
		{"Bash", `{"command": "ls", "timeout": 5}`, `{"command": "ls", "timeout": 5}`},
		{"Read", ` {"file_path": "/x"}`, ` {"file_path": "/x"}`},
	}
	for _, tt := range tests {
		got := CallInput(tt.tool, tt.input)
		if string(got) != tt.want {
			t.Errorf("CallInput(%q, %q) = %s, want %s", tt.tool, tt.input, got, tt.want)
		}
		if !json.Valid(got) {
			t.Errorf("CallInput(%q, %q) = %s: not JSON", tt.tool, tt.input, got)
		}
	}
}
