package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"

	"github.com/latch-app/latch/app"
	"github.com/latch-app/latch/ui"
)

// openWindow runs the desktop app on dir ("" = the last folder used).
func openWindow(dir string) int {
	if msg := noDisplay(runtime.GOOS, os.Getenv); msg != "" {
		fmt.Fprintf(os.Stderr, "latch: %s\n", msg)
		return 1
	}
	app.CleanStaleInstructions() // files an earlier Latch left when it was killed
	// Latch's config is read here, once; the window and its sessions share it.
	settings := app.LoadSettings()
	notice := ""
	if err := settings.LoadError(); err != nil {
		notice = fmt.Sprintf("%v — Latch runs on its defaults until the file is fixed and Latch is started again; it will not overwrite it.", err)
	}
	if dir == "" {
		dir = startFolder(settings.LastWorkdir())
	}
	if msg := checkCommand(settings); msg != "" {
		notice = strings.TrimSpace(notice + "\n" + msg)
	}
	// The permission audit log; its first write error reaches the window.
	auditErrs := make(chan error, 1)
	audit := app.OpenAudit(func(err error) {
		select {
		case auditErrs <- err:
		default:
		}
	})
	settings.UseAudit(audit)
	err := ui.Run(ui.Options{
		Workdir:     dir,
		Audit:       audit,
		AuditErrors: auditErrs,
		Settings:    settings,
		NewRunner: func(workdir string, s app.Surface) (ui.Runner, error) {
			return newRunner(settings, workdir, s)
		},
		Notice:   notice,
		Version:  version,
		Sessions: app.NewHistory(nil), // the CLI runs in Latch's environment
	})
	settings.Flush() // the last folder and scope are on disk before Latch exits
	audit.Close()
	if err != nil {
		fmt.Fprintf(os.Stderr, "latch: %v\n", err)
		return 1
	}
	return 0
}

// newRunner starts a Session on workdir with the settings as they are now
// and keeps workdir for the next start. The window calls it off the UI
// goroutine.
func newRunner(settings *app.Settings, workdir string, s app.Surface) (ui.Runner, error) {
	cfg, err := settings.SessionConfig(workdir)
	if err != nil {
		return nil, err
	}
	settings.RememberWorkdir(workdir)
	return &session{Session: app.NewSession(cfg, s), settings: settings, workdir: workdir}, nil
}

// session is a Session that takes up Latch's settings again: Preferences
// calls Reload after a save, and the next prompt runs under the new settings.
type session struct {
	*app.Session
	settings *app.Settings
	workdir  string
}

func (s *session) Reload() error {
	cfg, err := s.settings.SessionConfig(s.workdir)
	if err != nil {
		return err
	}
	s.Reconfigure(cfg)
	return nil
}

// checkCommand says at start, not at the first prompt, when the claude
// command cannot be found.
func checkCommand(settings *app.Settings) string {
	argv, err := settings.Command()
	if err != nil {
		return fmt.Sprintf("The claude command in Preferences is not usable: %v.", err)
	}
	if _, err := exec.LookPath(argv[0]); err != nil {
		return fmt.Sprintf("Claude Code CLI not found (%q). Install it with npm install -g @anthropic-ai/claude-code, or set the command in Preferences (Ctrl+,).", argv[0])
	}
	return ""
}

// noDisplay says why no window can open where X11 and Wayland are the
// only ways to one (a shell over ssh, a service), or "": the graphics
// library would otherwise end Latch with a panic and a stack trace.
func noDisplay(goos string, getenv func(string) string) string {
	switch goos {
	case "linux", "freebsd", "openbsd", "netbsd", "dragonfly":
		if getenv("DISPLAY") == "" && getenv("WAYLAND_DISPLAY") == "" {
			return "no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set). latch inspect and latch grants work without one."
		}
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
