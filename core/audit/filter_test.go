package audit

import "testing"

func TestFilterMatch(t *testing.T) {
	denial := Entry{
		Kind: KindDenial, Folder: "/home/ada/src/latch", Tool: "Bash",
		Input: "rm -rf ./build", Path: "/tmp/Scratch", Message: "Permission denied",
		Class: "outside_workdir", Decider: ByWorkingDir, Source: "cli", File: "/home/ada/.claude/settings.json",
	}
	answer := Entry{Kind: KindAnswer, Folder: "/home/ada/src/latch/sub", Tool: "Edit", Decision: AnswerAlways, Rule: "Edit(/src/**)"}
	grant := Entry{Kind: KindGrant, Rules: []string{"Bash(npm run:*)"}, Folders: []string{"/opt/Data"}}
	weird := Entry{Kind: KindAsk, Folder: "/home/ada/src/latchkey", Input: "ÉCOLE 日本"}

	tests := []struct {
		name string
		f    Filter
		e    Entry
		want bool
	}{
		{"empty matches all", Filter{}, denial, true},
		{"empty matches empty entry", Filter{}, Entry{}, true},

		{"folder exact", Filter{Folder: "/home/ada/src/latch"}, denial, true},
		{"folder parent", Filter{Folder: "/home/ada"}, answer, true},
		{"folder trailing slash", Filter{Folder: "/home/ada/src/latch/"}, answer, true},
		{"folder root", Filter{Folder: "/"}, answer, true},
		{"folder not on a separator", Filter{Folder: "/home/ada/src/latch"}, weird, false},
		{"folder child of entry", Filter{Folder: "/home/ada/src/latch/sub"}, denial, false},
		{"folder unclean entry", Filter{Folder: "/a/b"}, Entry{Folder: "/a//b/./c"}, true},
		{"folder no folder in entry", Filter{Folder: "/home"}, grant, false},
		{"folder is case-sensitive", Filter{Folder: "/HOME/ada"}, denial, false},

		{"tool any case", Filter{Tool: "bash"}, denial, true},
		{"tool exact only", Filter{Tool: "Bas"}, denial, false},
		{"tool other", Filter{Tool: "Edit"}, denial, false},

		{"decision", Filter{Decision: "always"}, answer, true},
		{"decision any case", Filter{Decision: "ALWAYS"}, answer, true},
		{"decision by kind", Filter{Decision: "denial"}, denial, true},
		{"decision by kind grant", Filter{Decision: "Grant"}, grant, true},
		{"decision other", Filter{Decision: "deny"}, answer, false},
		{"decision not substring", Filter{Decision: "alw"}, answer, false},

		{"text in input", Filter{Text: "RM -RF"}, denial, true},
		{"text in path", Filter{Text: "scratch"}, denial, true},
		{"text in message", Filter{Text: "denied"}, denial, true},
		{"text in class", Filter{Text: "outside"}, denial, true},
		{"text in decider", Filter{Text: "working_dir"}, denial, true},
		{"text in source", Filter{Text: "CLI"}, denial, true},
		{"text in file", Filter{Text: ".claude/settings"}, denial, true},
		{"text in tool", Filter{Text: "bas"}, denial, true},
		{"text in rule", Filter{Text: "edit("}, answer, true},
		{"text in rules", Filter{Text: "npm run"}, grant, true},
		{"text in folders", Filter{Text: "data"}, grant, true},
		{"text non-ASCII any case", Filter{Text: "école"}, weird, true},
		{"text non-ASCII", Filter{Text: "日本"}, weird, true},
		{"text not in folder field", Filter{Text: "latchkey"}, weird, false},
		{"text not in kind", Filter{Text: "ask"}, weird, false},
		{"text missing", Filter{Text: "sudo"}, denial, false},
		{"text longer than fields", Filter{Text: "a very long needle that fits nowhere"}, answer, false},

		{"all fields", Filter{Folder: "/home/ada", Tool: "edit", Decision: "answer", Text: "src"}, answer, true},
		{"all fields one fails", Filter{Folder: "/home/ada", Tool: "edit", Decision: "answer", Text: "nope"}, answer, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.f.Match(tt.e); got != tt.want {
				t.Errorf("%+v.Match(%+v) = %v, want %v", tt.f, tt.e, got, tt.want)
			}
		})
	}
}

// The prepared matcher agrees with Match.
func TestMatcherAgreesWithMatch(t *testing.T) {
	es := []Entry{
		{Kind: KindDenial, Tool: "Bash", Folder: "/w/shop", Input: "rm -rf build"},
		{Kind: KindGrant, Rules: []string{"Bash(npm test:*)"}, Folder: "/w/shopx"},
		{Kind: KindAnswer, Decision: AnswerDeny, Tool: "Write", Folder: "/other"},
	}
	for _, f := range []Filter{{}, {Folder: "/w/shop"}, {Tool: "bash"}, {Decision: "denial"}, {Decision: "deny"}, {Text: "NPM"}, {Folder: "/w", Text: "rm"}} {
		m := f.Matcher()
		for _, e := range es {
			if m(&e) != f.Match(e) {
				t.Errorf("%+v on %+v: Matcher %v, Match %v", f, e, m(&e), f.Match(e))
			}
		}
	}
}
