package ui

import (
	"sync"

	"github.com/latch-app/latch/app"
	"github.com/latch-app/latch/core/grants"
)

// The scopes a grant can be kept for, in the order both permission
// dialogs show them; "This project" is the default.
var (
	grantScopeNames = []string{
		"This session",
		"This project (.claude/settings.local.json)",
		"All my projects (~/.claude/settings.json)",
	}
	grantScopeValues = []app.Scope{app.ScopeOnce, app.ScopeProject, app.ScopeUser}
	grantScopeKeys   = []string{grants.GrantScopeSession, grants.GrantScopeProject, grants.GrantScopeUser}
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

// lastScopes holds the scope last chosen in the window. It answers
// lastScope before the config is written (the write is asynchronous) and
// when it cannot be (a malformed config is never overwritten). One entry
// is enough: Latch has one main window; a new one reads the config.
var lastScopes struct {
	mu    sync.Mutex
	mw    *MainWindow
	scope app.Scope
	saves sync.WaitGroup // config writes under way (tests wait for them)
	save  sync.Mutex     // one config write at a time, the newest wins
}

// lastScope is the scope the person chose last (in either dialog), from
// the config when nothing was chosen in this window yet: the default for
// the next grant. UI goroutine.
func (mw *MainWindow) lastScope() app.Scope {
	lastScopes.mu.Lock()
	seeded := lastScopes.mw == mw
	lastScopes.mu.Unlock()
	if !seeded {
		cfg, _ := grants.LoadConfig() // defaults when malformed
		mw.seedScope(cfg)
	}
	lastScopes.mu.Lock()
	defer lastScopes.mu.Unlock()
	return lastScopes.scope
}

// seedScope takes the remembered scope from a config the window has read
// already, so a dialog never reads the file on the UI goroutine.
func (mw *MainWindow) seedScope(cfg grants.Config) {
	lastScopes.mu.Lock()
	defer lastScopes.mu.Unlock()
	lastScopes.mw, lastScopes.scope = mw, app.ScopeProject
	for i, k := range grantScopeKeys {
		if k == cfg.GrantScope {
			lastScopes.scope = grantScopeValues[i]
		}
	}
}

// rememberScope makes s the default for the next grant and saves it in
// Latch's config off the UI goroutine, where waiting for the config's
// lock cannot freeze the window. UI goroutine.
func (mw *MainWindow) rememberScope(s app.Scope) {
	if mw.lastScope() == s {
		return
	}
	lastScopes.mu.Lock()
	lastScopes.scope = s
	lastScopes.mu.Unlock()
	path, err := grants.ConfigPath() // looked up here: tests change it
	if err != nil {
		return
	}
	lastScopes.saves.Add(1)
	go func() {
		defer lastScopes.saves.Done()
		lastScopes.save.Lock()
		defer lastScopes.save.Unlock()
		// Writes may start out of order; each saves the newest choice.
		lastScopes.mu.Lock()
		if lastScopes.mw == mw {
			s = lastScopes.scope
		}
		lastScopes.mu.Unlock()
		key := grantScopeKeys[grantScopeIndex(s)]
		_ = grants.UpdateConfigAt(path, func(c *grants.Config) { c.GrantScope = key })
	}()
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
