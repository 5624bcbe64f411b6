package ui

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"github.com/latch-app/latch/app"
)

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func ctrlEnter(p *promptEntry) {
	p.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierControl})
}

func TestWindowTitleAndStartFocus(t *testing.T) {
	h := newHarness(t)
	if h.mw.win.Title() != "Latch" {
		t.Errorf("title %q", h.mw.win.Title())
	}
	h.mw.focusPrompt()
	if h.c.Focused() != h.mw.prompt {
		t.Error("prompt box does not have the focus")
	}
	if !strings.Contains(h.mw.folderLbl.Text, h.mw.workdir) {
		t.Errorf("folder bar shows %q", h.mw.folderLbl.Text)
	}
}

func TestCtrlEnterSendsAndTurnEndRefocuses(t *testing.T) {
	h := newHarness(t)
	h.c.Focus(h.mw.prompt)
	typeRunes(h.c, "make the tests pass")
	press(h.c, fyne.KeyReturn) // a plain Enter is a new line
	if h.mw.prompt.Text != "make the tests pass\n" {
		t.Fatalf("prompt = %q", h.mw.prompt.Text)
	}
	ctrlEnter(h.mw.prompt)
	waitFor(t, "the prompt to reach the session", func() bool { return len(h.r.sentCopy()) == 1 })
	h.q.waitOne(t) // Send returned; what the session said is shown
	if got := h.r.sentCopy()[0]; got != "make the tests pass" {
		t.Errorf("sent %q", got)
	}
	if h.mw.prompt.Text != "" || !h.mw.running || h.mw.stopBtn.Disabled() || !h.mw.sendBtn.Disabled() {
		t.Errorf("after send: text %q running %v stop enabled %v", h.mw.prompt.Text, h.mw.running, !h.mw.stopBtn.Disabled())
	}
	ctrlEnter(h.mw.prompt) // nothing to send while a turn runs
	h.c.Focus(h.mw.prompt)
	press(h.c, fyne.KeyEscape) // Esc stops the turn
	waitFor(t, "Stop", func() bool { h.r.mu.Lock(); defer h.r.mu.Unlock(); return h.r.stops == 1 })

	h.c.Focus(h.mw.sendBtn)
	h.mw.surf.Show(app.Event{Kind: app.EvTurnEnd, Turn: &app.TurnInfo{CostUSD: 0.0123, InputTokens: 1200, OutputTokens: 340,
		SessionCostUSD: 0.5, SessionInputTokens: 20000, SessionOutputTokens: 4000}})
	h.mw.surf.Show(app.Event{Kind: app.EvStatus, Status: &app.Status{State: app.Idle}})
	h.mw.surf.flush()
	if h.c.Focused() != h.mw.prompt {
		t.Error("prompt box did not get the focus back after the turn")
	}
	if h.mw.running || h.mw.sendBtn.Disabled() || !h.mw.stopBtn.Disabled() {
		t.Error("still running after the turn ended")
	}
	for _, want := range []string{"last turn $0.01, 1.2k in / 340 out", "session $0.50, 20k in / 4k out"} {
		if !strings.Contains(h.mw.statusLbl.Text, want) {
			t.Errorf("status line %q lacks %q", h.mw.statusLbl.Text, want)
		}
	}
}

func TestStatusLine(t *testing.T) {
	h := newHarness(t)
	h.mw.surf.Show(app.Event{Kind: app.EvStatus, Status: &app.Status{State: app.Running, SessionID: "0123456789abcdef",
		Model: "claude-sonnet-4-5", Prompts: "after_turn", DangerousSkip: true}})
	h.mw.surf.flush()
	for _, want := range []string{"Running", "session 01234567", "claude-sonnet-4-5", "after the turn"} {
		if !strings.Contains(h.mw.statusLbl.Text, want) {
			t.Errorf("status line %q lacks %q", h.mw.statusLbl.Text, want)
		}
	}
	if !h.mw.dangerLbl.Visible() {
		t.Error("no red marker while permission checks are skipped")
	}
	h.mw.surf.Show(app.Event{Kind: app.EvStatus, Status: &app.Status{State: app.Idle, Prompts: "live"}})
	h.mw.surf.flush()
	if h.mw.dangerLbl.Visible() {
		t.Error("red marker stays after the checks are back")
	}
	if !strings.Contains(h.mw.statusLbl.Text, "asked live") {
		t.Errorf("status line %q", h.mw.statusLbl.Text)
	}
}

func TestRunnerFailureShowsInWindow(t *testing.T) {
	h := newHarness(t)
	h.mw.opts.NewRunner = func(string, app.Surface) (Runner, error) {
		return nil, errors.New("claude: executable file not found in $PATH")
	}
	h.mw.prompt.SetText("hi")
	h.mw.send()
	if !h.mw.sendBtn.Disabled() {
		t.Error("Send is enabled while the prompt is on its way")
	}
	h.q.waitOne(t)
	// No session ever said it had the prompt: no prompt row, and the
	// prompt is back in the box, not lost.
	if got := kinds(h.mw.tr); got != "error" {
		t.Fatalf("rows = %q", got)
	}
	if e := h.mw.tr.entries[0]; !strings.Contains(e.text.String(), "not found") {
		t.Errorf("error row says %q", e.text.String())
	}
	if h.mw.prompt.Text != "hi" {
		t.Errorf("prompt box holds %q after the failed send, want the prompt back", h.mw.prompt.Text)
	}
	if h.mw.running || h.mw.sendBtn.Disabled() || h.c.Focused() != h.mw.prompt {
		t.Error("window is stuck after the session failed to start")
	}
}

func TestNotificationsWhenUnfocused(t *testing.T) {
	h := newHarness(t)
	folder := filepath.Base(h.mw.workdir)
	h.mw.foreground = false
	test.AssertNotificationSent(t, fyne.NewNotification("Latch", "The turn finished with 2 refused tool calls."), func() {
		h.mw.surf.Show(app.Event{Kind: app.EvTurnEnd, Turn: &app.TurnInfo{Denials: 2}})
		h.mw.surf.flush()
	})
	test.AssertNotificationSent(t, fyne.NewNotification("Latch", "Bash wants to run `npm test` in "+folder), func() {
		ask(h, t.Context(), app.Question{Tool: "Bash", DisplayName: "Bash", Command: "npm test"})
		h.q.waitOne(t)
	})
	press(h.c, fyne.KeyEscape)
	test.AssertNotificationSent(t, fyne.NewNotification("Latch", "Claude was refused 2 permissions in "+folder), func() {
		go h.mw.surf.AskGrants(t.Context(), app.GrantRequest{Round: 1,
			Tools:   []app.ToolGrant{{Rule: "Bash(npm test)", Tool: "Bash"}},
			Folders: []app.FolderGrant{{Path: "/srv/data", Tool: "Read"}}})
		h.q.waitOne(t)
	})
	press(h.c, fyne.KeyEscape)
	// In front: neither a question nor a finished turn is announced.
	h.mw.foreground = true
	test.AssertNotificationSent(t, nil, func() {
		ask(h, t.Context(), app.Question{Tool: "Bash", Command: "npm test"})
		h.q.waitOne(t)
	})
	if h.mw.modals.cur == nil || !overlayUp(h.c) {
		t.Fatal("the question in front was not shown")
	}
	press(h.c, fyne.KeyEscape)
	test.AssertNotificationSent(t, nil, func() {
		h.mw.surf.Show(app.Event{Kind: app.EvTurnEnd, Turn: &app.TurnInfo{}})
		h.mw.surf.flush()
	})
}

func TestChangingFolderEndsTheSession(t *testing.T) {
	h := newHarness(t)
	h.mw.prompt.SetText("one")
	h.mw.send()
	waitFor(t, "send", func() bool { return len(h.r.sentCopy()) == 1 })
	h.q.waitOne(t)
	h.mw.surf.Show(app.Event{Kind: app.EvTurnEnd, Turn: &app.TurnInfo{}})
	h.mw.surf.Show(app.Event{Kind: app.EvStatus, Status: &app.Status{State: app.Idle}})
	h.mw.surf.flush()
	dir := t.TempDir()
	h.mw.setFolder(dir)
	waitFor(t, "Close", func() bool { h.r.mu.Lock(); defer h.r.mu.Unlock(); return h.r.closed == 1 })
	if h.mw.folderLbl.Text != dir {
		t.Errorf("folder bar shows %q", h.mw.folderLbl.Text)
	}
	var gotDir string
	h.mw.opts.NewRunner = func(d string, _ app.Surface) (Runner, error) { gotDir = d; return h.r, nil }
	h.mw.prompt.SetText("two")
	h.mw.send()
	waitFor(t, "second send", func() bool { return len(h.r.sentCopy()) == 2 })
	if gotDir != dir {
		t.Errorf("new session started in %q, want %q", gotDir, dir)
	}
}

// The mode the CLI reports is the mode shown, whoever set it.
func TestPermissionModeBanner(t *testing.T) {
	tests := []struct {
		st      app.Status
		want    string
		danger  bool
		visible bool
	}{
		{app.Status{PermissionMode: "default"}, "", false, false},
		{app.Status{}, "", false, false},
		{app.Status{PermissionMode: "bypassPermissions"}, "PERMISSION CHECKS OFF", true, true},
		{app.Status{PermissionMode: "bypassPermissions", DangerousSkip: true}, "dangerously skip permissions", true, true},
		{app.Status{DangerousSkip: true}, "PERMISSION CHECKS OFF", true, true},
		{app.Status{PermissionMode: "dontAsk"}, "don't ask", false, true},
		{app.Status{PermissionMode: "acceptEdits"}, "accept edits", false, true},
		{app.Status{PermissionMode: "plan"}, "plan", false, true},
		{app.Status{PermissionMode: "auto"}, "auto", false, true},
		{app.Status{PermissionMode: "weird\u202emode"}, "weird⟨U+202E⟩mode", false, true},
	}
	for _, tc := range tests {
		t.Run(tc.st.PermissionMode, func(t *testing.T) {
			h := newHarness(t)
			st := tc.st
			st.State = app.Running
			h.mw.surf.Show(app.Event{Kind: app.EvStatus, Status: &st})
			h.mw.surf.flush()
			if h.mw.dangerLbl.Visible() != tc.danger {
				t.Errorf("red banner visible = %v, want %v", h.mw.dangerLbl.Visible(), tc.danger)
			}
			shown := ""
			switch {
			case h.mw.dangerLbl.Visible():
				shown = h.mw.dangerLbl.Text
			case h.mw.modeLbl.Visible():
				shown = h.mw.modeLbl.Text
			}
			if (shown != "") != tc.visible || !strings.Contains(shown, tc.want) {
				t.Errorf("banner %q, want one with %q (visible %v)", shown, tc.want, tc.visible)
			}
		})
	}
}

// Changing the folder while a turn runs: what the old session still says
// while it closes no longer reaches the window, which is idle at once and
// takes a prompt for the new folder (it stayed "Running" forever before).
func TestChangingFolderDuringATurn(t *testing.T) {
	h := newHarness(t)
	old := &fakeRunner{id: "session-old"}
	h.mw.opts.NewRunner = func(string, app.Surface) (Runner, error) { return old, nil }
	h.mw.prompt.SetText("one")
	h.mw.send()
	waitFor(t, "send", func() bool { return len(old.sentCopy()) == 1 })
	h.q.waitOne(t) // send's return
	h.mw.surf.Show(app.Event{Session: old.id, Kind: app.EvStatus, Status: &app.Status{State: app.Running}})
	h.mw.surf.flush()
	if !h.mw.running {
		t.Fatal("not running during the turn")
	}
	h.mw.setFolder(t.TempDir())
	// The closing session still reports, and even asks.
	h.mw.surf.Show(app.Event{Session: old.id, Kind: app.EvStatus, Status: &app.Status{State: app.Stopping}})
	h.mw.surf.Show(app.Event{Session: old.id, Kind: app.EvText, BlockID: "late", Text: "late words"})
	if d := h.mw.surf.Ask(context.Background(), app.Question{Session: old.id, Tool: "Bash", Command: "rm -rf ~"}); d.Action != app.NoAnswer {
		t.Errorf("a retired session got an answer: %+v", d)
	}
	if d := h.mw.surf.AskGrants(context.Background(), app.GrantRequest{Session: old.id, Tools: []app.ToolGrant{{Rule: "Bash"}}}); d.Action != app.NotNow {
		t.Errorf("a retired session got grants: %+v", d)
	}
	h.mw.surf.flush()
	if h.mw.running || h.mw.sendBtn.Disabled() {
		t.Error("the window is still running for the old folder")
	}
	for _, e := range h.mw.tr.entries {
		if strings.Contains(e.text.String(), "late words") {
			t.Error("the old session's text reached the new folder's transcript")
		}
	}
	fresh := &fakeRunner{id: "session-new"}
	h.mw.opts.NewRunner = func(string, app.Surface) (Runner, error) { return fresh, nil }
	h.mw.prompt.SetText("two")
	h.mw.send()
	waitFor(t, "second send", func() bool { return len(fresh.sentCopy()) == 1 })
	h.mw.surf.Show(app.Event{Session: fresh.id, Kind: app.EvStatus, Status: &app.Status{State: app.Running}})
	h.mw.surf.Show(app.Event{Session: old.id, Kind: app.EvStatus, Status: &app.Status{State: app.Idle}})
	h.mw.surf.flush()
	if !h.mw.running {
		t.Error("the new session's events are dropped, or the old one's are not")
	}
}

// A session that was still starting when the folder changed is for the old
// folder: it is closed and never shown; the prompt comes back to the box.
func TestFolderChangeWhileASessionStarts(t *testing.T) {
	h := newHarness(t)
	started, release := make(chan struct{}), make(chan struct{})
	slow := &fakeRunner{id: "session-slow"}
	h.mw.opts.NewRunner = func(string, app.Surface) (Runner, error) {
		close(started)
		<-release
		return slow, nil
	}
	h.mw.prompt.SetText("one")
	h.mw.send()
	<-started
	h.mw.setFolder(t.TempDir())
	close(release)
	h.q.waitOne(t)
	waitFor(t, "Close", func() bool { slow.mu.Lock(); defer slow.mu.Unlock(); return slow.closed == 1 })
	if len(slow.sentCopy()) != 0 {
		t.Error("the prompt went to a session of the folder the window left")
	}
	if h.mw.prompt.Text != "one" {
		t.Errorf("prompt box holds %q, want the prompt back", h.mw.prompt.Text)
	}
	h.mw.surf.Show(app.Event{Session: slow.id, Kind: app.EvStatus, Status: &app.Status{State: app.Running}})
	h.mw.surf.flush()
	if h.mw.running {
		t.Error("the window shows a session it never took")
	}
}

// Running, the Send button and the prompt row follow the session's events
// only: the window sets none of them itself.
func TestRunningComesFromTheSession(t *testing.T) {
	h := newHarness(t)
	quiet := &fakeRunner{id: "session-quiet"} // says nothing by itself
	h.mw.opts.NewRunner = func(string, app.Surface) (Runner, error) { return quiet, nil }
	h.mw.prompt.SetText("hello")
	h.mw.send()
	waitFor(t, "send", func() bool { return len(quiet.sentCopy()) == 1 })
	h.q.waitOne(t)
	if h.mw.running || len(h.mw.tr.entries) != 0 {
		t.Fatalf("the window ran ahead of the session: running %v, %d rows", h.mw.running, len(h.mw.tr.entries))
	}
	id := quiet.id
	h.mw.surf.Show(app.Event{Session: id, Kind: app.EvStatus, Status: &app.Status{State: app.Running}})
	h.mw.surf.Show(app.Event{Session: id, Kind: app.EvPrompt, Text: "hello"})
	h.mw.surf.flush()
	if !h.mw.running || !h.mw.sendBtn.Disabled() || h.mw.stopBtn.Disabled() || kinds(h.mw.tr) != "user" {
		t.Fatalf("running %v, send disabled %v, stop disabled %v, rows %q", h.mw.running, h.mw.sendBtn.Disabled(), h.mw.stopBtn.Disabled(), kinds(h.mw.tr))
	}
	// The turn's end alone does not make the window idle; the status does.
	h.mw.surf.Show(app.Event{Session: id, Kind: app.EvTurnEnd, Turn: &app.TurnInfo{}})
	h.mw.surf.flush()
	if !h.mw.running {
		t.Error("idle before the session said so")
	}
	h.mw.surf.Show(app.Event{Session: id, Kind: app.EvStatus, Status: &app.Status{State: app.Idle}})
	h.mw.surf.flush()
	if h.mw.running || h.mw.sendBtn.Disabled() || !strings.HasPrefix(h.mw.statusLbl.Text, "Idle") {
		t.Errorf("running %v, send disabled %v, status %q", h.mw.running, h.mw.sendBtn.Disabled(), h.mw.statusLbl.Text)
	}
}

// The audit log's write error is shown once, in words, escaped.
func TestAuditErrorShownOnce(t *testing.T) {
	a := test.NewTempApp(t)
	errs := make(chan error, 1)
	q := newUIQueue()
	mw := newMainWindow(a, Options{Workdir: t.TempDir(), Settings: app.LoadSettings(), AuditErrors: errs,
		NewRunner: func(string, app.Surface) (Runner, error) { return nil, errors.New("none") }}, q.do)
	t.Cleanup(func() { mw.surf.close(); mw.win.Close() })
	errs <- errors.New("open /state/latch/audit.jsonl: read-only file system\x1b[2J")
	close(errs)
	count := func() (n int, text string) {
		mw.surf.flush()
		for _, e := range mw.tr.entries {
			if e.kind == rowError && strings.Contains(e.title, "permission history") {
				n, text = n+1, e.text.String()
			}
		}
		return n, text
	}
	deadline := time.Now().Add(5 * time.Second)
	for n, _ := count(); n == 0 && time.Now().Before(deadline); n, _ = count() {
		time.Sleep(5 * time.Millisecond)
	}
	n, text := count()
	if n != 1 || !strings.Contains(text, "read-only file system") || strings.Contains(text, "\x1b") {
		t.Errorf("%d error rows, text %q: want one, escaped", n, text)
	}
}
