package ui

import (
	"context"
	"time"

	"github.com/latch-app/latch/app"
)

// SessionLister lists the sessions Claude Code kept for a folder, newest
// first; *app.History is one. It reads files: the window calls it off the
// UI goroutine.
type SessionLister interface {
	List(workdir string) ([]app.SessionSummary, error)
}

// historian is a Runner that can continue a session Claude Code kept;
// *app.Session is one. Continue shows the session file's transcript
// through the Surface and makes the next prompt resume the session; it
// reads the whole file, so it is called off the UI goroutine.
type historian interface {
	Continue(ctx context.Context, id, path string) error
}

// historyEvery is how often the open history sidebar lists the folder
// again, so a session started elsewhere (a terminal) appears.
const historyEvery = 2 * time.Second

// toggleHistory shows or hides the history sidebar (Ctrl+B).
func (mw *mainWindow) toggleHistory() {
	if mw.sessionsBox.Visible() {
		mw.sessionsBox.Hide()
		if mw.historyTimer != nil {
			mw.historyTimer.Stop()
			mw.historyTimer = nil
		}
		mw.focusPrompt()
		return
	}
	mw.sessionsBox.Show()
	if q := mw.find.query(); mw.find.object().Visible() {
		mw.sessions.setFilter(q)
	}
	mw.historyRefresh()
	mw.sessions.focus(mw.win.Canvas())
}

// historyRefresh lists the shown tab's folder again, off the UI goroutine,
// while the sidebar is open, and then every historyEvery.
func (mw *mainWindow) historyRefresh() {
	if mw.sessionsBox == nil || !mw.sessionsBox.Visible() {
		return
	}
	if mw.historyTimer != nil {
		mw.historyTimer.Stop()
	}
	mw.historyTimer = time.AfterFunc(historyEvery, func() { mw.do(mw.historyRefresh) })
	if mw.opts.Sessions == nil {
		mw.sessions.setError("Latch was started without a way to list sessions.")
		return
	}
	if mw.listing {
		mw.listAgain = true
		return
	}
	dir := mw.workdir
	if dir == "" {
		mw.sessions.set("", nil)
		return
	}
	mw.listing = true
	go func() {
		items, err := mw.opts.Sessions.List(dir)
		mw.do(func() {
			mw.listing = false
			if again := mw.listAgain; again || dir != mw.workdir {
				mw.listAgain = false
				mw.historyRefresh()
				return
			}
			if err != nil {
				mw.sessions.setError("The sessions of this folder could not be listed: " + app.Visible(err.Error()))
				return
			}
			mw.sessions.set(dir, items)
			mw.sessions.setOpen(mw.sessionIDs())
		})
	}()
}

// openSession shows a session of the history: the tab that has it, else
// the shown tab when it is still empty, else a new tab. Its transcript is
// read from the session file off the UI goroutine, and the next prompt
// continues it (--resume).
func (mw *mainWindow) openSession(s app.SessionSummary) {
	if mw.modals.active() {
		return
	}
	for _, t := range mw.all {
		if t.sessionID() == s.ID {
			mw.showTab(t)
			mw.prompt.eatSpace = true // Space on the history's row opened it
			return
		}
	}
	t := mw.tab
	if !t.empty() || t.sending {
		t = mw.newTab(mw.workdir)
		mw.addTab(t)
	}
	t.title, t.resume, t.loading = firstLine(s.Title), s.ID, true
	t.relabel()
	mw.refresh()
	mw.sessions.setOpen(mw.sessionIDs())
	dir := t.workdir
	ctx, cancel := context.WithCancel(context.Background())
	t.stopLoad = cancel // closing the tab stops the reading
	go func() {
		defer cancel()
		r, err := t.runnerFor(dir)
		if err == nil {
			if h, ok := r.(historian); ok {
				err = h.Continue(ctx, s.ID, s.Path)
			}
		}
		if ctx.Err() != nil {
			return // the tab was closed
		}
		if err != nil {
			t.surf.Show(app.Event{Kind: app.EvError, Err: &app.ErrorInfo{
				Title: "The session could not be opened", Detail: app.Visible(err.Error())}})
		}
		mw.do(func() {
			t.surf.flush()
			t.loading = false
			if t == mw.tab {
				t.tr.list.ScrollToBottom()
				mw.refresh()
				mw.focusPrompt()
			}
		})
	}()
}

// findOpen shows the find bar (Ctrl+F): it searches the shown transcript,
// and the history's titles while the sidebar is open.
func (mw *mainWindow) findOpen() {
	if mw.modals.active() {
		return
	}
	mw.find.open(mw.win.Canvas())
	mw.findQuery(mw.find.query())
}

func (mw *mainWindow) findQuery(q string) {
	mw.find.setResult(mw.found.search(mw.tr, q))
	if mw.sessionsBox.Visible() {
		mw.sessions.setFilter(q)
	}
}

// findStep goes to the next match (Enter) or the one before (Shift+Enter),
// round; rows that arrived since are searched too.
func (mw *mainWindow) findStep(back bool) {
	mw.find.setResult(mw.found.step(mw.tr, back))
}

func (mw *mainWindow) findClose() {
	mw.found.clear(mw.tr)
	mw.find.close()
	mw.sessions.setFilter("")
	mw.focusPrompt()
}

// findReset searches the shown tab again after a switch, when the find
// bar is open.
func (mw *mainWindow) findReset() {
	if mw.find == nil || !mw.find.object().Visible() {
		return
	}
	for _, t := range mw.all {
		if t != mw.tab {
			t.tr.showMatch(-1)
		}
	}
	mw.found = findState{}
	mw.findQuery(mw.find.query())
}
