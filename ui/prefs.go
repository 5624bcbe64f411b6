package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

// prefsTitle is the preferences window's title.
const prefsTitle = "Latch Preferences"

// prefsWindow edits Latch's config and shows the grants saved in Claude
// Code's settings files, following edits other programs make to them.
type prefsWindow struct {
	mw     *mainWindow
	win    fyne.Window
	modals modalStack // the dialogs over this window
	ctx    context.Context
	cancel context.CancelFunc
	gone   bool // the window was closed

	command   *kEntry
	prompts   *choiceGroup
	baseline  *kCheck
	exper     *kCheck
	phrase    *kCheck
	danger    *kCheck
	dangerMsg *widget.Label
	theme     *choiceGroup // Latch's colours, in themeValues' order
	themeNow  string       // the theme shown now, tried before it is saved
	cfgMsg    *widget.Label
	save      *kButton

	// baselineChosen: the baseline toggle holds the person's choice, not
	// the mode's default (see app.Prefs). showing is set while the window
	// sets the toggle itself.
	baselineChosen, showing bool

	sections []*grantsSection
	esc      escSink
}

// escSink closes a window on Esc, wherever the focus is.
type escSink func()

func (e escSink) key(ev *fyne.KeyEvent) bool {
	if ev.Name == fyne.KeyEscape {
		e()
		return true
	}
	return false
}

func (e escSink) rune(rune) bool { return false }

func (mw *mainWindow) showPrefs() {
	if mw.prefs != nil {
		mw.prefs.win.RequestFocus()
		return
	}
	mw.prefs = newPrefsWindow(mw)
	mw.prefs.Show()
}

// newPrefsWindow builds the window from the settings as Latch holds them;
// Show shows it.
func newPrefsWindow(mw *mainWindow) *prefsWindow {
	p := &prefsWindow{mw: mw, win: mw.app.NewWindow(prefsTitle)}
	p.modals.win = p.win
	p.ctx, p.cancel = context.WithCancel(context.Background())

	p.esc = escSink(p.Dismiss)
	p.command = newKEntry(p.esc)
	p.command.SetPlaceHolder("claude")
	p.prompts = newChoiceGroup([]string{
		"Ask while Claude waits (live)",
		"Ask after the turn, all at once, then retry",
	}, false, p.esc)
	p.prompts.OnChange = p.showBaseline
	p.baseline = newKCheck("Baseline tools", p.esc, func(bool) {
		if !p.showing {
			p.baselineChosen = true
		}
	})
	baselineMsg := caption("Pre-approve Bash, Read, Write and Edit for every run (never saved to a settings file). " +
		"Default: on when permissions are asked after the turn, off when they are asked live.")
	baselineMsg.Wrapping = fyne.TextWrapWord
	p.exper = newKCheck("Experimental: tell Claude to pause when a permission is refused", p.esc, nil)
	p.phrase = newKCheck("Detect refusals phrased in plain words (phrase detection)", p.esc, nil)
	p.dangerMsg = widget.NewLabel("Claude Code will run every tool without any permission check. Only for throw-away folders.")
	p.dangerMsg.Importance = widget.DangerImportance
	p.dangerMsg.Wrapping = fyne.TextWrapWord
	p.danger = newKCheck("Dangerously skip permissions", p.esc, func(on bool) {
		if on {
			p.dangerMsg.Show()
		} else {
			p.dangerMsg.Hide()
		}
	})
	p.theme = newChoiceGroup(themeNames, false, p.esc)
	p.theme.OnChange = p.tryTheme
	p.cfgMsg = widget.NewLabel("")
	p.cfgMsg.Wrapping = fyne.TextWrapWord
	p.cfgMsg.Hide()
	p.save = newKButton("Save", theme.DocumentSaveIcon(), p.esc, p.saveConfig)
	p.save.Importance = widget.HighImportance
	p.loadConfig()

	head := func(s string) *widget.Label {
		l := widget.NewLabel(s)
		l.TextStyle.Bold = true
		return l
	}
	settings := container.NewVBox(
		head("Claude Code"),
		caption("Command that starts Claude Code"), p.command,
		caption("Permission prompts"), container.NewVBox(p.prompts.objects()...),
		p.baseline, baselineMsg, p.exper, p.phrase, p.danger, p.dangerMsg,
		head("Appearance"),
		caption("Theme"), container.NewHBox(p.theme.objects()...),
		container.NewHBox(p.save, caption("Applies from the next prompt")),
		p.cfgMsg,
	)
	rows := []fyne.CanvasObject{settings}
	for _, f := range mw.settings().GrantFiles(mw.workdir) {
		title := "Saved grants — your user settings"
		if f.Scope == app.ScopeProject {
			title = "Saved grants — this project"
		}
		s := newGrantsSection(p, title, f)
		p.sections = append(p.sections, s)
		rows = append(rows, widget.NewSeparator(), s.box)
	}
	closeBtn := newKButton("Close", nil, p.esc, p.Dismiss)
	body := container.NewVScroll(container.NewPadded(container.NewVBox(rows...)))
	p.win.SetContent(container.NewBorder(nil,
		container.NewPadded(container.NewHBox(caption("Tab moves · Space toggles · Esc closes"), layout.NewSpacer(), closeBtn)),
		nil, nil, body))
	p.win.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if ev.Name == fyne.KeyEscape {
			p.Dismiss()
		}
	})
	p.win.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyW, Modifier: fyne.KeyModifierShortcutDefault},
		func(fyne.Shortcut) { p.Dismiss() })
	p.win.SetOnClosed(func() {
		p.gone = true
		p.keepTheme(mw.settings().Prefs().Theme) // one tried and not saved goes
		p.cancel()
		p.modals.close()
		mw.prefs = nil
	})
	p.win.Resize(fyne.NewSize(720, 760))
	p.win.Canvas().Focus(p.command)
	return p
}

// Show shows the window and starts reading the settings files, and
// following what other programs change in them, off the UI goroutine.
func (p *prefsWindow) Show() {
	p.win.Show()
	for _, s := range p.sections {
		s.follow()
	}
}

// Dismiss closes the window with its dialogs; Preferences saves only on Save.
func (p *prefsWindow) Dismiss() {
	if !p.gone {
		p.win.Close()
	}
}

// loadConfig shows the settings as Latch holds them; it reads no file.
func (p *prefsWindow) loadConfig() {
	st := p.mw.settings()
	c := st.Prefs()
	p.command.SetText(c.ClaudeCommand)
	p.baselineChosen = c.BaselineChosen
	p.prompts.pick(0)
	if c.Prompts == app.PromptsAfterTurn {
		p.prompts.pick(1)
	}
	p.setBaseline(c.Baseline)
	p.exper.SetChecked(c.Experimental)
	p.phrase.SetChecked(c.PhraseDetection)
	p.danger.SetChecked(c.DangerousSkip)
	if !c.DangerousSkip {
		p.dangerMsg.Hide()
	}
	p.themeNow = c.Theme
	p.theme.OnChange = nil
	p.theme.pick(max(0, slices.Index(themeValues, c.Theme)))
	p.theme.OnChange = p.tryTheme
	switch err := st.LoadError(); {
	case st.Malformed():
		p.say(true, fmt.Sprintf("%v\nLatch runs on its defaults and will not overwrite the file until it is fixed.", err))
		p.save.Disable()
	case err != nil:
		p.say(true, err.Error())
	}
}

// The theme choices: their names, and the config's values in that order.
var (
	themeNames  = []string{"Follow the desktop", "Light", "Dark"}
	themeValues = []string{app.ThemeSystem, app.ThemeLight, app.ThemeDark}
)

// themeChoice is the theme selected now.
func (p *prefsWindow) themeChoice() string {
	for i, c := range p.theme.items {
		if c.Selected {
			return themeValues[i]
		}
	}
	return app.ThemeSystem
}

// tryTheme shows the theme selected at once; Save keeps it, closing
// without saving goes back to the saved one.
func (p *prefsWindow) tryTheme() { p.keepTheme(p.themeChoice()) }

// keepTheme makes setting the app's theme, unless it is already.
func (p *prefsWindow) keepTheme(setting string) {
	if setting == p.themeNow {
		return
	}
	p.themeNow = setting
	p.mw.app.Settings().SetTheme(themeFor(setting))
}

// promptsMode is the mode selected now.
func (p *prefsWindow) promptsMode() string {
	if p.prompts.items[1].Selected {
		return app.PromptsAfterTurn
	}
	return app.PromptsLive
}

// showBaseline shows, until the person chooses, the default of the mode
// selected now.
func (p *prefsWindow) showBaseline() {
	if !p.baselineChosen {
		p.setBaseline(app.BaselineDefault(p.promptsMode()))
	}
}

// setBaseline sets the toggle without counting it as the person's choice.
func (p *prefsWindow) setBaseline(on bool) {
	p.showing = true
	p.baseline.SetChecked(on)
	p.showing = false
}

func (p *prefsWindow) say(bad bool, msg string) {
	p.cfgMsg.Importance = widget.MediumImportance
	if bad {
		p.cfgMsg.Importance = widget.DangerImportance
	}
	p.cfgMsg.SetText(msg)
	p.cfgMsg.Show()
}

// shown is what this window shows.
func (p *prefsWindow) shown() app.Prefs {
	return app.Prefs{
		ClaudeCommand:   p.command.Text,
		Prompts:         p.promptsMode(),
		Baseline:        p.baseline.Checked,
		BaselineChosen:  p.baselineChosen,
		Experimental:    p.exper.Checked,
		PhraseDetection: p.phrase.Checked,
		DangerousSkip:   p.danger.Checked,
		Theme:           p.themeChoice(),
	}
}

// saveConfig saves what this window shows, off the UI goroutine; the last
// folder and scope, remembered elsewhere since it opened, are kept. Then
// the session takes the settings up and the main window shows them.
func (p *prefsWindow) saveConfig() {
	c := p.shown()
	p.save.Disable() // one save at a time
	go func() {
		err := p.mw.settings().SavePrefs(c)
		p.mw.do(func() {
			p.save.Enable()
			var invalid *app.InvalidSettingError
			switch {
			case errors.As(err, &invalid):
				p.say(true, err.Error())
				return
			case err != nil:
				p.say(true, "Not saved: "+err.Error())
				return
			}
			p.say(false, "Saved. The next prompt uses these settings.")
			p.mw.reloadRunner()
			p.mw.status.DangerousSkip = c.DangerousSkip
			p.mw.status.Prompts = c.Prompts
			p.mw.refresh()
		})
	}()
}

// grantsSection lists the rules and folders saved in one settings file.
type grantsSection struct {
	p       *prefsWindow
	file    *app.GrantFile
	box     *fyne.Container
	list    *fyne.Container
	msg     *widget.Label
	rule    *kEntry
	addRule *kButton
	addDir  *kButton

	reads sync.Mutex // one read at a time, so that reads are numbered in order
	read  uint64     // reads made; guarded by reads
	shown uint64     // the read shown; UI goroutine
}

func newGrantsSection(p *prefsWindow, title string, file *app.GrantFile) *grantsSection {
	s := &grantsSection{p: p, file: file, list: container.NewVBox()}
	h := widget.NewLabel(title)
	h.TextStyle.Bold = true
	s.msg = widget.NewLabel("")
	s.msg.Wrapping = fyne.TextWrapWord
	s.msg.Importance = widget.DangerImportance
	s.msg.Hide()
	s.rule = newKEntry(p.esc)
	s.rule.SetPlaceHolder("Bash(npm test:*)")
	s.rule.OnSubmitted = func(string) { s.addRuleNow() }
	s.addRule = newKButton("Add rule", theme.ContentAddIcon(), p.esc, s.addRuleNow)
	s.addDir = newKButton("Add folder…", theme.FolderOpenIcon(), p.esc, func() {
		p.mw.chooseFolderOn(&p.modals, nil, "", s.addFolder)
	})
	// Nothing is added before the file was read: it may be one Latch
	// leaves alone.
	s.addRule.Disable()
	s.addDir.Disable()
	s.box = container.NewVBox(h, caption(file.Path), s.msg, s.list,
		container.NewBorder(nil, nil, nil, container.NewHBox(s.addRule, s.addDir), s.rule))
	return s
}

func (s *grantsSection) fail(err error) { s.say(err.Error()) }

func (s *grantsSection) say(msg string) {
	s.msg.SetText(msg)
	s.msg.Show()
}

// follow shows the file, and shows it again whenever it changes, until the
// window closes. Both the reads and the watch run off the UI goroutine.
func (s *grantsSection) follow() {
	go func() {
		s.file.Watch(s.p.ctx, 500*time.Millisecond, s.refresh)
		s.load(nil, nil)
	}()
}

// refresh reads the file off the UI goroutine and shows it.
func (s *grantsSection) refresh() { go s.load(nil, nil) }

// apply runs a settings change off the UI goroutine, where waiting for
// another writer's lock cannot freeze the window, then shows the file; done
// runs on the UI goroutine after a change that worked.
func (s *grantsSection) apply(change func() error, done func()) { go s.load(change, done) }

// load runs change, if any, reads the file and shows it on the UI
// goroutine, unless a newer read was shown already. Off the UI goroutine.
func (s *grantsSection) load(change func() error, done func()) {
	var err error
	if change != nil {
		err = change()
	}
	s.reads.Lock()
	s.read++
	n := s.read
	saved, rerr := s.file.Read()
	s.reads.Unlock()
	s.p.mw.do(func() {
		if n > s.shown {
			s.shown = n
			s.show(saved, rerr)
		}
		if err != nil {
			s.fail(err)
			return
		}
		if done != nil {
			done()
		}
	})
}

// show lists what the file holds, or says why it cannot be used.
func (s *grantsSection) show(saved app.SavedGrants, err error) {
	s.list.Objects = nil
	if err != nil {
		s.say(fmt.Sprintf("%v\nLatch will not change this file until it is fixed.", err))
		s.addRule.Disable()
		s.addDir.Disable()
		s.list.Refresh()
		return
	}
	s.msg.Hide()
	s.addRule.Enable()
	s.addDir.Enable()
	if saved.Refused != nil {
		s.fail(saved.Refused)
		s.addRule.Disable()
		s.addDir.Disable()
	}
	row := func(kind, value string, remove func() error) fyne.CanvasObject {
		l := widget.NewLabel(value)
		l.TextStyle.Monospace = true
		l.Truncation = fyne.TextTruncateEllipsis
		b := newKButton("Remove", theme.DeleteIcon(), s.p.esc, func() { s.apply(remove, nil) })
		b.Importance = widget.LowImportance
		if saved.Refused != nil {
			b.Disable()
		}
		return container.NewBorder(nil, nil, caption(kind), b, l)
	}
	for _, r := range saved.Rules {
		s.list.Add(row("Rule  ", r, func() error { return s.file.RemoveRule(r) }))
	}
	for _, d := range saved.Folders {
		s.list.Add(row("Folder", d, func() error { return s.file.RemoveFolder(d) }))
	}
	if len(saved.Rules)+len(saved.Folders) == 0 {
		s.list.Add(caption("Nothing saved here yet."))
	}
	s.list.Refresh()
}

func (s *grantsSection) addRuleNow() {
	r := strings.TrimSpace(s.rule.Text)
	if r == "" {
		return
	}
	s.apply(func() error { return s.file.AddRule(r) }, func() { s.rule.SetText("") })
}

// addFolder saves a picked folder as it resolves, which is also the folder
// the second question (if any) names and the one the list then shows.
func (s *grantsSection) addFolder(dir string) {
	real, err := app.ResolveFolder(dir, "")
	if err != nil {
		s.fail(err)
		return
	}
	s.p.modals.confirmBroad(nil, []string{real}, func(force bool) {
		s.apply(func() error { return s.file.AddFolder(real, force) }, nil)
	})
}
