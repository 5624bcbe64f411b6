package grants

import (
	"slices"
	"strings"
	"testing"
)

// op runs one store operation by its `latch grants` name.
func op(s *Store, name string, args ...string) error {
	switch name {
	case "allow":
		return s.AddRules(args...)
	case "revoke":
		return s.RemoveRules(args...)
	case "add-dir":
		return s.AddDirs(false, args...)
	case "remove-dir":
		return s.RemoveDirs(args...)
	}
	panic("unknown op " + name)
}

// permsEqual compares every field of two Permissions.
func permsEqual(a, b Permissions) bool {
	return slices.Equal(a.Allow, b.Allow) && slices.Equal(a.Deny, b.Deny) && slices.Equal(a.Ask, b.Ask) &&
		slices.Equal(a.AdditionalDirectories, b.AdditionalDirectories) && a.DefaultMode == b.DefaultMode
}

// A key that occurs twice counts once, as its last occurrence: Claude Code
// reads settings with JSON.parse. Read lists that one and edits change it,
// leaving the earlier one as it is.
func TestDuplicateKeysFollowClaudeCode(t *testing.T) {
	empty := []string{}
	tests := []struct {
		name, file string
		op         string // "" only reads
		args       []string
		want       string      // the whole file afterwards; "" = unchanged
		read       Permissions // what Read returns afterwards
	}{
		{name: "two permissions objects: the second counts", file: "dup_permissions.json",
			read: Permissions{Allow: []string{"Bash(npm run test:*)"}, Deny: []string{"Bash(rm -rf build)", "Read(./.env)"}, Ask: empty, AdditionalDirectories: empty}},
		{name: "allow goes into the second permissions", file: "dup_permissions.json", op: "allow", args: []string{"WebSearch"},
			want: strings.Replace(readTestdata(t, "dup_permissions.json"), `"Bash(npm run test:*)"`, `"Bash(npm run test:*)",`+"\n      \"WebSearch\"", 1),
			read: Permissions{Allow: []string{"Bash(npm run test:*)", "WebSearch"}, Deny: []string{"Bash(rm -rf build)", "Read(./.env)"}, Ask: empty, AdditionalDirectories: empty}},
		{name: "a rule only in the first permissions is not allowed yet", file: "dup_permissions.json", op: "allow", args: []string{"Bash(npm run lint)"},
			want: strings.Replace(readTestdata(t, "dup_permissions.json"), `"Bash(npm run test:*)"`, `"Bash(npm run test:*)",`+"\n      \"Bash(npm run lint)\"", 1),
			read: Permissions{Allow: []string{"Bash(npm run test:*)", "Bash(npm run lint)"}, Deny: []string{"Bash(rm -rf build)", "Read(./.env)"}, Ask: empty, AdditionalDirectories: empty}},
		{name: "revoking a rule only the first permissions holds changes nothing", file: "dup_permissions.json", op: "revoke", args: []string{"Bash(npm run lint)"},
			read: Permissions{Allow: []string{"Bash(npm run test:*)"}, Deny: []string{"Bash(rm -rf build)", "Read(./.env)"}, Ask: empty, AdditionalDirectories: empty}},
		{name: "revoke from the second permissions", file: "dup_permissions.json", op: "revoke", args: []string{"Bash(npm run test:*)"},
			want: strings.Replace(readTestdata(t, "dup_permissions.json"), "[\n      \"Bash(npm run test:*)\"\n    ]", "[]", 1),
			read: Permissions{Allow: empty, Deny: []string{"Bash(rm -rf build)", "Read(./.env)"}, Ask: empty, AdditionalDirectories: empty}},
		{name: "add-dir goes into the second permissions", file: "dup_permissions.json", op: "add-dir", args: []string{"$DIR"},
			want: strings.Replace(readTestdata(t, "dup_permissions.json"), "\"Read(./.env)\"\n    ]", "\"Read(./.env)\"\n    ],\n    \"additionalDirectories\": [\n      \"$DIR\"\n    ]", 1),
			read: Permissions{Allow: []string{"Bash(npm run test:*)"}, Deny: []string{"Bash(rm -rf build)", "Read(./.env)"}, Ask: empty, AdditionalDirectories: []string{"$DIR"}}},

		{name: "duplicate keys inside permissions: the last of each counts", file: "dup_keys.json",
			read: Permissions{Allow: []string{"Bash(git status)", "Bash(git diff:*)"}, Deny: empty, Ask: []string{"Bash(git push:*)"},
				AdditionalDirectories: []string{"/srv/new"}, DefaultMode: "default"}},
		{name: "a rule in the last allow is a no-op", file: "dup_keys.json", op: "allow", args: []string{"Bash(git diff:*)"},
			read: Permissions{Allow: []string{"Bash(git status)", "Bash(git diff:*)"}, Deny: empty, Ask: []string{"Bash(git push:*)"},
				AdditionalDirectories: []string{"/srv/new"}, DefaultMode: "default"}},
		{name: "a rule only in the first allow is added to the last", file: "dup_keys.json", op: "allow", args: []string{"Bash(git push:*)"},
			want: strings.Replace(readTestdata(t, "dup_keys.json"), `"Bash(git diff:*)"`, `"Bash(git diff:*)",`+"\n      \"Bash(git push:*)\"", 1),
			read: Permissions{Allow: []string{"Bash(git status)", "Bash(git diff:*)", "Bash(git push:*)"}, Deny: empty, Ask: []string{"Bash(git push:*)"},
				AdditionalDirectories: []string{"/srv/new"}, DefaultMode: "default"}},
		{name: "revoke edits the last allow only", file: "dup_keys.json", op: "revoke", args: []string{"Bash(git status)"},
			want: strings.Replace(readTestdata(t, "dup_keys.json"), "\"Bash(git status)\",\n      \"Bash(git diff:*)\"", `"Bash(git diff:*)"`, 1),
			read: Permissions{Allow: []string{"Bash(git diff:*)"}, Deny: empty, Ask: []string{"Bash(git push:*)"},
				AdditionalDirectories: []string{"/srv/new"}, DefaultMode: "default"}},
		// Dropping the emptied key would bring /srv/old back.
		{name: "emptying the last array keeps its key", file: "dup_keys.json", op: "remove-dir", args: []string{"/srv/new"},
			want: strings.Replace(readTestdata(t, "dup_keys.json"), "[\n      \"/srv/new\"\n    ]", "[]", 1),
			read: Permissions{Allow: []string{"Bash(git status)", "Bash(git diff:*)"}, Deny: empty, Ask: []string{"Bash(git push:*)"},
				AdditionalDirectories: empty, DefaultMode: "default"}},
		{name: "removing a folder only the first array holds changes nothing", file: "dup_keys.json", op: "remove-dir", args: []string{"/srv/old"},
			read: Permissions{Allow: []string{"Bash(git status)", "Bash(git diff:*)"}, Deny: empty, Ask: []string{"Bash(git push:*)"},
				AdditionalDirectories: []string{"/srv/new"}, DefaultMode: "default"}},

		{name: "an escaped key is the same key", file: "dup_escaped_key.json",
			read: Permissions{Allow: []string{"Read"}, Deny: []string{"Bash(make:*)"}, Ask: empty, AdditionalDirectories: empty}},
		{name: "an escaped key is edited", file: "dup_escaped_key.json", op: "allow", args: []string{"Bash(make:*)"},
			want: strings.Replace(readTestdata(t, "dup_escaped_key.json"), `["Read"]`, `["Read", "Bash(make:*)"]`, 1),
			read: Permissions{Allow: []string{"Read", "Bash(make:*)"}, Deny: []string{"Bash(make:*)"}, Ask: empty, AdditionalDirectories: empty}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, before := copyTestdata(t, tt.file)
			dir := t.TempDir()
			sub := func(s string) string { return strings.ReplaceAll(s, "$DIR", dir) }
			s := NewStore(path)
			if tt.op != "" {
				args := slices.Clone(tt.args)
				for i := range args {
					args[i] = sub(args[i])
				}
				if err := op(s, tt.op, args...); err != nil {
					t.Fatal(err)
				}
			}
			wantFile := tt.want
			if wantFile != "" {
				wantFile = sub(wantFile)
			}
			checkEdit(t, path, before, wantFile)
			got, err := s.Read()
			if err != nil {
				t.Fatal(err)
			}
			want := tt.read
			want.AdditionalDirectories = slices.Clone(want.AdditionalDirectories)
			for i := range want.AdditionalDirectories {
				want.AdditionalDirectories[i] = sub(want.AdditionalDirectories[i])
			}
			if !permsEqual(got, want) {
				t.Errorf("Read:\n got %+v\nwant %+v", got, want)
			}
		})
	}
}

// The value that counts decides whether there is anything to edit, even
// when an earlier occurrence would say otherwise.
func TestDuplicateKeysOfOtherKinds(t *testing.T) {
	tests := []struct {
		name, data string
		op         string
		args       []string
		want       string // the file afterwards; "" = unchanged
		wantErr    string
		read       []string // Read().Allow afterwards
	}{
		{name: "permissions null last: nothing is allowed", data: `{"permissions": {"allow": ["Bash"]}, "permissions": null}`,
			read: []string{}},
		{name: "permissions null last is replaced", data: `{"permissions": {"allow": ["Bash"]}, "permissions": null}`,
			op: "allow", args: []string{"Read"},
			want: `{"permissions": {"allow": ["Bash"]}, "permissions": {"allow": ["Read"]}}`, read: []string{"Read"}},
		{name: "allow a string last: refused where it is", data: "{\"permissions\": {\"allow\": [],\n \"allow\": \"Bash\"}}",
			op: "allow", args: []string{"Read"}, wantErr: "settings.json:2:11: permissions.allow is a string, want an array", read: []string{}},
		{name: "permissions an object last, after a string", data: `{"permissions": "none", "permissions": {"allow": ["Bash"]}}`,
			op: "allow", args: []string{"Read"},
			want: `{"permissions": "none", "permissions": {"allow": ["Bash", "Read"]}}`, read: []string{"Bash", "Read"}},
		{name: "revoke the last allow in a compact file keeps it", data: `{"permissions":{"allow":["A"],"allow":["B"]}}`,
			op: "revoke", args: []string{"B"}, want: `{"permissions":{"allow":["A"],"allow":[]}}`, read: []string{}},
		// The emptied allow may go, as an add into "{}" would have made it;
		// the object that counts stays, so the first does not count again.
		{name: "revoke the last permissions keeps it", data: "{\n  \"permissions\": {\n    \"allow\": [\n      \"A\"\n    ]\n  },\n  \"permissions\": {\n    \"allow\": [\n      \"B\"\n    ]\n  }\n}\n",
			op: "revoke", args: []string{"B"}, want: "{\n  \"permissions\": {\n    \"allow\": [\n      \"A\"\n    ]\n  },\n  \"permissions\": {}\n}\n", read: []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeSettings(t, tt.data)
			s := NewStore(path)
			if tt.op != "" {
				err := op(s, tt.op, tt.args...)
				if tt.wantErr != "" {
					if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
						t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
					}
				} else if err != nil {
					t.Fatal(err)
				}
			}
			want := tt.want
			if want == "" {
				want = tt.data
			}
			equalBytes(t, "file", readFile(t, path), []byte(want))
			p, err := s.Read()
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(p.Allow, tt.read) {
				t.Errorf("Read().Allow = %q, want %q", p.Allow, tt.read)
			}
		})
	}
}
