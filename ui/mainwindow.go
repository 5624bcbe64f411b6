package ui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

// windowTitle is the main window's title, always.
const windowTitle = "Latch"

// mainWindow is Latch's one main window: the working folder, the
// transcript, the prompt box and the status line.
type mainWindow struct {
	app  fyne.App
	win  fyne.Window
	opts Options
	// do runs f on the UI goroutine (fyne.Do; tests drive it themselves).
	do func(f func())

	prompt    *promptEntry
	sendBtn   *kButton
	stopBtn   *kButton
	folderLbl *widget.Label
	folderFit *fitLabel // the folder, its middle elided when long
	changeBtn *kButton
	statusLbl *widget.Label
	statusFit *fitLabel     // the status line, its less important parts dropped when narrow
	flashLbl  *widget.Label // "Copied", for a moment
	flashes   int           // flashes shown; only the last one's timer hides it
	dangerBg  *canvas.Rectangle
	dangerLbl *widget.Label // red: permission checks are off, whoever turned them off
	modeLbl   *widget.Label // any other permission mode than the default
	modeBar   *fyne.Container
	modeSel   *modeSelector  // the status line's permission mode
	models    *modelSelector // the status line's model
	trustBtn  *kButton       // "Folder not trusted", when Claude Code does not trust it
	modals    modalQueue
	prefs     *prefsWindow
	perms     *permsWindow
	history   *auditWindow

	// The tabs: the shown one is embedded, so mw.tr, mw.status, mw.runner
	// … are the shown session's. UI goroutine only.
	*tab
	all       []*tab
	tabs      *container.DocTabs
	selecting bool // the window itself selects a tab: not the person
	pumping   bool // Run started the event pumps: a new tab starts its own

	// The history sidebar and the find bar.
	sessions     *historyPanel
	sessionsBox  fyne.CanvasObject
	find         *findBar
	found        findState // the find bar's matches in the shown transcript
	listing      bool      // the history is being listed off the UI goroutine
	listAgain    bool
	historyTimer *time.Timer

	foreground bool
	// closed is closed when the window is gone: nothing more runs on the
	// UI goroutine for it.
	closed    chan struct{}
	closeOnce sync.Once
}

// newMainWindow builds the window on a (a real app or fyne.io/fyne/v2/test's);
// do runs a function on the UI goroutine (fyne.Do). Run starts its event
// pump and shows it.
func newMainWindow(a fyne.App, opts Options, do func(func())) *mainWindow {
	mw := &mainWindow{app: a, opts: opts, foreground: true, closed: make(chan struct{})}
	mw.do = func(f func()) {
		select {
		case <-mw.closed:
		default:
			do(f)
		}
	}
	mw.win = a.NewWindow(windowTitle)
	mw.modals.win = mw.win
	mw.modals.onShow = mw.questionShown
	mw.modals.onEmpty = func() {
		mw.focusPrompt()
		mw.prompt.eatSpace = true
	}
	prefs := mw.settings().Prefs() // as loaded at start; window.go reports a malformed file
	a.Settings().SetTheme(themeFor(prefs.Theme))
	mw.build()
	a.Settings().AddListener(func(fyne.Settings) { mw.themeChanged() })
	mw.models.fetch()
	mw.setupKeys() // focus.go: the transcript in the Tab order, scrolling keys
	mw.win.SetMainMenu(mw.menu())
	mw.win.Resize(fyne.NewSize(980, 720))
	if opts.AuditErrors != nil {
		go mw.auditFailed(mw.tab, opts.AuditErrors)
	}
	if opts.Notice != "" {
		mw.tr.addNotice(opts.Notice)
	}
	mw.refresh()
	return mw
}

// close ends the window's work: no more UI updates, every tab's session
// ended. Run calls it after the window closed.
func (mw *mainWindow) close() []Runner {
	mw.closeOnce.Do(func() { close(mw.closed) })
	var rs []Runner
	for _, t := range mw.all {
		t.surf.close()
		if r := t.closeRunner(); r != nil {
			rs = append(rs, r)
		}
	}
	return rs
}

func (mw *mainWindow) build() {
	mw.prompt = newPromptEntry(mw.send)
	mw.prompt.onEscape = func() {
		if mw.running {
			mw.stop()
		}
	}
	mw.prompt.SetPlaceHolder("Ask Claude to do something in this folder…   (Ctrl+Enter sends, Esc stops)")
	mw.prompt.SetMinRowsVisible(3)
	// The window's buttons pass the transcript's scroll keys on.
	keys := windowKeys{mw}
	mw.sendBtn = newKButton("Send", theme.MailSendIcon(), keys, mw.send)
	mw.sendBtn.Importance = widget.HighImportance
	mw.stopBtn = newKButton("Stop", theme.MediaStopIcon(), keys, mw.stop)
	mw.stopBtn.Disable()

	mw.folderLbl = widget.NewLabel("")
	mw.folderLbl.TextStyle.Monospace = true
	mw.folderLbl.Truncation = fyne.TextTruncateEllipsis
	mw.folderFit = newFitLabel(mw.folderLbl, func(fits func(string) bool) string {
		if mw.workdir == "" {
			return "(none — choose one)"
		}
		return elidePath(mw.workdir, fits)
	})
	mw.changeBtn = newKButton("Change folder…", theme.FolderOpenIcon(), keys, mw.pickFolder)
	mw.trustBtn = newKButton("Folder not trusted", theme.WarningIcon(), keys, mw.showPermissions)
	mw.trustBtn.Importance = widget.WarningImportance
	mw.trustBtn.Hide()
	folderBar := container.NewBorder(nil, nil,
		container.NewHBox(widget.NewIcon(theme.FolderIcon()), caption("Working folder")),
		container.NewHBox(mw.trustBtn, mw.changeBtn), mw.folderFit)

	mw.statusLbl = widget.NewLabel("")
	mw.statusLbl.SizeName = theme.SizeNameCaptionText
	mw.statusLbl.Truncation = fyne.TextTruncateEllipsis
	mw.statusFit = newFitLabel(mw.statusLbl, func(fits func(string) bool) string {
		return firstFit(statusTexts(mw.status, mw.lastTurn), fits)
	})
	mw.flashLbl = widget.NewLabel("")
	mw.flashLbl.SizeName = theme.SizeNameCaptionText
	mw.flashLbl.TextStyle.Bold = true
	mw.flashLbl.Hide()
	mw.dangerLbl = widget.NewLabel("")
	mw.dangerLbl.Importance = widget.DangerImportance
	mw.dangerLbl.TextStyle.Bold = true
	mw.dangerLbl.Wrapping = fyne.TextWrapWord
	mw.dangerLbl.Hide()
	mw.modeLbl = widget.NewLabel("")
	mw.modeLbl.Importance = widget.WarningImportance
	mw.modeLbl.TextStyle.Bold = true
	mw.modeLbl.Wrapping = fyne.TextWrapWord
	mw.modeLbl.Hide()
	// The wrappers are shown and hidden with their labels, so a default
	// mode takes no room at all.
	mw.dangerBg = canvas.NewRectangle(tint(theme.ColorNameError, tintDanger))
	mw.modeBar = container.NewVBox(
		container.NewStack(mw.dangerBg, container.NewPadded(mw.dangerLbl)),
		container.NewPadded(mw.modeLbl))
	mw.modeBar.Objects[0].Hide()
	mw.modeBar.Objects[1].Hide()
	mw.modeBar.Hide()

	buttons := container.NewVBox(mw.sendBtn, mw.stopBtn)
	promptRow := container.NewBorder(nil, nil, nil, buttons, mw.prompt)
	mw.modeSel = newModeSelector(mw)
	mw.models = newModelSelector(mw)
	statusBar := container.NewBorder(nil, nil, nil, container.NewHBox(mw.flashLbl, mw.models.box, mw.modeSel.box), mw.statusFit)
	bottom := container.NewVBox(widget.NewSeparator(), container.NewPadded(promptRow), statusBar)
	top := container.NewVBox(container.NewPadded(folderBar), mw.modeBar, widget.NewSeparator())

	// The sessions, one tab each; the first is the folder Latch opened on.
	mw.tabs = container.NewDocTabs()
	mw.tabs.CreateTab = func() *container.TabItem {
		mw.newSession()
		return nil // newSession added it
	}
	mw.tabs.CloseIntercept = func(item *container.TabItem) { mw.closeTab(mw.tabOf(item)) }
	mw.tabs.OnSelected = func(item *container.TabItem) {
		if !mw.selecting {
			mw.showTab(mw.tabOf(item))
		}
	}
	first := mw.newTab(mw.opts.Workdir)
	mw.all = []*tab{first}
	mw.tabs.SetItems([]*container.TabItem{first.item})
	mw.tab = first

	mw.find = newFindBar(mw.findQuery, mw.findStep, mw.findClose)
	mw.sessions = newHistoryPanel(mw.openSession, mw.newSession)
	mw.sessions.onEscape = mw.focusPrompt
	center := container.NewBorder(mw.find.object(), nil, nil, nil, mw.tabs)
	mw.sessionsBox = mw.sessions.object()
	mw.sessionsBox.Hide()
	mw.win.SetContent(container.NewBorder(top, bottom, mw.sessionsBox, nil, center))
}

func (mw *mainWindow) menu() *fyne.MainMenu {
	folder := fyne.NewMenuItem("Change Folder…", mw.pickFolder)
	folder.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyO, Modifier: fyne.KeyModifierShortcutDefault}
	prefs := fyne.NewMenuItem("Preferences…", mw.showPrefs)
	prefs.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyComma, Modifier: fyne.KeyModifierShortcutDefault}
	perms := fyne.NewMenuItem("Permissions…", mw.showPermissions)
	perms.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyP, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}
	history := fyne.NewMenuItem("Permission History…", mw.showHistory)
	history.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyH, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}
	quit := fyne.NewMenuItem("Quit", func() { fyne.CurrentApp().Quit() })
	quit.IsQuit = true
	quit.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyQ, Modifier: fyne.KeyModifierShortcutDefault}
	copyAnswer := fyne.NewMenuItem("Copy Last Answer", mw.copyLastAnswer)
	copyAnswer.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyC, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}
	newSess := fyne.NewMenuItem("New Session", mw.newSession)
	newSess.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyN, Modifier: fyne.KeyModifierShortcutDefault}
	closeTab := fyne.NewMenuItem("Close Tab", func() { mw.closeTab(mw.tab) })
	closeTab.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyW, Modifier: fyne.KeyModifierShortcutDefault}
	find := fyne.NewMenuItem("Find…", mw.findOpen)
	find.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyF, Modifier: fyne.KeyModifierShortcutDefault}
	sidebar := fyne.NewMenuItem("Session History", mw.toggleHistory)
	sidebar.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyB, Modifier: fyne.KeyModifierShortcutDefault}
	next := fyne.NewMenuItem("Next Tab", func() { mw.cycleTab(1) })
	next.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyTab, Modifier: fyne.KeyModifierControl}
	prev := fyne.NewMenuItem("Previous Tab", func() { mw.cycleTab(-1) })
	prev.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyTab, Modifier: fyne.KeyModifierControl | fyne.KeyModifierShift}
	return fyne.NewMainMenu(
		fyne.NewMenu("File", newSess, folder, closeTab, fyne.NewMenuItemSeparator(), prefs, perms, history, fyne.NewMenuItemSeparator(), quit),
		fyne.NewMenu("Edit", copyAnswer, find),
		fyne.NewMenu("View", sidebar, next, prev))
}

// copyLastAnswer puts Claude's last answer on the clipboard, as markdown,
// and says so beside the status line for a moment.
func (mw *mainWindow) copyLastAnswer() {
	text := mw.tr.lastAnswer()
	if text == "" {
		mw.flash("No answer to copy yet", copiedFor)
		return
	}
	mw.app.Clipboard().SetContent(text)
	mw.flash("Copied", copiedFor)
}

// themeChanged shows the rows in view, and the tints made outside them,
// in the new theme's colours (Fyne has refreshed the widgets).
func (mw *mainWindow) themeChanged() {
	if fill := tint(theme.ColorNameError, tintDanger); fill != mw.dangerBg.FillColor {
		mw.dangerBg.FillColor = fill
		mw.dangerBg.Refresh()
	}
	mw.modeSel.bg.FillColor = theme.Color(theme.ColorNameError)
	mw.modeSel.bg.Refresh()
	// Rebinding a row takes the theme's colours again (tool cards, tints).
	for id := range mw.tr.list.visible {
		mw.tr.list.RefreshItem(id)
	}
	mw.tr.list.Sync()
}

// refresh brings the folder bar, buttons and status line up to date.
func (mw *mainWindow) refresh() {
	mw.folderFit.update()
	if mw.running || mw.sending {
		mw.sendBtn.Disable()
	} else {
		mw.sendBtn.Enable()
	}
	if mw.running {
		mw.stopBtn.Enable()
	} else {
		mw.stopBtn.Disable()
	}
	mw.statusFit.update()
	mw.modeSel.update()
	mw.models.update()
	if mw.status.Untrusted && mw.workdir != "" {
		mw.trustBtn.Show()
	} else {
		mw.trustBtn.Hide()
	}
	text, danger := modeBanner(mw.status)
	switch {
	case danger:
		mw.dangerLbl.SetText(text)
		mw.dangerLbl.Show()
		mw.modeLbl.Hide()
	case text != "":
		mw.modeLbl.SetText(text)
		mw.modeLbl.Show()
		mw.dangerLbl.Hide()
	default:
		mw.dangerLbl.Hide()
		mw.modeLbl.Hide()
	}
	for i, l := range []*widget.Label{mw.dangerLbl, mw.modeLbl} {
		if l.Visible() {
			mw.modeBar.Objects[i].Show()
		} else {
			mw.modeBar.Objects[i].Hide()
		}
	}
	if mw.dangerLbl.Visible() || mw.modeLbl.Visible() {
		mw.modeBar.Show()
	} else {
		mw.modeBar.Hide()
	}
	if len(mw.tr.entries) > 0 {
		mw.emptyHint.Hide()
	} else {
		mw.emptyHint.Show()
	}
}

// modeBanner says what the permission mode the CLI reports means, or ""
// for the default; danger is set when permission checks are off. The mode
// the CLI reports is believed over Latch's own setting, since a settings
// file (defaultMode) or a flag may have changed it.
func modeBanner(st app.Status) (text string, danger bool) {
	switch st.PermissionMode {
	case "bypassPermissions":
		if st.DangerousSkip {
			return "PERMISSION CHECKS OFF: Claude Code runs every tool call without asking (dangerously skip permissions is on in Preferences).", true
		}
		return "PERMISSION CHECKS OFF: Claude Code reports bypassPermissions mode and runs every tool call without asking. Latch did not ask for it; check defaultMode in your settings files.", true
	case "dontAsk":
		return "Mode “don't ask”: every call that no rule allows is refused without a question.", false
	case "acceptEdits":
		return "Mode “accept edits”: file edits in the working folders run without asking.", false
	case "plan":
		return "Mode “plan”: Claude plans and does not change files.", false
	case "auto":
		return "Mode “auto”: Claude Code decides itself which calls to run without asking.", false
	case "", "default":
		if st.DangerousSkip {
			return "PERMISSION CHECKS OFF (dangerously skip permissions is on in Preferences).", true
		}
		return "", false
	}
	return "Permission mode “" + app.VisibleLine(st.PermissionMode) + "” (unknown to Latch).", false
}

// applyTo shows a batch of t's events: in the window when t is shown,
// else in t alone, which is marked when its turn ends. UI goroutine only.
func (mw *mainWindow) applyTo(t *tab, batch []app.Event) {
	turnEnded, statusChanged := false, false
	for _, ev := range batch {
		switch ev.Kind {
		case app.EvStatus:
			if ev.Status != nil {
				t.status = *ev.Status
				if ev.Status.Workdir != "" && t.workdir == "" {
					t.workdir = ev.Status.Workdir
				}
				switch ev.Status.State {
				case app.Idle, app.Closed:
					t.running = false
				default:
					t.running = true
				}
				if w := ev.Status.TrustWarning; w != "" && w != t.trustWarned {
					t.trustWarned = w
					t.tr.addNotice("Claude Code: " + app.Visible(w))
				}
				statusChanged = true
			}
		case app.EvPrompt:
			if t.title == "" && !ev.Auto {
				t.title = firstLine(ev.Text)
				t.relabel()
			}
		case app.EvToolCall, app.EvToolUpdate:
			if ev.Tool != nil {
				t.noteCall(*ev.Tool)
			}
		case app.EvTurnEnd:
			if ev.Turn != nil && !ev.Turn.Earlier { // a turn read from a file has no figures
				tu := *ev.Turn
				t.lastTurn = &tu
			}
			turnEnded = true
		}
		t.tr.apply(ev)
	}
	if t != mw.tab {
		if turnEnded && !t.loading {
			t.attention = true
			t.relabel()
			mw.notify(inFolder(turnWords(t.lastTurn), t.workdir))
		}
		return
	}
	if statusChanged {
		mw.modeSel.fetch()
		mw.models.fetch()
	}
	mw.tr.list.Sync()
	mw.refresh()
	if turnEnded && !t.loading {
		mw.focusPrompt()
		if !mw.foreground {
			mw.notify(turnWords(mw.lastTurn))
		}
	}
}

// turnWords says how a turn ended, for a notification.
func turnWords(t *app.TurnInfo) string {
	switch {
	case t != nil && t.Stopped:
		return "The turn was stopped."
	case t != nil && t.IsError:
		return "The turn failed."
	case t != nil && t.Denials > 0:
		return fmt.Sprintf("The turn finished with %s.", plural(t.Denials, "refused tool call", "refused tool calls"))
	}
	return "The turn finished."
}

// firstLine is the first non-empty line of s, for a tab's title.
func firstLine(s string) string {
	for s != "" {
		var l string
		l, s, _ = strings.Cut(s, "\n")
		if l = strings.TrimSpace(l); l != "" {
			return firstRunes(l, 200)
		}
	}
	return ""
}

// recentMax is how many of the shown session's tool calls Permissions
// offers to test ("Pick a call…").
const recentMax = 50

// noteCall keeps a tool call of the tab's session, or its full input.
func (mw *tab) noteCall(tc app.ToolCall) {
	if tc.ID != "" {
		for i := range mw.recent {
			if r := &mw.recent[i]; r.ID == tc.ID {
				if tc.Name != "" {
					r.Name = tc.Name
				}
				if tc.Summary != "" {
					r.Summary = tc.Summary
				}
				if tc.Input != "" {
					r.Input = tc.Input
				}
				return
			}
		}
	}
	mw.recent = append(mw.recent, app.ToolCall{ID: tc.ID, Name: tc.Name, Summary: tc.Summary, Input: tc.Input})
	if n := len(mw.recent); n > recentMax {
		mw.recent = append([]app.ToolCall(nil), mw.recent[n-recentMax:]...)
	}
}

func (mw *mainWindow) notify(msg string) {
	mw.app.SendNotification(fyne.NewNotification("Latch", notificationBody(msg)))
}

// questionShown tells the person, when the window is not in front, what
// the question just shown waits for and in which folder.
func (mw *mainWindow) questionShown(p *pending) {
	if !mw.foreground {
		mw.notify(inFolder(p.notice, mw.workdir))
	}
}

// questionWaits holds a question of a tab that is not shown until it is,
// marks the tab, and says what waits and where.
func (mw *mainWindow) questionWaits(t *tab, p *pending) {
	t.waiting = append(t.waiting, p)
	t.attention = true
	t.relabel()
	mw.notify(inFolder(p.notice, t.workdir))
}

// focusPrompt gives the prompt box the keyboard unless a dialog has it.
func (mw *mainWindow) focusPrompt() {
	if mw.modals.active() {
		return
	}
	mw.win.Canvas().Focus(mw.prompt)
}

// send starts a turn with the prompt box's text. The prompt row, "Running"
// and everything after come from the session's events; until Send returns
// the window only keeps a second prompt from racing the first. A prompt
// that could not be sent goes back into the box.
func (mw *mainWindow) send() {
	t := mw.tab
	text := strings.TrimSpace(mw.prompt.Text)
	if text == "" || t.running || t.sending || t.loading {
		return
	}
	if t.workdir == "" {
		t.tr.addError("Choose a working folder first", "Claude works inside one folder. Use “Change folder…” above.")
		t.tr.list.Sync()
		mw.refresh()
		return
	}
	mw.prompt.SetText("")
	t.tr.list.ScrollToBottom()
	t.sending = true
	mw.refresh()
	dir := t.workdir
	go func() {
		r, err := t.runnerFor(dir)
		if err == nil {
			err = r.Send(text)
		}
		if err != nil {
			t.surf.Show(app.Event{Kind: app.EvError, Err: &app.ErrorInfo{
				Title: "Claude Code could not start", Detail: err.Error()}})
		}
		mw.do(func() {
			// What the session said while Send ran (Running, the prompt)
			// is applied before Send is enabled again.
			t.surf.flush()
			t.sending = false
			if t != mw.tab {
				if err != nil && t.draft == "" {
					t.draft = text
				}
				return
			}
			if err != nil && mw.prompt.Text == "" {
				mw.prompt.SetText(text)
			}
			mw.refresh()
			if err != nil {
				mw.focusPrompt()
			}
		})
	}()
}

// runnerFor returns the tab's session for dir, starting one if there is
// none (continuing t.resume, when set). Starting one reads the config,
// which can wait on the config's lock: that happens outside t.mu, which
// the UI goroutine takes.
func (t *tab) runnerFor(dir string) (Runner, error) {
	t.mu.Lock()
	r, released := t.runner, t.released
	t.mu.Unlock()
	if r != nil {
		return r, nil
	}
	mw := t.mw
	if mw.opts.NewRunner == nil {
		return nil, fmt.Errorf("no way to start Claude Code was configured")
	}
	r, err := mw.opts.NewRunner(dir, t.surf)
	if err != nil {
		return nil, err
	}
	t.mu.Lock()
	if t.released != released {
		t.mu.Unlock()
		go r.Close()
		return nil, fmt.Errorf("the working folder changed before Claude Code started; send the prompt again")
	}
	if t.runner != nil { // another start won the race: use that one
		other := t.runner
		t.mu.Unlock()
		go r.Close()
		return other, nil
	}
	t.runner = r
	t.surf.show(r.ID())
	model := t.model
	t.mu.Unlock()
	if md, ok := r.(modeler); ok && model != "" {
		// Chosen before the session existed: its first process gets it.
		if _, err := md.SetModel(context.Background(), model); err != nil {
			t.surf.Show(app.Event{Kind: app.EvError, Err: &app.ErrorInfo{Title: "The model was not switched", Detail: app.Visible(err.Error())}})
		}
	}
	return r, nil
}

// runnerFor is the shown tab's (runnerFor of tab).
func (mw *mainWindow) runnerFor(dir string) (Runner, error) { return mw.tab.runnerFor(dir) }

// retryTurn sends the last prompt again (Retry on the card of a failed
// turn), off the UI goroutine, as send does.
func (mw *mainWindow) retryTurn() {
	t := mw.tab
	if t.running || t.sending {
		return
	}
	t.mu.Lock()
	r, ok := t.runner.(promptRetrier)
	t.mu.Unlock()
	if !ok {
		return
	}
	t.sending = true
	t.tr.list.ScrollToBottom()
	mw.refresh()
	go func() {
		err := r.Retry()
		if err != nil {
			t.surf.Show(app.Event{Kind: app.EvError, Err: &app.ErrorInfo{
				Title: "The prompt could not be sent again", Detail: err.Error()}})
		}
		mw.do(func() {
			t.surf.flush()
			t.sending = false
			if t == mw.tab {
				mw.refresh()
				mw.focusPrompt()
			}
		})
	}()
}

func (mw *mainWindow) stop() {
	mw.mu.Lock()
	r := mw.runner
	mw.mu.Unlock()
	if r != nil {
		go r.Stop()
	}
}

// undoGrant takes a grant back (the Undo of its transcript row).
func (mw *mainWindow) undoGrant(id string) {
	mw.withGranter(func(g granter) error { return g.Undo(id) })
}

// grantLater offers the grant dialog for a refused call (Grant… on its card).
func (mw *mainWindow) grantLater(toolUseID string) {
	mw.withGranter(func(g granter) error { return g.GrantLater(toolUseID) })
}

// withGranter runs f off the UI goroutine on the shown session, if it is
// one; a failure shows in its transcript.
func (mw *mainWindow) withGranter(f func(granter) error) {
	t := mw.tab
	t.mu.Lock()
	g, ok := t.runner.(granter)
	t.mu.Unlock()
	if !ok {
		return
	}
	go func() {
		if err := f(g); err != nil {
			t.surf.Show(app.Event{Kind: app.EvError, Err: &app.ErrorInfo{Title: "That could not be done", Detail: err.Error()}})
		}
	}()
}

// reloadRunner asks every tab's session, if it can, to take up saved
// settings.
func (mw *mainWindow) reloadRunner() {
	for _, t := range mw.all {
		t.mu.Lock()
		r, ok := t.runner.(reloader)
		t.mu.Unlock()
		if !ok {
			continue
		}
		go func() {
			if err := r.Reload(); err != nil {
				t.surf.Show(app.Event{Kind: app.EvError, Err: &app.ErrorInfo{
					Title: "The new settings could not be applied", Detail: err.Error()}})
			}
		}()
	}
}

// closeRunner lets the tab's session go, if any; the next prompt starts a
// new one.
func (t *tab) closeRunner() Runner {
	t.mu.Lock()
	r := t.runner
	t.runner = nil
	t.released++
	t.mu.Unlock()
	return r
}

func (mw *mainWindow) pickFolder() {
	mw.chooseFolder(mw.workdir, mw.setFolder)
}

// setFolder makes dir the shown tab's working folder; its session, if
// any, ends and the next prompt starts a new one there.
func (mw *mainWindow) setFolder(dir string) {
	t := mw.tab
	if dir == "" || dir == t.workdir {
		return
	}
	t.workdir = dir
	// The old session's events stop here; what it queued before is shown,
	// and then the tab's state is the new folder's, whatever the old
	// session still does while it closes.
	t.surf.retire()
	t.surf.flush()
	if r := t.closeRunner(); r != nil {
		go r.Close()
	}
	t.running = false
	t.status.SessionID, t.status.State = "", app.Idle
	t.status.PermissionMode, t.status.Untrusted, t.status.TrustWarning = "", false, ""
	t.status.Model = ""
	t.lastTurn = nil
	t.recent = nil
	t.title, t.resume = "", ""
	t.relabel()
	mw.modeSel.modes = nil
	if mw.perms != nil {
		mw.perms.load() // the new folder's
	}
	t.tr.addNotice("Working folder is now " + dir + ". The next prompt starts a new session there.")
	t.tr.list.Sync()
	mw.refresh()
	mw.historyRefresh()
	mw.focusPrompt()
}

// auditFailed shows the audit log's first write error in the transcript
// of t, the window's first tab; the log reports only one.
func (mw *mainWindow) auditFailed(t *tab, errs <-chan error) {
	err, ok := <-errs
	if !ok {
		return
	}
	t.surf.Show(app.Event{Kind: app.EvError, Err: &app.ErrorInfo{
		Title:  "The permission history cannot be written",
		Detail: app.Visible(err.Error()) + "\nLatch goes on working; asks, answers and grants are not recorded until the log can be written again.",
	}})
}

// windowKeys is the keySink of the main window's own buttons: the
// transcript's scroll keys (PgUp/PgDn/Home/End) reach the transcript from
// them as from anywhere outside a text field.
type windowKeys struct{ mw *mainWindow }

func (k windowKeys) key(ev *fyne.KeyEvent) bool { return k.mw.scrollKey(ev) }
func (k windowKeys) rune(rune) bool             { return false }
