package ui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/latch-app/latch/app"
)

// histRunner is a session that can continue one of the history's: it
// shows what a session file holds.
type histRunner struct {
	*fakeRunner
	mu        sync.Mutex
	continued []string // ids
}

func (r *histRunner) Continue(_ context.Context, id, path string) error {
	r.mu.Lock()
	r.continued = append(r.continued, id)
	r.mu.Unlock()
	r.surf.Show(app.Event{Session: r.id, Kind: app.EvStatus, Status: &app.Status{State: app.Idle, SessionID: id}})
	r.surf.Show(app.Event{Session: r.id, Kind: app.EvPrompt, Text: "prompt of " + id})
	r.surf.Show(app.Event{Session: r.id, Kind: app.EvText, BlockID: id, Text: "answer read from " + path})
	r.surf.Show(app.Event{Session: r.id, Kind: app.EvTurnEnd, Turn: &app.TurnInfo{Earlier: true}})
	return nil
}

type fakeLister struct {
	mu    sync.Mutex
	items []app.SessionSummary
	dirs  []string
}

func (l *fakeLister) List(dir string) ([]app.SessionSummary, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.dirs = append(l.dirs, dir)
	return append([]app.SessionSummary(nil), l.items...), nil
}

func newHistoryHarness(t *testing.T) (*tabsHarness, *fakeLister, func() []*histRunner) {
	th := newTabsHarness(t)
	var mu sync.Mutex
	var hrs []*histRunner
	th.mw.opts.NewRunner = func(_ string, s app.Surface) (Runner, error) {
		mu.Lock()
		defer mu.Unlock()
		r := &histRunner{fakeRunner: &fakeRunner{id: fmt.Sprintf("session-%d", len(hrs)+1), surf: s}}
		hrs = append(hrs, r)
		return r, nil
	}
	now := time.Now()
	l := &fakeLister{items: []app.SessionSummary{
		{ID: "id-new", Path: "/p/id-new.jsonl", Title: "fix the cart", Updated: now, Prompts: 3, Unresolved: 1},
		{ID: "id-old", Path: "/p/id-old.jsonl", Title: "write the docs", Updated: now.Add(-48 * time.Hour), Prompts: 1},
	}}
	th.mw.opts.Sessions = l
	return th, l, func() []*histRunner { mu.Lock(); defer mu.Unlock(); return append([]*histRunner(nil), hrs...) }
}

// runUntil runs what was sent to the UI goroutine until cond holds.
func (th *tabsHarness) runUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		select {
		case f := <-th.q.ch:
			f()
		case <-time.After(10 * time.Millisecond):
		}
	}
}

func TestHistoryListsTheShownFolder(t *testing.T) {
	th, l, _ := newHistoryHarness(t)
	mw := th.mw
	mw.toggleHistory()
	if !mw.sessionsBox.Visible() {
		t.Fatal("Ctrl+B did not show the history")
	}
	th.runUntil(t, "the folder to be listed", func() bool {
		l.mu.Lock()
		defer l.mu.Unlock()
		return len(l.dirs) > 0 && !mw.listing
	})
	if l.dirs[0] != mw.workdir {
		t.Errorf("listed %q, want the shown tab's folder %q", l.dirs[0], mw.workdir)
	}
	mw.toggleHistory()
	if mw.sessionsBox.Visible() || mw.historyTimer != nil {
		t.Error("Ctrl+B again did not hide the history and stop listing")
	}
}

func TestOpenSessionFromHistory(t *testing.T) {
	th, l, runners := newHistoryHarness(t)
	mw := th.mw
	first := mw.tab
	mw.openSession(l.items[0])
	th.runUntil(t, "the session to be read", func() bool { return !first.loading })
	rs := runners()
	if len(rs) != 1 || len(rs[0].continued) != 1 || rs[0].continued[0] != "id-new" {
		t.Fatalf("runners %d, want one continuing id-new", len(rs))
	}
	if mw.tab != first || len(mw.all) != 1 {
		t.Error("the history's session did not open in the empty tab")
	}
	if got := rowTexts(mw.tr); !strings.Contains(got, "prompt of id-new") || !strings.Contains(got, "answer read from /p/id-new.jsonl") {
		t.Errorf("transcript:\n%s", got)
	}
	if !strings.HasSuffix(first.item.Text, "· fix the cart") || strings.HasPrefix(first.item.Text, "●") {
		t.Errorf("tab label %q", first.item.Text)
	}
	if mw.tab.sessionID() != "id-new" {
		t.Errorf("the tab's session is %q", mw.tab.sessionID())
	}
	if mw.lastTurn != nil {
		t.Errorf("the status line has the figures %+v of a turn read from the file, which has none", *mw.lastTurn)
	}

	// The same session again: its tab is shown, nothing is read twice.
	mw.newSession()
	mw.openSession(l.items[0])
	if mw.tab != first {
		t.Error("opening an open session did not show its tab")
	}
	// Another one while the shown tab holds a session: a new tab.
	mw.openSession(l.items[1])
	second := mw.tab
	th.runUntil(t, "the second session to be read", func() bool { return !second.loading })
	if second == first || len(runners()) != 2 || !strings.Contains(rowTexts(second.tr), "prompt of id-old") {
		t.Errorf("the second session did not open in a tab of its own")
	}
	if strings.Contains(rowTexts(first.tr), "id-old") {
		t.Error("the second session's rows reached the first tab")
	}
}

// A prompt cannot race the reading of the session it continues.
func TestNoPromptWhileASessionIsRead(t *testing.T) {
	th, l, runners := newHistoryHarness(t)
	mw := th.mw
	mw.openSession(l.items[0])
	mw.prompt.SetText("too early")
	mw.send()
	if mw.prompt.Text != "too early" {
		t.Error("a prompt was taken while the session was being read")
	}
	th.runUntil(t, "the session to be read", func() bool { return !mw.loading })
	for _, r := range runners() {
		if len(r.sentCopy()) != 0 {
			t.Errorf("sent %q while reading", r.sentCopy())
		}
	}
}

func TestFindInTheShownTab(t *testing.T) {
	th := newTabsHarness(t)
	mw := th.mw
	for _, s := range []string{"apples and pears", "only pears", "more apples"} {
		mw.surf.Show(app.Event{Kind: app.EvNotice, Text: s})
	}
	mw.surf.flush()
	mw.findOpen()
	mw.find.entry.SetText("APPLES") // as typed: the bar asks for the search
	if len(mw.found.rows) != 2 {
		t.Fatalf("%d matches of APPLES, want 2", len(mw.found.rows))
	}
	at := mw.found.current()
	mw.findStep(false)
	mw.findStep(false)
	if mw.found.current() != at {
		t.Errorf("Enter twice over 2 matches is at row %d, want back at %d", mw.found.current(), at)
	}
	// Another tab searches its own rows.
	mw.newSession()
	if len(mw.found.rows) != 0 || mw.found.current() != -1 {
		t.Errorf("the new, empty tab has %d matches", len(mw.found.rows))
	}
	mw.showTab(mw.all[0])
	if len(mw.found.rows) != 2 {
		t.Errorf("back in the first tab: %d matches, want 2", len(mw.found.rows))
	}
	mw.findClose()
	if mw.find.object().Visible() {
		t.Error("Esc did not close the find bar")
	}
}

// A flood of events (a session read from its file) reaches the window a
// frame's worth at a time, in order, and deltas still merge.
func TestSurfaceTakesAFrameAtATime(t *testing.T) {
	s := newSurface(nil, nil)
	s.show("x")
	n := frameEvents*2 + 10
	for i := range n {
		s.Show(app.Event{Session: "x", Kind: app.EvNotice, Text: fmt.Sprint(i)})
	}
	s.Show(app.Event{Session: "x", Kind: app.EvText, BlockID: "b", Text: "he"})
	s.Show(app.Event{Session: "x", Kind: app.EvText, BlockID: "b", Text: "llo"})
	var got []app.Event
	for frames := 1; ; frames++ {
		batch := s.takeUpTo(frameEvents)
		if len(batch) == 0 {
			break
		}
		if len(batch) > frameEvents {
			t.Fatalf("a frame took %d events", len(batch))
		}
		got = append(got, batch...)
		if frames == 1 {
			// Deltas that arrive now merge into the queued one.
			s.Show(app.Event{Session: "x", Kind: app.EvText, BlockID: "b", Text: "!"})
		}
	}
	if len(got) != n+1 {
		t.Fatalf("%d events in all, want %d", len(got), n+1)
	}
	for i := range n {
		if got[i].Text != fmt.Sprint(i) {
			t.Fatalf("event %d is %q: out of order", i, got[i].Text)
		}
	}
	if last := got[n]; last.Text != "hello!" {
		t.Errorf("the merged delta is %q, want hello!", last.Text)
	}
}

// blockingHist reads a session file until it is told to stop.
type blockingHist struct {
	*fakeRunner
	stopped chan error
}

func (r *blockingHist) Continue(ctx context.Context, _, _ string) error {
	<-ctx.Done()
	r.stopped <- ctx.Err()
	return ctx.Err()
}

// Closing a tab while its session file is read stops the reading.
func TestCloseTabStopsReading(t *testing.T) {
	th, l, _ := newHistoryHarness(t)
	stopped := make(chan error, 1)
	th.mw.opts.NewRunner = func(_ string, s app.Surface) (Runner, error) {
		return &blockingHist{fakeRunner: &fakeRunner{id: "session-b", surf: s}, stopped: stopped}, nil
	}
	mw := th.mw
	mw.openSession(l.items[0])
	loading := mw.tab
	mw.newSession()
	mw.closeTab(loading)
	select {
	case err := <-stopped:
		if err == nil {
			t.Error("the reading ended without being stopped")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("closing the tab did not stop the reading of its session file")
	}
}
