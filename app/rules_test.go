package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestIsBroadRule(t *testing.T) {
	for rule, want := range map[string]bool{"Bash": true, "Edit": true, "Write": true, "Read": true, " Bash ": true,
		"Bash(ls)": false, "WebSearch": false, "Edit(//w/**)": false} {
		if got := IsBroadRule(rule); got != want {
			t.Errorf("IsBroadRule(%q) = %v", rule, got)
		}
	}
}

// A folder grant says what it allows: reading is a Read rule; reading and
// writing is the folder itself with an Edit rule, so a Write there does not
// ask again.
func TestFolderGrantAccess(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name      string
		readOnly  []string
		wantRules []string
		wantDirs  []string
	}{
		{"read and write", nil, []string{"Edit(/" + dir + "/**)"}, []string{dir}},
		{"read only", []string{dir}, []string{"Read(/" + dir + "/**)"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			settings := filepath.Join(t.TempDir(), "settings.json")
			rules, dirs, err := saveGrants(Decision{Folders: []string{dir}, ReadOnly: tc.readOnly, Scope: ScopeUser}, settings, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(rules, ",") != strings.Join(tc.wantRules, ",") || strings.Join(dirs, ",") != strings.Join(tc.wantDirs, ",") {
				t.Errorf("rules %v dirs %v; want %v %v", rules, dirs, tc.wantRules, tc.wantDirs)
			}
			b, _ := os.ReadFile(settings)
			for _, r := range tc.wantRules {
				if !strings.Contains(string(b), r) {
					t.Errorf("settings lack %s: %s", r, b)
				}
			}
			if (len(tc.wantDirs) > 0) != strings.Contains(string(b), "additionalDirectories") {
				t.Errorf("settings: %s", b)
			}
		})
	}
}
