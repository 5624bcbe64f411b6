package grants

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"time"

	"github.com/tidwall/gjson"
)

// This file reads and records whether Claude Code trusts a folder. The
// trust dialog's answer lives in Claude Code's state file (~/.claude.json),
// under projects[<absolute folder>].hasTrustDialogAccepted. Until a folder
// is trusted, Claude Code ignores the allow rules of its shared
// .claude/settings.json.
//
// The state file is Claude Code's, rewritten by every running CLI, and can
// be megabytes long: it is read with gjson (its projects object walked
// once, keys compared unescaped, so keys holding '.', '*' or '?' need no
// path escaping) and edited in place like the settings files.

// trustKey is the member of a project that records the trust dialog.
const trustKey = "hasTrustDialogAccepted"

// ClaudeJSONPath is Claude Code's state file: $CLAUDE_CONFIG_DIR/.claude.json
// when that variable is set, else ~/.claude.json.
func ClaudeJSONPath() (string, error) {
	if dir := os.Getenv("CLAUDE_CONFIG_DIR"); dir != "" {
		return filepath.Join(dir, ".claude.json"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	if home == "" {
		return "", errors.New("no home folder to find ~/.claude.json in")
	}
	return filepath.Join(home, ".claude.json"), nil
}

// WorkspaceTrusted reports whether Claude Code trusts dir: the trust
// dialog was accepted for dir or for a folder above it, which Claude Code
// takes to cover what is below. dir is looked up as written and with its
// links resolved, since the CLI keys projects by its working folder, which
// is the resolved one. A missing or blank file trusts nothing; a malformed
// one is a *SyntaxError.
func WorkspaceTrusted(claudeJSON, dir string) (bool, error) {
	keys, err := trustChain(dir)
	if err != nil {
		return false, err
	}
	data, err := os.ReadFile(claudeJSON)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return trustedIn(claudeJSON, data, keys)
}

// trustedIn reports whether data, the content of file, trusts one of keys.
func trustedIn(file string, data []byte, keys []string) (bool, error) {
	if blank(data) {
		return false, nil
	}
	if err := checkObject(file, data); err != nil {
		return false, err
	}
	projects := honoured(rootObject(data), "projects")
	if !projects.IsObject() {
		return false, nil
	}
	want := make(map[string]bool, len(keys))
	for _, k := range keys {
		want[k] = true
	}
	// One pass over projects; a later duplicate key overrides an earlier
	// one, as in JSON.parse.
	found := map[string]bool{}
	projects.ForEach(func(k, v gjson.Result) bool {
		if name := k.String(); want[name] {
			found[name] = truthy(honoured(v, trustKey))
		}
		return true
	})
	for _, ok := range found {
		if ok {
			return true, nil
		}
	}
	return false, nil
}

// truthy is JavaScript's truth of a JSON value: Claude Code tests the
// member with a plain if.
func truthy(v gjson.Result) bool {
	switch v.Type {
	case gjson.True, gjson.JSON:
		return true
	case gjson.String:
		return v.Str != ""
	case gjson.Number:
		return v.Num != 0 && !math.IsNaN(v.Num)
	}
	return false
}

// trustChain is every projects key that can trust dir: dir and each
// folder above it, written and resolved.
func trustChain(dir string) ([]string, error) {
	if dir == "" {
		return nil, errors.New("no folder given")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	var keys []string
	seen := map[string]bool{}
	for _, f := range forms(abs) {
		for {
			if k := configKey(f); !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
			up := filepath.Dir(f)
			if up == f {
				break
			}
			f = up
		}
	}
	return keys, nil
}

// configKey writes a folder the way Claude Code keys projects: with
// forward slashes, also on Windows.
func configKey(dir string) string { return filepath.ToSlash(dir) }

// TrustWorkspace records in claudeJSON that the trust dialog was accepted
// for dir (resolved, as the CLI keys it), as a byte-preserving edit: it
// sets projects[dir].hasTrustDialogAccepted to true, adding the member,
// the project or "projects" where missing, and leaves every other byte as
// it was. A missing file is created (mode 0600). A malformed file, or one
// where projects or the project is not an object, is refused and left
// untouched.
//
// Claude Code rewrites the file often, so the edit takes Claude Code's own
// lock, re-reads under it, keeps a backup (<file>.latch-bak) and the
// file's mode, renames a synced temp file over the file only when it did
// not change since it was read, and reads it back: a concurrent rewrite
// either lands whole before the edit, which is then redone on it, or
// replaces the edit whole, and then the edit is redone or an error says
// so. Nothing is ever merged.
func TrustWorkspace(claudeJSON, dir string) error {
	if claudeJSON == "" {
		return errors.New("no Claude Code state file given")
	}
	if dir == "" {
		return errors.New("no folder given")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	key := configKey(resolveExisting(abs))
	target, err := resolveLinks(claudeJSON)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
		return err
	}
	unlock, err := lockClaudeJSON(claudeJSON+".lock", lockTimeout)
	if err != nil {
		return err
	}
	defer unlock()

	var lastRead []byte
	for range 5 {
		before, old, err := readWithInfo(target)
		if err != nil {
			return err
		}
		updated, err := trustEdit(claudeJSON, old, key)
		if err != nil {
			var se *SyntaxError
			if errors.As(err, &se) && !bytes.Equal(old, lastRead) {
				// Possibly a CLI caught halfway through an in-place
				// rewrite: look once more before calling it malformed.
				lastRead = old
				time.Sleep(100 * time.Millisecond)
				continue
			}
			return err
		}
		lastRead = old
		if !bytes.Equal(updated, old) {
			err = replace(claudeJSON, target, before, old, updated, true)
			if errors.Is(err, errMoved) {
				continue
			}
			if err != nil {
				return err
			}
		}
		// Read back: a CLI that rewrote the file from what it read
		// before the rename has dropped the edit; do it again.
		written, err := os.ReadFile(target)
		if err != nil {
			return fmt.Errorf("verify %s: %w", target, err)
		}
		if ok, _ := trustedIn(claudeJSON, written, []string{key}); ok {
			return nil
		}
	}
	return fmt.Errorf("%s keeps changing while Latch records the trust of %s; try again", claudeJSON, key)
}

// trustEdit sets projects[key].hasTrustDialogAccepted to true in data, the
// content of file (nil when missing).
func trustEdit(file string, data []byte, key string) ([]byte, error) {
	if blank(data) {
		data = newDocument()
	}
	if err := checkObject(file, data); err != nil {
		return nil, err
	}
	path := []string{"projects", key, trustKey}
	l, err := locate(file, data, path, "")
	if err != nil {
		return nil, err
	}
	if l.found && l.cur.Type == gjson.True {
		return data, nil
	}
	st := detectStyle(data, l.root)
	return setAt(data, l, path, st, func(string, bool) string { return "true" })
}

// staleLock is when a lock directory is taken to be left by a process that
// died: proper-lockfile's default, which Claude Code uses; a live holder
// refreshes it every half of that.
const staleLock = 10 * time.Second

// lockClaudeJSON takes the lock Claude Code takes before it saves the
// file: the directory <file>.lock, created by mkdir (proper-lockfile). A
// plain file in its place is another tool's flock file, and is locked that
// way instead: creating or keeping a file there would stop Claude Code
// from ever taking its lock.
func lockClaudeJSON(path string, timeout time.Duration) (func(), error) {
	deadline := time.Now().Add(timeout)
	wait := time.Millisecond
	for {
		err := os.Mkdir(path, 0o700)
		if err == nil {
			return func() { _ = os.Remove(path) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		fi, err := os.Stat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue // released between the two calls
		case err != nil:
			return nil, fmt.Errorf("lock %s: %w", path, err)
		case fi.Mode().IsRegular():
			return lockFile(path, max(time.Until(deadline), 0))
		case time.Since(fi.ModTime()) > staleLock:
			_ = os.Remove(path)
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("lock %s: Claude Code held it for %s", path, timeout)
		}
		time.Sleep(wait)
		wait = min(wait*2, 50*time.Millisecond)
	}
}
