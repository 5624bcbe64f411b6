package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/latch-app/latch/core/grants"
	"github.com/latch-app/latch/core/stream"
)

func viewOf(layers ...grants.Layer) PermissionView {
	return PermissionView{Workdir: "/w", Origin: OriginFiles, Layers: layers}
}

func rule(behavior, source, r string) grants.RuleEntry {
	return grants.RuleEntry{Behavior: behavior, Source: source, Rule: r, Reading: "latch: " + r}
}

// The running CLI's rules are laid over the files' view: what both know
// keeps the file's layer and gains the CLI's reading, whatever source the
// CLI names; what only one side has is a difference, said in words.
func TestMergeCLI(t *testing.T) {
	user := grants.Layer{Source: grants.SourceUser, Rules: []grants.RuleEntry{rule("allow", grants.SourceUser, "Bash(npm test:*)"), rule("deny", grants.SourceUser, "Bash(rm:*)")}}
	flags := grants.Layer{Source: grants.SourceFlags, Rules: []grants.RuleEntry{rule("allow", grants.SourceFlags, "Edit(//x/**)")}}
	project := grants.Layer{Source: grants.SourceProject, Rules: []grants.RuleEntry{rule("allow", grants.SourceProject, "Bash(make:*)")}}
	tests := []struct {
		name     string
		cli      []stream.CLIRule
		srcs     []stream.CLISource
		reading  map[string]string // rule -> CLIReading wanted
		ignored  map[string]string // rule -> start of Ignored wanted
		extra    []string          // "source rule" appended from the CLI
		nDiffers int
	}{
		{
			name: "same rules, one mislabelled",
			cli: []stream.CLIRule{
				{Behavior: "allow", Source: "userSettings", Rule: "Bash(npm test:*)", Reading: "Any Bash command starting with npm test"},
				{Behavior: "deny", Source: "userSettings", Rule: "Bash(rm:*)"},
				{Behavior: "allow", Source: "localSettings", Rule: "Edit(//x/**)"}, // the CLI's label for the flag layer
				{Behavior: "allow", Source: "projectSettings", Rule: "Bash(make:*)"},
			},
			reading: map[string]string{"Bash(npm test:*)": "Any Bash command starting with npm test", "Edit(//x/**)": ""},
		},
		{
			name: "the CLI has not re-read a file",
			cli: []stream.CLIRule{
				{Behavior: "allow", Source: "userSettings", Rule: "Bash(npm test:*)"},
				{Behavior: "deny", Source: "userSettings", Rule: "Bash(rm:*)"},
				{Behavior: "allow", Source: "flagSettings", Rule: "Edit(//x/**)"},
			},
			srcs:     []stream.CLISource{{Source: "userSettings", Allow: []string{"Bash(npm test:*)"}}},
			ignored:  map[string]string{"Bash(make:*)": "not in force"},
			nDiffers: 1,
		},
		{
			name: "the CLI read a rule and left it out",
			cli: []stream.CLIRule{
				{Behavior: "allow", Source: "userSettings", Rule: "Bash(npm test:*)"},
				{Behavior: "deny", Source: "userSettings", Rule: "Bash(rm:*)"},
				{Behavior: "allow", Source: "flagSettings", Rule: "Edit(//x/**)"},
			},
			srcs:     []stream.CLISource{{Source: "projectSettings", Allow: []string{"Bash(make:*)"}}},
			ignored:  map[string]string{"Bash(make:*)": "Claude Code reads this rule but does not apply it"},
			nDiffers: 1,
		},
		{
			name: "a rule only the CLI has",
			cli: []stream.CLIRule{
				{Behavior: "allow", Source: "userSettings", Rule: "Bash(npm test:*)"},
				{Behavior: "deny", Source: "userSettings", Rule: "Bash(rm:*)"},
				{Behavior: "allow", Source: "flagSettings", Rule: "Edit(//x/**)"},
				{Behavior: "allow", Source: "projectSettings", Rule: "Bash(make:*)"},
				{Behavior: "ask", Source: "policySettings", Rule: "WebFetch"},
			},
			extra:    []string{"policySettings WebFetch"},
			nDiffers: 1,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := mergeCLI(viewOf(user, flags, project), stream.CLIRules{Rules: tc.cli}, tc.srcs)
			if v.Origin != OriginCLI {
				t.Errorf("origin %q", v.Origin)
			}
			var extra []string
			for _, l := range v.Layers {
				for _, e := range l.Rules {
					if e.Source != l.Source {
						t.Errorf("rule %s moved to layer %s", e.Rule, l.Source)
					}
					if want, ok := tc.reading[e.Rule]; ok && e.CLIReading != want {
						t.Errorf("%s: CLI reading %q, want %q", e.Rule, e.CLIReading, want)
					}
					if want := tc.ignored[e.Rule]; !strings.HasPrefix(e.Ignored, want) || (want == "") != (e.Ignored == "") {
						t.Errorf("%s: ignored %q, want %q", e.Rule, e.Ignored, want)
					}
					if l.Source != grants.SourceUser && l.Source != grants.SourceFlags && l.Source != grants.SourceProject {
						extra = append(extra, l.Source+" "+e.Rule)
					}
				}
			}
			if !slices.Equal(extra, tc.extra) {
				t.Errorf("appended %v, want %v", extra, tc.extra)
			}
			if len(v.Differences) != tc.nDiffers {
				t.Errorf("differences %q, want %d", v.Differences, tc.nDiffers)
			}
		})
	}
}

func TestCLIErrorInWords(t *testing.T) {
	for _, tc := range []struct {
		err  CLIError
		want string
	}{
		{CLIError{Code: "bypass_not_launched", Text: "Cannot set permission mode…"}, "--dangerously-skip-permissions"},
		{CLIError{Code: "unsupported_request", Text: "Unsupported control request subtype: x"}, "does not offer that"},
		{CLIError{Text: "bad\x1b[31m mode"}, `Claude Code refused: bad\x1b[31m mode`},
		{CLIError{}, "without saying why"},
	} {
		if got := tc.err.Error(); !strings.Contains(got, tc.want) {
			t.Errorf("%+v: %q, want it to hold %q", tc.err, got, tc.want)
		}
	}
}

func TestClaudeHomeFollowsTheCLIsEnvironment(t *testing.T) {
	for _, tc := range []struct {
		env        []string
		json, home string
	}{
		{[]string{"HOME=/h"}, "/h/.claude.json", "/h"},
		{[]string{"HOME=/h", "CLAUDE_CONFIG_DIR=/c"}, "/c/.claude.json", "/h"},
		{[]string{"HOME=/a", "HOME=/b"}, "/b/.claude.json", "/b"},
		{[]string{"PATH=/bin"}, "", ""},
	} {
		j, h := claudeHome(tc.env)
		if j != tc.json || h != tc.home {
			t.Errorf("%v: %q %q, want %q %q", tc.env, j, h, tc.json, tc.home)
		}
	}
}

// Without a session the inspector reads the files, removes rules from the
// user and local files only (every behaviour, byte-safe), and records trust
// in ~/.claude.json; each edit is in the audit log.
func TestFileInspector(t *testing.T) {
	home, _ := settingsWorld(t, "")
	work := t.TempDir()
	user := filepath.Join(home, ".claude", "settings.json")
	local := filepath.Join(work, ".claude", "settings.local.json")
	shared := filepath.Join(work, ".claude", "settings.json")
	writeTestFile(t, user, "{\n  \"permissions\": {\n    \"allow\": [\"Bash(ls:*)\", \"WebSearch\"],\n    \"deny\": [\"Bash(rm:*)\"]\n  }\n}\n")
	writeTestFile(t, local, `{"permissions":{"ask":["WebFetch"],"additionalDirectories":["/srv"]}}`)
	writeTestFile(t, shared, `{"permissions":{"allow":["Bash(make:*)"]}}`)
	s := LoadSettings()
	logPath := filepath.Join(t.TempDir(), "audit.jsonl")
	a := OpenAuditAt(logPath, func(err error) { t.Errorf("audit: %v", err) })
	s.UseAudit(a)
	in := s.Inspector(work)
	v, err := in.Permissions(context.Background())
	if err != nil || v.Origin != OriginFiles {
		t.Fatalf("%v %+v", err, v)
	}
	find := func(v PermissionView, r string) (grants.RuleEntry, bool) {
		for _, l := range v.Layers {
			for _, e := range l.Rules {
				if e.Rule == r {
					return e, true
				}
			}
		}
		return grants.RuleEntry{}, false
	}
	deny, ok := find(v, "Bash(rm:*)")
	if !ok || !deny.Editable {
		t.Fatalf("user deny rule %+v", deny)
	}
	if err := in.RemoveRule(deny); err != nil {
		t.Fatal(err)
	}
	if got := readTestFile(t, user); got != "{\n  \"permissions\": {\n    \"allow\": [\"Bash(ls:*)\", \"WebSearch\"],\n    \"deny\": []\n  }\n}\n" {
		t.Errorf("user file after removing the deny rule:\n%s", got)
	}
	ask, _ := find(v, "WebFetch")
	if err := in.RemoveRule(ask); err != nil {
		t.Fatal(err)
	}
	if got := readTestFile(t, local); strings.Contains(got, "WebFetch") {
		t.Errorf("local file still asks: %s", got)
	}
	make_, _ := find(v, "Bash(make:*)")
	make_.Editable = true // even when a caller says so, the shared file is not Latch's to edit
	if err := in.RemoveRule(make_); err == nil || !strings.Contains(readTestFile(t, shared), "make") {
		t.Errorf("removed a rule from the project's shared file: %v", err)
	}
	forged := grants.RuleEntry{Behavior: "allow", Source: grants.SourceLocal, Rule: "X", File: "/etc/passwd", Editable: true}
	if err := in.RemoveRule(forged); err == nil {
		t.Error("a rule naming another file was removed from it")
	}
	if err := in.TrustFolder(context.Background()); err != nil {
		t.Fatal(err)
	}
	if v, _ := in.Permissions(context.Background()); !v.Trusted {
		t.Error("not trusted after TrustFolder")
	}
	if _, err := in.SetMode(context.Background(), ModePlan); err == nil || len(in.Modes()) != 0 {
		t.Error("a mode was switched without a session")
	}
	a.Close()
	entries, err := a.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Kind+" "+strings.Join(e.Rules, ","))
	}
	if want := []string{"trust ", "revoke WebFetch", "revoke Bash(rm:*)"}; !slices.Equal(got, want) {
		t.Errorf("audit log %q, want %q", got, want)
	}
	if _, err := os.Stat(filepath.Join(home, ".claude.json")); errors.Is(err, os.ErrNotExist) {
		t.Error("no ~/.claude.json written")
	}
}
