package ui

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"

	"github.com/latch-app/latch/app"
)

// modelRunner is a session whose model can be switched.
type modelRunner struct {
	*fakeRunner
	mu     sync.Mutex
	set    []string
	err    error
	models []app.ModelChoice
}

func (r *modelRunner) Models() []app.ModelChoice { return r.models }
func (r *modelRunner) SetModel(_ context.Context, m string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.set = append(r.set, m)
	if r.err != nil {
		return "", r.err
	}
	r.surf.Show(app.Event{Session: r.id, Kind: app.EvStatus, Status: &app.Status{State: app.Idle, Model: "claude-" + m + "-9"}})
	return "claude-" + m + "-9", nil
}

func (r *modelRunner) sets() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.set)
}

func newModelHarness(t *testing.T, err error) (*tabsHarness, func() *modelRunner) {
	th := newTabsHarness(t)
	var mu sync.Mutex
	var last *modelRunner
	th.mw.opts.NewRunner = func(_ string, s app.Surface) (Runner, error) {
		mu.Lock()
		defer mu.Unlock()
		last = &modelRunner{fakeRunner: &fakeRunner{id: "session-m", surf: s}, err: err,
			models: []app.ModelChoice{{Value: "default", DisplayName: "Default (recommended)"}, {Value: "sonnet", DisplayName: "Sonnet \u202eevil"}}}
		return last, nil
	}
	return th, func() *modelRunner { mu.Lock(); defer mu.Unlock(); return last }
}

func TestModelSelector(t *testing.T) {
	th, runner := newModelHarness(t, nil)
	mw := th.mw
	m := mw.models
	if !slices.Equal(m.sel.Options, []string{"Default", "Sonnet", "Opus", "Haiku"}) || m.sel.Disabled() {
		t.Fatalf("before a session: options %q (disabled %v)", m.sel.Options, m.sel.Disabled())
	}
	// Chosen before the session exists: its first process gets it.
	m.sel.SetSelected("Sonnet")
	th.send(t, "hi")
	if got := runner().sets(); !slices.Equal(got, []string{"sonnet"}) {
		t.Errorf("the new session was given %q, want the model chosen before it", got)
	}
	mw.surf.flush()
	th.runUntil(t, "the session's models", func() bool { return !m.fetching && len(m.choices) == 2 })
	if m.sel.Options[1] != "Sonnet ⟨U+202E⟩evil" {
		t.Errorf("the CLI's model names are shown as %q, want them escaped", m.sel.Options)
	}
	if m.sel.PlaceHolder != "sonnet" {
		t.Errorf("the selector reads %q, want the model chosen while the CLI says none", m.sel.PlaceHolder)
	}
	r := runner()
	r.surf.Show(app.Event{Session: r.id, Kind: app.EvStatus, Status: &app.Status{State: app.Idle, Model: "claude-sonnet-9"}})
	mw.surf.flush()
	if m.sel.PlaceHolder != "claude-sonnet-9" {
		t.Errorf("the selector reads %q, want the model the CLI reports", m.sel.PlaceHolder)
	}

	// Switched while the session runs: set_model, and the status says it.
	m.sel.SetSelected("Default (recommended)")
	th.runUntil(t, "the switch", func() bool { return !m.busy })
	if got := runner().sets(); !slices.Equal(got, []string{"sonnet", "default"}) {
		t.Errorf("switches %q", got)
	}
	if mw.status.Model != "claude-default-9" || m.sel.PlaceHolder != "claude-default-9" {
		t.Errorf("status model %q, selector %q", mw.status.Model, m.sel.PlaceHolder)
	}
}

func TestModelSwitchRefused(t *testing.T) {
	th, _ := newModelHarness(t, errors.New("Network error. Please check your internet connection."))
	mw := th.mw
	th.send(t, "hi")
	mw.surf.flush()
	th.runUntil(t, "the session's models", func() bool { return !mw.models.fetching && len(mw.models.choices) == 2 })
	mw.models.sel.SetSelected("Default (recommended)")
	th.runUntil(t, "the refusal", func() bool { return !mw.models.busy })
	mw.surf.flush()
	var errs []string
	for _, e := range mw.tr.entries {
		if e.kind == rowError {
			errs = append(errs, e.title+": "+e.text.String())
		}
	}
	if len(errs) != 1 || errs[0] != "The model was not switched: Network error. Please check your internet connection." {
		t.Errorf("errors shown %q", errs)
	}
	if mw.models.sel.Selected != "" {
		t.Errorf("the selector kept %q after the refusal", mw.models.sel.Selected)
	}
}
