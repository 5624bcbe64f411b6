package grants

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestStoreEditsRealWorldFiles(t *testing.T) {
	tests := []struct {
		name, file string
		op         string   // allow, revoke, add-dir, remove-dir
		args       []string // "$DIR" is an existing folder
		wantErr    string   // substring of the error; the file must stay byte-identical
		want       string   // the whole file afterwards, when given ("$DIR" substituted)
		wantAllow  []string // permissions.allow afterwards, when given
		wantDirs   []string // permissions.additionalDirectories afterwards, when given
	}{
		{name: "blank file becomes a 2-space document", file: "empty.json", op: "allow", args: []string{"Bash"},
			want: "{\n  \"permissions\": {\n    \"allow\": [\n      \"Bash\"\n    ]\n  }\n}\n"},
		{name: "{} gets indented", file: "emptyobj.json", op: "allow", args: []string{"Bash", "Read"},
			want: "{\n  \"permissions\": {\n    \"allow\": [\n      \"Bash\",\n      \"Read\"\n    ]\n  }\n}"},
		{name: "hooks: append to allow", file: "hooks.json", op: "allow", args: []string{"Bash(go test:*)"},
			wantAllow: []string{"Bash(npm run lint)", "Bash(npm run test:*)", "Read(~/.zshrc)", "Bash(go test:*)"}},
		{name: "hooks: duplicates skipped", file: "hooks.json", op: "allow", args: []string{"Bash(npm run lint)", "WebSearch", "WebSearch"},
			wantAllow: []string{"Bash(npm run lint)", "Bash(npm run test:*)", "Read(~/.zshrc)", "WebSearch"}},
		{name: "hooks: revoke the middle rule", file: "hooks.json", op: "revoke", args: []string{"Bash(npm run test:*)"},
			wantAllow: []string{"Bash(npm run lint)", "Read(~/.zshrc)"}},
		{name: "hooks: revoke all", file: "hooks.json", op: "revoke", args: []string{"Bash(npm run lint)", "Bash(npm run test:*)", "Read(~/.zshrc)"},
			wantAllow: []string{}},
		{name: "hooks: add a dir creates the array", file: "hooks.json", op: "add-dir", args: []string{"$DIR/"},
			wantDirs: []string{"$DIR"}},
		{name: "env and statusLine: permissions appended at the end", file: "env_statusline.json", op: "allow", args: []string{"Bash(go test:*)"},
			want: strings.TrimSuffix(readTestdata(t, "env_statusline.json"), "\n}\n") +
				",\n  \"permissions\": {\n    \"allow\": [\n      \"Bash(go test:*)\"\n    ]\n  }\n}\n"},
		{name: "plugins: allow added after the other keys", file: "plugins.json", op: "allow", args: []string{"Bash"},
			want: strings.Replace(readTestdata(t, "plugins.json"), "\"../docs/\"\n    ]", "\"../docs/\"\n    ],\n    \"allow\": [\n      \"Bash\"\n    ]", 1)},
		{name: "plugins: add a dir", file: "plugins.json", op: "add-dir", args: []string{"$DIR"},
			want: strings.Replace(readTestdata(t, "plugins.json"), "\"../docs/\"", "\"../docs/\",\n      \"$DIR\"", 1)},
		// The emptied array is laid out as an add would have made it, so
		// its key goes (see undoAdd).
		{name: "plugins: remove a relative dir as written", file: "plugins.json", op: "remove-dir", args: []string{"../docs"},
			wantDirs: []string{}, want: strings.Replace(readTestdata(t, "plugins.json"), ",\n    \"additionalDirectories\": [\n      \"../docs/\"\n    ]", "", 1)},
		{name: "deep nesting: only the top-level allow", file: "deep.json", op: "allow", args: []string{"WebSearch"},
			want: strings.Replace(readTestdata(t, "deep.json"), "\"allow\": [],", "\"allow\": [\n      \"WebSearch\"\n    ],", 1)},
		{name: "unicode: revoke matches an escaped rule", file: "unicode.json", op: "revoke", args: []string{"Bash(npm run test:*)"},
			want: strings.Replace(readTestdata(t, "unicode.json"), ",\n      \"Bash(npm run test:\\u002a)\"", "", 1)},
		{name: "unicode: add non-ASCII", file: "unicode.json", op: "allow", args: []string{"Read(//home/jörg/**)"},
			wantAllow: []string{"Bash(echo 'héllo wörld')", "Bash(npm run test:*)", "Read(//home/jörg/**)"}},
		{name: "odd indentation kept", file: "odd_indent.json", op: "allow", args: []string{"Bash(x)"},
			want: strings.Replace(readTestdata(t, "odd_indent.json"), `"WebFetch(domain:example.com)" ]`, `"WebFetch(domain:example.com)",   "Bash(x)" ]`, 1)},
		{name: "tabs used for a new array", file: "odd_indent.json", op: "add-dir", args: []string{"$DIR"},
			want: strings.Replace(readTestdata(t, "odd_indent.json"), "\"deny\"  :[]", "\"deny\"  :[],\n\t\t\"additionalDirectories\" : [\n\t\t\t\"$DIR\"\n\t\t]", 1)},
		{name: "CRLF kept", file: "crlf.json", op: "allow", args: []string{"Bash(go build:*)"},
			want: strings.Replace(readTestdata(t, "crlf.json"), "\"Bash(make:*)\"", "\"Bash(make:*)\",\r\n            \"Bash(go build:*)\"", 1)},
		{name: "CRLF in a new array", file: "crlf.json", op: "add-dir", args: []string{"$DIR"},
			want: strings.Replace(readTestdata(t, "crlf.json"), "        ]\r\n", "        ],\r\n        \"additionalDirectories\": [\r\n            \"$DIR\"\r\n        ]\r\n", 1)},
		{name: "compact stays compact", file: "compact.json", op: "add-dir", args: []string{"$DIR"},
			want: `{"permissions":{"allow":["Bash(ls:*)"],"deny":[],"additionalDirectories":["$DIR"]},"env":{"A":"1"}}`},
		{name: "compact append", file: "compact.json", op: "allow", args: []string{"Read"},
			want: `{"permissions":{"allow":["Bash(ls:*)","Read"],"deny":[]},"env":{"A":"1"}}`},
		{name: "inline permissions object stays inline", file: "inline_permissions.json", op: "add-dir", args: []string{"$DIR"},
			want: strings.Replace(readTestdata(t, "inline_permissions.json"), `"additionalDirectories": []`, `"additionalDirectories": ["$DIR"]`, 1)},
		{name: "BOM kept, null replaced", file: "bom_null.json", op: "allow", args: []string{"Bash"},
			want: "\xef\xbb\xbf{\n  \"permissions\": {\n    \"allow\": [\n      \"Bash\"\n    ]\n  }\n}\n"},
		{name: "comments refused", file: "comments.json", op: "allow", args: []string{"Bash"}, wantErr: "settings.json:2:3: invalid character '/'"},
		{name: "trailing comma refused", file: "trailing_comma.json", op: "revoke", args: []string{"Bash"}, wantErr: "settings.json:5:5: invalid character ']'"},
		{name: "permissions not an object", file: "permissions_string.json", op: "allow", args: []string{"Bash"}, wantErr: "settings.json:2:18: permissions is a string, want an object"},
		{name: "top level not an object", file: "top_array.json", op: "add-dir", args: []string{"$DIR"}, wantErr: "settings.json:1:1: the top level is not a JSON object"},
		{name: "invalid rule changes nothing", file: "hooks.json", op: "allow", args: []string{"WebSearch", "Bash(oops"}, wantErr: "missing the closing parenthesis"},
		{name: "relative dir changes nothing", file: "hooks.json", op: "add-dir", args: []string{"$DIR", "docs"}, wantErr: "absolute path"},
		{name: "revoke from a blank file writes nothing", file: "empty.json", op: "revoke", args: []string{"Bash"}, want: ""},
		{name: "revoke an absent rule writes nothing", file: "hooks.json", op: "revoke", args: []string{"Bash(absent)"}, want: readTestdata(t, "hooks.json")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, before := copyTestdata(t, tt.file)
			dir := t.TempDir()
			sub := func(s string) string { return strings.ReplaceAll(s, "$DIR", dir) }
			args := make([]string, len(tt.args))
			for i, a := range tt.args {
				args[i] = sub(a)
			}
			s := NewStore(path)
			var err error
			edited := allowPath
			switch tt.op {
			case "allow":
				err = s.AddRules(args...)
			case "revoke":
				err = s.RemoveRules(args...)
			case "add-dir":
				err, edited = s.AddDirs(false, args...), dirsPath
			case "remove-dir":
				err, edited = s.RemoveDirs(args...), dirsPath
			}
			after := readFile(t, path)
			noLeftovers(t, path)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				equalBytes(t, "refused file", after, before)
				if _, err := os.Stat(path + backupSuffix); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("a refused edit wrote a backup")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := onlyEdited(before, after, edited); err != nil {
				t.Error(err)
			}
			if tt.want != "" || tt.file == "empty.json" {
				equalBytes(t, "result", after, []byte(sub(tt.want)))
			}
			if string(after) != string(before) {
				equalBytes(t, "backup", readFile(t, path+backupSuffix), before)
			} else if _, err := os.Stat(path + backupSuffix); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("an edit that changed nothing wrote a backup")
			}
			p, err := s.Read()
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantAllow != nil && !slices.Equal(p.Allow, tt.wantAllow) {
				t.Errorf("allow = %q, want %q", p.Allow, tt.wantAllow)
			}
			if tt.wantDirs != nil {
				want := make([]string, len(tt.wantDirs))
				for i, d := range tt.wantDirs {
					want[i] = sub(d)
				}
				if !slices.Equal(p.AdditionalDirectories, want) {
					t.Errorf("additionalDirectories = %q, want %q", p.AdditionalDirectories, want)
				}
			}
		})
	}
}

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	return string(readFile(t, filepath.Join("testdata", name)))
}

func TestStoreRead(t *testing.T) {
	tests := []struct {
		file    string
		want    Permissions
		wantErr string
	}{
		{file: "plugins.json", want: Permissions{Allow: []string{}, Deny: []string{}, Ask: []string{"Bash(git push:*)"},
			AdditionalDirectories: []string{"../docs/"}, DefaultMode: "acceptEdits"}},
		{file: "hooks.json", want: Permissions{Allow: []string{"Bash(npm run lint)", "Bash(npm run test:*)", "Read(~/.zshrc)"},
			Deny: []string{"Bash(curl:*)", "Read(./.env)", "Read(./secrets/**)"}, Ask: []string{}, AdditionalDirectories: []string{}}},
		{file: "unicode.json", want: Permissions{Allow: []string{"Bash(echo 'héllo wörld')", "Bash(npm run test:*)"},
			Deny: []string{}, Ask: []string{}, AdditionalDirectories: []string{}}},
		{file: "env_statusline.json", want: Permissions{Allow: []string{}, Deny: []string{}, Ask: []string{}, AdditionalDirectories: []string{}}},
		{file: "empty.json", want: Permissions{Allow: []string{}, Deny: []string{}, Ask: []string{}, AdditionalDirectories: []string{}}},
		{file: "comments.json", wantErr: "settings.json:2:3"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path, _ := copyTestdata(t, tt.file)
			got, err := NewStore(path).Read()
			if tt.wantErr != "" {
				var se *SyntaxError
				if !errors.As(err, &se) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want a SyntaxError containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Allow, tt.want.Allow) || !slices.Equal(got.Deny, tt.want.Deny) || !slices.Equal(got.Ask, tt.want.Ask) ||
				!slices.Equal(got.AdditionalDirectories, tt.want.AdditionalDirectories) || got.DefaultMode != tt.want.DefaultMode {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
			if got.Allow == nil || got.Deny == nil || got.Ask == nil || got.AdditionalDirectories == nil {
				t.Errorf("nil slice in %+v", got)
			}
		})
	}
	if _, err := NewStore(filepath.Join(t.TempDir(), "missing.json")).Read(); err != nil {
		t.Errorf("missing file: %v", err)
	}
}
