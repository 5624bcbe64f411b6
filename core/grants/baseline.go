package grants

import "strings"

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
