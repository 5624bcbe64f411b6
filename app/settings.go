package app

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/latch-app/latch/core/audit"
	"github.com/latch-app/latch/core/grants"
)

// Settings is the one owner of Latch's own config while Latch runs: it is
// loaded once (LoadSettings), read as copies, and changed only through its
// methods, which validate a value once, where it is saved, and persist it
// through core/grants. It also hands out the saved-grants lists of Claude
// Code's settings files (GrantFiles).
//
// Its lock guards the values in memory only and is never held during file
// I/O, so the UI goroutine can read them at any time. The methods that
// read or write files say so; callers run those off the UI goroutine.
type Settings struct {
	mu     sync.Mutex // guards cfg, argv, cmdErr, audit
	cfg    grants.Config
	audit  *Audit
	argv   []string // cfg.ClaudeCommand split (validated at load and at save)
	cmdErr error    // why cfg.ClaudeCommand is not usable, or nil

	path    string // the config file, looked up at load ("" when there is none)
	loadErr error  // what LoadSettings found wrong with the file
	bad     bool   // the file is malformed: it is never written

	write  sync.Mutex     // one write to the file at a time; never taken by a UI goroutine
	writes sync.WaitGroup // Remember… writes under way (Flush)
}

// LoadSettings reads Latch's config file (file I/O). A missing file means
// the defaults; a malformed one means the defaults too, and the file is
// never written (LoadError says why); an invalid value is replaced by its
// default and reported by LoadError.
func LoadSettings() *Settings {
	s := &Settings{}
	s.path, _ = grants.ConfigPath()
	s.cfg, s.loadErr = grants.LoadConfig()
	var syn *grants.SyntaxError
	s.bad = errors.As(s.loadErr, &syn)
	s.argv, s.cmdErr = s.cfg.Command()
	return s
}

// LoadError is what was wrong with the config file at load, or nil: Latch
// runs on the defaults for what it names.
func (s *Settings) LoadError() error { return s.loadErr }

// Malformed reports that the config file could not be read at all; Latch
// runs on the defaults and never overwrites it, so nothing can be saved.
func (s *Settings) Malformed() bool { return s.bad }

// Prefs are the settings Preferences shows and saves.
type Prefs struct {
	ClaudeCommand string // the command that starts Claude Code, split as a shell would
	Prompts       string // PromptsLive or PromptsAfterTurn
	// Baseline: runs pre-approve the baseline tools. BaselineChosen: that
	// is the person's choice; otherwise it follows Prompts (BaselineDefault)
	// and saving leaves the file's baseline keys as they are.
	Baseline, BaselineChosen bool
	Experimental             bool // tell Claude to pause when a permission is refused
	PhraseDetection          bool
	DangerousSkip            bool // run every tool without a permission check
	// Theme is Latch's colours: ThemeSystem (follow the desktop's light or
	// dark preference), ThemeLight or ThemeDark. "" leaves the saved
	// choice as it is.
	Theme string
}

// Values of Prefs.Theme.
const (
	ThemeSystem = grants.ThemeSystem
	ThemeLight  = grants.ThemeLight
	ThemeDark   = grants.ThemeDark
)

// BaselineDefault is whether runs pre-approve the baseline tools in prompt
// mode prompts when the person made no choice.
func BaselineDefault(prompts string) bool {
	return grants.Config{PermissionPrompts: prompts, BaselineTools: true}.Baseline()
}

// Prefs is a copy of the settings Preferences edits.
func (s *Settings) Prefs() Prefs {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.cfg
	return Prefs{
		ClaudeCommand:   c.ClaudeCommand,
		Prompts:         c.PermissionPrompts,
		Baseline:        c.Baseline(),
		BaselineChosen:  c.BaselineChosen(),
		Experimental:    c.ExperimentalPermissionManagement,
		PhraseDetection: c.PhraseDetection,
		DangerousSkip:   c.DangerouslySkipPermissions,
		Theme:           c.Theme,
	}
}

// apply sets p's values in c.
func (p Prefs) apply(c *grants.Config) {
	c.ClaudeCommand = p.ClaudeCommand
	c.PermissionPrompts = p.Prompts
	if p.BaselineChosen {
		c.SetBaseline(p.Baseline)
	}
	c.ExperimentalPermissionManagement = p.Experimental
	c.PhraseDetection = p.PhraseDetection
	c.DangerouslySkipPermissions = p.DangerousSkip
	if p.Theme != "" {
		c.Theme = p.Theme
	}
}

// An InvalidSettingError is a value SavePrefs refuses; nothing was written.
type InvalidSettingError struct{ Err error }

func (e *InvalidSettingError) Error() string { return e.Err.Error() }
func (e *InvalidSettingError) Unwrap() error { return e.Err }

// SavePrefs validates p (the command must split into a program and its
// arguments without shell operators, the prompt mode and the theme must be
// ones Latch knows) and writes only the keys Preferences owns, so what other writers
// remembered meanwhile (the last folder, the last scope) is kept. File I/O:
// call it off the UI goroutine. An invalid value is an
// *InvalidSettingError; a malformed file is refused. The next session, and
// the next Reload, runs with p once it is saved.
func (s *Settings) SavePrefs(p Prefs) error {
	p.ClaudeCommand = strings.TrimSpace(p.ClaudeCommand)
	s.mu.Lock()
	c := s.cfg
	s.mu.Unlock()
	p.apply(&c)
	if err := c.Validate(); err != nil {
		return &InvalidSettingError{err}
	}
	argv, _ := c.Command() // valid: Validate split it
	if s.path == "" {
		_, err := grants.ConfigPath()
		return err
	}
	s.write.Lock()
	defer s.write.Unlock()
	if err := grants.UpdateConfigAt(s.path, p.apply); err != nil {
		return err
	}
	s.mu.Lock()
	p.apply(&s.cfg)
	s.argv, s.cmdErr = argv, nil
	s.mu.Unlock()
	return nil
}

// Command is the claude command split into its argv, or why it cannot be.
func (s *Settings) Command() ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.argv), s.cmdErr
}

// SessionConfig is what a Session on workdir runs with under the settings
// as they are now.
func (s *Settings) SessionConfig(workdir string) (Config, error) {
	s.mu.Lock()
	c, argv, cmdErr := s.cfg, slices.Clone(s.argv), s.cmdErr
	c.AllowedTools, c.AddDirs = slices.Clone(c.AllowedTools), slices.Clone(c.AddDirs)
	s.mu.Unlock()
	if cmdErr != nil {
		return Config{}, cmdErr
	}
	user, err := grants.UserSettingsPath()
	if err != nil {
		return Config{}, err
	}
	return Config{
		Workdir:         workdir,
		Command:         argv,
		AllowedTools:    grants.AllowedTools(c.Baseline(), c.AllowedTools, nil),
		AddDirs:         c.AddDirs,
		Prompts:         c.PermissionPrompts,
		Experimental:    c.ExperimentalPermissionManagement,
		PhraseDetection: c.PhraseDetection,
		DangerousSkip:   c.DangerouslySkipPermissions,
		UserSettings:    user,
		Audit:           s.Audit(),
	}, nil
}

// LastWorkdir is the working folder used last.
func (s *Settings) LastWorkdir() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cfg.LastWorkdir
}

// RememberWorkdir keeps dir as the folder for the next start. It returns
// at once; the config is written on a goroutine of its own (see Flush).
func (s *Settings) RememberWorkdir(dir string) {
	s.remember(func(c *grants.Config) bool {
		changed := c.LastWorkdir != dir
		c.LastWorkdir = dir
		return changed
	}, func(file *grants.Config, now grants.Config) { file.LastWorkdir = now.LastWorkdir })
}

// The config's names of the grant scopes, in Scope's order.
var scopeKeys = map[Scope]string{
	ScopeUser:    grants.GrantScopeUser,
	ScopeProject: grants.GrantScopeProject,
	ScopeOnce:    grants.GrantScopeSession,
}

// Scope is the scope chosen last for a grant, in either dialog: the
// default for the next one. ScopeProject until one is chosen.
func (s *Settings) Scope() Scope {
	s.mu.Lock()
	defer s.mu.Unlock()
	for sc, k := range scopeKeys {
		if k == s.cfg.GrantScope {
			return sc
		}
	}
	return ScopeProject
}

// RememberScope makes sc the default for the next grant. Scope answers sc
// at once, also when the file cannot be written (a malformed config is
// never overwritten); the config is written on a goroutine of its own,
// each write saving the newest choice (see Flush).
func (s *Settings) RememberScope(sc Scope) {
	key, ok := scopeKeys[sc]
	if !ok {
		key = grants.GrantScopeProject
	}
	s.remember(func(c *grants.Config) bool {
		changed := c.GrantScope != key
		c.GrantScope = key
		return changed
	}, func(file *grants.Config, now grants.Config) { file.GrantScope = now.GrantScope })
}

// remember changes the config in memory and, when set reports a change,
// writes it with save, which copies the newest value of its key from now
// into the file's config.
func (s *Settings) remember(set func(*grants.Config) bool, save func(file *grants.Config, now grants.Config)) {
	s.mu.Lock()
	changed := set(&s.cfg)
	s.mu.Unlock()
	if !changed || s.path == "" {
		return
	}
	s.writes.Add(1)
	go func() {
		defer s.writes.Done()
		s.write.Lock()
		defer s.write.Unlock()
		// Writes may start out of order; each saves the newest value.
		s.mu.Lock()
		now := s.cfg
		s.mu.Unlock()
		_ = grants.UpdateConfigAt(s.path, func(c *grants.Config) { save(c, now) })
	}()
}

// UseAudit makes a the log every session and grant edit reports to.
func (s *Settings) UseAudit(a *Audit) {
	s.mu.Lock()
	s.audit = a
	s.mu.Unlock()
}

// Audit is the permission audit log, or nil.
func (s *Settings) Audit() *Audit {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.audit
}

// Flush waits for the config writes RememberWorkdir and RememberScope
// started.
func (s *Settings) Flush() { s.writes.Wait() }

// GrantFile is one Claude Code settings file whose saved grants
// Preferences lists and edits.
type GrantFile struct {
	Scope   Scope  // ScopeUser or ScopeProject
	Path    string // the file, as shown
	workdir string // the project, for ScopeProject
	audit   *Audit
}

// GrantFiles are the settings files grants are saved to: the user's, when
// there is a home folder, then workdir's settings.local.json when workdir
// is not "". Looking them up reads no file.
func (s *Settings) GrantFiles(workdir string) []*GrantFile {
	var out []*GrantFile
	if user, err := grants.UserSettingsPath(); err == nil {
		out = append(out, &GrantFile{Scope: ScopeUser, Path: user, audit: s.Audit()})
	}
	if workdir != "" {
		out = append(out, &GrantFile{Scope: ScopeProject, Path: grants.ProjectSettingsPath(workdir), workdir: workdir, audit: s.Audit()})
	}
	return out
}

// SavedGrants is what a settings file holds, as Preferences lists it.
type SavedGrants struct {
	Rules   []string // permissions.allow
	Folders []string // permissions.additionalDirectories
	// Refused says why Latch lists the file but never writes it (a project
	// file linked out of the project), or is nil.
	Refused error
}

// store is the file's store for writing, or why it may not be written.
func (f *GrantFile) store() (*grants.Store, error) {
	if f.Scope == ScopeProject {
		return grants.ProjectStore(f.workdir)
	}
	return grants.NewStore(f.Path), nil
}

// Read reads the file (file I/O). A missing file holds nothing; a
// malformed one is an error, and Latch leaves it alone.
func (f *GrantFile) Read() (SavedGrants, error) {
	st, refused := f.store()
	if refused != nil {
		st = grants.NewStore(f.Path)
	}
	p, err := st.Read()
	return SavedGrants{Rules: p.Allow, Folders: p.AdditionalDirectories, Refused: refused}, err
}

// edit runs change on the file's store, unless the file may not be written.
func (f *GrantFile) edit(change func(*grants.Store) error) error {
	st, err := f.store()
	if err != nil {
		return err
	}
	return change(st)
}

// logged is edit, reported to the audit log when it succeeds: a grant
// edit in Preferences is the person's.
func (f *GrantFile) logged(e audit.Entry, change func(*grants.Store) error) error {
	if err := f.edit(change); err != nil {
		return err
	}
	e.File, e.Folder, e.Decider, e.Message = f.Path, f.workdir, audit.ByPerson, "in Preferences"
	e.Scope = "user"
	if f.Scope == ScopeProject {
		e.Scope = "project"
	}
	f.audit.add(e)
	return nil
}

// AddRule saves rule, checked by CheckRule first (file I/O).
func (f *GrantFile) AddRule(rule string) error {
	return f.logged(audit.Entry{Kind: audit.KindGrant, Rules: []string{rule}}, func(st *grants.Store) error { return st.AddRules(rule) })
}

// RemoveRule revokes rule (file I/O); a rule the file does not hold is ignored.
func (f *GrantFile) RemoveRule(rule string) error {
	return f.logged(audit.Entry{Kind: audit.KindRevoke, Rules: []string{rule}}, func(st *grants.Store) error { return st.RemoveRules(rule) })
}

// AddFolder saves dir, resolved and checked as CheckFolder does (file I/O).
func (f *GrantFile) AddFolder(dir string, force bool) error {
	return f.logged(audit.Entry{Kind: audit.KindGrant, Folders: []string{dir}}, func(st *grants.Store) error { return st.AddDirs(force, dir) })
}

// RemoveFolder revokes dir, written or resolved (file I/O).
func (f *GrantFile) RemoveFolder(dir string) error {
	return f.logged(audit.Entry{Kind: audit.KindRevoke, Folders: []string{dir}}, func(st *grants.Store) error { return st.RemoveDirs(dir) })
}

// Watch calls changed, from a goroutine of its own, whenever the file
// changes, until ctx is done. It looks at the file once before it returns:
// call it off the UI goroutine.
func (f *GrantFile) Watch(ctx context.Context, interval time.Duration, changed func()) {
	grants.NewStore(f.Path).Watch(ctx, interval, changed)
}

// CheckRule says why rule is not a permission rule Claude Code reads as
// one, or returns nil.
func CheckRule(rule string) error { return grants.ValidRule(rule) }

// ResolveFolder is dir as a grant saves it: absolute (relative to base when
// base is not "", else to the current folder), clean, with links resolved.
// It looks at the file system.
func ResolveFolder(dir, base string) (string, error) { return grants.ResolveDir(dir, base) }

// BroadFolder says why granting the resolved folder dir needs a second
// question (the root, the home folder or above, a sensitive folder or
// inside one), or "" when it needs none.
func BroadFolder(dir string) string { return grants.Broad(dir) }

// CheckFolder is dir resolved, when it is an absolute path to an existing
// folder, as a folder grant requires; without force, a folder BroadFolder
// names is refused too.
func CheckFolder(dir string, force bool) (string, error) { return grants.CheckDir(dir, force) }
