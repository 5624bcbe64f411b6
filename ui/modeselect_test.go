package ui

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

var fourModes = []app.Mode{
	{Value: "default", Title: "Manual"}, {Value: "acceptEdits", Title: "Accept edits"},
	{Value: "plan", Title: "Plan"}, {Value: "dontAsk", Title: "Don't ask"},
}

// showStatus shows a status of the window's session and applies it.
func showStatus(h *harness, st app.Status) {
	h.mw.surf.Show(app.Event{Session: h.r.id, Kind: app.EvStatus, Status: &st})
	h.mw.surf.flush()
}

// modeHarness is a window whose session offers modes and reports mode.
func modeHarness(t *testing.T, modes []app.Mode, mode string) (*harness, *fakeInspector) {
	h := newHarness(t)
	fi := &fakeInspector{modes: modes}
	newInspRunner(h, fi)
	showStatus(h, app.Status{State: app.Idle, PermissionMode: mode})
	h.q.waitOne(t) // the modes on offer
	return h, fi
}

func TestModeSelectorSwitchesMode(t *testing.T) {
	h, fi := modeHarness(t, fourModes, "default")
	sel := h.mw.modeSel.sel
	if sel.Disabled() || sel.Selected != "Manual" || !slices.Equal(sel.Options, []string{"Manual", "Accept edits", "Plan", "Don't ask"}) {
		t.Fatalf("selector: disabled %v, %q of %q", sel.Disabled(), sel.Selected, sel.Options)
	}
	sel.SetSelected("Plan")
	if !sel.Disabled() {
		t.Error("the selector takes a second choice while the first is on its way")
	}
	h.q.waitOne(t)
	if got := fi.snapshot().setModes; !slices.Equal(got, []string{"plan"}) {
		t.Fatalf("SetMode got %q", got)
	}
	if sel.Selected != "Plan" || sel.Disabled() || h.mw.status.PermissionMode != "plan" {
		t.Errorf("after the switch: %q, disabled %v, status %q", sel.Selected, sel.Disabled(), h.mw.status.PermissionMode)
	}
	// The mode the CLI then reports is the one shown, whoever set it.
	showStatus(h, app.Status{State: app.Idle, PermissionMode: "acceptEdits"})
	h.q.waitOne(t)
	if sel.Selected != "Accept edits" {
		t.Errorf("shows %q after the CLI reported acceptEdits", sel.Selected)
	}
	if len(fi.snapshot().setModes) != 1 {
		t.Error("showing the CLI's mode switched the mode")
	}
}

func TestModeSelectorRevertsOnError(t *testing.T) {
	h, fi := modeHarness(t, fourModes, "default")
	fi.mu.Lock()
	fi.setErr = errors.New("Claude Code refused: bypass mode was not enabled at launch")
	fi.mu.Unlock()
	sel := h.mw.modeSel.sel
	sel.SetSelected("Don't ask")
	h.q.waitOne(t)
	if sel.Selected != "Manual" || h.mw.status.PermissionMode != "default" {
		t.Errorf("after a refused switch the selector shows %q, status %q", sel.Selected, h.mw.status.PermissionMode)
	}
	found := false
	for _, e := range h.mw.tr.entries {
		if e.kind == rowError && e.title == "The permission mode was not changed" &&
			strings.Contains(e.text.String(), "bypass mode was not enabled at launch") {
			found = true
		}
	}
	if !found {
		t.Error("the error is not shown in words")
	}
}

func TestModeSelectorBypassIsRed(t *testing.T) {
	modes := append(slices.Clone(fourModes), app.Mode{Value: "bypassPermissions", Title: "Bypass", Danger: true})
	h, _ := modeHarness(t, modes, "bypassPermissions")
	m := h.mw.modeSel
	if m.sel.Selected != "Bypass" || !m.bg.Visible() || m.bg.FillColor != theme.Color(theme.ColorNameError) || m.lbl.Importance != widget.DangerImportance {
		t.Errorf("bypass shown as %q, red %v", m.sel.Selected, m.bg.Visible())
	}
	showStatus(h, app.Status{State: app.Idle, PermissionMode: "default"})
	h.q.waitOne(t)
	if m.bg.Visible() {
		t.Error("still red in the default mode")
	}
}

// Without a session that can switch modes the selector still shows the
// mode, disabled.
func TestModeSelectorWithoutSession(t *testing.T) {
	h := newHarness(t)
	m := h.mw.modeSel
	if !m.sel.Disabled() || m.sel.Selected != "Manual" {
		t.Errorf("no session: disabled %v, %q", m.sel.Disabled(), m.sel.Selected)
	}
	h.mw.surf.Show(app.Event{Kind: app.EvStatus, Status: &app.Status{State: app.Running, PermissionMode: "plan\u202e"}})
	h.mw.surf.flush()
	if !m.sel.Disabled() || m.sel.Selected != "plan⟨U+202E⟩" {
		t.Errorf("a session that cannot switch: disabled %v, %q", m.sel.Disabled(), m.sel.Selected)
	}
	h.mw.status = app.Status{DangerousSkip: true}
	h.mw.refresh()
	if m.sel.Selected != "Bypass" || !m.bg.Visible() {
		t.Errorf("dangerously skip: %q, red %v", m.sel.Selected, m.bg.Visible())
	}
}

func TestUntrustedFolderMarker(t *testing.T) {
	h := newHarness(t)
	fi := &fakeInspector{view: testView(h.mw.workdir)}
	newInspRunner(h, fi)
	if h.mw.trustBtn.Visible() {
		t.Fatal("marker shown before any status")
	}
	warn := "Ignoring 3 allow rules from .claude/settings.json\u202e: workspace not trusted"
	showStatus(h, app.Status{State: app.Running, Untrusted: true, TrustWarning: warn})
	h.q.waitOne(t) // modes
	showStatus(h, app.Status{State: app.Idle, Untrusted: true, TrustWarning: warn})
	h.q.waitOne(t)
	if !h.mw.trustBtn.Visible() || h.mw.trustBtn.Text != "Folder not trusted" {
		t.Fatal("no marker for an untrusted folder")
	}
	notices := 0
	for _, e := range h.mw.tr.entries {
		if e.kind == rowNotice && strings.Contains(e.text.String(), "Ignoring 3 allow rules") {
			notices++
			if !strings.Contains(e.text.String(), "⟨U+202E⟩") {
				t.Errorf("warning not escaped: %q", e.text.String())
			}
		}
	}
	if notices != 1 {
		t.Errorf("the trust warning is shown %d times, want once", notices)
	}
	h.mw.trustBtn.OnTapped()
	if h.mw.perms == nil {
		t.Fatal("the marker does not open Permissions")
	}
	t.Cleanup(h.mw.perms.Dismiss)
	h.q.waitOne(t)
	showStatus(h, app.Status{State: app.Idle})
	h.q.waitOne(t)
	if h.mw.trustBtn.Visible() {
		t.Error("marker still shown for a trusted folder")
	}
}

// The status line, mode selector included, fits a 980 px window.
func TestStatusLineFits980(t *testing.T) {
	h, _ := modeHarness(t, fourModes, "acceptEdits")
	h.mw.lastTurn = &app.TurnInfo{CostUSD: 1.2345, InputTokens: 1234567, OutputTokens: 98765,
		SessionCostUSD: 12.3456, SessionInputTokens: 12345678, SessionOutputTokens: 987654}
	h.mw.status.Model = "claude-opus-4-5-20251101"
	h.mw.status.SessionID = "4f1c2a9e-77b0"
	h.mw.status.Untrusted = true
	h.mw.refresh()
	if w := h.mw.win.Content().MinSize().Width; w > 980 {
		t.Errorf("the window needs %v px", w)
	}
	h.mw.win.Resize(fyne.NewSize(980, 700))
	if sel := h.mw.modeSel.sel; sel.Size().Width < sel.MinSize().Width || !sel.Visible() {
		t.Errorf("mode selector squeezed to %v", sel.Size())
	}
}
