package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/latch-app/latch/app"
)

// tabsHarness is a window whose every tab gets its own fake session.
type tabsHarness struct {
	*harness
	mu      sync.Mutex
	runners []*fakeRunner
}

func newTabsHarness(t *testing.T) *tabsHarness {
	t.Helper()
	th := &tabsHarness{harness: newHarness(t)}
	th.mw.opts.NewRunner = func(_ string, s app.Surface) (Runner, error) {
		th.mu.Lock()
		defer th.mu.Unlock()
		r := &fakeRunner{id: fmt.Sprintf("session-%d", len(th.runners)+1), surf: s}
		th.runners = append(th.runners, r)
		return r, nil
	}
	return th
}

// send types prompt into the shown tab and waits until its session has it.
func (th *tabsHarness) send(t *testing.T, prompt string) *fakeRunner {
	t.Helper()
	th.mw.prompt.SetText(prompt)
	th.mw.send()
	th.q.waitOne(t) // Send returned
	th.mw.mu.Lock()
	r := th.mw.runner.(interface{ fake() *fakeRunner }).fake()
	th.mw.mu.Unlock()
	return r
}

// fake is the fakeRunner in a Runner that embeds one.
func (f *fakeRunner) fake() *fakeRunner { return f }

func rowTexts(tr *transcript) string {
	var b strings.Builder
	for _, e := range tr.entries {
		b.WriteString(e.text.String())
		b.WriteString("\n")
	}
	return b.String()
}

func TestTabsKeepTheirOwnSessions(t *testing.T) {
	th := newTabsHarness(t)
	mw := th.mw
	first := mw.tab
	a := th.send(t, "first tab's prompt")

	mw.newSession()
	if len(mw.all) != 2 || mw.tab == first || mw.workdir != first.workdir {
		t.Fatalf("Ctrl+N: %d tabs, shown %p (first %p), folder %q; want a second tab in the same folder", len(mw.all), mw.tab, first, mw.workdir)
	}
	if mw.prompt.Text != "" || len(mw.tr.entries) != 0 || !mw.emptyHint.Visible() {
		t.Errorf("the new tab is not empty: prompt %q, %d rows", mw.prompt.Text, len(mw.tr.entries))
	}
	b := th.send(t, "second tab's prompt")
	if a == b {
		t.Fatal("both tabs talk to one session")
	}

	// The first tab's session goes on in the background.
	a.surf.Show(app.Event{Session: a.id, Kind: app.EvText, BlockID: "m:0", Text: "answer for the first tab"})
	a.surf.Show(app.Event{Session: a.id, Kind: app.EvStatus, Status: &app.Status{State: app.Idle, Model: "model-a"}})
	first.surf.flush()
	if got := rowTexts(mw.tr); strings.Contains(got, "first tab") {
		t.Errorf("the shown tab shows the other's rows:\n%s", got)
	}
	if !mw.running {
		t.Error("the shown tab's state was taken from the other's status")
	}
	if !strings.Contains(rowTexts(first.tr), "answer for the first tab") || first.running {
		t.Errorf("the background tab did not keep its session's events: running %v\n%s", first.running, rowTexts(first.tr))
	}

	mw.cycleTab(1)
	if mw.tab != first || !strings.Contains(rowTexts(mw.tr), "answer for the first tab") || mw.status.Model != "model-a" {
		t.Errorf("Ctrl+Tab did not show the first tab with its own transcript and status (model %q)", mw.status.Model)
	}
	if mw.tabs.Selected() != first.item {
		t.Error("the tab bar does not show the first tab selected")
	}
	mw.cycleTab(-1)
	if mw.tab == first {
		t.Error("Ctrl+Shift+Tab did not go back")
	}
}

func TestTabLabelsShowFolderAndTitle(t *testing.T) {
	th := newTabsHarness(t)
	mw := th.mw
	base := filepath.Base(mw.workdir)
	if mw.tab.item.Text != base {
		t.Errorf("a new tab reads %q, want the folder's name %q", mw.tab.item.Text, base)
	}
	r := th.send(t, "fix the flaky test\nin cart.go")
	mw.surf.flush()
	if want := base + " · fix the flaky test"; mw.tab.item.Text != want {
		t.Errorf("label %q, want %q", mw.tab.item.Text, want)
	}
	// The model's words are shown escaped; the window title never changes.
	r.surf.Show(app.Event{Session: r.id, Kind: app.EvPrompt, Text: "second"})
	mw.surf.flush()
	mw.newSession()
	mw.tab.title = "evil\u202etitle"
	mw.tab.relabel()
	if !strings.Contains(mw.tab.item.Text, "⟨U+202E⟩") {
		t.Errorf("label %q shows a bidi override unescaped", mw.tab.item.Text)
	}
	if mw.win.Title() != "Latch" {
		t.Errorf("window title %q", mw.win.Title())
	}
}

// A question of a tab that is not shown waits for it: the tab is marked,
// a notification says what waits where, and the dialog opens when the tab
// is shown; the answer reaches that tab's session.
func TestBackgroundQuestionWaitsForItsTab(t *testing.T) {
	th := newTabsHarness(t)
	mw := th.mw
	first := mw.tab
	a := th.send(t, "run the tests")
	mw.newSession()

	q := app.Question{Session: a.id, RequestID: "r1", Tool: "Bash", DisplayName: "Bash", Command: "npm test", Input: `{"command":"npm test"}`}
	got := make(chan app.Decision, 1)
	want := fyne.NewNotification("Latch", notificationBody("Bash wants to run `npm test` in "+filepath.Base(first.workdir)))
	test.AssertNotificationSent(t, want, func() {
		go func() { got <- a.surf.Ask(context.Background(), q) }()
		th.q.waitOne(t) // the question reaches the UI goroutine
	})
	if mw.modals.active() {
		t.Fatal("a background tab's question opened over the shown tab")
	}
	if !strings.HasPrefix(first.item.Text, "● ") || len(first.waiting) != 1 {
		t.Errorf("the waiting tab reads %q (%d waiting), want it marked", first.item.Text, len(first.waiting))
	}

	mw.showTab(first)
	if !mw.modals.active() || currentAsk(th.harness) == nil {
		t.Fatal("the question did not open when its tab was shown")
	}
	if strings.HasPrefix(first.item.Text, "● ") {
		t.Errorf("the shown tab is still marked: %q", first.item.Text)
	}
	typeRunes(th.c, "1")
	if d := <-got; d.Action != app.AllowOnce {
		t.Errorf("the session got %+v, want allow once", d)
	}
}

// While a dialog is up, nothing switches the tab under it.
func TestNoTabSwitchUnderADialog(t *testing.T) {
	th := newTabsHarness(t)
	mw := th.mw
	a := th.send(t, "run")
	first := mw.tab
	mw.newSession()
	mw.showTab(first)
	go a.surf.Ask(context.Background(), app.Question{Session: a.id, RequestID: "r1", Tool: "Bash", Command: "ls"})
	th.q.waitOne(t)
	if !mw.modals.active() {
		t.Fatal("no dialog")
	}
	for _, f := range []func(){func() { mw.cycleTab(1) }, mw.newSession, func() { mw.closeTab(mw.tab) }} {
		f()
		if mw.tab != first || len(mw.all) != 2 {
			t.Fatalf("the tab changed under the dialog: %d tabs", len(mw.all))
		}
	}
	mw.modals.cur.m.Dismiss()
}

func TestCloseTabEndsItsSession(t *testing.T) {
	th := newTabsHarness(t)
	mw := th.mw
	a := th.send(t, "one")
	first := mw.tab
	mw.newSession()
	second := mw.tab
	b := th.send(t, "two")

	mw.closeTab(second)
	if len(mw.all) != 1 || mw.tab != first || len(mw.tabs.Items) != 1 {
		t.Fatalf("after Ctrl+W: %d tabs, shown first %v", len(mw.all), mw.tab == first)
	}
	waitFor(t, "the closed tab's session to end", func() bool { b.mu.Lock(); defer b.mu.Unlock(); return b.closed == 1 })
	// What the closed session still says is dropped.
	b.surf.Show(app.Event{Session: b.id, Kind: app.EvText, BlockID: "x", Text: "late"})
	if strings.Contains(rowTexts(mw.tr), "late") {
		t.Error("a closed tab's session reached the window")
	}

	// The last tab closed leaves an empty one in the same folder.
	mw.closeTab(first)
	if len(mw.all) != 1 || mw.tab == first || mw.workdir != first.workdir || len(mw.tr.entries) != 0 {
		t.Fatalf("closing the last tab: %d tabs, folder %q", len(mw.all), mw.workdir)
	}
	waitFor(t, "the last tab's session to end", func() bool { a.mu.Lock(); defer a.mu.Unlock(); return a.closed == 1 })
}

func TestCloseEndsEveryTab(t *testing.T) {
	th := newTabsHarness(t)
	mw := th.mw
	th.send(t, "one")
	mw.newSession()
	th.send(t, "two")
	rs := mw.close()
	if len(rs) != 2 {
		t.Fatalf("close returned %d sessions to end, want 2", len(rs))
	}
}

// Rows that arrived while a tab was not shown are on screen when it is.
func TestShownTabDrawsWhatArrivedMeanwhile(t *testing.T) {
	th := newTabsHarness(t)
	mw := th.mw
	first := mw.tab
	a := th.send(t, "one")
	mw.surf.flush()
	mw.newSession()
	for i := range 5 {
		a.surf.Show(app.Event{Session: a.id, Kind: app.EvNotice, Text: fmt.Sprintf("background row %d", i)})
	}
	first.surf.flush() // applied while the tab is hidden
	mw.showTab(first)
	last := len(first.tr.entries) - 1
	if _, ok := first.tr.list.visible[last]; !ok {
		t.Errorf("row %d of %d, which arrived in the background, is not drawn", last, len(first.tr.entries))
	}
}
