package app

// The grant policy: what to ask after a turn (grantRequest), what to save
// and where (saveGrants), and the rules an "always" writes (rules.go). It
// is pure decisions on values — no process, no Surface, no lock — and is
// tested alone (policy_test.go). What a resumed process is started with is
// launch (argv.go).

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/latch-app/latch/core/grants"
	"github.com/latch-app/latch/core/stream"
)

func folderOf(path string) string {
	if path == "" {
		return ""
	}
	return filepath.Dir(filepath.Clean(path))
}

// grantRequest gathers a turn's grantable denials into one request: a tool
// once per rule, a folder once per path, leaving out what is already allowed.
func grantRequest(denials []stream.Denial, allowed, dirs []string, workdir string, round int) GrantRequest {
	return grantRequestOf(denials, allowed, dirs, workdir, round, true)
}

// grantRequestOf is grantRequest; without grantableOnly it also offers
// calls the person denied (a grant asked for later, from the transcript).
func grantRequestOf(denials []stream.Denial, allowed, dirs []string, workdir string, round int, grantableOnly bool) GrantRequest {
	r := GrantRequest{Round: round, Workdir: workdir}
	haveTool := map[string]bool{}
	for _, t := range allowed {
		haveTool[t] = true
	}
	haveDir := map[string]bool{}
	for _, d := range dirs {
		haveDir[filepath.Clean(d)] = true
	}
	for _, d := range denials {
		if grantableOnly && !d.Class.Grantable() {
			continue
		}
		example := summarize(d.Tool, d.Input)
		// Folders are offered as they would be granted: resolved.
		dir := ""
		if d.Dir != "" {
			dir = resolvePath(d.Dir, workdir)
		}
		if dir != "" && !haveDir[dir] {
			haveDir[dir] = true
			r.Folders = append(r.Folders, FolderGrant{Path: dir, Tool: d.Tool, Write: writes(d.Tool), Reason: denialWords(d.Class), Example: example})
		}
		// A folder grant lets Read run there; every other tool also needs
		// its own rule: the narrowest that lets the call run, never a bare
		// Bash or Edit (an empty rule asks the person to type one).
		if d.Tool == "" || (dir != "" && d.Tool == "Read") || haveTool[d.Tool] {
			continue
		}
		rule := narrowRule(d.Tool, d.Input, workdir)
		key := d.Tool + "\x00" + rule
		if haveTool[key] || (rule != "" && haveTool[rule]) {
			continue
		}
		haveTool[key] = true
		r.Tools = append(r.Tools, ToolGrant{Rule: rule, Tool: d.Tool, Reason: denialWords(d.Class), Example: example})
	}
	return r
}

func (r GrantRequest) empty() bool { return len(r.Tools) == 0 && len(r.Folders) == 0 }

// saveGrants writes the chosen rules and folders where the person said.
// Nothing is written for ScopeOnce. Folders are checked in every scope.
func saveGrants(d Decision, userSettings, workdir string) (rules, dirs []string, err error) {
	var errs []error
	for _, r := range d.Rules {
		r = strings.TrimSpace(r)
		if r == "" {
			continue
		}
		if e := grants.ValidRule(r); e != nil {
			errs = append(errs, fmt.Errorf("rule %q: %w", r, e))
			continue
		}
		rules = append(rules, r)
	}
	for _, f := range d.Folders {
		if strings.TrimSpace(f) == "" {
			continue
		}
		clean, e := grants.CheckDir(strings.TrimSpace(f), d.Force)
		if e != nil {
			errs = append(errs, fmt.Errorf("folder %s: %w", f, e))
			continue
		}
		// Reading is a rule; reading and writing is the folder itself
		// (a working folder) with the rule that lets edits there run.
		if slices.Contains(d.ReadOnly, f) || slices.Contains(d.ReadOnly, clean) {
			if r := folderRule("Read", clean); r != "" {
				rules = append(rules, r)
			}
			continue
		}
		dirs = append(dirs, clean)
		if r := folderRule("Edit", clean); r != "" {
			rules = append(rules, r)
		}
	}
	var store *grants.Store
	switch d.Scope {
	case ScopeUser:
		store = grants.NewStore(userSettings)
	case ScopeProject:
		ps, e := grants.ProjectStore(workdir)
		if e != nil {
			errs = append(errs, e)
		}
		store = ps
	}
	if store != nil {
		if len(rules) > 0 {
			if e := store.AddRules(rules...); e != nil {
				errs = append(errs, e)
			}
		}
		if len(dirs) > 0 {
			if e := store.AddDirs(true, dirs...); e != nil {
				errs = append(errs, e)
			}
		}
	}
	return rules, dirs, errors.Join(errs...)
}

// addRulesUpdate is the permission update that makes the CLI allow rule at
// destination.
func addRulesUpdate(rule, destination string) json.RawMessage {
	tool, content := grants.ParseRule(rule)
	return stream.AddRulesUpdate(tool, content, destination)
}

func addDirsUpdate(dir, destination string) json.RawMessage {
	return stream.AddDirectoriesUpdate([]string{dir}, destination)
}

// writes reports the tools that change files.
func writes(tool string) bool {
	switch tool {
	case "Write", "Edit", "MultiEdit", "NotebookEdit":
		return true
	}
	return false
}
