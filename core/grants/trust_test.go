package grants

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// trustDir is a project folder that does not exist, so that resolving it
// changes nothing and the expected keys can be written out.
const trustDir = "/nonexistent-latch/proj"

func TestClaudeJSONPath(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	if got, err := ClaudeJSONPath(); err != nil || got != filepath.Join(home, ".claude.json") {
		t.Errorf("without CLAUDE_CONFIG_DIR: %q, %v", got, err)
	}
	t.Setenv("CLAUDE_CONFIG_DIR", "/cfg")
	if got, err := ClaudeJSONPath(); err != nil || got != filepath.Join("/cfg", ".claude.json") {
		t.Errorf("with CLAUDE_CONFIG_DIR: %q, %v", got, err)
	}
}

// TrustWorkspace changes only the bytes that record the trust, in every
// shape the file comes in; it leaves a file that trusts the folder as it
// is, with no backup.
func TestTrustWorkspaceShapes(t *testing.T) {
	const trusted = `"hasTrustDialogAccepted": true`
	tests := []struct {
		name   string
		dir    string // trustDir when ""
		before string // "<missing>" for no file
		want   string // "" when unchanged
	}{
		{name: "missing file", before: "<missing>",
			want: "{\n  \"projects\": {\n    \"" + trustDir + "\": {\n      " + trusted + "\n    }\n  }\n}\n"},
		{name: "blank file", before: " \n",
			want: "{\n  \"projects\": {\n    \"" + trustDir + "\": {\n      " + trusted + "\n    }\n  }\n}\n"},
		{name: "empty object on one line", before: "{}",
			want: "{\n  \"projects\": {\n    \"" + trustDir + "\": {\n      " + trusted + "\n    }\n  }\n}"},
		{name: "no projects",
			before: "{\n  \"numStartups\": 3,\n  \"theme\": \"dark\"\n}\n",
			want:   "{\n  \"numStartups\": 3,\n  \"theme\": \"dark\",\n  \"projects\": {\n    \"" + trustDir + "\": {\n      " + trusted + "\n    }\n  }\n}\n"},
		{name: "empty projects",
			before: "{\n  \"projects\": {},\n  \"theme\": \"dark\"\n}\n",
			want:   "{\n  \"projects\": {\n    \"" + trustDir + "\": {\n      " + trusted + "\n    }\n  },\n  \"theme\": \"dark\"\n}\n"},
		{name: "projects null",
			before: "{\n  \"projects\": null\n}\n",
			want:   "{\n  \"projects\": {\n    \"" + trustDir + "\": {\n      " + trusted + "\n    }\n  }\n}\n"},
		{name: "project without the key",
			before: "{\n  \"projects\": {\n    \"" + trustDir + "\": {\n      \"allowedTools\": [],\n      \"history\": []\n    }\n  }\n}\n",
			want:   "{\n  \"projects\": {\n    \"" + trustDir + "\": {\n      \"allowedTools\": [],\n      \"history\": [],\n      " + trusted + "\n    }\n  }\n}\n"},
		{name: "empty project",
			before: "{\n  \"projects\": {\n    \"" + trustDir + "\": {}\n  }\n}\n",
			want:   "{\n  \"projects\": {\n    \"" + trustDir + "\": {\n      " + trusted + "\n    }\n  }\n}\n"},
		{name: "project null",
			before: "{\n  \"projects\": {\n    \"" + trustDir + "\": null\n  }\n}\n",
			want:   "{\n  \"projects\": {\n    \"" + trustDir + "\": {\n      " + trusted + "\n    }\n  }\n}\n"},
		{name: "key false",
			before: "{\n  \"projects\": {\n    \"" + trustDir + "\": {\n      \"hasTrustDialogAccepted\": false,\n      \"x\": 1\n    }\n  }\n}\n",
			want:   "{\n  \"projects\": {\n    \"" + trustDir + "\": {\n      " + trusted + ",\n      \"x\": 1\n    }\n  }\n}\n"},
		{name: "key true already",
			before: "{\n  \"projects\": {\n    \"" + trustDir + "\": {\n      " + trusted + "\n    }\n  }\n}\n"},
		{name: "trusted through a parent is recorded for the folder itself",
			before: "{\n  \"projects\": {\n    \"/nonexistent-latch\": {\n      " + trusted + "\n    }\n  }\n}\n",
			want:   "{\n  \"projects\": {\n    \"/nonexistent-latch\": {\n      " + trusted + "\n    },\n    \"" + trustDir + "\": {\n      " + trusted + "\n    }\n  }\n}\n"},
		{name: "other projects present",
			before: "{\n  \"projects\": {\n    \"/a\": {\n      \"hasTrustDialogAccepted\": false\n    },\n    \"/nonexistent-latch/proj/sub\": {\n      \"x\": 1\n    }\n  },\n  \"userID\": \"abc\"\n}\n",
			want:   "{\n  \"projects\": {\n    \"/a\": {\n      \"hasTrustDialogAccepted\": false\n    },\n    \"/nonexistent-latch/proj/sub\": {\n      \"x\": 1\n    },\n    \"" + trustDir + "\": {\n      " + trusted + "\n    }\n  },\n  \"userID\": \"abc\"\n}\n"},
		{name: "key with dots and wildcards", dir: "/nonexistent-latch/my.proj*?",
			before: "{\n  \"projects\": {\n    \"/nonexistent-latch/my\": {\n      \"proj*?\": {}\n    },\n    \"/nonexistent-latch/my.proj*?\": {\n      \"x\": 1\n    }\n  }\n}\n",
			want:   "{\n  \"projects\": {\n    \"/nonexistent-latch/my\": {\n      \"proj*?\": {}\n    },\n    \"/nonexistent-latch/my.proj*?\": {\n      \"x\": 1,\n      " + trusted + "\n    }\n  }\n}\n"},
		{name: "unicode key written escaped", dir: "/nonexistent-latch/ü プロジェクト",
			before: "{\n  \"projects\": {\n    \"/nonexistent-latch/\\u00fc \\u30d7\\u30ed\\u30b8\\u30a7\\u30af\\u30c8\": {\n      \"x\": 1\n    }\n  }\n}\n",
			want:   "{\n  \"projects\": {\n    \"/nonexistent-latch/\\u00fc \\u30d7\\u30ed\\u30b8\\u30a7\\u30af\\u30c8\": {\n      \"x\": 1,\n      " + trusted + "\n    }\n  }\n}\n"},
		{name: "new unicode key", dir: "/nonexistent-latch/ü \"q\"",
			before: "{\n  \"projects\": {}\n}\n",
			want:   "{\n  \"projects\": {\n    \"/nonexistent-latch/ü \\\"q\\\"\": {\n      " + trusted + "\n    }\n  }\n}\n"},
		{name: "duplicate project keys: the last is edited",
			before: "{\n  \"projects\": {\n    \"" + trustDir + "\": {\n      \"hasTrustDialogAccepted\": true\n    },\n    \"" + trustDir + "\": {\n      \"hasTrustDialogAccepted\": false\n    }\n  }\n}\n",
			want:   "{\n  \"projects\": {\n    \"" + trustDir + "\": {\n      \"hasTrustDialogAccepted\": true\n    },\n    \"" + trustDir + "\": {\n      " + trusted + "\n    }\n  }\n}\n"},
		{name: "CRLF",
			before: "{\r\n  \"projects\": {\r\n    \"/a\": {}\r\n  }\r\n}\r\n",
			want:   "{\r\n  \"projects\": {\r\n    \"/a\": {},\r\n    \"" + trustDir + "\": {\r\n      " + trusted + "\r\n    }\r\n  }\r\n}\r\n"},
		{name: "four-space indent",
			before: "{\n    \"theme\": \"dark\"\n}\n",
			want:   "{\n    \"theme\": \"dark\",\n    \"projects\": {\n        \"" + trustDir + "\": {\n            " + trusted + "\n        }\n    }\n}\n"},
		{name: "tab indent",
			before: "{\n\t\"projects\": {\n\t\t\"/a\": {}\n\t}\n}\n",
			want:   "{\n\t\"projects\": {\n\t\t\"/a\": {},\n\t\t\"" + trustDir + "\": {\n\t\t\t" + trusted + "\n\t\t}\n\t}\n}\n"},
		{name: "one line",
			before: `{"theme":"dark","projects":{"/a":{"x":1}}}`,
			want:   `{"theme":"dark","projects":{"/a":{"x":1},"` + trustDir + `":{"hasTrustDialogAccepted":true}}}`},
		{name: "BOM kept",
			before: "\xef\xbb\xbf{\n  \"projects\": {}\n}\n",
			want:   "\xef\xbb\xbf{\n  \"projects\": {\n    \"" + trustDir + "\": {\n      " + trusted + "\n    }\n  }\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.dir
			if dir == "" {
				dir = trustDir
			}
			path := filepath.Join(t.TempDir(), ".claude.json")
			if tt.before != "<missing>" {
				if err := os.WriteFile(path, []byte(tt.before), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if err := TrustWorkspace(path, dir); err != nil {
				t.Fatal(err)
			}
			if tt.before == "<missing>" {
				equalBytes(t, "file", readFile(t, path), []byte(tt.want))
				if _, err := os.Stat(path + backupSuffix); !errors.Is(err, fs.ErrNotExist) {
					t.Error("a backup of a missing file")
				}
			} else {
				checkEdit(t, path, []byte(tt.before), tt.want)
			}
			if ok, err := WorkspaceTrusted(path, dir); !ok || err != nil {
				t.Errorf("WorkspaceTrusted after = %v, %v", ok, err)
			}
			if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("mode %v, %v; want 0600", fi.Mode(), err)
			}
			if _, err := os.Stat(path + ".lock"); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("lock left behind: %v", err)
			}
			noLeftovers(t, path)
		})
	}
}

// What TrustWorkspace cannot edit in place it refuses, leaving the file
// as it is.
func TestTrustWorkspaceRefuses(t *testing.T) {
	tests := []struct {
		name, before, wantErr string
	}{
		{"malformed", "{\n  \"projects\": {,}\n}\n", ":2:16: invalid character ','"},
		{"cut off", "{\n  \"projects\": {\n", "unexpected end of JSON input"},
		{"top-level array", "[]\n", "the top level is not a JSON object"},
		{"projects a string", "{\"projects\": \"x\"}", "projects is a string, want an object"},
		{"project an array", "{\"projects\": {\"" + trustDir + "\": []}}", "is an array, want an object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ".claude.json")
			if err := os.WriteFile(path, []byte(tt.before), 0o600); err != nil {
				t.Fatal(err)
			}
			err := TrustWorkspace(path, trustDir)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.HasPrefix(err.Error(), path+":") {
				t.Errorf("err = %v; want %s:…%s", err, path, tt.wantErr)
			}
			checkEdit(t, path, []byte(tt.before), "")
		})
	}
}

func TestTrustWorkspaceKeepsMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude.json")
	if err := os.WriteFile(path, []byte("{}\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o640); err != nil { // past the umask
		t.Fatal(err)
	}
	if err := TrustWorkspace(path, trustDir); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + backupSuffix} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o640 {
			t.Errorf("%s: mode %v, %v; want 0640", p, fi.Mode(), err)
		}
	}

	if err := os.Chmod(path, 0o440); err != nil {
		t.Fatal(err)
	}
	before := readFile(t, path)
	err := TrustWorkspace(path, "/nonexistent-latch/other")
	if !errors.Is(err, errRefused) {
		t.Errorf("read-only file: err = %v, want a refusal", err)
	}
	equalBytes(t, "read-only file", readFile(t, path), before)
}

func TestTrustWorkspaceThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.json")
	link := filepath.Join(dir, ".claude.json")
	if err := os.WriteFile(real, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.json", link); err != nil {
		t.Fatal(err)
	}
	if err := TrustWorkspace(link, trustDir); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
	if ok, _ := WorkspaceTrusted(real, trustDir); !ok {
		t.Error("the real file does not trust the folder")
	}
}

// A 5 MB state file is edited in place: only the new project is inserted.
func TestTrustWorkspaceLargeFile(t *testing.T) {
	var b strings.Builder
	b.WriteString("{\n  \"numStartups\": 812,\n  \"projects\": {")
	for i := range 12000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "\n    \"/home/u/src/p%05d\": {\n      \"allowedTools\": [],\n      \"history\": [\n        {\"display\": \"%s\", \"pastedContents\": {}}\n      ],\n      \"hasTrustDialogAccepted\": %v\n    }",
			i, strings.Repeat("x", 300), i%2 == 0)
	}
	head := b.String()
	tail := "\n  },\n  \"userID\": \"f00\"\n}\n"
	before := head + tail
	if len(before) < 5<<20 {
		t.Fatalf("test file only %d bytes", len(before))
	}
	path := filepath.Join(t.TempDir(), ".claude.json")
	if err := os.WriteFile(path, []byte(before), 0o600); err != nil {
		t.Fatal(err)
	}
	if ok, err := WorkspaceTrusted(path, "/home/u/src/p11998/deep"); !ok || err != nil {
		t.Errorf("trusted through its parent: %v, %v", ok, err)
	}
	if ok, err := WorkspaceTrusted(path, "/home/u/src/p11999"); ok || err != nil {
		t.Errorf("an untrusted project: %v, %v", ok, err)
	}
	if err := TrustWorkspace(path, trustDir); err != nil {
		t.Fatal(err)
	}
	want := head + ",\n    \"" + trustDir + "\": {\n      \"hasTrustDialogAccepted\": true\n    }" + tail
	after := readFile(t, path)
	if string(after) != want {
		t.Errorf("the edit changed more than the new project (%d bytes, want %d)", len(after), len(want))
	}
}

func TestWorkspaceTrusted(t *testing.T) {
	tmp := t.TempDir()
	real := filepath.Join(tmp, "real")
	if err := os.MkdirAll(filepath.Join(real, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(tmp, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	realKey := quote(real)
	tests := []struct {
		name, content, dir string // content "<missing>": no file
		want               bool
		wantErr            string
	}{
		{"missing file", "<missing>", "/a", false, ""},
		{"blank file", "\n", "/a", false, ""},
		{"no projects", `{"theme": "dark"}`, "/a", false, ""},
		{"projects not an object", `{"projects": []}`, "/a", false, ""},
		{"the folder", `{"projects": {"/a": {"hasTrustDialogAccepted": true}}}`, "/a", true, ""},
		{"a trailing slash", `{"projects": {"/a": {"hasTrustDialogAccepted": true}}}`, "/a/", true, ""},
		{"a parent", `{"projects": {"/a": {"hasTrustDialogAccepted": true}}}`, "/a/b/c", true, ""},
		{"the root", `{"projects": {"/": {"hasTrustDialogAccepted": true}}}`, "/a/b", true, ""},
		{"a sibling with the same prefix", `{"projects": {"/a": {"hasTrustDialogAccepted": true}}}`, "/ab", false, ""},
		{"a child does not trust its parent", `{"projects": {"/a/b": {"hasTrustDialogAccepted": true}}}`, "/a", false, ""},
		{"false", `{"projects": {"/a": {"hasTrustDialogAccepted": false}}}`, "/a", false, ""},
		{"false here, true above", `{"projects": {"/a/b": {"hasTrustDialogAccepted": false}, "/a": {"hasTrustDialogAccepted": true}}}`, "/a/b", true, ""},
		{"no key", `{"projects": {"/a": {"allowedTools": []}}}`, "/a", false, ""},
		{"truthy like JavaScript", `{"projects": {"/a": {"hasTrustDialogAccepted": "yes"}}}`, "/a", true, ""},
		{"falsy like JavaScript", `{"projects": {"/a": {"hasTrustDialogAccepted": 0}}}`, "/a", false, ""},
		{"duplicate project: the last counts", `{"projects": {"/a": {"hasTrustDialogAccepted": true}, "/a": {}}}`, "/a", false, ""},
		{"duplicate key: the last counts", `{"projects": {"/a": {"hasTrustDialogAccepted": false, "hasTrustDialogAccepted": true}}}`, "/a", true, ""},
		{"duplicate projects: the last counts", `{"projects": {"/a": {"hasTrustDialogAccepted": true}}, "projects": {}}`, "/a", false, ""},
		{"a key with dots", `{"projects": {"/a.b": {"hasTrustDialogAccepted": true}}}`, "/a.b/c", true, ""},
		{"dots are not wildcards", `{"projects": {"/a.b": {"hasTrustDialogAccepted": true}}}`, "/a/b", false, ""},
		{"an escaped key", `{"projects": {"\/\u00e9": {"hasTrustDialogAccepted": true}}}`, "/é", true, ""},
		{"through a link to a trusted folder", `{"projects": {` + realKey + `: {"hasTrustDialogAccepted": true}}}`, filepath.Join(link, "sub"), true, ""},
		{"malformed", "{\n  \"projects\": {\n    \"/a\": tru\n  }\n}\n", "/a", false, ":3:14: invalid character"},
		{"not an object", `["/a"]`, "/a", false, "the top level is not a JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ".claude.json")
			if tt.content != "<missing>" {
				if err := os.WriteFile(path, []byte(tt.content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			got, err := WorkspaceTrusted(path, tt.dir)
			if tt.wantErr != "" {
				var se *SyntaxError
				if !errors.As(err, &se) || !strings.HasPrefix(err.Error(), path+":") || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("err = %v; want a *SyntaxError %s:…%s", err, path, tt.wantErr)
				}
				return
			}
			if got != tt.want || err != nil {
				t.Errorf("= %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

// The lock is Claude Code's: a directory <file>.lock made by mkdir. A
// fresh one is waited for, a stale one taken over, a plain file there is
// flocked and left a file.
func TestTrustWorkspaceLock(t *testing.T) {
	saved := lockTimeout
	t.Cleanup(func() { lockTimeout = saved })
	lockTimeout = 300 * time.Millisecond

	tests := []struct {
		name    string
		make    func(lock string) error
		wantErr string // "" when the edit goes through
	}{
		{"held by a live CLI", func(lock string) error { return os.Mkdir(lock, 0o700) }, "Claude Code held it"},
		{"left by a CLI that died", func(lock string) error {
			if err := os.Mkdir(lock, 0o700); err != nil {
				return err
			}
			old := time.Now().Add(-time.Minute)
			return os.Chtimes(lock, old, old)
		}, ""},
		{"another tool's flock file", func(lock string) error { return os.WriteFile(lock, nil, 0o600) }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ".claude.json")
			const before = "{}\n"
			if err := os.WriteFile(path, []byte(before), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := tt.make(path + ".lock"); err != nil {
				t.Fatal(err)
			}
			lockBefore, _ := os.Stat(path + ".lock")
			err := TrustWorkspace(path, trustDir)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("err = %v, want %q", err, tt.wantErr)
				}
				equalBytes(t, "file", readFile(t, path), []byte(before))
				if fi, err := os.Stat(path + ".lock"); err != nil || !fi.IsDir() {
					t.Error("someone else's lock was removed")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(path + ".lock")
			if lockBefore.Mode().IsRegular() {
				if err != nil || !fi.Mode().IsRegular() {
					t.Errorf("the flock file is gone or changed kind: %v", err)
				}
			} else if !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the stale lock was not released: %v", err)
			}
		})
	}
}

// A CLI rewriting the file while Latch trusts a folder either lands whole
// or loses whole: the file is always one writer's version, or one
// writer's version with the trust added, never a mix.
func TestTrustWorkspaceConcurrentRewrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude.json")
	version := func(i int) string {
		return fmt.Sprintf("{\n  \"numStartups\": %d,\n  \"projects\": {\n    \"/a\": {\n      \"history\": [%q]\n    }\n  }\n}\n", i, strings.Repeat("h", i%50))
	}
	if err := os.WriteFile(path, []byte(version(0)), 0o600); err != nil {
		t.Fatal(err)
	}
	valid := map[string]bool{}
	for i := range 200 {
		valid[version(i)] = true
		edited, err := trustEdit(path, []byte(version(i)), trustDir)
		if err != nil {
			t.Fatal(err)
		}
		valid[string(edited)] = true
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 1; i < 200; i++ { // as the CLI does: temp file, rename
			if err := writeAtomic(path, []byte(version(i)), 0o600, nil); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	for range 20 {
		if err := TrustWorkspace(path, trustDir); err != nil && !strings.Contains(err.Error(), "keeps changing") {
			t.Error(err)
		}
		if got := string(readFile(t, path)); !valid[got] {
			t.Fatalf("a mixed file:\n%s", got)
		}
	}
	wg.Wait()
	if got := string(readFile(t, path)); !valid[got] {
		t.Fatalf("a mixed file:\n%s", got)
	}
}
