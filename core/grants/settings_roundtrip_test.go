package grants

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Revoking what Latch just allowed, or removing the folder it just added,
// gives back the file as it was, byte for byte, when Latch created the
// array or the permissions object, and when the person's own empty array
// or object received the entry. Where the bytes cannot tell which of two
// files the add started from, the result is the likelier one (undoAdd);
// those cases name the result they get.
func TestAddThenRemoveGivesBackTheFile(t *testing.T) {
	const rule = "Bash(go test ./...)"
	type step struct{ op, arg string } // "$DIR" is an existing folder
	allowRevoke := []step{{"allow", rule}, {"revoke", rule}}
	addRemove := []step{{"add-dir", "$DIR"}, {"remove-dir", "$DIR"}}
	tests := []struct {
		name       string
		file, data string // a testdata file, or the content
		missing    bool   // no file at first
		steps      []step
		want       string // the file at the end; "" = the original
	}{
		{name: "{}", file: "emptyobj.json", steps: allowRevoke},
		{name: "{} and a folder", file: "emptyobj.json", steps: addRemove},
		{name: "{} with a newline", data: "{}\n", steps: allowRevoke},
		{name: "no permissions", file: "env_statusline.json", steps: allowRevoke},
		{name: "no permissions, a folder", file: "env_statusline.json", steps: addRemove},
		{name: "permissions without allow", file: "plugins.json", steps: allowRevoke},
		{name: "permissions with one folder", file: "plugins.json", steps: addRemove},
		{name: "permissions with deny only", data: "{\n  \"permissions\": {\n    \"deny\": [\"Read(./.env)\"]\n  }\n}\n", steps: allowRevoke},
		{name: "allow with other rules", file: "hooks.json", steps: allowRevoke},
		{name: "hooks and a new folder array", file: "hooks.json", steps: addRemove},
		{name: "compact", file: "compact.json", steps: allowRevoke},
		{name: "compact, a new folder array", file: "compact.json", steps: addRemove},
		{name: "CRLF", file: "crlf.json", steps: allowRevoke},
		{name: "CRLF, a new folder array", file: "crlf.json", steps: addRemove},
		{name: "tabs and odd spacing", file: "odd_indent.json", steps: allowRevoke},
		{name: "tabs and odd spacing, a new folder array", file: "odd_indent.json", steps: addRemove},
		{name: "unicode", file: "unicode.json", steps: allowRevoke},
		{name: "a one-line file with other keys", data: `{"model":"opus","env":{"A":"1"}}`, steps: allowRevoke},
		{name: "a one-line file with other keys, a folder", data: `{"model":"opus","env":{"A":"1"}}`, steps: addRemove},
		{name: "duplicate permissions", file: "dup_permissions.json", steps: allowRevoke},
		{name: "duplicate permissions, a folder", file: "dup_permissions.json", steps: addRemove},
		{name: "duplicate keys", file: "dup_keys.json", steps: allowRevoke},
		{name: "duplicate keys, a folder", file: "dup_keys.json", steps: addRemove},
		{name: "parentheses", file: "paren_rules.json", steps: allowRevoke},
		{name: "20,000 levels deep", file: "deep_20000.json", steps: allowRevoke},
		{name: "20,000 levels deep, a folder", file: "deep_20000.json", steps: addRemove},

		// The person's empty containers come back as they were.
		{name: "an empty allow before other keys", file: "empty_arrays.json", steps: allowRevoke},
		{name: "an empty additionalDirectories last", file: "empty_arrays.json", steps: addRemove},
		{name: "an empty allow last", data: "{\n  \"permissions\": {\n    \"deny\": [],\n    \"allow\": []\n  }\n}\n", steps: allowRevoke},
		{name: "an empty allow alone", data: "{\n  \"permissions\": {\n    \"allow\": []\n  }\n}\n", steps: allowRevoke},
		{name: "an empty permissions object last", file: "empty_permissions.json", steps: allowRevoke},
		{name: "an empty permissions object, a folder", file: "empty_permissions.json", steps: addRemove},
		{name: "an empty allow in nested nesting", file: "deep.json", steps: allowRevoke},
		{name: "an empty array last in a one-line object", file: "inline_permissions.json", steps: addRemove},

		// Several edits undone in reverse order.
		{name: "allow, add-dir, remove-dir, revoke", file: "env_statusline.json",
			steps: []step{{"allow", rule}, {"add-dir", "$DIR"}, {"remove-dir", "$DIR"}, {"revoke", rule}}},
		{name: "allow two, revoke both", file: "emptyobj.json",
			steps: []step{{"allow", rule}, {"allow", "WebSearch"}, {"revoke", "WebSearch"}, {"revoke", rule}}},

		// Ties: the same bytes come from a likelier file.
		{name: "a blank file becomes {}", file: "empty.json", steps: allowRevoke, want: "{}\n"},
		{name: "a missing file becomes {}", missing: true, steps: allowRevoke, want: "{}\n"},
		{name: "an object holding a line break becomes {}", data: "{\n}\n", steps: allowRevoke, want: "{}\n"},
		{name: "a null allow goes", file: "bom_null.json", steps: allowRevoke, want: "\xef\xbb\xbf{}\n"},
		{name: "an empty array last in a one-line object goes", data: `{"permissions": {"deny": [], "allow": ["Read"], "additionalDirectories": []}}`,
			steps: addRemove, want: `{"permissions": {"deny": [], "allow": ["Read"]}}`},
		// Not in reverse order: the allow that stays behind is not last.
		{name: "allow, add-dir, revoke, remove-dir", file: "env_statusline.json",
			steps: []step{{"allow", rule}, {"add-dir", "$DIR"}, {"revoke", rule}, {"remove-dir", "$DIR"}},
			want:  strings.TrimSuffix(readTestdata(t, "env_statusline.json"), "\n}\n") + ",\n  \"permissions\": {\n    \"allow\": []\n  }\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var path string
			var before []byte
			switch {
			case tt.missing:
				path = filepath.Join(t.TempDir(), "settings.json")
			case tt.file != "":
				path, before = copyTestdata(t, tt.file)
			default:
				path, before = writeSettings(t, tt.data), []byte(tt.data)
			}
			dir := t.TempDir()
			s := NewStore(path)
			for _, st := range tt.steps {
				if err := op(s, st.op, strings.ReplaceAll(st.arg, "$DIR", dir)); err != nil {
					t.Fatalf("%s %s: %v", st.op, st.arg, err)
				}
				if err := checkObject(path, readFile(t, path)); err != nil {
					t.Fatalf("after %s: %v", st.op, err)
				}
			}
			want := before
			if tt.want != "" {
				want = []byte(tt.want)
			}
			equalBytes(t, "after the round trip", readFile(t, path), want)
			if blank(before) {
				return
			}
			// Whatever the bytes, Claude Code reads what it read before.
			got, err := s.Read()
			if err != nil {
				t.Fatal(err)
			}
			orig, err := NewStore(writeSettings(t, string(before))).Read()
			if err != nil {
				t.Fatal(err)
			}
			if !permsEqual(got, orig) {
				t.Errorf("permissions %+v, were %+v", got, orig)
			}
		})
	}
}

// A revoke that empties an array the person filled keeps the array and
// their other keys: only what an add would have created goes.
func TestEmptiedArraysThatStay(t *testing.T) {
	tests := []struct {
		name, data string
		op, arg    string
		want       string
	}{
		{name: "allow before deny", data: "{\n  \"permissions\": {\n    \"allow\": [\n      \"Bash\"\n    ],\n    \"deny\": []\n  }\n}\n",
			op: "revoke", arg: "Bash", want: "{\n  \"permissions\": {\n    \"allow\": [],\n    \"deny\": []\n  }\n}\n"},
		{name: "an escaped rule", data: "{\n  \"permissions\": {\n    \"allow\": [\n      \"Bash(npm run test:\\u002a)\"\n    ]\n  }\n}\n",
			op: "revoke", arg: "Bash(npm run test:*)", want: "{\n  \"permissions\": {\n    \"allow\": []\n  }\n}\n"},
		{name: "a hand-made layout", data: "{\n  \"permissions\": {\n    \"allow\": [ \"Bash\" ]\n  }\n}\n",
			op: "revoke", arg: "Bash", want: "{\n  \"permissions\": {\n    \"allow\": []\n  }\n}\n"},
		{name: "the same rule twice", data: "{\"permissions\": {\"allow\": [\"Bash\", \"Bash\"]}}",
			op: "revoke", arg: "Bash", want: "{\"permissions\": {\"allow\": []}}"},
		{name: "other rules stay as they were", data: "{\n  \"permissions\": {\n    \"allow\": [ \"Read\",\n\t\"Bash\" ,  \"Edit\" ]\n  }\n}\n",
			op: "revoke", arg: "Bash", want: "{\n  \"permissions\": {\n    \"allow\": [ \"Read\",\n\t\"Edit\" ]\n  }\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeSettings(t, tt.data)
			if err := op(NewStore(path), tt.op, tt.arg); err != nil {
				t.Fatal(err)
			}
			equalBytes(t, "file", readFile(t, path), []byte(tt.want))
			if _, err := os.Stat(path + backupSuffix); errors.Is(err, os.ErrNotExist) {
				t.Error("no backup")
			}
		})
	}
}

// An empty array or permissions object the person wrote where Latch would
// create one is filled on one line, so that a revoke can tell it from one
// Latch created; an empty array elsewhere is laid out like a new one.
func TestFillingTheirEmptyContainer(t *testing.T) {
	tests := []struct {
		name, data string
		rules      []string // allowed one at a time
		want       string
	}{
		{name: "allow alone", data: "{\n  \"permissions\": {\n    \"allow\": []\n  }\n}\n", rules: []string{"Read", "Edit"},
			want: "{\n  \"permissions\": {\n    \"allow\": [\"Read\", \"Edit\"]\n  }\n}\n"},
		{name: "allow last", data: "{\n  \"permissions\": {\n    \"deny\": [],\n    \"allow\": []\n  }\n}\n", rules: []string{"Read"},
			want: "{\n  \"permissions\": {\n    \"deny\": [],\n    \"allow\": [\"Read\"]\n  }\n}\n"},
		{name: "permissions last", data: "{\n  \"model\": \"opus\",\n  \"permissions\": {}\n}\n", rules: []string{"Read", "Edit"},
			want: "{\n  \"model\": \"opus\",\n  \"permissions\": {\"allow\": [\"Read\", \"Edit\"]}\n}\n"},
		{name: "allow first", data: "{\n  \"permissions\": {\n    \"allow\": [],\n    \"deny\": []\n  }\n}\n", rules: []string{"Read"},
			want: "{\n  \"permissions\": {\n    \"allow\": [\n      \"Read\"\n    ],\n    \"deny\": []\n  }\n}\n"},
		{name: "permissions first", data: "{\n  \"permissions\": {},\n  \"model\": \"opus\"\n}\n", rules: []string{"Read"},
			want: "{\n  \"permissions\": {\n    \"allow\": [\n      \"Read\"\n    ]\n  },\n  \"model\": \"opus\"\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeSettings(t, tt.data)
			s := NewStore(path)
			for _, r := range tt.rules {
				if err := s.AddRules(r); err != nil {
					t.Fatal(err)
				}
			}
			equalBytes(t, "filled", readFile(t, path), []byte(tt.want))
			for _, r := range slices.Backward(tt.rules) {
				if err := s.RemoveRules(r); err != nil {
					t.Fatal(err)
				}
			}
			equalBytes(t, "emptied", readFile(t, path), []byte(tt.data))
		})
	}
}
