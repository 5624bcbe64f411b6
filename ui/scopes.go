package ui

import "github.com/latch-app/latch/app"

// settings is Latch's config as the window was given it (Options.Settings).
// Reading it reads no file; writing it is done off the UI goroutine, by
// app.Settings itself (RememberScope) or by the caller (SavePrefs).
func (mw *mainWindow) settings() *app.Settings { return mw.opts.Settings }

// The scopes a grant can be kept for, in the order both permission
// dialogs show them; "This project" is the default. The one chosen last,
// in either dialog, is the next default (app.Settings.Scope).
var (
	grantScopeNames = []string{
		"This session",
		"This project (.claude/settings.local.json)",
		"All my projects (~/.claude/settings.json)",
	}
	grantScopeValues = []app.Scope{app.ScopeOnce, app.ScopeProject, app.ScopeUser}
)

// grantScopeIndex is s's place in grantScopeNames; "This project" for a
// value not offered.
func grantScopeIndex(s app.Scope) int {
	for i, v := range grantScopeValues {
		if v == s {
			return i
		}
	}
	return 1
}

// What a folder grant allows, in the order both dialogs show it.
var folderAccessNames = []string{
	"Read only (a Read rule)",
	"Read and write (a working folder, and an Edit rule)",
}

// folderAccessDefault is the option a folder grant starts on: reading and
// writing for a call that writes, reading otherwise.
func folderAccessDefault(write bool) int {
	if write {
		return 1
	}
	return 0
}
