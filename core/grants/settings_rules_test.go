package grants

import (
	"slices"
	"strings"
	"testing"
)

// Rules whose content holds parentheses that do not balance are rules to
// Claude Code, which takes everything between the first "(" and the final
// ")". Allowing one that the file already holds writes nothing.
func TestRulesWithParentheses(t *testing.T) {
	const (
		grep  = `Bash(grep -n "eval\(" src/*.py)`
		touch = `Bash(touch "z)" last.txt)`
		echo  = `Bash(echo ')(')`
		find  = `Bash(find . -name "*(1)*" -exec rm {} \;)`
	)
	file := readTestdata(t, "paren_rules.json")
	tests := []struct {
		name      string
		op        string
		args      []string
		want      string // the whole file afterwards; "" = unchanged, no backup
		wantErr   string
		wantAllow []string
	}{
		{name: "allow a rule already there", op: "allow", args: []string{grep}, wantAllow: []string{grep, touch, echo}},
		{name: "allow all of them again", op: "allow", args: []string{echo, touch, grep}, wantAllow: []string{grep, touch, echo}},
		{name: "allow a new one", op: "allow", args: []string{find},
			want:      strings.Replace(file, `"Bash(echo ')(')"`, `"Bash(echo ')(')",`+"\n      "+`"Bash(find . -name \"*(1)*\" -exec rm {} \\;)"`, 1),
			wantAllow: []string{grep, touch, echo, find}},
		{name: "revoke one", op: "revoke", args: []string{touch},
			want:      strings.Replace(file, "\n      \"Bash(touch \\\"z)\\\" last.txt)\",", "", 1),
			wantAllow: []string{grep, echo}},
		{name: "an escaped closing parenthesis is refused", op: "allow", args: []string{`Bash(echo \)`, find},
			wantErr: "escaped by a backslash", wantAllow: []string{grep, touch, echo}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, before := copyTestdata(t, "paren_rules.json")
			s := NewStore(path)
			err := op(s, tt.op, tt.args...)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			checkEdit(t, path, before, tt.want)
			p, err := s.Read()
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(p.Allow, tt.wantAllow) {
				t.Errorf("allow = %q, want %q", p.Allow, tt.wantAllow)
			}
			if want := []string{"Bash(rm -rf (*)"}; !slices.Equal(p.Deny, want) {
				t.Errorf("deny = %q, want %q", p.Deny, want)
			}
		})
	}
}

// Every rule a settings file of the corpus allows, denies or asks about is
// one ValidRule accepts: Latch never calls a rule in force invalid.
func TestValidRuleAcceptsTheCorpus(t *testing.T) {
	for _, name := range []string{"hooks.json", "plugins.json", "unicode.json", "paren_rules.json", "dup_keys.json", "dup_permissions.json", "odd_indent.json", "crlf.json"} {
		path, _ := copyTestdata(t, name)
		p, err := NewStore(path).Read()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, r := range slices.Concat(p.Allow, p.Deny, p.Ask) {
			if err := ValidRule(r); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
	}
}
