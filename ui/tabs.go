package ui

import (
	"path/filepath"
	"slices"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

// tab is one session the window holds: its folder, transcript, status and
// questions, and the Runner (with its CLI process) behind them. The window
// shows one tab at a time (mainWindow embeds the shown one); the others go
// on receiving their session's events, and a question of theirs waits
// until the tab is shown.
type tab struct {
	mw   *mainWindow
	tr   *transcript
	surf *surface
	item *container.TabItem
	// emptyHint is shown over an empty transcript.
	emptyHint fyne.CanvasObject

	// UI goroutine only.
	workdir  string
	running  bool // the session's last status says a turn is under way
	sending  bool // a prompt is on its way to the session
	status   app.Status
	lastTurn *app.TurnInfo
	// trustWarned is the CLI's trust warning last shown in the transcript
	// (each is shown once); recent, the session's last tool calls
	// (Permissions' "Pick a call…").
	trustWarned string
	recent      []app.ToolCall
	// title is the session's title (the history's, else the first prompt);
	// resume, the CLI session it continues ("" for a new one).
	title  string
	resume string
	// waiting are the questions raised while the tab was not shown, in
	// the order asked; attention marks the tab until it is shown.
	waiting   []*pending
	attention bool
	// loading is set while the session file is read into the transcript;
	// stopLoad stops the reading.
	loading  bool
	stopLoad func()
	// draft is the prompt box's text while another tab is shown.
	draft string

	mu     sync.Mutex // guards runner, released and model
	runner Runner
	// model is the model chosen before the tab had a session.
	model string
	// released counts the sessions the tab has let go (closeRunner): a
	// session that was starting meanwhile is for a folder the tab left,
	// so it is closed, never shown.
	released int
}

// newTab makes a tab on workdir; the caller adds it to the window.
func (mw *mainWindow) newTab(workdir string) *tab {
	t := &tab{mw: mw, workdir: workdir}
	prefs := mw.settings().Prefs()
	t.status.Prompts = prefs.Prompts
	t.status.DangerousSkip = prefs.DangerousSkip
	t.surf = newSurface(mw, t)
	t.tr = newTranscript()
	t.tr.actions = rowActions{openLink: mw.confirmLink, grantLater: mw.grantLater, undo: mw.undoGrant, retry: mw.retryTurn}
	t.tr.copy = func(s string) { mw.app.Clipboard().SetContent(s) }
	newListFocus(t.tr.list, t.tr.actionable, mw.focusPrompt)
	hint := widget.NewLabel("Type a prompt below and press Ctrl+Enter.\nClaude works in the folder above; anything it is refused shows up here, ready to grant.\nEarlier sessions in this folder: Ctrl+B.")
	hint.Alignment = fyne.TextAlignCenter
	hint.Importance = widget.LowImportance
	t.emptyHint = container.NewCenter(hint)
	t.item = container.NewTabItem(t.label(), container.NewStack(t.tr.list, t.emptyHint))
	if mw.pumping {
		go t.surf.pump()
	}
	return t
}

// tabLabelMax is the most runes of a session title a tab shows.
const tabLabelMax = 28

// label is the tab's text: the folder's name, the session's title, and a
// mark while something waits there.
func (t *tab) label() string {
	s := "(no folder)"
	if t.workdir != "" {
		s = clipEnd(app.VisibleLine(filepath.Base(t.workdir)), noticeName)
	}
	if t.title != "" {
		s += " · " + clipEnd(app.VisibleLine(t.title), tabLabelMax)
	}
	if t.attention {
		s = "● " + s
	}
	return s
}

// relabel shows the tab's label again after its folder, title or mark
// changed.
func (t *tab) relabel() {
	if l := t.label(); l != t.item.Text {
		t.item.Text = l
		if t.mw.tabs != nil {
			t.mw.tabs.Refresh()
		}
	}
}

// empty reports whether the tab holds nothing yet: no session, no rows.
func (t *tab) empty() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.runner == nil && len(t.tr.entries) == 0 && !t.loading
}

// addTab adds t to the window and shows it.
func (mw *mainWindow) addTab(t *tab) {
	mw.all = append(mw.all, t)
	mw.tabs.Append(t.item)
	mw.showTab(t)
}

// showTab makes t the shown tab: the folder bar, transcript, prompt and
// status line are its, and the questions that waited there are put.
func (mw *mainWindow) showTab(t *tab) {
	if t == nil {
		return
	}
	if mw.tabs.Selected() != t.item {
		mw.selecting = true
		mw.tabs.Select(t.item)
		mw.selecting = false
	}
	if t == mw.tab {
		return
	}
	if mw.modals.active() {
		// A dialog of the shown tab is up: it is answered first.
		mw.selecting = true
		mw.tabs.Select(mw.tab.item)
		mw.selecting = false
		return
	}
	if mw.tab != nil {
		mw.tab.draft = mw.prompt.Text
	}
	mw.tab = t
	mw.prompt.SetText(t.draft)
	t.attention = false
	t.relabel()
	mw.modeSel.modes = nil
	mw.modeSel.fetch()
	mw.models.fetch()
	mw.findReset()
	t.surf.flush()
	mw.refresh()
	if mw.perms != nil {
		mw.perms.load() // this tab's session and folder
	}
	mw.historyRefresh()
	waiting := t.waiting
	t.waiting = nil
	for _, p := range waiting {
		mw.modals.push(p)
	}
	mw.focusPrompt()
}

// tabOf returns the tab showing item.
func (mw *mainWindow) tabOf(item *container.TabItem) *tab {
	for _, t := range mw.all {
		if t.item == item {
			return t
		}
	}
	return nil
}

// newSession opens a new tab in the shown tab's folder (Ctrl+N); the
// first prompt there starts a new session.
func (mw *mainWindow) newSession() {
	if mw.modals.active() {
		return
	}
	mw.addTab(mw.newTab(mw.workdir))
}

// cycleTab shows the next (dir 1) or previous (dir -1) tab, round.
func (mw *mainWindow) cycleTab(dir int) {
	n := len(mw.all)
	if n < 2 {
		return
	}
	i := slices.Index(mw.all, mw.tab)
	mw.showTab(mw.all[((i+dir)%n+n)%n])
}

// closeTab ends t's session and takes the tab away (Ctrl+W, its close
// button). The last tab is replaced by an empty one in the same folder:
// the window always has a prompt.
func (mw *mainWindow) closeTab(t *tab) {
	if t == nil || (t == mw.tab && mw.modals.active()) {
		return
	}
	i := slices.Index(mw.all, t)
	if i < 0 {
		return
	}
	if len(mw.all) == 1 {
		mw.addTab(mw.newTab(t.workdir))
		i = slices.Index(mw.all, t)
	}
	if t == mw.tab {
		next := mw.all[max(i-1, 0)]
		if next == t {
			next = mw.all[i+1]
		}
		mw.showTab(next)
	}
	mw.all = slices.Delete(mw.all, i, i+1)
	mw.tabs.Remove(t.item)
	t.end()
	mw.historyRefresh()
}

// end stops the tab's events and questions and ends its session.
func (t *tab) end() {
	if t.stopLoad != nil {
		t.stopLoad()
	}
	t.surf.retire()
	for _, p := range t.waiting {
		p.over = true
		p.ch <- app.Decision{}
	}
	t.waiting = nil
	t.surf.close()
	if r := t.closeRunner(); r != nil {
		go r.Close()
	}
}

// sessionIDs are the CLI sessions open in tabs, for the history's marks.
func (mw *mainWindow) sessionIDs() map[string]bool {
	ids := map[string]bool{}
	for _, t := range mw.all {
		if id := t.sessionID(); id != "" {
			ids[id] = true
		}
	}
	return ids
}

// sessionID is the CLI session the tab shows: the one it continues, or
// the one its session runs.
func (t *tab) sessionID() string {
	if t.status.SessionID != "" {
		return t.status.SessionID
	}
	return t.resume
}
