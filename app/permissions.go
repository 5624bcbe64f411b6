package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/latch-app/latch/app/cliproc"
	"github.com/latch-app/latch/core/audit"
	"github.com/latch-app/latch/core/grants"
	"github.com/latch-app/latch/core/stream"
)

// The permissions inspector's view of a folder. The types are core/grants'
// own, named here so ui needs only app.
type (
	PermissionView   = grants.View
	PermissionLayer  = grants.Layer
	PermissionRule   = grants.RuleEntry
	PermissionFolder = grants.FolderEntry
	Verdict          = grants.Verdict
)

// Behaviours, file states and view origins, for ui.
const (
	BehaviorAllow = grants.Allow
	BehaviorAsk   = grants.Ask
	BehaviorDeny  = grants.Deny

	FileOK         = grants.FileOK
	FileMissing    = grants.FileMissing
	FileMalformed  = grants.FileMalformed
	FileUnreadable = grants.FileUnreadable

	SourceSession = grants.SourceSession

	OriginCLI   = "cli"
	OriginFiles = "files"
)

// Mode is one permission mode the mode selector offers.
type Mode struct {
	Value string // as the CLI spells it: "default", "acceptEdits", …
	Title string // "Manual", "Accept edits", …
	// Danger marks a mode that lets calls run unasked (bypass): shown red.
	Danger bool
}

// Permission modes, as the CLI spells them.
const (
	ModeDefault     = "default"
	ModeAcceptEdits = "acceptEdits"
	ModePlan        = "plan"
	ModeDontAsk     = "dontAsk"
	ModeAuto        = "auto"
	ModeBypass      = "bypassPermissions"
)

// ModeTitle is a mode in words; an unknown mode is shown as the CLI
// spells it.
func ModeTitle(mode string) string {
	switch mode {
	case "", ModeDefault:
		return "Manual"
	case ModeAcceptEdits:
		return "Accept edits"
	case ModePlan:
		return "Plan"
	case ModeDontAsk:
		return "Don't ask"
	case ModeAuto:
		return "Auto"
	case ModeBypass:
		return "Bypass"
	}
	return VisibleLine(mode)
}

// requestWait bounds how long Latch waits for the CLI to answer one of
// its own requests.
var requestWait = 5 * time.Second

// Inspector answers the permissions window for one folder. *Session is
// one (live: it asks its CLI process); Settings.Inspector gives one that
// reads the files when no session runs yet. Every method may block on I/O
// or the CLI: call them off the UI goroutine.
type Inspector interface {
	Permissions(ctx context.Context) (PermissionView, error)
	TestCall(ctx context.Context, tool, input string) (Verdict, error)
	RemoveRule(r PermissionRule) error
	RemoveFolder(f PermissionFolder) error
	Modes() []Mode
	SetMode(ctx context.Context, mode string) (string, error)
	TrustFolder(ctx context.Context) error
}

// Inspector returns an Inspector for workdir that reads the files: the
// view when no CLI process runs there. Its Modes is empty (a mode is
// switched in a running session); TrustFolder edits ~/.claude.json.
func (s *Settings) Inspector(workdir string) Inspector {
	return &fileInspector{cfg: s.viewConfig(workdir), audit: s.Audit()}
}

// viewConfig is what a session on workdir would start with, as far as the
// view needs it: a claude command that is not usable does not matter here.
func (s *Settings) viewConfig(workdir string) Config {
	cfg, err := s.SessionConfig(workdir)
	if err != nil {
		cfg = Config{}
		cfg.UserSettings, _ = grants.UserSettingsPath()
	}
	cfg.Workdir = workdir
	return cfg
}

// fileInspector is the Inspector of a folder without a session.
type fileInspector struct {
	cfg   Config
	audit *Audit
}

// ViewInput is what the layered view of workdir reads besides the files
// when no session runs there: Latch's own command-line flags as a session
// would start with them. `latch grants list --effective` and `test` use it.
func (s *Settings) ViewInput(workdir string) grants.ViewInput {
	return (&fileInspector{cfg: s.viewConfig(workdir)}).input()
}

func (f *fileInspector) input() grants.ViewInput {
	c := f.cfg
	claudeJSON, home := claudeHome(c.Env)
	return grants.ViewInput{
		ClaudeJSON:   claudeJSON,
		Home:         home,
		Workdir:      c.Workdir,
		UserSettings: c.UserSettings,
		AllowedTools: c.AllowedTools,
		AddDirs:      launchDirs(c.Workdir, c.AddDirs, nil),
	}
}

func (f *fileInspector) Permissions(ctx context.Context) (PermissionView, error) {
	return grants.ComputeView(f.input()), nil
}

func (f *fileInspector) TestCall(ctx context.Context, tool, input string) (Verdict, error) {
	v, err := f.Permissions(ctx)
	if err != nil {
		return Verdict{}, err
	}
	return v.Test(tool, grants.CallInput(tool, input)), nil
}

func (f *fileInspector) RemoveRule(r PermissionRule) error {
	if err := removeRuleFromFile(r, f.cfg.Workdir); err != nil {
		return err
	}
	f.audit.add(audit.Entry{Kind: audit.KindRevoke, Folder: f.cfg.Workdir, Rules: []string{r.Rule}, File: r.File, Decision: r.Behavior})
	return nil
}

func (f *fileInspector) RemoveFolder(d PermissionFolder) error {
	if err := removeFolderFromFile(d, f.cfg.Workdir); err != nil {
		return err
	}
	f.audit.add(audit.Entry{Kind: audit.KindRevoke, Folder: f.cfg.Workdir, Folders: []string{d.Path}, File: d.File})
	return nil
}

func (f *fileInspector) Modes() []Mode { return nil }

func (f *fileInspector) SetMode(ctx context.Context, mode string) (string, error) {
	return "", errors.New("no session runs in this folder yet: the mode is switched in a running session")
}

func (f *fileInspector) TrustFolder(ctx context.Context) error {
	claudeJSON, _ := claudeHome(f.cfg.Env)
	if err := trustByFile(claudeJSON, f.cfg.Workdir); err != nil {
		return err
	}
	f.audit.add(audit.Entry{Kind: audit.KindTrust, Folder: f.cfg.Workdir, Decider: audit.ByPerson})
	return nil
}

// trustByFile records trust in Claude Code's own state file.
func trustByFile(claudeJSON, workdir string) error {
	if claudeJSON == "" {
		return errors.New("no home folder to find Claude Code's ~/.claude.json in")
	}
	return grants.TrustWorkspace(claudeJSON, workdir)
}

// claudeHome is where the CLI run with env keeps its state: the
// ~/.claude.json it records trust in, and the home folder "~" means in
// rules. A nil env is Latch's own.
func claudeHome(env []string) (claudeJSON, home string) {
	if env == nil {
		claudeJSON, _ = grants.ClaudeJSONPath()
		home, _ = os.UserHomeDir()
		return claudeJSON, home
	}
	home = envValue(env, "HOME")
	switch dir := envValue(env, "CLAUDE_CONFIG_DIR"); {
	case dir != "":
		claudeJSON = filepath.Join(dir, ".claude.json")
	case home != "":
		claudeJSON = filepath.Join(home, ".claude.json")
	}
	return claudeJSON, home
}

// envValue is k's value in env, the last one winning as in a process.
func envValue(env []string, k string) string {
	v := ""
	for _, kv := range env {
		if x, ok := strings.CutPrefix(kv, k+"="); ok {
			v = x
		}
	}
	return v
}

// fileStore is the store a rule or folder of the view is removed from: the
// user's settings or the project's local file, never another.
func fileStore(source, file, workdir string) (*grants.Store, error) {
	switch source {
	case grants.SourceUser:
		return grants.NewStore(file), nil
	case grants.SourceLocal:
		st, err := grants.ProjectStore(workdir)
		if err != nil {
			return nil, err
		}
		if st.Path != file {
			return nil, fmt.Errorf("%s is not this folder's local settings file", file)
		}
		return st, nil
	}
	return nil, fmt.Errorf("%s is not a file Latch edits", sourceWords(source))
}

func removeRuleFromFile(r PermissionRule, workdir string) error {
	if !r.Editable {
		return fmt.Errorf("the rule %s in %s cannot be removed here", VisibleLine(r.Rule), sourceWords(r.Source))
	}
	st, err := fileStore(r.Source, r.File, workdir)
	if err != nil {
		return err
	}
	return st.RemoveRulesFrom(r.Behavior, r.Rule)
}

func removeFolderFromFile(d PermissionFolder, workdir string) error {
	if !d.Editable {
		return fmt.Errorf("the folder %s in %s cannot be removed here", VisibleLine(d.Path), sourceWords(d.Source))
	}
	st, err := fileStore(d.Source, d.File, workdir)
	if err != nil {
		return err
	}
	return st.RemoveDirs(d.Path)
}

func sourceWords(source string) string {
	switch source {
	case grants.SourcePolicy:
		return "the managed policy"
	case grants.SourceUser:
		return "your user settings"
	case grants.SourceProject:
		return "the project's shared settings"
	case grants.SourceLocal:
		return "the project's local settings"
	case grants.SourceFlags:
		return "Latch's grant layer"
	case grants.SourceCLI:
		return "Latch's command line"
	case grants.SourceSession:
		return "this session"
	}
	return VisibleLine(source)
}

// viewInput is what the files-view needs from the session now.
func (s *Session) viewInput() grants.ViewInput {
	s.mu.Lock()
	defer s.mu.Unlock()
	claudeJSON, home := claudeHome(s.env)
	in := grants.ViewInput{
		ClaudeJSON:   claudeJSON,
		Home:         home,
		Workdir:      s.workdir,
		UserSettings: s.userSettings,
		AllowedTools: dedupe(s.cfg.AllowedTools, s.extraTools),
		AddDirs:      s.dirsLocked(),
		Mode:         s.permMode,
	}
	g := &s.layer
	if s.liveLayerLocked() {
		in.FlagAllow, in.FlagAsk, in.FlagDirs = slices.Clone(g.savedRules), slices.Clone(g.revoked), slices.Clone(g.savedDirs)
	}
	in.SessionRules, in.SessionDirs = slices.Clone(g.sessRules), slices.Clone(g.sessDirs)
	return in
}

// liveProc is the running CLI process a request can go to, or nil.
func (s *Session) liveProc() *cliproc.Proc {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.live
	if p == nil || p.Exited() || s.closed {
		return nil
	}
	return p
}

// ask sends one of Latch's own requests to p and waits for the answer. An
// error answer is returned as a *CLIError.
func (s *Session) ask(ctx context.Context, p *cliproc.Proc, line func(id string) []byte) (*stream.ControlResponse, error) {
	s.mu.Lock()
	s.reqNo++
	id := fmt.Sprintf("latch_req_%d", s.reqNo)
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, requestWait)
	defer cancel()
	r, err := p.Request(ctx, id, line(id))
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("no answer from Claude Code within %v", requestWait)
		}
		return nil, err
	}
	if r.Subtype == "error" {
		return nil, &CLIError{Code: r.ErrorCode, Text: r.Error}
	}
	return r, nil
}

// CLIError is the CLI's refusal of a request of Latch's.
type CLIError struct {
	Code string // "unsupported_request", "bypass_not_launched", …
	Text string
}

func (e *CLIError) Error() string {
	switch e.Code {
	case stream.ErrUnsupported:
		return "this version of Claude Code does not offer that while it runs"
	case "bypass_not_launched":
		return "Bypass needs Claude Code started with --dangerously-skip-permissions (Preferences), and this session was not"
	}
	if e.Text == "" {
		return "Claude Code refused without saying why"
	}
	return "Claude Code refused: " + VisibleLine(e.Text)
}

// Permissions returns every rule and working folder that applies in the
// session's folder, grouped by layer. With a live CLI process the rules
// come from it (list_permission_rules, get_settings), checked against the
// files; with none, from the files. It blocks on I/O: call it off the UI
// goroutine.
func (s *Session) Permissions(ctx context.Context) (PermissionView, error) {
	v := grants.ComputeView(s.viewInput())
	p := s.liveProc()
	if p == nil {
		return v, nil
	}
	r, err := s.ask(ctx, p, stream.ListPermissionRules)
	if err != nil {
		// The files are the next best thing; an older CLI lands here.
		return v, nil
	}
	cli, err := stream.DecodeRules(r.Body)
	if err != nil {
		return v, nil
	}
	var srcs []stream.CLISource
	if r, err := s.ask(ctx, p, stream.GetSettings); err == nil {
		srcs, _ = stream.DecodeSources(r.Body)
	}
	return mergeCLI(v, cli, srcs), nil
}

// mergeCLI lays the running CLI's rules over the view computed from the
// files. A rule both know keeps the file's layer, file and editability and
// gains the CLI's reading: the CLI labels some sources wrongly (folders
// from Latch's flags as localSettings), the files never do. A rule only
// the CLI knows joins the layer it names. A rule only the files hold is
// marked as not in force, unless it is marked already (an untrusted
// folder's shared allow rules).
func mergeCLI(v PermissionView, cli stream.CLIRules, srcs []stream.CLISource) PermissionView {
	v.Origin = OriginCLI
	// Rules are marked in place: on a copy, never on the caller's view.
	v.Layers = slices.Clone(v.Layers)
	for i := range v.Layers {
		v.Layers[i].Rules = slices.Clone(v.Layers[i].Rules)
		v.Layers[i].Folders = slices.Clone(v.Layers[i].Folders)
	}
	seen := map[*grants.RuleEntry]bool{}
	find := func(behavior, rule, source string) *grants.RuleEntry {
		var any *grants.RuleEntry
		for li := range v.Layers {
			for ri := range v.Layers[li].Rules {
				e := &v.Layers[li].Rules[ri]
				if e.Behavior != behavior || e.Rule != rule || seen[e] {
					continue
				}
				if e.Source == source {
					return e
				}
				if any == nil {
					any = e
				}
			}
		}
		return any
	}
	for _, r := range cli.Rules {
		if e := find(r.Behavior, r.Rule, r.Source); e != nil {
			seen[e] = true
			e.CLIReading = r.Reading
			continue
		}
		l := layerOf(&v, r.Source)
		l.Rules = append(l.Rules, grants.RuleEntry{Behavior: r.Behavior, Rule: r.Rule, Source: r.Source, Reading: grants.ReadingOf(r.Rule), CLIReading: r.Reading})
		seen[&l.Rules[len(l.Rules)-1]] = true
		v.Differences = append(v.Differences, fmt.Sprintf("Claude Code applies the %s rule %s from %s, which Latch did not find in the files", r.Behavior, VisibleLine(r.Rule), sourceWords(r.Source)))
	}
	// A rule only the files hold: get_settings says whether the CLI read it
	// (and chose not to apply it) or has not re-read its file yet.
	for li := range v.Layers {
		for ri := range v.Layers[li].Rules {
			e := &v.Layers[li].Rules[ri]
			if seen[e] || e.Ignored != "" {
				continue
			}
			if readByCLI(srcs, e.Source, e.Behavior, e.Rule) {
				e.Ignored = "Claude Code reads this rule but does not apply it"
			} else {
				e.Ignored = "not in force in the running Claude Code yet (it re-reads settings files a little later)"
			}
			v.Differences = append(v.Differences, fmt.Sprintf("the %s rule %s in %s is not in force in the running Claude Code", e.Behavior, VisibleLine(e.Rule), sourceWords(e.Source)))
		}
	}
	for _, f := range cli.Folders {
		if !slices.ContainsFunc(v.Layers, func(l grants.Layer) bool {
			return slices.ContainsFunc(l.Folders, func(x grants.FolderEntry) bool { return x.Path == f.Path })
		}) {
			l := layerOf(&v, f.Source)
			l.Folders = append(l.Folders, grants.FolderEntry{Path: f.Path, Source: f.Source})
			v.Differences = append(v.Differences, fmt.Sprintf("Claude Code works in the folder %s (%s), which Latch did not give it", VisibleLine(f.Path), sourceWords(f.Source)))
		}
	}
	return v
}

// readByCLI reports whether get_settings lists rule in source's settings.
func readByCLI(srcs []stream.CLISource, source, behavior, rule string) bool {
	for _, s := range srcs {
		if s.Source != source {
			continue
		}
		switch behavior {
		case grants.Allow:
			return slices.Contains(s.Allow, rule)
		case grants.Ask:
			return slices.Contains(s.Ask, rule)
		case grants.Deny:
			return slices.Contains(s.Deny, rule)
		}
	}
	return false
}

// layerOf is the view's layer for source, added when it has none.
func layerOf(v *PermissionView, source string) *grants.Layer {
	for i := range v.Layers {
		if v.Layers[i].Source == source {
			return &v.Layers[i]
		}
	}
	v.Layers = append(v.Layers, grants.Layer{Source: source, Title: VisibleLine(source), State: grants.FileOK,
		ReadOnly: "A layer of Claude Code's that Latch does not edit."})
	return &v.Layers[len(v.Layers)-1]
}

// TestCall says whether a call of tool with input would be allowed, asked
// or denied here, and by which rule: Latch's reading of Claude Code's
// matching. input is the call's JSON input, or for convenience the bare
// command (Bash), path (file tools), URL (WebFetch) or pattern.
func (s *Session) TestCall(ctx context.Context, tool, input string) (Verdict, error) {
	v, err := s.Permissions(ctx)
	if err != nil {
		return Verdict{}, err
	}
	return v.Test(strings.TrimSpace(tool), grants.CallInput(strings.TrimSpace(tool), input)), nil
}

// RemoveRule removes r from its file (byte-safe) and takes it back from the
// running CLI at once, as a revoke. It fails for a rule that is not
// Editable.
func (s *Session) RemoveRule(r PermissionRule) error {
	if r.Source == grants.SourceSession {
		s.revoke([]string{r.Rule}, nil, false)
	} else {
		if err := removeRuleFromFile(r, s.workdir); err != nil {
			return err
		}
		s.forget(r.File, []string{r.Rule}, nil)
		if r.Behavior == grants.Allow {
			s.revoke([]string{r.Rule}, nil, true)
		}
	}
	s.auditAdd(audit.Entry{Kind: audit.KindRevoke, Rules: []string{r.Rule}, File: r.File, Decision: r.Behavior, Source: r.Source})
	s.notice("Removed " + r.Behavior + " rule " + VisibleLine(r.Rule) + " from " + sourceWords(r.Source) + ".")
	return nil
}

// RemoveFolder removes f from its file and the running CLI.
func (s *Session) RemoveFolder(f PermissionFolder) error {
	if f.Source == grants.SourceSession {
		s.revoke(nil, []string{f.Path}, false)
	} else {
		if err := removeFolderFromFile(f, s.workdir); err != nil {
			return err
		}
		s.forget(f.File, nil, []string{f.Path})
		s.revoke(nil, []string{f.Path}, true)
	}
	s.auditAdd(audit.Entry{Kind: audit.KindRevoke, Folders: []string{f.Path}, File: f.File, Source: f.Source})
	s.notice("Removed the folder " + VisibleLine(f.Path) + " from " + sourceWords(f.Source) + ".")
	return nil
}

// Modes lists the permission modes the selector offers for this session:
// Manual, Accept edits, Plan, Don't ask; Auto where the CLI offers it;
// Bypass only when the CLI was launched with it.
func (s *Session) Modes() []Mode {
	s.mu.Lock()
	auto, bypass, mode := s.autoMode, s.cfg.DangerousSkip, s.permMode
	s.mu.Unlock()
	modes := []string{ModeDefault, ModeAcceptEdits, ModePlan, ModeDontAsk}
	if auto || mode == ModeAuto {
		modes = append(modes, ModeAuto)
	}
	if bypass || mode == ModeBypass {
		modes = append(modes, ModeBypass)
	}
	out := make([]Mode, len(modes))
	for i, m := range modes {
		out[i] = Mode{Value: m, Title: ModeTitle(m), Danger: m == ModeBypass}
	}
	return out
}

// SetMode switches the running session's permission mode
// (set_permission_mode) and returns the mode the CLI reports. An error is
// in words ("bypass_not_launched" becomes a sentence). With no live
// process the mode is taken for the next one, which gets it as soon as it
// starts.
func (s *Session) SetMode(ctx context.Context, mode string) (string, error) {
	p := s.liveProc()
	if p == nil {
		s.mu.Lock()
		s.wantMode = mode
		s.permMode = mode
		s.mu.Unlock()
		s.emitStatus()
		s.auditAdd(audit.Entry{Kind: audit.KindMode, Mode: mode, Decider: audit.ByPerson, Message: "for the next process"})
		return mode, nil
	}
	got, err := s.setMode(ctx, p, mode)
	if err != nil {
		return got, err
	}
	s.auditAdd(audit.Entry{Kind: audit.KindMode, Mode: got, Decider: audit.ByPerson})
	return got, nil
}

// setMode asks p to switch and takes the mode it reports.
func (s *Session) setMode(ctx context.Context, p *cliproc.Proc, mode string) (string, error) {
	r, err := s.ask(ctx, p, func(id string) []byte { return stream.SetPermissionMode(id, mode) })
	s.mu.Lock()
	cur := s.permMode
	if err == nil {
		if got := stream.DecodeMode(r.Body); got != "" {
			cur = got
		} else {
			cur = mode
		}
		s.permMode = cur
	}
	s.mu.Unlock()
	s.emitStatus()
	return cur, err
}

// TrustFolder records that the person trusts the session's folder: through
// the CLI when it supports it — a short-lived process whose first line is
// an initialize with workspaceTrust, which Claude Code honours only as a
// process's first initialize — else by a locked, byte-preserving edit of
// Claude Code's ~/.claude.json with a backup. A running process read the
// folder's trust when it started, so it makes way: the next prompt resumes
// the session in one that applies the project's shared rules.
func (s *Session) TrustFolder(ctx context.Context) error {
	how := "Claude Code"
	if ok, _ := s.trustViaCLI(ctx); !ok {
		claudeJSON, _ := claudeHome(s.env)
		if err := trustByFile(claudeJSON, s.workdir); err != nil {
			return err
		}
		how = "Latch (this Claude Code cannot record trust itself)"
	}
	s.mu.Lock()
	s.untrusted, s.trustWarning = false, ""
	if s.live != nil {
		if s.state == Idle {
			s.group.Retire(s.live, retireGrace)
			s.live = nil
		} else {
			s.layer.retire = true
		}
	}
	s.mu.Unlock()
	s.emitStatus()
	s.auditAdd(audit.Entry{Kind: audit.KindTrust, Decider: audit.ByPerson, Message: "recorded by " + how})
	s.notice("This folder is trusted in Claude Code now (recorded by " + how + "); its shared project rules apply from the next prompt.")
	return nil
}

// trustViaCLI has a CLI process of its own record the trust, and reports
// whether it did.
func (s *Session) trustViaCLI(ctx context.Context) (bool, error) {
	s.mu.Lock()
	cmd := slices.Clone(s.cfg.Command)
	s.mu.Unlock()
	if len(cmd) == 0 {
		return false, errors.New("no claude command is configured")
	}
	argv := append(cmd, "-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose")
	p, err := s.group.Start(argv, s.workdir, childEnv(s.env), stream.Options{}, nil)
	if err != nil {
		return false, err
	}
	defer s.group.Retire(p, retireGrace)
	p.Discard() // only the answer matters, and it bypasses the events
	r, err := s.ask(ctx, p, func(id string) []byte { return stream.InitializeTrust(id, s.workdir) })
	p.CloseStdin()
	if err != nil {
		return false, err
	}
	in := stream.DecodeInit(r.Body)
	return in.TrustKnown && in.TrustRecorded, nil
}

// checkTrust reads whether Claude Code trusts the folder (file I/O); the
// status line shows it.
func (s *Session) checkTrust() {
	path, _ := claudeHome(s.env)
	if path == "" {
		return
	}
	ok, err := grants.WorkspaceTrusted(path, s.workdir)
	if err != nil {
		return // a malformed state file is the CLI's to report
	}
	s.mu.Lock()
	changed := s.untrusted == ok
	s.untrusted = !ok
	s.mu.Unlock()
	if changed {
		s.emitStatus()
	}
}

// trustWarningOf finds the CLI's words about rules it ignored in an
// untrusted folder in the end of its stderr.
func trustWarningOf(stderr string) string {
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, "has not been trusted") && strings.HasPrefix(strings.TrimSpace(l), "Ignoring") {
			return VisibleLine(strings.TrimSpace(l))
		}
	}
	return ""
}

// trustWarning keeps the CLI's stderr words about rules it ignored in an
// untrusted folder; the status carries them to the window.
func (t *turn) trustWarning(stderr string) {
	s := t.s
	w := trustWarningOf(stderr)
	s.mu.Lock()
	fresh := w != "" && w != s.trustWarning
	if fresh {
		s.trustWarning, s.untrusted = w, true
	}
	s.mu.Unlock()
	if fresh {
		s.emitStatus() // the window shows the words once
	}
}

// started does what a new live process needs once: the mode the person
// chose before it ran, and an initialize that tells whether the CLI offers
// auto mode.
func (s *Session) started(p *cliproc.Proc) {
	s.mu.Lock()
	want := s.wantMode
	s.wantMode = ""
	s.mu.Unlock()
	if want != "" {
		if _, err := s.setMode(s.ctx, p, want); err != nil {
			s.fail("The permission mode was not switched", err.Error())
		}
	}
	if s.firstInit(p) {
		if r, err := s.ask(s.ctx, p, stream.Initialize); err == nil {
			s.initAnswered(stream.DecodeInit(r.Body))
		}
	}
}

// firstInit claims p's one initialize: it reports whether none was sent
// to p yet (a second one sets nothing).
func (s *Session) firstInit(p *cliproc.Proc) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.inited == p {
		return false
	}
	s.inited = p
	return true
}
