package app

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/latch-app/latch/app/cliproc"
	"github.com/latch-app/latch/core/grants"
	"github.com/latch-app/latch/core/stream"
)

// broadTools are the tools whose bare name allows nearly anything. Latch
// never proposes or saves one of them bare unless the person typed it.
var broadTools = map[string]bool{"Bash": true, "Read": true, "Write": true, "Edit": true, "MultiEdit": true, "NotebookEdit": true}

// IsBroadRule reports a bare rule for a tool that can run or change
// anything: such a rule is saved only when the person typed it.
func IsBroadRule(rule string) bool { return broadTools[strings.TrimSpace(rule)] }

// alwaysRule is the rule offered for "always allow": the CLI's own
// suggestion when it made one that is not a bare broad tool, else the
// narrowest useful rule for the call (narrowRule).
func alwaysRule(c *stream.CanUseTool, workdir string) string {
	if r := c.SuggestedRule(); r != "" && !IsBroadRule(r) && grants.ValidRule(r) == nil {
		return r
	}
	return narrowRule(c.ToolName, c.Input, workdir)
}

// narrowRule is the narrowest rule that allows this call again: the exact
// command for Bash, the folder of the path the call touches for the file
// tools (Edit for those that write, Read for the others), the domain for
// WebFetch. It is "" when no valid narrow rule fits (a multi-line command):
// then "always" needs a rule the person types. The rules are built by
// core/grants, the touched path found by core/stream.
func narrowRule(tool string, input json.RawMessage, workdir string) string {
	switch {
	case tool == "Bash":
		return grants.CommandRule("Bash", parseInput(input).Command)
	case writes(tool) || tool == "Read" || tool == "Glob" || tool == "Grep" || tool == "LS":
		p, file := stream.TouchedPath(input)
		if p == "" {
			return ""
		}
		dir := resolvePath(p, workdir)
		if file {
			dir = folderOf(dir)
		}
		if writes(tool) {
			return grants.FolderRule("Edit", dir)
		}
		return grants.FolderRule("Read", dir)
	case tool == "WebFetch":
		if u, err := url.Parse(parseInput(input).URL); err == nil {
			return grants.DomainRule(u.Hostname())
		}
		return ""
	}
	if broadTools[tool] || tool == "" {
		return ""
	}
	return tool
}

// folderRule is grants.FolderRule, under the name policy.go calls.
func folderRule(tool, dir string) string { return grants.FolderRule(tool, dir) }

// resolvePath is p absolute (against workdir), clean and resolved through
// symlinks, as the folder grants are.
func resolvePath(p, workdir string) string {
	if r, err := grants.ResolveDir(p, workdir); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// allowAlways answers "always allow": Latch saves the rule itself (byte-
// preserving, locked, backed up) where the person chose, and tells the CLI
// to keep it for this session only, so the CLI never rewrites a settings
// file on Latch's behalf. A rule that cannot be used allows the call once.
func (s *Session) allowAlways(p *cliproc.Proc, reqID string, c *stream.CanUseTool, d Decision) {
	rule := strings.TrimSpace(d.Rule)
	if rule == "" {
		rule = alwaysRule(c, s.workdir)
	}
	if rule == "" {
		s.notice("No rule was saved: no narrow rule fits this call, so it was allowed once. Type a rule to always allow it.")
		p.Write(stream.Allow(reqID, c.Input, nil))
		return
	}
	if err := grants.ValidRule(rule); err != nil {
		s.fail("The rule was not saved", err.Error()+"\nThe call was allowed once.")
		p.Write(stream.Allow(reqID, c.Input, nil))
		return
	}
	saved := false
	switch d.Scope {
	case ScopeUser, ScopeProject:
		where, err := s.saveRule(rule, d.Scope)
		if err != nil {
			s.fail("The rule was not saved", err.Error()+"\nIt is allowed for this session only.")
			s.grantMade("Allowed "+VisibleLine(rule)+" for this session", []string{rule}, nil, "")
		} else {
			saved = true
			s.grantMade("Saved "+VisibleLine(rule)+" to "+where, []string{rule}, nil, where)
		}
	default:
		s.grantMade("Allowed "+VisibleLine(rule)+" for this session", []string{rule}, nil, "")
	}
	if s.grantRules([]string{rule}, nil, saved) {
		p.Write(stream.Allow(reqID, c.Input, nil)) // the layer carries the rule already
		return
	}
	// A CLI without the layer keeps the rule for its own life.
	p.Write(stream.Allow(reqID, c.Input, []json.RawMessage{addRulesUpdate(rule, "session")}))
}

// grantWhere says where a grant went, for a notice.
func grantWhere(scope Scope, saved bool) string {
	switch {
	case saved && scope == ScopeProject:
		return " in this project's settings"
	case saved && scope == ScopeUser:
		return " in your user settings"
	}
	return " for this session"
}

// saveRule writes rule to the settings file of scope and says which.
func (s *Session) saveRule(rule string, scope Scope) (string, error) {
	store, err := s.storeFor(scope)
	if err != nil {
		return "", err
	}
	return store.Path, store.AddRules(rule)
}

// savedFile is the settings file a grant in scope went to, or "" when it
// was not saved (this session only, or the save failed).
func (s *Session) savedFile(scope Scope, saved bool) string {
	if !saved {
		return ""
	}
	if st, err := s.storeFor(scope); err == nil {
		return st.Path
	}
	return ""
}

// storeFor is the settings file of a scope. A project file that resolves
// outside the project is refused (grants.ProjectStore says why).
func (s *Session) storeFor(scope Scope) (*grants.Store, error) {
	if scope == ScopeProject {
		return grants.ProjectStore(s.workdir)
	}
	return grants.NewStore(s.userSettings), nil
}
