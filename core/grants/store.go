package grants

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// Store is one Claude Code settings file. Its methods are safe to call from
// several goroutines and processes at once.
type Store struct{ Path string }

func NewStore(path string) *Store { return &Store{Path: path} }

// Permissions is the "permissions" object of a settings file. Slices are
// never nil.
type Permissions struct {
	Allow, Deny, Ask, AdditionalDirectories []string
	DefaultMode                             string
}

var (
	allowPath = []string{"permissions", "allow"}
	dirsPath  = []string{"permissions", "additionalDirectories"}
)

// Read returns the permissions in the file. A missing or blank file, or
// missing keys, read as empty; malformed JSON is a *SyntaxError.
func (s *Store) Read() (Permissions, error) {
	p := Permissions{Allow: []string{}, Deny: []string{}, Ask: []string{}, AdditionalDirectories: []string{}}
	data, err := os.ReadFile(s.Path)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && blank(data)) {
		return p, nil
	}
	if err != nil {
		return p, err
	}
	if err := checkObject(s.Path, data); err != nil {
		return p, err
	}
	perms := rootObject(data).Get("permissions")
	if !perms.IsObject() {
		return p, nil
	}
	p.Allow = stringsAt(perms, "allow")
	p.Deny = stringsAt(perms, "deny")
	p.Ask = stringsAt(perms, "ask")
	p.AdditionalDirectories = stringsAt(perms, "additionalDirectories")
	if m := perms.Get("defaultMode"); m.Exists() {
		p.DefaultMode = m.String()
	}
	return p, nil
}

// AddRules appends rules to permissions.allow, skipping those already there.
// Every rule is checked by ValidRule first; one bad rule changes nothing.
func (s *Store) AddRules(rules ...string) error {
	for _, r := range rules {
		if err := ValidRule(r); err != nil {
			return err
		}
	}
	return s.edit(func(data []byte) ([]byte, error) { return addStrings(s.Path, data, allowPath, rules) })
}

// RemoveRules removes rules from permissions.allow; absent ones are ignored.
func (s *Store) RemoveRules(rules ...string) error {
	return s.edit(func(data []byte) ([]byte, error) {
		return removeStrings(s.Path, data, allowPath, func(r string) bool { return slices.Contains(rules, r) })
	})
}

// AddDirs appends folders to permissions.additionalDirectories as clean
// absolute paths, each checked by CheckDir; one bad folder changes nothing.
func (s *Store) AddDirs(force bool, dirs ...string) error {
	clean := make([]string, 0, len(dirs))
	for _, d := range dirs {
		c, err := CheckDir(d, force)
		if err != nil {
			return err
		}
		clean = append(clean, c)
	}
	return s.edit(func(data []byte) ([]byte, error) {
		add := clean
		// An entry written by hand as "/a/b/" already grants /a/b.
		if !blank(data) && checkObject(s.Path, data) == nil {
			have := stringsAt(rootObject(data).Get("permissions"), "additionalDirectories")
			add = slices.DeleteFunc(slices.Clone(clean), func(c string) bool {
				return slices.ContainsFunc(have, func(h string) bool { return filepath.Clean(h) == c })
			})
		}
		return addStrings(s.Path, data, dirsPath, add)
	})
}

// RemoveDirs removes folders from permissions.additionalDirectories,
// comparing cleaned paths; the folders need not exist any more.
func (s *Store) RemoveDirs(dirs ...string) error {
	want := make([]string, len(dirs))
	for i, d := range dirs {
		want[i] = filepath.Clean(d)
	}
	return s.edit(func(data []byte) ([]byte, error) {
		return removeStrings(s.Path, data, dirsPath, func(h string) bool { return slices.Contains(want, filepath.Clean(h)) })
	})
}

func (s *Store) edit(fn func([]byte) ([]byte, error)) error {
	if s.Path == "" {
		return errors.New("no settings file given")
	}
	if err := editFile(s.Path, true, fn); err != nil {
		var se *SyntaxError
		if errors.As(err, &se) {
			return err // already names the file
		}
		return fmt.Errorf("%s: %w", s.Path, err)
	}
	return nil
}
