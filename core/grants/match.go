package grants

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// This file is Latch's reading of how Claude Code decides one tool call
// from the rules of a View: deny rules first, then ask rules, then allow
// rules, then the default for the tool and the permission mode. It reads
// the documented matching; where Claude Code's behaviour is not documented
// the choice made here is written next to the code, and it errs towards
// asking rather than allowing.

// homeDir is the folder ~ means in rules when the view names none
// (View.Home). Tests replace it.
var homeDir = os.UserHomeDir

// home is the folder ~ means in v's rules and paths.
func (v *View) home() (string, error) {
	if v.Home != "" {
		return v.Home, nil
	}
	return homeDir()
}

// Permission modes, as Claude Code names them.
const (
	modeDefault     = "default"
	modeAcceptEdits = "acceptEdits"
	modePlan        = "plan"
	modeBypass      = "bypassPermissions"
	modeDontAsk     = "dontAsk"
)

// File tools: the tools Read rules and Edit rules apply to, and the input
// field that holds each one's path.
var (
	readFileTools = map[string]string{
		"Read": "file_path", "Glob": "path", "Grep": "path", "LS": "path", "NotebookRead": "notebook_path",
	}
	editFileTools = map[string]string{
		"Edit": "file_path", "MultiEdit": "file_path", "Write": "file_path", "NotebookEdit": "notebook_path",
	}
	// Tools that only read and need no rule inside the working folders;
	// the ones without a path need no rule anywhere.
	pathlessReadOnly = map[string]bool{
		"TodoWrite": true, "TodoRead": true, "Task": true, "ExitPlanMode": true,
	}
)

// Test says whether Claude Code would allow, ask for or deny the call of
// tool with input in v, and why. Rules come from every layer of v, in
// layer order; rules with Ignored set are skipped.
func (v View) Test(tool string, input json.RawMessage) Verdict {
	c := newMatchCall(&v, tool, input)
	mode := v.Mode
	if mode == "" {
		mode = modeDefault
	}

	// Deny rules decide first, whatever the mode.
	if h, ok := c.firstHit(Deny); ok {
		return Verdict{Behavior: Deny, Rule: h.copyRule(), Why: "denied by " + h.where() + h.partNote()}
	}
	// Ask rules next; Don't ask mode turns the question into a refusal.
	if h, ok := c.firstHit(Ask); ok {
		if mode == modeDontAsk {
			return Verdict{Behavior: Deny, Rule: h.copyRule(),
				Why: "denied: Don't ask mode refuses what " + h.where() + " would ask" + h.partNote()}
		}
		return Verdict{Behavior: Ask, Rule: h.copyRule(), Why: "asks because of " + h.where() + h.partNote()}
	}
	// Plan mode changes no files, whatever the allow rules say.
	if mode == modePlan && c.edit {
		return Verdict{Behavior: Deny, Why: "denied: Plan mode refuses changes to files"}
	}
	if a, ok := c.allowed(); ok {
		return a
	}
	if mode == modeBypass {
		return Verdict{Behavior: Allow, Why: "allowed: Bypass permissions mode allows everything no rule denies or asks for"}
	}
	d := c.byDefault(mode)
	if d.Behavior == Ask && mode == modeDontAsk {
		d = Verdict{Behavior: Deny, Why: "denied: Don't ask mode refuses what would ask (" + strings.TrimPrefix(d.Why, "asks: ") + ")"}
	}
	return d
}

// matchCall is one call as the rules see it.
type matchCall struct {
	v      *View
	tool   string
	fields map[string]json.RawMessage // nil when the input is not a JSON object
	// bad says why the input has nothing to match rules with content
	// against; "" when it has.
	bad string

	// Bash: the command, and its parts split on the shell's operators.
	command string
	whole   shellCommand
	parts   []shellCommand
	// File tools: the target as a clean absolute path, and whether it
	// lies in a working folder.
	read, edit bool
	target     string
	inside     bool
	// WebFetch: the host, lower case.
	host string

	// unreadable is the first allow rule for this tool Latch could not
	// read, and missing the first part of a Bash command no allow rule
	// allows; the reason names them when nothing allows the call.
	unreadable string
	missing    string
}

func newMatchCall(v *View, tool string, input json.RawMessage) *matchCall {
	c := &matchCall{v: v, tool: tool}
	if err := json.Unmarshal(input, &c.fields); err != nil || c.fields == nil {
		c.fields = nil
		c.bad = "its input is not a JSON object"
	}
	_, c.read = readFileTools[tool]
	_, c.edit = editFileTools[tool]
	switch {
	case tool == "Bash":
		cmd, ok := c.str("command")
		switch {
		case c.fields != nil && !ok:
			c.bad = "it has no command"
		case ok && strings.TrimSpace(cmd) == "":
			c.bad = "its command is blank"
		case ok:
			c.command = strings.TrimSpace(cmd)
			c.whole = newShellCommand(c.command)
			for _, p := range splitCompound(c.command) {
				c.parts = append(c.parts, newShellCommand(p))
			}
		}
	case c.read || c.edit:
		field := readFileTools[tool]
		if c.edit {
			field = editFileTools[tool]
		}
		p, ok := c.str(field)
		if !ok && field == "path" && c.fields != nil {
			// Glob, Grep and LS search the working directory when
			// given no path. (Glob's pattern is not read as a path.)
			p, ok = v.Workdir, v.Workdir != ""
		}
		if c.fields != nil && (!ok || p == "") {
			c.bad = "it has no " + field
			break
		}
		if !ok {
			break
		}
		if rest, ok := strings.CutPrefix(p, "~/"); ok || p == "~" {
			// Claude Code's file tools read ~ as the home folder.
			if home, err := v.home(); err == nil && home != "" {
				p = filepath.Join(home, rest)
			}
		}
		if !filepath.IsAbs(p) {
			if v.Workdir == "" {
				c.bad = "its path is relative and there is no working folder"
				break
			}
			p = filepath.Join(v.Workdir, p)
		}
		// Clean before matching, so /w/../etc/passwd is /etc/passwd.
		// Links are not followed: the file may not exist, and this is
		// a reading of the rules, not of the disk.
		c.target = filepath.Clean(p)
		c.inside = c.inWorkingFolder(c.target)
	case tool == "WebFetch":
		raw, ok := c.str("url")
		if c.fields != nil && !ok {
			c.bad = "it has no url"
			break
		}
		if u, err := url.Parse(raw); ok && err == nil && u.Hostname() != "" {
			c.host = strings.ToLower(u.Hostname())
		} else if ok {
			c.bad = "its url has no host Latch can read"
		}
	}
	return c
}

// str is the string field name of the input.
func (c *matchCall) str(name string) (string, bool) {
	raw, ok := c.fields[name]
	if !ok {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

// inWorkingFolder reports that p (clean, absolute) is the working folder,
// one of the folders in the view's layers, or inside one. Paths are
// compared as written, without resolving links.
func (c *matchCall) inWorkingFolder(p string) bool {
	check := func(dir string) bool {
		if dir == "" {
			return false
		}
		if !filepath.IsAbs(dir) {
			if c.v.Workdir == "" {
				return false
			}
			dir = filepath.Join(c.v.Workdir, dir)
		}
		dir = filepath.Clean(dir)
		return p == dir || within(dir, p)
	}
	if check(c.v.Workdir) {
		return true
	}
	for _, l := range c.v.Layers {
		for _, f := range l.Folders {
			if check(f.Path) {
				return true
			}
		}
	}
	return false
}

// ruleHit is a rule that matched, with the part of a Bash command it
// matched when the command has more than one.
type ruleHit struct {
	entry *RuleEntry
	layer *Layer
	part  string
	multi bool // the command has several parts
}

func (h ruleHit) copyRule() *RuleEntry {
	r := *h.entry
	return &r
}

// where names the rule and its file: "Bash(rm:*) in /home/u/.claude/
// settings.json (User settings)".
func (h ruleHit) where() string {
	return ruleWhere(h.entry, h.layer)
}

func ruleWhere(e *RuleEntry, l *Layer) string {
	file := e.File
	if file == "" {
		file = l.File
	}
	title := l.Title
	if title == "" {
		title = e.Source
	}
	if title == "" {
		title = l.Source
	}
	switch {
	case file != "" && title != "":
		return fmt.Sprintf("%s in %s (%s)", e.Rule, file, title)
	case file != "":
		return e.Rule + " in " + file
	case title != "":
		return e.Rule + " in " + title
	}
	return e.Rule
}

func (h ruleHit) partNote() string {
	if !h.multi || h.part == "" {
		return ""
	}
	return fmt.Sprintf(", which matches %q, one part of the command", h.part)
}

// eachRule calls fn with every rule in force of behavior, in layer order,
// until fn returns false.
func (c *matchCall) eachRule(behavior string, fn func(e *RuleEntry, l *Layer) bool) {
	for li := range c.v.Layers {
		l := &c.v.Layers[li]
		for ri := range l.Rules {
			e := &l.Rules[ri]
			if e.Behavior != behavior || e.Ignored != "" {
				continue
			}
			if !fn(e, l) {
				return
			}
		}
	}
}

// firstHit is the first deny or ask rule that matches the call. For Bash
// it matches when it matches the whole command or any one part of it.
func (c *matchCall) firstHit(behavior string) (ruleHit, bool) {
	var hit ruleHit
	found := false
	c.eachRule(behavior, func(e *RuleEntry, l *Layer) bool {
		tool, content, bare, ok := c.applies(e.Rule)
		if !ok {
			return true
		}
		if bare {
			hit, found = ruleHit{entry: e, layer: l}, true
			return false
		}
		if tool == "Bash" {
			if c.command == "" {
				return true
			}
			if matchPart(content, c.whole, false) {
				hit, found = ruleHit{entry: e, layer: l}, true
				return false
			}
			for _, p := range c.parts {
				if matchPart(content, p, false) {
					hit, found = ruleHit{entry: e, layer: l, part: p.raw, multi: len(c.parts) > 1}, true
					return false
				}
			}
			return true
		}
		if m, _ := c.matchContent(tool, content, e, l); m {
			hit, found = ruleHit{entry: e, layer: l}, true
			return false
		}
		return true
	})
	return hit, found
}

// allowed is the verdict of the allow rules, when they allow the call. A
// Bash command of several parts is allowed only when every part is.
func (c *matchCall) allowed() (Verdict, bool) {
	if c.tool == "Bash" && c.command != "" {
		return c.allowedParts()
	}
	var hit ruleHit
	found := false
	c.eachRule(Allow, func(e *RuleEntry, l *Layer) bool {
		tool, content, bare, ok := c.applies(e.Rule)
		if !ok {
			return true
		}
		var m bool
		switch {
		case bare:
			m = true
		case tool == "Bash":
			m = false // no command to match
		default:
			m, _ = c.matchContent(tool, content, e, l)
		}
		if m {
			hit, found = ruleHit{entry: e, layer: l}, true
		}
		return !m
	})
	if !found {
		return Verdict{}, false
	}
	return Verdict{Behavior: Allow, Rule: hit.copyRule(), Why: "allowed by " + hit.where()}, true
}

// allowedParts allows a Bash command when a bare Bash rule, a rule
// holding the whole command exactly, or, part by part, some allow rule for
// every part of it allows it.
func (c *matchCall) allowedParts() (Verdict, bool) {
	type ruleRef struct {
		e       *RuleEntry
		l       *Layer
		content string
	}
	var rules []ruleRef
	var whole *ruleRef
	c.eachRule(Allow, func(e *RuleEntry, l *Layer) bool {
		_, content, bare, ok := c.applies(e.Rule)
		if !ok {
			return true
		}
		if bare || exactWhole(content, c.command) {
			whole = &ruleRef{e: e, l: l}
			return false
		}
		rules = append(rules, ruleRef{e, l, content})
		return true
	})
	if whole != nil {
		h := ruleHit{entry: whole.e, layer: whole.l}
		return Verdict{Behavior: Allow, Rule: h.copyRule(), Why: "allowed by " + h.where()}, true
	}
	if len(c.parts) == 0 {
		return Verdict{}, false
	}
	var first *ruleRef
	var by []string
	for _, p := range c.parts {
		var got *ruleRef
		for i := range rules {
			if matchPart(rules[i].content, p, true) {
				got = &rules[i]
				break
			}
		}
		if got == nil {
			c.missing = p.raw
			return Verdict{}, false
		}
		if first == nil {
			first = got
		}
		by = append(by, fmt.Sprintf("%q by %s", p.raw, ruleWhere(got.e, got.l)))
	}
	h := ruleHit{entry: first.e, layer: first.l}
	if len(c.parts) == 1 {
		return Verdict{Behavior: Allow, Rule: h.copyRule(), Why: "allowed by " + h.where()}, true
	}
	return Verdict{Behavior: Allow, Rule: h.copyRule(),
		Why: "allowed: every part of the command is allowed, " + strings.Join(by, ", ")}, true
}

// applies reports whether rule names the call's tool, and splits it. bare
// is set for a rule that names the tool (or MCP server) alone, or
// Bash(*), and so matches every call of it.
func (c *matchCall) applies(rule string) (tool, content string, bare, ok bool) {
	tool, content = ParseRule(rule)
	switch {
	case tool == c.tool:
	case tool == "Read" && c.read, tool == "Edit" && c.edit:
	case strings.HasPrefix(tool, "mcp__") && strings.HasPrefix(c.tool, "mcp__"):
		// mcp__srv and mcp__srv__* name every tool of the server.
		srv := strings.TrimSuffix(tool, "__*")
		if strings.Contains(strings.TrimPrefix(srv, "mcp__"), "__") || !strings.HasPrefix(c.tool, srv+"__") {
			return "", "", false, false
		}
	default:
		return "", "", false, false
	}
	if content == "" {
		return tool, "", true, true
	}
	if tool == "Bash" && strings.TrimSpace(content) == "*" {
		return tool, content, true, true
	}
	return tool, content, false, true
}

// matchContent matches the content of a rule for a tool other than Bash.
// unreadable is set when the rule cannot be read, and then it never
// matches; an allow rule like that is remembered for the reason.
func (c *matchCall) matchContent(tool, content string, e *RuleEntry, l *Layer) (match, unreadable bool) {
	defer func() {
		if unreadable && e.Behavior == Allow && c.unreadable == "" {
			c.unreadable = ruleWhere(e, l)
		}
	}()
	switch {
	case c.read || c.edit:
		if c.target == "" {
			return false, false
		}
		return matchPathRule(content, ruleRoot(e, l, c.v.Workdir), c.v.Workdir, c.target, c.v.home)
	case tool == "WebFetch":
		host, ok := strings.CutPrefix(content, "domain:")
		host = strings.ToLower(strings.TrimSpace(host))
		if !ok || host == "" {
			return false, true
		}
		if c.host == "" {
			return false, false
		}
		if sub, ok := strings.CutPrefix(host, "*."); ok {
			return strings.HasSuffix(c.host, "."+sub), false
		}
		return c.host == host, false
	case tool == "WebSearch":
		return false, true // WebSearch takes no content
	}
	if c.fields == nil {
		return false, false
	}
	param, value, ok := strings.Cut(content, ":")
	if !ok && (tool == "Task" || tool == "Agent") {
		param, value, ok = "subagent_type", content, true // Task(name)
	}
	if !ok || param == "" {
		return false, true
	}
	s, has := c.str(param)
	return has && wildcardMatch(value, s), false
}

// ruleRoot is the folder a rule's "/path" is relative to: the project
// folder for a file in <project>/.claude (~ for ~/.claude/settings.json),
// the file's own folder for any other file, and the working folder for
// rules that come from no file (flags, the session).
func ruleRoot(e *RuleEntry, l *Layer, workdir string) string {
	file := e.File
	if file == "" {
		file = l.File
	}
	if file == "" {
		return workdir
	}
	dir := filepath.Dir(file)
	if filepath.Base(dir) == ".claude" {
		return filepath.Dir(dir)
	}
	return dir
}

// matchPathRule matches a Read or Edit rule's path pattern, in gitignore
// syntax, against target (clean, absolute):
//
//	//abs/path   from the root of the file system
//	~/path       from the home folder
//	/path        from root, the folder of the settings file (ruleRoot)
//	./path, a/b  from the working folder, anchored
//	name, *.env  (no slash but a trailing one) at any depth below the
//	             working folder, as in .gitignore
//
// A pattern that matches a folder matches everything inside it, and
// "dir/**" matches dir itself too.
func matchPathRule(pattern, root, workdir, target string, homeDir func() (string, error)) (match, unreadable bool) {
	pattern = filepath.ToSlash(strings.TrimSpace(pattern))
	base := workdir
	anchored := true
	switch {
	case strings.HasPrefix(pattern, "//"):
		base, pattern = "/", pattern[2:]
	case pattern == "~" || strings.HasPrefix(pattern, "~/"):
		home, err := homeDir()
		if err != nil || home == "" {
			return false, true
		}
		base, pattern = home, strings.TrimPrefix(pattern[1:], "/")
	case strings.HasPrefix(pattern, "/"):
		base, pattern = root, pattern[1:]
	case strings.HasPrefix(pattern, "./"):
		pattern = pattern[2:]
	default:
		anchored = strings.Contains(strings.TrimSuffix(pattern, "/"), "/")
	}
	if base == "" {
		return false, false
	}
	pattern = strings.TrimSuffix(pattern, "/")
	rel, err := filepath.Rel(filepath.Clean(base), target)
	if err != nil {
		return false, false
	}
	rel = filepath.ToSlash(rel)
	if rel == ".." || strings.HasPrefix(rel, "../") {
		return false, false
	}
	if pattern == "" || pattern == "**" {
		return true, false // the folder and everything in it
	}
	var segs []string
	if rel != "." {
		segs = strings.Split(rel, "/")
	}
	pat := strings.Split(pattern, "/")
	for _, p := range pat {
		if _, err := path.Match(p, ""); err != nil {
			return false, true
		}
	}
	if !anchored {
		for _, s := range segs {
			if ok, _ := path.Match(pat[0], s); ok {
				return true, false
			}
		}
		return false, false
	}
	// The pattern, or a folder it names, holds target: it matches some
	// leading run of target's segments.
	for k := 1; k <= len(segs); k++ {
		if matchSegments(pat, segs[:k]) {
			return true, false
		}
	}
	return len(segs) == 0 && matchSegments(pat, nil), false
}

// matchSegments matches path segments against pattern segments, where
// "**" is any number of segments (none included).
func matchSegments(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for len(pat) > 1 && pat[1] == "**" {
				pat = pat[1:]
			}
			if len(pat) == 1 {
				return true
			}
			for i := 0; i <= len(segs); i++ {
				if matchSegments(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], segs[0]); !ok {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// shellCommand is a command as written, and without its leading
// VAR=value assignments.
type shellCommand struct{ raw, bare string }

func newShellCommand(cmd string) shellCommand {
	return shellCommand{raw: cmd, bare: stripEnvAssignments(cmd)}
}

// exactWhole reports a rule without wildcards that holds the whole
// command as written: it allows a compound command it names exactly.
func exactWhole(content, cmd string) bool {
	content = strings.TrimSpace(content)
	return !hasWildcard(content) && !strings.HasSuffix(content, ":*") && unescapeStar(content) == cmd
}

// matchPart matches Bash rule content against one command:
//
//	prefix:*   the command is prefix, or prefix then a space and more
//	a * b      * is any text, spaces included; a trailing " *" also
//	           matches the command without it (Bash(ls *) matches ls)
//	exact      no * at all: the command as written, quotes included
//
// \* is a literal star. Leading VAR=value assignments are stripped before
// matching (the command as written is tried too). For an allow, a part
// that runs a command inside $( ), backticks or <( ) is matched only by an
// exact rule, never by a wildcard: the wildcard would approve the hidden
// command too.
func matchPart(content string, cmd shellCommand, forAllow bool) bool {
	content = strings.TrimSpace(content)
	if matchOne(content, cmd.raw, forAllow) {
		return true
	}
	return cmd.bare != cmd.raw && matchOne(content, cmd.bare, forAllow)
}

func matchOne(content, cmd string, forAllow bool) bool {
	if prefix, ok := strings.CutSuffix(content, ":*"); ok {
		if forAllow && hidesCommand(cmd) {
			return false
		}
		prefix = strings.TrimRight(prefix, " ")
		if !hasWildcard(prefix) {
			prefix = unescapeStar(prefix)
			rest, ok := strings.CutPrefix(cmd, prefix)
			return ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t')
		}
		if wildcardMatch(prefix, cmd) {
			return true
		}
		for i := 0; i < len(cmd); i++ {
			if (cmd[i] == ' ' || cmd[i] == '\t') && wildcardMatch(prefix, cmd[:i]) {
				return true
			}
		}
		return false
	}
	if !hasWildcard(content) {
		return unescapeStar(content) == cmd
	}
	if forAllow && hidesCommand(cmd) {
		return false
	}
	if wildcardMatch(content, cmd) {
		return true
	}
	if base, ok := strings.CutSuffix(content, " *"); ok {
		return wildcardMatch(strings.TrimRight(base, " "), cmd)
	}
	return false
}

// hidesCommand reports a command substitution or process substitution.
func hidesCommand(cmd string) bool {
	return strings.Contains(cmd, "$(") || strings.Contains(cmd, "`") ||
		strings.Contains(cmd, "<(") || strings.Contains(cmd, ">(")
}

// hasWildcard reports a * not escaped as \*.
func hasWildcard(p string) bool {
	for i := 0; i < len(p); i++ {
		if p[i] == '*' && (i == 0 || p[i-1] != '\\') {
			return true
		}
	}
	return false
}

func unescapeStar(p string) string {
	if !strings.Contains(p, `\*`) {
		return p
	}
	return strings.ReplaceAll(p, `\*`, "*")
}

// wildcardMatch matches s against p, where * is any text (spaces and
// slashes included) and \* a literal star; every other byte is itself.
func wildcardMatch(p, s string) bool {
	px, sx := 0, 0
	starP, starS := -1, 0
	for {
		if px < len(p) {
			if p[px] == '*' {
				starP, starS = px, sx
				px++
				continue
			}
			lit, n := p[px], 1
			if lit == '\\' && px+1 < len(p) && p[px+1] == '*' {
				lit, n = '*', 2
			}
			if sx < len(s) && s[sx] == lit {
				px += n
				sx++
				continue
			}
		} else if sx == len(s) {
			return true
		}
		if starP >= 0 && starS < len(s) {
			starS++
			sx, px = starS, starP+1
			continue
		}
		return false
	}
}

// splitCompound splits a command line into the commands it runs, at the
// unquoted operators && || ; | & and newlines. Quotes, backslash escapes
// and $( ), <( ), >( ) and backtick substitutions are kept whole (a
// substitution is opaque: what runs inside it is not split out). The
// & of a redirection (2>&1, &>file) and the | of >| separate nothing.
// Parts are trimmed; empty parts are dropped.
func splitCompound(cmd string) []string {
	var parts []string
	start := 0
	var quote byte // ' or " when inside quotes
	depth := 0     // open $( ( of substitutions
	backtick := false
	cut := func(i, skip int) {
		if p := strings.TrimSpace(cmd[start:i]); p != "" {
			parts = append(parts, p)
		}
		start = i + skip
	}
	for i := 0; i < len(cmd); i++ {
		ch := cmd[i]
		switch {
		case quote == '\'':
			if ch == '\'' {
				quote = 0
			}
			continue
		case ch == '\\':
			i++ // the next byte is literal
			continue
		case ch == '`':
			backtick = !backtick
			continue
		case backtick:
			continue
		case ch == '(' && i > 0 && (cmd[i-1] == '$' || cmd[i-1] == '<' || cmd[i-1] == '>'):
			depth++
			continue
		case depth > 0:
			switch ch {
			case '(':
				depth++
			case ')':
				depth--
			case '\'', '"':
				// Quotes inside a substitution: skip to the closing one.
				if j := strings.IndexByte(cmd[i+1:], ch); j >= 0 {
					i += j + 1
				}
			}
			continue
		case quote == '"':
			if ch == '"' {
				quote = 0
			}
			continue
		case ch == '\'' || ch == '"':
			quote = ch
			continue
		}
		switch ch {
		case ';', '\n':
			cut(i, 1)
		case '|':
			if i > 0 && cmd[i-1] == '>' {
				continue // >| file
			}
			cut(i, 1)
		case '&':
			if i > 0 && (cmd[i-1] == '>' || cmd[i-1] == '<') || i+1 < len(cmd) && cmd[i+1] == '>' {
				continue // 2>&1, <&3, &>file
			}
			cut(i, 1)
		}
	}
	cut(len(cmd), 0)
	return parts
}

// stripEnvAssignments drops leading VAR=value words (FOO=1 BAR="a b" cmd
// is cmd). Only assignments are stripped: wrappers such as timeout, nice
// or nohup are left, so Bash(npm test:*) does not match "nice npm test".
// A line of assignments alone is kept as it is.
func stripEnvAssignments(s string) string {
	for {
		i := 0
		for i < len(s) && (s[i] == '_' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || i > 0 && s[i] >= '0' && s[i] <= '9') {
			i++
		}
		if i == 0 || i >= len(s) || s[i] != '=' {
			return s
		}
		j := i + 1
		var quote byte
	value:
		for ; j < len(s); j++ {
			switch ch := s[j]; {
			case quote != 0:
				if ch == quote {
					quote = 0
				} else if ch == '\\' && quote == '"' {
					j++
				}
			case ch == '\'' || ch == '"':
				quote = ch
			case ch == '\\':
				j++
			case ch == ' ' || ch == '\t':
				break value
			}
		}
		if j >= len(s) {
			return s
		}
		rest := strings.TrimLeft(s[j:], " \t")
		if rest == "" {
			return s
		}
		s = rest
	}
}

// byDefault is the verdict when no rule decided.
func (c *matchCall) byDefault(mode string) Verdict {
	note := ""
	switch {
	case c.bad != "":
		note = fmt.Sprintf(" (Latch cannot match rules against this call: %s)", c.bad)
	case c.missing != "" && len(c.parts) > 1:
		note = fmt.Sprintf(" (no rule allows %q, one part of the command)", c.missing)
	case c.unreadable != "":
		note = fmt.Sprintf(" (Latch cannot read %s, so it allows nothing)", c.unreadable)
	}
	switch {
	case c.read:
		if c.inside {
			return Verdict{Behavior: Allow, Why: "allowed: reading inside the working folders needs no rule"}
		}
		if c.target == "" {
			return Verdict{Behavior: Ask, Why: fmt.Sprintf("asks: no rule allows this %s call, and reading asks unless the path is inside the working folders%s", c.tool, note)}
		}
		return Verdict{Behavior: Ask, Why: fmt.Sprintf("asks: %s is outside the working folders, and no rule allows reading it%s", c.target, note)}
	case c.edit:
		if c.inside && mode == modeAcceptEdits {
			return Verdict{Behavior: Allow, Why: "allowed: Accept edits mode allows changing files inside the working folders"}
		}
		if c.target != "" && !c.inside {
			return Verdict{Behavior: Ask, Why: fmt.Sprintf("asks: %s is outside the working folders, and no rule allows changing it%s", c.target, note)}
		}
		return Verdict{Behavior: Ask, Why: fmt.Sprintf("asks: no rule allows this %s call, and %s asks by default%s", c.tool, c.tool, note)}
	case pathlessReadOnly[c.tool]:
		return Verdict{Behavior: Allow, Why: fmt.Sprintf("allowed: %s only reads, and needs no rule", c.tool)}
	case c.tool == "Bash":
		why := "asks: no rule allows this Bash command, and Bash asks by default" + note
		if mode == modePlan {
			why = "asks: no rule allows this Bash command, and Plan mode runs only the commands you approve" + note
		}
		return Verdict{Behavior: Ask, Why: why}
	}
	return Verdict{Behavior: Ask, Why: fmt.Sprintf("asks: no rule allows this %s call, and %s asks by default%s", c.tool, c.tool, note)}
}
