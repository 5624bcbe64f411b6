package grants

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// This file builds the View from the files, the way Claude Code reads
// them, and says in words what each rule allows.

// ManagedSettingsPath is Claude Code's managed policy file on this OS,
// which an administrator installs and nobody else may change.
func ManagedSettingsPath() string {
	switch runtime.GOOS {
	case "darwin":
		return "/Library/Application Support/ClaudeCode/managed-settings.json"
	case "windows":
		return `C:\Program Files\ClaudeCode\managed-settings.json`
	}
	return "/etc/claude-code/managed-settings.json"
}

// Titles and read-only reasons of the layers, as the view shows them.
var layerTitles = map[string]string{
	SourcePolicy:  "Managed policy",
	SourceUser:    "User settings",
	SourceProject: "Project settings (shared)",
	SourceLocal:   "Project settings (local)",
	SourceFlags:   "Latch grant layer",
	SourceCLI:     "Command-line flags",
	SourceSession: "This session",
}

const (
	readOnlyPolicy  = "Set by your administrator (managed policy); Latch never edits it."
	readOnlyProject = "Shared with everyone who uses the project (usually in git); edit .claude/settings.json yourself."
	readOnlyFlags   = "Latch's grant layer in the running CLI: it mirrors what Latch saved and this session's grants."
	readOnlyCLI     = "Latch's own command-line flags: the working folder, the temp folder, the baseline tools and Preferences' allowed tools; change them in Preferences."
	// Claude Code 2.1.328 says on stderr that it ignores these ("Ignoring 1
	// permissions.allow entry from .claude/settings.json: this workspace
	// has not been trusted"); the local file's allow rules and the shared
	// file's ask and deny rules still apply.
	ignoredUntrusted = "not applied: this folder is not trusted in Claude Code"
)

// ComputeView reads every rule and working folder that applies in
// in.Workdir, one Layer per source in the order of Sources. A file that
// cannot be read or is not JSON gives an empty layer whose State and Error
// say why, as Claude Code skips such a file.
func ComputeView(in ViewInput) View {
	workdir := in.Workdir
	if workdir != "" {
		if abs, err := filepath.Abs(workdir); err == nil {
			workdir = abs
		}
	}
	v := View{Workdir: workdir, Origin: "files", Home: in.Home, Layers: make([]Layer, 0, len(Sources))}
	if in.ClaudeJSON == "" {
		in.ClaudeJSON, _ = ClaudeJSONPath()
	}
	v.TrustFile = in.ClaudeJSON
	if in.ClaudeJSON != "" && workdir != "" {
		// A state file Latch cannot read trusts nothing, as far as the
		// view can tell.
		v.Trusted, _ = WorkspaceTrusted(in.ClaudeJSON, workdir)
	}

	modes := map[string]string{} // defaultMode by source
	for _, src := range Sources {
		l := Layer{Source: src, Title: layerTitles[src], State: FileOK, Rules: []RuleEntry{}, Folders: []FolderEntry{}}
		var p Permissions
		switch src {
		case SourcePolicy:
			path := in.ManagedSettings
			if path == "" {
				path = ManagedSettingsPath()
			}
			p = readLayer(&l, path, nil)
			l.ReadOnly = readOnlyPolicy
		case SourceUser:
			path, err := in.UserSettings, error(nil)
			if path == "" {
				path, err = UserSettingsPath()
			}
			p = readLayer(&l, path, err)
			latchWrites(&l, nil)
		case SourceProject:
			p = readLayer(&l, projectFile(workdir, "settings.json"), noWorkdir(workdir))
			l.ReadOnly = readOnlyProject
		case SourceLocal:
			p = readLayer(&l, projectFile(workdir, "settings.local.json"), noWorkdir(workdir))
			_, refused := ProjectStore(workdir)
			latchWrites(&l, refused)
		case SourceFlags:
			p = Permissions{Allow: in.FlagAllow, Ask: in.FlagAsk, AdditionalDirectories: in.FlagDirs}
			l.ReadOnly = readOnlyFlags
		case SourceCLI:
			p = Permissions{Allow: in.AllowedTools, AdditionalDirectories: in.AddDirs}
			l.ReadOnly = readOnlyCLI
		case SourceSession:
			p = Permissions{Allow: in.SessionRules, AdditionalDirectories: in.SessionDirs}
			l.Editable = true // revoked in the running session
		}
		modes[src] = p.DefaultMode
		for _, b := range []struct {
			behavior string
			rules    []string
		}{{Allow, p.Allow}, {Ask, p.Ask}, {Deny, p.Deny}} {
			for _, r := range b.rules {
				e := RuleEntry{Behavior: b.behavior, Rule: r, Source: src, File: l.File, Reading: ReadingOf(r), Editable: l.Editable}
				if src == SourceProject && b.behavior == Allow && !v.Trusted {
					e.Ignored = ignoredUntrusted
				}
				l.Rules = append(l.Rules, e)
			}
		}
		for _, d := range p.AdditionalDirectories {
			l.Folders = append(l.Folders, FolderEntry{Path: d, Source: src, File: l.File, Editable: l.Editable})
		}
		v.Layers = append(v.Layers, l)
	}

	// Claude Code's precedence for settings: policy, then local, then
	// shared project, then user.
	v.Mode = in.Mode
	for _, src := range []string{SourcePolicy, SourceLocal, SourceProject, SourceUser} {
		if v.Mode == "" {
			v.Mode = modes[src]
		}
	}
	if v.Mode == "" {
		v.Mode = "default"
	}
	return v
}

func projectFile(workdir, name string) string {
	if workdir == "" {
		return ""
	}
	return filepath.Join(workdir, ".claude", name)
}

func noWorkdir(workdir string) error {
	if workdir == "" {
		return errNoWorkdir
	}
	return nil
}

var errNoWorkdir = errors.New("no working folder given")

// readLayer reads the settings file at path into l's File, State and
// Error, and returns its permissions as Claude Code reads them. pathErr is
// why there is no path to read.
func readLayer(l *Layer, path string, pathErr error) Permissions {
	none := Permissions{}
	if errors.Is(pathErr, errNoWorkdir) {
		l.State = FileMissing
		return none
	}
	if pathErr != nil {
		l.State, l.Error = FileUnreadable, pathErr.Error()
		return none
	}
	l.File = path
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) || err == nil && blank(data):
		l.State = FileMissing
		return none
	case err != nil:
		l.State, l.Error = FileUnreadable, err.Error()
		return none
	}
	p, err := NewStore(path).Read()
	var se *SyntaxError
	switch {
	case errors.As(err, &se):
		l.State, l.Error, l.Line, l.Column = FileMalformed, se.Error(), se.line, se.column
		return none
	case err != nil:
		l.State, l.Error = FileUnreadable, err.Error()
		return none
	}
	return p
}

// latchWrites sets whether Latch can edit l, a layer of a file it writes
// (user or local settings): not when the file is malformed, unreadable or
// read-only, or when refused says the file is out of bounds.
func latchWrites(l *Layer, refused error) {
	var why string
	switch {
	case l.State == FileMalformed:
		why = fmt.Sprintf("The file is not valid JSON (line %d, column %d): Claude Code skips it and Latch will not write it until it is fixed.", l.Line, l.Column)
	case l.State == FileUnreadable:
		why = "Latch cannot read the file, so it does not write it."
	case refused != nil:
		why = refused.Error()
	case l.File == "":
		why = "There is no file to write."
	default:
		if fi, err := os.Stat(l.File); err == nil && fi.Mode().Perm()&0o200 == 0 {
			why = "The file is read-only on disk; Latch leaves it as it is."
		}
	}
	l.Editable, l.ReadOnly = why == "", why
}

// ReadingOf is Latch's plain-language reading of a rule, in the tone of
// the CLI's own ("Any Bash command starting with npm test").
func ReadingOf(rule string) string {
	if err := ValidRule(rule); err != nil {
		msg := err.Error()
		return "Not a rule Claude Code reads: " + msg[strings.LastIndex(msg, ": ")+2:]
	}
	tool, content := ParseRule(rule)
	if content == "" {
		if server, name, ok := mcpTool(tool); ok {
			if name == "" || name == "*" {
				return "Every tool of MCP server " + server
			}
			return "MCP tool " + name + " of server " + server
		}
		if commandTools[tool] {
			return "Any " + tool + " command"
		}
		return "Any use of the " + tool + " tool"
	}
	switch {
	case commandTools[tool]:
		return commandReading(tool, content)
	case fileVerbs[tool] != "":
		return pathReading(fileVerbs[tool], content)
	case tool == "WebFetch" && strings.HasPrefix(content, "domain:"):
		return "Fetch from " + strings.TrimPrefix(content, "domain:")
	}
	what := "The " + tool + " tool"
	if server, name, ok := mcpTool(tool); ok {
		what = "MCP tool " + name + " of server " + server
	}
	if param, value, ok := strings.Cut(content, ":"); ok && value != "" && validToolName(param) {
		return what + " with " + param + " " + value
	}
	return what + " for " + content
}

// commandTools take a command line as their rule content.
var commandTools = map[string]bool{"Bash": true, "PowerShell": true}

// fileVerbs are the tools whose rule content is a path pattern, with what
// they do to files.
var fileVerbs = map[string]string{
	"Read": "Read", "NotebookRead": "Read", "Edit": "Edit", "MultiEdit": "Edit", "NotebookEdit": "Edit",
	"Write": "Write", "Glob": "Find", "Grep": "Search", "LS": "List",
}

// mcpTool splits mcp__server__tool; tool is "" for a whole server.
func mcpTool(tool string) (server, name string, ok bool) {
	rest, ok := strings.CutPrefix(tool, "mcp__")
	if !ok || rest == "" {
		return "", "", false
	}
	server, name, _ = strings.Cut(rest, "__")
	return server, name, true
}

func commandReading(tool, content string) string {
	if prefix, ok := strings.CutSuffix(content, ":*"); ok {
		if prefix == "" {
			return "Any " + tool + " command"
		}
		return "Any " + tool + " command starting with " + prefix
	}
	if strings.Contains(content, "*") {
		return tool + " commands matching " + content + " (* is any text)"
	}
	return "The " + tool + " command " + content + ", exactly"
}

// pathReading reads a path pattern of a file rule. Claude Code anchors
// //path at the file system's root, ~/path at the home folder, /path at
// the folder of the settings file that holds the rule, and any other path
// at the working folder.
func pathReading(verb, p string) string {
	var shown, where, whole string
	inDir := " and below" // after "<verb> files in <dir>"
	switch {
	case strings.HasPrefix(p, "//"):
		shown, whole = p[1:], "/"
	case p == "~" || strings.HasPrefix(p, "~/"):
		shown, where, whole = p, " (your home)", "your home folder"
	case strings.HasPrefix(p, "/"):
		shown, where, whole = p[1:], " below this settings file's folder", "this settings file's folder"
		inDir = ""
	default:
		shown, where, whole = strings.TrimPrefix(p, "./"), " (relative to the working folder)", "the working folder"
	}
	if dir, ok := strings.CutSuffix(shown, "/**"); ok && !strings.ContainsAny(dir, "*?[") {
		if dir == "" || dir == "~" || dir == "." {
			return verb + " files in " + whole + " and below"
		}
		return verb + " files in " + dir + inDir + where
	}
	if shown == "**" {
		return verb + " files in " + whole + " and below"
	}
	if strings.ContainsAny(shown, "*?[") {
		return verb + " files matching " + shown + where
	}
	return verb + " " + shown + where
}

// CallInput turns what someone typed for a tool call into the tool's JSON
// input: JSON as it is when it starts with "{", else the bare value in
// the field the tool reads it from: Bash's command, the file tools' path,
// WebFetch's url, WebSearch's query. For Glob and Grep a bare value is
// their path, the folder searched, which is what rules are about, when it
// looks like one ("/…", "~…", "./…", "../…", "." or ".."), else their
// pattern, searched in the working folder. A bare value for any other tool
// gives {}.
func CallInput(tool, input string) json.RawMessage {
	if strings.HasPrefix(strings.TrimSpace(input), "{") {
		return json.RawMessage(input)
	}
	var field string
	switch tool {
	case "Bash", "PowerShell":
		field = "command"
	case "Read", "Write", "Edit", "MultiEdit":
		field = "file_path"
	case "NotebookEdit", "NotebookRead":
		field = "notebook_path" // Claude Code's name for it in these tools
	case "LS":
		field = "path"
	case "Glob", "Grep":
		field = "pattern"
		if looksLikePath(input) {
			field = "path"
		}
	case "WebFetch":
		field = "url"
	case "WebSearch":
		field = "query"
	default:
		return json.RawMessage("{}")
	}
	return json.RawMessage("{" + quote(field) + ":" + quote(input) + "}")
}

func looksLikePath(s string) bool {
	if s == "." || s == ".." {
		return true
	}
	for _, p := range []string{"/", "~", "./", "../"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return filepath.IsAbs(s) // C:\x
}
