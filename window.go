package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/latch-app/latch/app"
	"github.com/latch-app/latch/core/grants"
	"github.com/latch-app/latch/ui"
)

// openWindow runs the desktop app on dir ("" = the last folder used).
func openWindow(dir string) int {
	app.CleanStaleInstructions() // files an earlier Latch left when it was killed
	cfg, err := grants.LoadConfig()
	notice := ""
	if err != nil {
		notice = fmt.Sprintf("%v — Latch runs on its defaults until the file is fixed; it will not overwrite it.", err)
	}
	if dir == "" {
		dir = startFolder(cfg.LastWorkdir)
	}
	if msg := checkCommand(cfg); msg != "" {
		notice = strings.TrimSpace(notice + "\n" + msg)
	}
	err = ui.Run(ui.Options{
		Workdir:   dir,
		NewRunner: newRunner,
		Notice:    notice,
		Version:   version,
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "latch: %v\n", err)
		return 1
	}
	return 0
}

// newRunner starts a Session on workdir with the config as it is now.
func newRunner(workdir string, s app.Surface) (ui.Runner, error) {
	cfg, err := sessionConfig(workdir)
	if err != nil {
		return nil, err
	}
	rememberWorkdir(workdir)
	return &session{Session: app.NewSession(cfg, s), workdir: workdir}, nil
}

// session is a Session that can re-read Latch's config: Preferences calls
// Reload after a save, and the next prompt runs under the new settings.
type session struct {
	*app.Session
	workdir string
}

func (s *session) Reload() error {
	cfg, err := sessionConfig(s.workdir)
	if err != nil {
		return err
	}
	s.Reconfigure(cfg)
	return nil
}

// sessionConfig turns Latch's config into what a Session runs with. A
// malformed config file means the defaults, as the window said at start.
func sessionConfig(workdir string) (app.Config, error) {
	cfg, err := grants.LoadConfig()
	if err != nil {
		cfg = grants.DefaultConfig()
	}
	argv, err := cfg.Command()
	if err != nil {
		return app.Config{}, err
	}
	settings, err := grants.UserSettingsPath()
	if err != nil {
		return app.Config{}, err
	}
	return app.Config{
		Workdir:         workdir,
		Command:         argv,
		AllowedTools:    grants.AllowedTools(cfg.Baseline(), cfg.AllowedTools, nil),
		AddDirs:         cfg.AddDirs,
		Prompts:         cfg.PermissionPrompts,
		Experimental:    cfg.ExperimentalPermissionManagement,
		PhraseDetection: cfg.PhraseDetection,
		DangerousSkip:   cfg.DangerouslySkipPermissions,
		UserSettings:    settings,
	}, nil
}

// rememberWorkdir keeps the folder for the next start. Only that key is
// written; a malformed config is left alone (UpdateConfig refuses it).
func rememberWorkdir(dir string) {
	if cfg, err := grants.LoadConfig(); err == nil && cfg.LastWorkdir == dir {
		return
	}
	_ = grants.UpdateConfig(func(c *grants.Config) { c.LastWorkdir = dir })
}

// checkCommand says at start, not at the first prompt, when the claude
// command cannot be found.
func checkCommand(cfg grants.Config) string {
	argv, err := cfg.Command()
	if err != nil {
		return fmt.Sprintf("The claude command in Preferences is not usable: %v.", err)
	}
	if _, err := exec.LookPath(argv[0]); err != nil {
		return fmt.Sprintf("Claude Code CLI not found (%q). Install it with npm install -g @anthropic-ai/claude-code, or set the command in Preferences (Ctrl+,).", argv[0])
	}
	return ""
}

// startFolder is the folder to open without one on the command line: the
// last one used, else the current folder when started from a project in a
// terminal. Started from the app menu (home or /), it is "": the window asks.
func startFolder(last string) string {
	if fi, err := os.Stat(last); last != "" && err == nil && fi.IsDir() {
		return last
	}
	cwd, err := os.Getwd()
	if err != nil {
		return ""
	}
	home, _ := os.UserHomeDir()
	if cwd == "/" || cwd == home {
		return ""
	}
	return cwd
}
