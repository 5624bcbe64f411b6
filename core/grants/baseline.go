package grants

import (
	"os"
	"path/filepath"
	"strings"
)

// BaselineTools are pre-approved, when Config.Baseline says so, through
// --allowedTools only; they are never written to a settings file.
var BaselineTools = []string{"Bash", "Read", "Write", "Edit"}

// AllowedTools is the --allowedTools list for one run: the baseline first
// (when on), then the configured tools, then extra ones, without
// duplicates or blanks. It is built in memory and never persisted.
func AllowedTools(baseline bool, configured, extra []string) []string {
	var lists [][]string
	if baseline {
		lists = append(lists, BaselineTools)
	}
	return merge(func(s string) string { return strings.TrimSpace(s) }, append(lists, configured, extra)...)
}

// TrustedDirs are the folders every run may use: the working folder,
// os.TempDir(), then the configured ones, resolved (see ResolveDir; a
// relative one against workdir, the CLI's working folder) and without
// duplicates.
func TrustedDirs(workdir string, configured []string) []string {
	var first []string
	if workdir != "" {
		first = append(first, workdir)
	}
	first = append(first, os.TempDir())
	base := ""
	if workdir != "" {
		base, _ = ResolveDir(workdir, "")
	}
	return merge(func(s string) string {
		if strings.TrimSpace(s) == "" {
			return ""
		}
		r, err := ResolveDir(s, base)
		if err != nil {
			return filepath.Clean(s)
		}
		return r
	}, first, configured)
}

func merge(norm func(string) string, lists ...[]string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, l := range lists {
		for _, s := range l {
			s = norm(s)
			if s != "" && !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}
