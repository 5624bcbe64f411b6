package grants

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestRule(t *testing.T) {
	tests := []struct{ tool, content, want string }{
		{"Bash", "", "Bash"},
		{"Bash", "npm run test:*", "Bash(npm run test:*)"},
		{"WebFetch", "domain:example.com", "WebFetch(domain:example.com)"},
	}
	for _, tt := range tests {
		if got := rule(tt.tool, tt.content); got != tt.want {
			t.Errorf("rule(%q, %q) = %q, want %q", tt.tool, tt.content, got, tt.want)
		}
		if err := ValidRule(rule(tt.tool, tt.content)); err != nil {
			t.Errorf("built rule rejected: %v", err)
		}
	}
}

func TestCommandRule(t *testing.T) {
	tests := []struct{ command, want string }{
		{"rm -rf build", "Bash(rm -rf build)"},
		{"  npm test\n", "Bash(npm test)"},
		{`grep -n "eval\(" x`, `Bash(grep -n "eval\\\(" x)`},
		{"echo (a) b\\", `Bash(echo \(a\) b\\)`},
		{"cat <<EOF\nx\nEOF", ""}, // no rule can hold a line break
		{"", ""},
		{" \t", ""},
	}
	for _, tt := range tests {
		got := CommandRule("Bash", tt.command)
		if got != tt.want {
			t.Errorf("CommandRule(Bash, %q) = %q, want %q", tt.command, got, tt.want)
		}
		if got == "" {
			continue
		}
		if tool, content := ParseRule(got); tool != "Bash" || content != strings.TrimSpace(tt.command) {
			t.Errorf("%q reads back as %q, %q", got, tool, content)
		}
	}
}

func TestFolderRule(t *testing.T) {
	tests := []struct{ tool, dir, want string }{
		{"Read", "/abs/dir", "Read(//abs/dir/**)"},
		{"Edit", "/abs/dir/", "Edit(//abs/dir/**)"},
		{"Read", "/abs/./x/../dir", "Read(//abs/dir/**)"},
		{"Edit", "/srv/a (1)", `Edit(//srv/a \(1\)/**)`},
		{"Read", `/srv/back\slash`, `Read(//srv/back\\slash/**)`},
		{"Read", "/", ""},       // no narrow rule for the root
		{"Read", "rel/dir", ""}, // one slash would mean "relative to the settings file"
		{"Read", "", ""},
		{"Read", "/a\nb", ""}, // no rule can hold a line break
	}
	for _, tt := range tests {
		got := FolderRule(tt.tool, tt.dir)
		if got != tt.want {
			t.Errorf("FolderRule(%q, %q) = %q, want %q", tt.tool, tt.dir, got, tt.want)
		}
		if got == "" {
			continue
		}
		if tool, content := ParseRule(got); tool != tt.tool || content != "/"+filepath.Clean(tt.dir)+"/**" {
			t.Errorf("%q reads back as %q, %q", got, tool, content)
		}
	}
}

func TestDomainRule(t *testing.T) {
	for host, want := range map[string]string{
		"docs.example.com": "WebFetch(domain:docs.example.com)",
		"":                 "",
		"a\nb":             "",
	} {
		if got := DomainRule(host); got != want {
			t.Errorf("DomainRule(%q) = %q, want %q", host, got, want)
		}
	}
}

func TestValidRule(t *testing.T) {
	tests := []struct {
		rule    string
		wantErr string // "" = valid
	}{
		{"Bash", ""},
		{"Bash(npm run test:*)", ""},
		{"Bash(echo (nested) ok)", ""},
		{"Read(//home/u/**)", ""},
		{"mcp__github__create_issue", ""},
		{"mcp__puppeteer__*", ""},
		{"WebFetch(domain:example.com)", ""},
		{"", "empty"},
		{"   ", "empty"},
		{" Bash", "whitespace"},
		{"Bash\n", "whitespace"},
		{"Bash(a\nb)", "control character"},
		{"Bash(npm", "closing parenthesis"},
		{"Bash)", "tool name"},
		// Claude Code takes the content from the first "(" to the last
		// ")" as written: inner parentheses need not balance.
		{"Bash(a))", ""},
		{"Bash((a)", ""},
		{`Bash(grep -n "eval\(" src/*.py)`, ""},
		{`Bash(touch "z)" last.txt)`, ""},
		{"Bash(echo ')(')", ""},
		{"Bash(()", ""},
		{"Bash())", ""},
		{`Bash(echo \\)`, ""}, // an escaped backslash, then the closing ")"
		{`Bash(echo \)`, "escaped by a backslash"},
		{`Bash(echo \\\)`, "escaped by a backslash"},
		{"Bash(a)(b", "closing parenthesis"},
		{"Bash(a) ", "whitespace"},
		{"Bash(\t)", "control character"},
		{"Bash( )", "empty parentheses"},
		{"B(ash)x", "closing parenthesis"},
		{"Bash(x)\u00a0", "whitespace"},
		{"Bash()", "empty parentheses"},
		{"(ls)", "tool name"},
		{"1Bash", "tool name"},
		{"Ba sh", "tool name"},
		{"Bash(x) trailing", "closing parenthesis"},
	}
	for _, tt := range tests {
		err := ValidRule(tt.rule)
		if tt.wantErr == "" {
			if err != nil {
				t.Errorf("ValidRule(%q) = %v, want ok", tt.rule, err)
			}
		} else if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("ValidRule(%q) = %v, want an error about %q", tt.rule, err, tt.wantErr)
		}
	}
}

func TestCheckDir(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	dir := t.TempDir()
	file := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		dir       string
		force     bool
		want      string
		wantErr   string
		wantForce bool
	}{
		{dir: dir, want: dir},
		{dir: dir + "/sub/../", want: dir}, // cleaned lexically, like Claude Code does
		{dir: dir + "//./", want: dir},
		{dir: "relative/path", wantErr: "absolute path"},
		{dir: "~/x", wantErr: "absolute path"},
		{dir: "", wantErr: "no folder"},
		{dir: filepath.Join(dir, "missing"), wantErr: "no such folder"},
		{dir: file, wantErr: "not a folder"},
		{dir: "/", wantForce: true},
		{dir: "/", force: true, want: "/"},
		{dir: home, wantForce: true},
		{dir: home + "/", wantForce: true},
		{dir: home, force: true, want: home},
	}
	for _, tt := range tests {
		got, err := CheckDir(tt.dir, tt.force)
		switch {
		case tt.wantForce:
			if !errors.Is(err, ErrNeedsForce) {
				t.Errorf("CheckDir(%q, %v) = %q, %v; want ErrNeedsForce", tt.dir, tt.force, got, err)
			}
		case tt.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("CheckDir(%q) = %q, %v; want an error about %q", tt.dir, got, err, tt.wantErr)
			}
		default:
			if err != nil || got != tt.want {
				t.Errorf("CheckDir(%q, %v) = %q, %v; want %q", tt.dir, tt.force, got, err, tt.want)
			}
		}
	}
}

func TestAllowedTools(t *testing.T) {
	tests := []struct {
		baseline          bool
		configured, extra []string
		want              []string
	}{
		{true, nil, nil, []string{"Bash", "Read", "Write", "Edit"}},
		{false, nil, nil, []string{}},
		{true, []string{"WebFetch", "Bash", " Read "}, []string{"Edit", "Bash(git:*)", "WebFetch", ""},
			[]string{"Bash", "Read", "Write", "Edit", "WebFetch", "Bash(git:*)"}},
		{false, []string{"Grep", "Grep"}, []string{"Bash"}, []string{"Grep", "Bash"}},
	}
	for _, tt := range tests {
		if got := AllowedTools(tt.baseline, tt.configured, tt.extra); !slices.Equal(got, tt.want) {
			t.Errorf("AllowedTools(%v, %q, %q) = %q, want %q", tt.baseline, tt.configured, tt.extra, got, tt.want)
		}
	}
	if !slices.Equal(BaselineTools, []string{"Bash", "Read", "Write", "Edit"}) {
		t.Errorf("AllowedTools changed BaselineTools: %q", BaselineTools)
	}
}

func TestEscapeAndParseRule(t *testing.T) {
	for _, content := range []string{"touch x", `grep -n "eval\(" x`, "a (b) c", `back\slash`, "//srv/a (1)/**"} {
		r := rule("Bash", escapeContent(content))
		if err := ValidRule(r); err != nil {
			t.Errorf("%q: %v", r, err)
		}
		if tool, got := ParseRule(r); tool != "Bash" || got != content {
			t.Errorf("ParseRule(%q) = %q, %q; want Bash, %q", r, tool, got, content)
		}
	}
	if tool, content := ParseRule("WebSearch"); tool != "WebSearch" || content != "" {
		t.Errorf("bare: %q %q", tool, content)
	}
}
