package main

import (
	"fmt"
	"os"

	"github.com/latch-app/latch/app"
	"github.com/latch-app/latch/core/grants"
	"github.com/latch-app/latch/ui"
)

// openWindow runs the desktop app on dir ("" = the last folder used).
func openWindow(dir string) int {
	cfg, err := grants.LoadConfig()
	notice := ""
	if err != nil {
		notice = fmt.Sprintf("%v — Latch runs on its defaults until the file is fixed; it will not overwrite it.", err)
	}
	if dir == "" {
		dir = cfg.LastWorkdir
		if fi, err := os.Stat(dir); dir == "" || err != nil || !fi.IsDir() {
			dir, _ = os.Getwd()
		}
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

// newRunner starts a Session on workdir with the config as it is now, so
// changes made in Preferences apply from the next session on.
func newRunner(workdir string, s app.Surface) (ui.Runner, error) {
	cfg, err := grants.LoadConfig()
	if err != nil {
		cfg = grants.DefaultConfig()
	}
	argv, err := cfg.Command()
	if err != nil {
		return nil, err
	}
	settings, err := grants.UserSettingsPath()
	if err != nil {
		return nil, err
	}
	rememberWorkdir(workdir)
	return app.NewSession(app.Config{
		Workdir:         workdir,
		Command:         argv,
		AllowedTools:    grants.AllowedTools(cfg.BaselineTools, cfg.AllowedTools, nil),
		AddDirs:         cfg.AddDirs,
		Prompts:         cfg.PermissionPrompts,
		Experimental:    cfg.ExperimentalPermissionManagement,
		PhraseDetection: cfg.PhraseDetection,
		DangerousSkip:   cfg.DangerouslySkipPermissions,
		UserSettings:    settings,
	}, s), nil
}

// rememberWorkdir keeps the folder for the next start; a malformed config
// is left alone (SaveConfig refuses to overwrite it).
func rememberWorkdir(dir string) {
	cfg, err := grants.LoadConfig()
	if err != nil || cfg.LastWorkdir == dir {
		return
	}
	cfg.LastWorkdir = dir
	_ = grants.SaveConfig(cfg)
}
