package ui

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/adrg/xdg"
	"github.com/tidwall/gjson"

	"github.com/latch-app/latch/app"
)

// TestMain keeps the tests away from the real Latch config: a dialog
// remembers the scope chosen last in it. Each window's config writes end
// with its test (newHarness).
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "latch-ui-test-")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
	xdg.Reload()
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// isolateConfig gives the test a config of its own holding content ("" =
// none) and returns its path; a window made after it loads that config. A
// test that chooses a scope other than the default must use it, or later
// tests open their dialogs on that scope.
func isolateConfig(t *testing.T, content string) string {
	t.Helper()
	dir := t.TempDir()
	t.Cleanup(xdg.Reload) // after t.Setenv restored the variable
	t.Setenv("XDG_CONFIG_HOME", dir)
	xdg.Reload()
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
			if got := h.mw.settings().Scope(); got != tc.want {
				t.Errorf("Scope() = %v, want %v", got, tc.want)
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
		h.mw.settings().RememberScope(tc.s)
		if got := h.mw.settings().Scope(); got != tc.s { // before the write landed
			t.Errorf("Scope() = %v right after RememberScope(%v)", got, tc.s)
		}
		h.mw.settings().Flush()
		data, err := os.ReadFile(path)
		if err != nil || gjson.GetBytes(data, "grant_scope").String() != tc.key || gjson.GetBytes(data, "theme").String() != "dark" {
			t.Errorf("config after RememberScope(%v): %s %v", tc.s, data, err)
		}
		// A new window reads it back.
		if got := newHarness(t).mw.settings().Scope(); got != tc.s {
			t.Errorf("a new window's Scope() = %v, want %v", got, tc.s)
		}
	}
}

func TestRememberScopeSavesTheNewest(t *testing.T) {
	path := isolateConfig(t, "")
	h := newHarness(t)
	for range 20 {
		h.mw.settings().RememberScope(app.ScopeUser)
		h.mw.settings().RememberScope(app.ScopeOnce)
	}
	h.mw.settings().Flush()
	data, err := os.ReadFile(path)
	if err == nil {
		err = app.LoadSettings().LoadError()
	}
	if err != nil || gjson.GetBytes(data, "grant_scope").String() != "session" {
		t.Errorf("saved %s (%v), want grant_scope session", data, err)
	}
}

func TestRememberScopeLeavesAMalformedConfig(t *testing.T) {
	bad := `{"grant_scope": "user",}`
	path := isolateConfig(t, bad)
	h := newHarness(t)
	h.mw.settings().RememberScope(app.ScopeOnce)
	h.mw.settings().Flush()
	if got := h.mw.settings().Scope(); got != app.ScopeOnce {
		t.Errorf("Scope() = %v, want the scope chosen in this window", got)
	}
	if data, _ := os.ReadFile(path); string(data) != bad {
		t.Errorf("malformed config rewritten: %s", data)
	}
}
