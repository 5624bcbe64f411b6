package ui

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/adrg/xdg"
	"github.com/tidwall/gjson"

	"github.com/latch-app/latch/app"
	"github.com/latch-app/latch/core/grants"
)

// TestMain keeps the tests away from the real Latch config: a dialog
// remembers the scope chosen last in it.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "latch-ui-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
	xdg.Reload()
	code := m.Run()
	lastScopes.saves.Wait()
	os.RemoveAll(dir)
	os.Exit(code)
}

// isolateConfig gives the test a config of its own holding content ("" =
// none) and returns its path. A test that chooses a scope other than the
// default must use it, or later tests open their dialogs on that scope.
func isolateConfig(t *testing.T, content string) string {
	t.Helper()
	dir := t.TempDir()
	t.Cleanup(xdg.Reload) // after t.Setenv restored the variable
	t.Setenv("XDG_CONFIG_HOME", dir)
	xdg.Reload()
	t.Cleanup(lastScopes.saves.Wait) // before the folder is removed
	path := filepath.Join(dir, "latch", "config.json")
	if content != "" {
		writeFile(t, path, content)
	}
	return path
}

func TestLastScopeComesFromTheConfig(t *testing.T) {
	tests := []struct {
		content string
		want    app.Scope
	}{
		{"", app.ScopeProject},
		{`{"grant_scope": "project"}`, app.ScopeProject},
		{`{"grant_scope": "session"}`, app.ScopeOnce},
		{`{"grant_scope": "user"}`, app.ScopeUser},
		{`{"grant_scope": "everywhere"}`, app.ScopeProject},
		{`{"grant_scope": `, app.ScopeProject}, // malformed
	}
	for _, tc := range tests {
		t.Run(tc.content, func(t *testing.T) {
			isolateConfig(t, tc.content)
			h := newHarness(t)
			if got := h.mw.lastScope(); got != tc.want {
				t.Errorf("lastScope() = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestRememberScope(t *testing.T) {
	path := isolateConfig(t, "{\n  \"theme\": \"dark\",\n  \"grant_scope\": \"project\"\n}\n")
	h := newHarness(t)
	for _, tc := range []struct {
		s   app.Scope
		key string
	}{{app.ScopeUser, "user"}, {app.ScopeOnce, "session"}, {app.ScopeProject, "project"}} {
		h.mw.rememberScope(tc.s)
		if got := h.mw.lastScope(); got != tc.s { // before the write landed
			t.Errorf("lastScope() = %v right after rememberScope(%v)", got, tc.s)
		}
		lastScopes.saves.Wait()
		data, err := os.ReadFile(path)
		if err != nil || gjson.GetBytes(data, "grant_scope").String() != tc.key || gjson.GetBytes(data, "theme").String() != "dark" {
			t.Errorf("config after rememberScope(%v): %s %v", tc.s, data, err)
		}
		// A new window reads it back.
		if got := newHarness(t).mw.lastScope(); got != tc.s {
			t.Errorf("a new window's lastScope() = %v, want %v", got, tc.s)
		}
		h.mw.lastScope() // h's window is the one remembered again
	}
}

func TestRememberScopeSavesTheNewest(t *testing.T) {
	path := isolateConfig(t, "")
	h := newHarness(t)
	for range 20 {
		h.mw.rememberScope(app.ScopeUser)
		h.mw.rememberScope(app.ScopeOnce)
	}
	lastScopes.saves.Wait()
	cfg, err := grants.LoadConfig()
	if err != nil || cfg.GrantScope != grants.GrantScopeSession {
		data, _ := os.ReadFile(path)
		t.Errorf("saved %s (%v), want grant_scope session", data, err)
	}
}

func TestRememberScopeLeavesAMalformedConfig(t *testing.T) {
	bad := `{"grant_scope": "user",}`
	path := isolateConfig(t, bad)
	h := newHarness(t)
	h.mw.rememberScope(app.ScopeOnce)
	lastScopes.saves.Wait()
	if got := h.mw.lastScope(); got != app.ScopeOnce {
		t.Errorf("lastScope() = %v, want the scope chosen in this window", got)
	}
	if data, _ := os.ReadFile(path); string(data) != bad {
		t.Errorf("malformed config rewritten: %s", data)
	}
}
