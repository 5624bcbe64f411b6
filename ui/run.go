// Package ui is Latch's window: the transcript, the permission and grant
// dialogs, the folder chooser and the preferences. It knows no NDJSON and
// writes no files: it talks to a session through app.Surface and reads and
// saves settings through app.Settings, off the UI goroutine.
package ui

import (
	"sync"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"

	"github.com/latch-app/latch/app"
	"github.com/latch-app/latch/assets"
)

// Runner is a running session as the window drives it; *app.Session is one.
type Runner interface {
	// ID is the identity its events and questions carry (app.Event.Session).
	ID() string
	Send(prompt string) error
	Stop()
	Close()
}

// reloader is a Runner that can re-read the settings; the window calls it
// after Preferences are saved so the next prompt runs under them.
type reloader interface {
	Reload() error
}

// granter is a Runner whose grants can be taken back and whose refused
// calls can be granted after the turn; *app.Session is one. Both do file
// I/O, so the window calls them off the UI goroutine.
type granter interface {
	Undo(grantID string) error
	GrantLater(toolUseID string) error
}

// promptRetrier is a Runner that can send the last prompt again (Retry on
// the error card of a failed turn); *app.Session is one. It starts a turn
// as Send does: call it off the UI goroutine.
type promptRetrier interface {
	Retry() error
}

// Options configure Run.
type Options struct {
	Workdir string // "" = ask
	// NewRunner starts a session on workdir that reports to s. It is called
	// for a tab's first prompt (or the session it opens from the history),
	// and again after its folder changes.
	NewRunner func(workdir string, s app.Surface) (Runner, error)
	Notice    string // shown in the transcript at start
	Version   string
	Settings  *app.Settings // Latch's config, loaded once by the caller (nil: Run loads it)
	// Audit is the permission audit log the history window reads (nil: the
	// log is off). AuditErrors delivers its first write error, which the
	// window shows once.
	Audit       *app.Audit
	AuditErrors <-chan error
	// Sessions lists the sessions Claude Code kept for a folder, for the
	// history sidebar (nil: the sidebar says it cannot).
	Sessions SessionLister
}

// retrier is a Runner that can offer the grant dialog for a denial from
// the audit log (Permission History's "Grant and retry"); *app.Session is
// one. It blocks on the dialog and file I/O: call it off the UI goroutine.
type retrier interface {
	GrantAndRetry(e app.AuditEntry) error
}

// appID is the desktop application id.
const appID = "app.latch.Latch"

// Run shows the main window until it is closed, then ends the session so no
// process outlives the window.
func Run(opts Options) error {
	if opts.Settings == nil {
		opts.Settings = app.LoadSettings()
	}
	a := fyneapp.NewWithID(appID)
	a.SetIcon(fyne.NewStaticResource("latch.png", assets.IconPNG))
	mw := newMainWindow(a, opts, fyne.Do)
	mw.pumping = true
	for _, t := range mw.all {
		go t.surf.pump()
	}
	lc := a.Lifecycle()
	lc.SetOnEnteredForeground(func() { mw.foreground = true })
	lc.SetOnExitedForeground(func() { mw.foreground = false })
	mw.win.SetMaster()
	mw.win.Canvas().Focus(mw.prompt)
	if opts.Workdir == "" {
		lc.SetOnStarted(mw.pickFolder)
	}
	mw.win.ShowAndRun()
	// Every tab's session ends, together: each Close has its own budget.
	var wg sync.WaitGroup
	for _, r := range mw.close() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.Close()
		}()
	}
	wg.Wait()
	return nil
}
