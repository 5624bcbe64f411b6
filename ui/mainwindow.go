package ui

import (
	"fmt"
	"strings"
	"sync"

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
	surf *surface
	// do runs f on the UI goroutine (fyne.Do; tests drive it themselves).
	do func(f func())

	tr        *transcript
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
	modeSel   *modeSelector // the status line's permission mode
	trustBtn  *kButton      // "Folder not trusted", when Claude Code does not trust it
	emptyHint fyne.CanvasObject
	modals    modalQueue
	prefs     *prefsWindow
	perms     *permsWindow
	history   *auditWindow

	// UI goroutine only.
	workdir    string
	running    bool // the shown session's last status says a turn is under way
	sending    bool // a prompt is on its way to the session
	status     app.Status
	lastTurn   *app.TurnInfo
	foreground bool
	// trustWarned is the CLI's trust warning last shown in the transcript
	// (each is shown once); recent, the shown session's last tool calls
	// (Permissions' "Pick a call…").
	trustWarned string
	recent      []app.ToolCall

	mu     sync.Mutex // guards runner and released
	runner Runner
	// released counts the sessions the window has let go (closeRunner): a
	// session that was starting meanwhile is for a folder the window left,
	// so it is closed, never shown.
	released int
}

// newMainWindow builds the window on a (a real app or fyne.io/fyne/v2/test's);
// do runs a function on the UI goroutine (fyne.Do). Run starts its event
// pump and shows it.
func newMainWindow(a fyne.App, opts Options, do func(func())) *mainWindow {
	mw := &mainWindow{app: a, opts: opts, workdir: opts.Workdir, foreground: true}
	mw.surf = newSurface(mw)
	mw.do = func(f func()) {
		select {
		case <-mw.surf.closed:
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
	mw.status.Prompts = prefs.Prompts
	mw.status.DangerousSkip = prefs.DangerousSkip
	a.Settings().SetTheme(themeFor(prefs.Theme))
	mw.build()
	a.Settings().AddListener(func(fyne.Settings) { mw.themeChanged() })
	mw.setupKeys() // focus.go: the transcript in the Tab order, scrolling keys
	mw.win.SetMainMenu(mw.menu())
	mw.win.Resize(fyne.NewSize(980, 720))
	if opts.AuditErrors != nil {
		go mw.auditFailed(opts.AuditErrors)
	}
	if opts.Notice != "" {
		mw.tr.addNotice(opts.Notice)
	}
	mw.refresh()
	return mw
}

func (mw *mainWindow) build() {
	mw.tr = newTranscript()
	mw.tr.actions = rowActions{openLink: mw.confirmLink, grantLater: mw.grantLater, undo: mw.undoGrant, retry: mw.retryTurn}
	mw.tr.copy = func(s string) { mw.app.Clipboard().SetContent(s) }
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

	hint := widget.NewLabel("Type a prompt below and press Ctrl+Enter.\nClaude works in the folder above; anything it is refused shows up here, ready to grant.")
	hint.Alignment = fyne.TextAlignCenter
	hint.Importance = widget.LowImportance
	mw.emptyHint = container.NewCenter(hint)

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
	statusBar := container.NewBorder(nil, nil, nil, container.NewHBox(mw.flashLbl, mw.modeSel.box), mw.statusFit)
	bottom := container.NewVBox(widget.NewSeparator(), container.NewPadded(promptRow), statusBar)
	top := container.NewVBox(container.NewPadded(folderBar), mw.modeBar, widget.NewSeparator())
	center := container.NewStack(mw.tr.list, mw.emptyHint)
	mw.win.SetContent(container.NewBorder(top, bottom, nil, nil, center))
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
	return fyne.NewMainMenu(
		fyne.NewMenu("File", folder, fyne.NewMenuItemSeparator(), prefs, perms, history, fyne.NewMenuItemSeparator(), quit),
		fyne.NewMenu("Edit", copyAnswer))
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

// apply shows a batch of events; UI goroutine only.
func (mw *mainWindow) apply(batch []app.Event) {
	turnEnded := false
	for _, ev := range batch {
		switch ev.Kind {
		case app.EvStatus:
			if ev.Status != nil {
				mw.status = *ev.Status
				if ev.Status.Workdir != "" && mw.workdir == "" {
					mw.workdir = ev.Status.Workdir
				}
				switch ev.Status.State {
				case app.Idle, app.Closed:
					mw.running = false
				default:
					mw.running = true
				}
				if w := ev.Status.TrustWarning; w != "" && w != mw.trustWarned {
					mw.trustWarned = w
					mw.tr.addNotice("Claude Code: " + app.Visible(w))
				}
				mw.modeSel.fetch()
			}
		case app.EvToolCall, app.EvToolUpdate:
			if ev.Tool != nil {
				mw.noteCall(*ev.Tool)
			}
		case app.EvTurnEnd:
			if ev.Turn != nil {
				t := *ev.Turn
				mw.lastTurn = &t
			}
			turnEnded = true
		}
		mw.tr.apply(ev)
	}
	mw.tr.list.Sync()
	mw.refresh()
	if turnEnded {
		mw.focusPrompt()
		if !mw.foreground {
			msg := "The turn finished."
			if t := mw.lastTurn; t != nil && t.Stopped {
				msg = "The turn was stopped."
			} else if t != nil && t.IsError {
				msg = "The turn failed."
			} else if t != nil && t.Denials > 0 {
				msg = fmt.Sprintf("The turn finished with %s.", plural(t.Denials, "refused tool call", "refused tool calls"))
			}
			mw.notify(msg)
		}
	}
}

// recentMax is how many of the shown session's tool calls Permissions
// offers to test ("Pick a call…").
const recentMax = 50

// noteCall keeps a tool call of the shown session, or its full input.
func (mw *mainWindow) noteCall(tc app.ToolCall) {
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
	text := strings.TrimSpace(mw.prompt.Text)
	if text == "" || mw.running || mw.sending {
		return
	}
	if mw.workdir == "" {
		mw.tr.addError("Choose a working folder first", "Claude works inside one folder. Use “Change folder…” above.")
		mw.tr.list.Sync()
		mw.refresh()
		return
	}
	mw.prompt.SetText("")
	mw.tr.list.ScrollToBottom()
	mw.sending = true
	mw.refresh()
	dir := mw.workdir
	go func() {
		r, err := mw.runnerFor(dir)
		if err == nil {
			err = r.Send(text)
		}
		if err != nil {
			mw.surf.Show(app.Event{Kind: app.EvError, Err: &app.ErrorInfo{
				Title: "Claude Code could not start", Detail: err.Error()}})
		}
		mw.do(func() {
			// What the session said while Send ran (Running, the prompt)
			// is applied before Send is enabled again.
			mw.surf.flush()
			mw.sending = false
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

// runnerFor returns the session for dir, starting one if there is none.
// Starting one reads the config, which can wait on the config's lock: that
// happens outside mw.mu, which the UI goroutine takes.
func (mw *mainWindow) runnerFor(dir string) (Runner, error) {
	mw.mu.Lock()
	r, released := mw.runner, mw.released
	mw.mu.Unlock()
	if r != nil {
		return r, nil
	}
	if mw.opts.NewRunner == nil {
		return nil, fmt.Errorf("no way to start Claude Code was configured")
	}
	r, err := mw.opts.NewRunner(dir, mw.surf)
	if err != nil {
		return nil, err
	}
	mw.mu.Lock()
	if mw.released != released {
		mw.mu.Unlock()
		go r.Close()
		return nil, fmt.Errorf("the working folder changed before Claude Code started; send the prompt again")
	}
	if mw.runner != nil { // another start won the race: use that one
		other := mw.runner
		mw.mu.Unlock()
		go r.Close()
		return other, nil
	}
	mw.runner = r
	mw.surf.show(r.ID())
	mw.mu.Unlock()
	return r, nil
}

// retryTurn sends the last prompt again (Retry on the card of a failed
// turn), off the UI goroutine, as send does.
func (mw *mainWindow) retryTurn() {
	if mw.running || mw.sending {
		return
	}
	mw.mu.Lock()
	r, ok := mw.runner.(promptRetrier)
	mw.mu.Unlock()
	if !ok {
		return
	}
	mw.sending = true
	mw.tr.list.ScrollToBottom()
	mw.refresh()
	go func() {
		err := r.Retry()
		if err != nil {
			mw.surf.Show(app.Event{Kind: app.EvError, Err: &app.ErrorInfo{
				Title: "The prompt could not be sent again", Detail: err.Error()}})
		}
		mw.do(func() {
			mw.surf.flush()
			mw.sending = false
			mw.refresh()
			mw.focusPrompt()
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

// withGranter runs f off the UI goroutine on the session, if it is one;
// a failure shows in the transcript.
func (mw *mainWindow) withGranter(f func(granter) error) {
	mw.mu.Lock()
	g, ok := mw.runner.(granter)
	mw.mu.Unlock()
	if !ok {
		return
	}
	go func() {
		if err := f(g); err != nil {
			mw.surf.Show(app.Event{Kind: app.EvError, Err: &app.ErrorInfo{Title: "That could not be done", Detail: err.Error()}})
		}
	}()
}

// reloadRunner asks the session, if it can, to take up saved settings.
func (mw *mainWindow) reloadRunner() {
	mw.mu.Lock()
	r, ok := mw.runner.(reloader)
	mw.mu.Unlock()
	if !ok {
		return
	}
	go func() {
		if err := r.Reload(); err != nil {
			mw.surf.Show(app.Event{Kind: app.EvError, Err: &app.ErrorInfo{
				Title: "The new settings could not be applied", Detail: err.Error()}})
		}
	}()
}

// closeRunner ends the session, if any; the next prompt starts a new one.
func (mw *mainWindow) closeRunner() Runner {
	mw.mu.Lock()
	r := mw.runner
	mw.runner = nil
	mw.released++
	mw.mu.Unlock()
	return r
}

func (mw *mainWindow) pickFolder() {
	mw.chooseFolder(mw.workdir, mw.setFolder)
}

// setFolder makes dir the working folder; the running session, if any, ends
// and the next prompt starts a new one there.
func (mw *mainWindow) setFolder(dir string) {
	if dir == "" || dir == mw.workdir {
		return
	}
	mw.workdir = dir
	// The old session's events stop here; what it queued before is shown,
	// and then the window's state is the new folder's, whatever the old
	// session still does while it closes.
	mw.surf.retire()
	mw.surf.flush()
	if r := mw.closeRunner(); r != nil {
		go r.Close()
	}
	mw.running = false
	mw.status.SessionID, mw.status.State = "", app.Idle
	mw.status.PermissionMode, mw.status.Untrusted, mw.status.TrustWarning = "", false, ""
	mw.lastTurn = nil
	mw.recent = nil
	mw.modeSel.modes = nil
	if mw.perms != nil {
		mw.perms.load() // the new folder's
	}
	mw.tr.addNotice("Working folder is now " + dir + ". The next prompt starts a new session there.")
	mw.tr.list.Sync()
	mw.refresh()
	mw.focusPrompt()
}

// auditFailed shows the audit log's first write error in the transcript;
// the log reports only one.
func (mw *mainWindow) auditFailed(errs <-chan error) {
	err, ok := <-errs
	if !ok {
		return
	}
	mw.surf.Show(app.Event{Kind: app.EvError, Err: &app.ErrorInfo{
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
