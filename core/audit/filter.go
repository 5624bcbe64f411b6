package audit

import (
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Filter selects entries. Empty fields match everything.
type Filter struct {
	Folder   string // the entry's folder, or a folder inside it
	Tool     string // exact, any case
	Decision string // the decision or the kind (so "denial", "grant" work), any case
	Text     string // a substring, any case, of the entry's free text
}

// Match reports whether e passes every field of f.
func (f Filter) Match(e Entry) bool {
	m := f.matcher()
	return m.match(&e)
}

// Matcher is Match prepared once, for filtering many entries.
func (f Filter) Matcher() func(*Entry) bool {
	m := f.matcher()
	return m.match
}

// matcher is a Filter prepared once for many entries.
type matcher struct {
	f      Filter
	folder string // cleaned, without a trailing separator unless the root
	text   string // lower case
}

func (f Filter) matcher() matcher {
	m := matcher{f: f, text: strings.ToLower(f.Text)}
	if f.Folder != "" {
		m.folder = filepath.Clean(f.Folder)
	}
	return m
}

func (m *matcher) match(e *Entry) bool {
	if m.folder != "" && !inFolder(e.Folder, m.folder) {
		return false
	}
	if m.f.Tool != "" && !strings.EqualFold(e.Tool, m.f.Tool) {
		return false
	}
	if m.f.Decision != "" && !strings.EqualFold(e.Decision, m.f.Decision) && !strings.EqualFold(e.Kind, m.f.Decision) {
		return false
	}
	if m.text != "" && !m.hasText(e) {
		return false
	}
	return true
}

// inFolder reports whether folder is dir or inside it, on a separator
// boundary: /home/a is not inside /home/ab.
func inFolder(folder, dir string) bool {
	if folder == "" {
		return false
	}
	folder = filepath.Clean(folder)
	if !strings.HasPrefix(folder, dir) {
		return false
	}
	return len(folder) == len(dir) ||
		dir[len(dir)-1] == os.PathSeparator || // the root
		folder[len(dir)] == os.PathSeparator
}

func (m *matcher) hasText(e *Entry) bool {
	for _, s := range [...]string{e.Input, e.Path, e.Message, e.Rule, e.Tool, e.Class, e.Decider, e.Source, e.File} {
		if containsFold(s, m.text) {
			return true
		}
	}
	for _, s := range e.Rules {
		if containsFold(s, m.text) {
			return true
		}
	}
	for _, s := range e.Folders {
		if containsFold(s, m.text) {
			return true
		}
	}
	return false
}

// containsFold reports whether s contains lower, which is lower case,
// ignoring case; without allocating when both are ASCII, the usual case.
func containsFold(s, lower string) bool {
	if len(s) < len(lower) && isASCII(s) {
		return false
	}
	if !isASCII(s) || !isASCII(lower) {
		return strings.Contains(strings.ToLower(s), lower)
	}
	for i := 0; i+len(lower) <= len(s); i++ {
		j := 0
		for ; j < len(lower); j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != lower[j] {
				break
			}
		}
		if j == len(lower) {
			return true
		}
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
