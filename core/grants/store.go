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
type Store struct {
	Path string
	root string // a project's resolved folder, which writes must stay in
}

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

// Read returns the permissions in the file as Claude Code reads them: of
// keys that appear twice, the last. A missing or blank file, or missing
// keys, read as empty; malformed JSON is a *SyntaxError.
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
	perms := honoured(rootObject(data), "permissions")
	if !perms.IsObject() {
		return p, nil
	}
	p.Allow = stringsAt(perms, "allow")
	p.Deny = stringsAt(perms, "deny")
	p.Ask = stringsAt(perms, "ask")
	p.AdditionalDirectories = stringsAt(perms, "additionalDirectories")
	if m := honoured(perms, "defaultMode"); m.Exists() {
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

// RemoveRulesFrom removes rules from permissions.<behavior> (Allow, Ask or
// Deny); absent ones are ignored.
func (s *Store) RemoveRulesFrom(behavior string, rules ...string) error {
	switch behavior {
	case Allow, Ask, Deny:
	default:
		return fmt.Errorf("no rule list %q in a settings file", behavior)
	}
	path := []string{"permissions", behavior}
	return s.edit(func(data []byte) ([]byte, error) {
		return removeStrings(s.Path, data, path, func(r string) bool { return slices.Contains(rules, r) })
	})
}

// AddDirs appends folders to permissions.additionalDirectories in their
// resolved form (see CheckDir, which checks each); one bad folder changes
// nothing.
func (s *Store) AddDirs(force bool, dirs ...string) error {
	real := make([]string, 0, len(dirs))
	for _, d := range dirs {
		c, err := CheckDir(d, force)
		if err != nil {
			return err
		}
		real = append(real, c)
	}
	return s.edit(func(data []byte) ([]byte, error) {
		add := real
		// An entry written by hand as "/a/b/", or through a link to it,
		// already grants /a/b.
		if !blank(data) && checkObject(s.Path, data) == nil {
			have := stringsAt(honoured(rootObject(data), "permissions"), "additionalDirectories")
			add = slices.DeleteFunc(slices.Clone(real), func(c string) bool {
				return slices.ContainsFunc(have, func(h string) bool { return slices.Contains(dirForms(h), c) })
			})
		}
		return addStrings(s.Path, data, dirsPath, add)
	})
}

// RemoveDirs removes folders from permissions.additionalDirectories. An
// entry goes when it names the same folder, written or resolved, so an
// entry saved before Latch resolved links is removed by either path; the
// folders need not exist any more.
func (s *Store) RemoveDirs(dirs ...string) error {
	var want []string
	for _, d := range dirs {
		want = append(want, dirForms(d)...)
	}
	return s.edit(func(data []byte) ([]byte, error) {
		return removeStrings(s.Path, data, dirsPath, func(h string) bool {
			return slices.ContainsFunc(dirForms(h), func(f string) bool { return slices.Contains(want, f) })
		})
	})
}

// dirForms is a folder entry cleaned and, when absolute, resolved. A
// relative entry is kept as written: what it is relative to is the CLI's
// business.
func dirForms(d string) []string {
	clean := filepath.Clean(d)
	if !filepath.IsAbs(clean) {
		return []string{clean}
	}
	return forms(clean)
}

func (s *Store) edit(fn func([]byte) ([]byte, error)) error {
	if s.Path == "" {
		return errors.New("no settings file given")
	}
	if err := editFile(s.Path, true, s.root, fn); err != nil {
		var se *SyntaxError
		if errors.As(err, &se) || errors.Is(err, errRefused) {
			return err // already names the file
		}
		return fmt.Errorf("%s: %w", s.Path, err)
	}
	return nil
}
