package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/core/grants"
)

// PrefsTitle is the preferences window's title.
const PrefsTitle = "Latch Preferences"

// prefsWindow edits Latch's config and shows the grants saved in Claude
// Code's settings files, following edits other programs make to them.
type prefsWindow struct {
	mw     *MainWindow
	win    fyne.Window
	cancel context.CancelFunc

	command   *kEntry
	prompts   *choiceGroup
	baseline  *kCheck
	exper     *kCheck
	phrase    *kCheck
	danger    *kCheck
	dangerMsg *widget.Label
	cfgMsg    *widget.Label
	save      *kButton
	cfg       grants.Config

	// baselineChosen: the baseline toggle holds the person's choice, not
	// the mode's default (see grants.Config.Baseline). showing is set
	// while the window sets the toggle itself.
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

func (mw *MainWindow) showPrefs() {
	if mw.prefs != nil {
		mw.prefs.win.RequestFocus()
		return
	}
	mw.prefs = newPrefsWindow(mw)
	mw.prefs.win.Show()
}

func newPrefsWindow(mw *MainWindow) *prefsWindow {
	p := &prefsWindow{mw: mw, win: mw.app.NewWindow(PrefsTitle)}
	ctx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel

	p.esc = escSink(func() { p.win.Close() })
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
		container.NewHBox(p.save, caption("Applies from the next prompt")),
		p.cfgMsg,
	)
	rows := []fyne.CanvasObject{settings}
	if userPath, err := grants.UserSettingsPath(); err == nil {
		p.sections = append(p.sections, newGrantsSection(p, "Saved grants — your user settings", grants.NewStore(userPath), nil))
	}
	if mw.workdir != "" {
		// A project file linked out of the project is listed, never written.
		store, err := grants.ProjectStore(mw.workdir)
		if err != nil {
			store = grants.NewStore(grants.ProjectSettingsPath(mw.workdir))
		}
		p.sections = append(p.sections, newGrantsSection(p, "Saved grants — this project", store, err))
	}
	for _, s := range p.sections {
		rows = append(rows, widget.NewSeparator(), s.box)
		s.reload()
		s.store.Watch(ctx, 500*time.Millisecond, s.refresh)
	}
	closeBtn := newKButton("Close", nil, p.esc, func() { p.win.Close() })
	body := container.NewVScroll(container.NewPadded(container.NewVBox(rows...)))
	p.win.SetContent(container.NewBorder(nil,
		container.NewPadded(container.NewHBox(caption("Tab moves · Space toggles · Esc closes"), layout.NewSpacer(), closeBtn)),
		nil, nil, body))
	p.win.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if ev.Name == fyne.KeyEscape {
			p.win.Close()
		}
	})
	p.win.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyW, Modifier: fyne.KeyModifierShortcutDefault},
		func(fyne.Shortcut) { p.win.Close() })
	p.win.SetOnClosed(func() {
		cancel()
		mw.prefs = nil
	})
	p.win.Resize(fyne.NewSize(720, 760))
	p.win.Canvas().Focus(p.command)
	return p
}

func (p *prefsWindow) loadConfig() {
	cfg, err := grants.LoadConfig()
	p.cfg = cfg
	p.command.SetText(cfg.ClaudeCommand)
	p.baselineChosen = cfg.BaselineChosen()
	p.prompts.pick(0)
	if cfg.PermissionPrompts == grants.PromptsAfterTurn {
		p.prompts.pick(1)
	}
	p.setBaseline(cfg.Baseline())
	p.exper.SetChecked(cfg.ExperimentalPermissionManagement)
	p.phrase.SetChecked(cfg.PhraseDetection)
	p.danger.SetChecked(cfg.DangerouslySkipPermissions)
	if !cfg.DangerouslySkipPermissions {
		p.dangerMsg.Hide()
	}
	var syn *grants.SyntaxError
	switch {
	case errors.As(err, &syn):
		p.say(true, fmt.Sprintf("%v\nLatch runs on its defaults and will not overwrite the file until it is fixed.", err))
		p.save.Disable()
	case err != nil:
		p.say(true, err.Error())
	}
}

// showBaseline shows, until the person chooses, the default of the mode
// selected now.
func (p *prefsWindow) showBaseline() {
	if !p.baselineChosen {
		p.setBaseline(p.prompts.items[1].Selected)
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

// settings sets what this window shows in c.
func (p *prefsWindow) settings(c *grants.Config) {
	c.ClaudeCommand = strings.TrimSpace(p.command.Text)
	c.PermissionPrompts = grants.PromptsLive
	if p.prompts.items[1].Selected {
		c.PermissionPrompts = grants.PromptsAfterTurn
	}
	if p.baselineChosen {
		c.SetBaseline(p.baseline.Checked)
	}
	c.ExperimentalPermissionManagement = p.exper.Checked
	c.PhraseDetection = p.phrase.Checked
	c.DangerouslySkipPermissions = p.danger.Checked
}

// saveConfig writes only what this window shows: the last folder and
// scope, remembered elsewhere since it opened, are kept.
func (p *prefsWindow) saveConfig() {
	c := p.cfg
	p.settings(&c)
	if err := c.Validate(); err != nil {
		p.say(true, err.Error())
		return
	}
	if err := grants.UpdateConfig(p.settings); err != nil {
		p.say(true, "Not saved: "+err.Error())
		return
	}
	p.cfg = c
	p.say(false, "Saved. The next prompt uses these settings.")
	p.mw.reloadRunner()
	p.mw.status.DangerousSkip = c.DangerouslySkipPermissions
	p.mw.status.Prompts = c.PermissionPrompts
	p.mw.refresh()
}

// grantsSection lists the rules and folders saved in one settings file.
type grantsSection struct {
	p       *prefsWindow
	store   *grants.Store
	refused error // why the file is shown but not written
	box     *fyne.Container
	list    *fyne.Container
	msg     *widget.Label
	rule    *kEntry
	addRule *kButton
	addDir  *kButton
}

func newGrantsSection(p *prefsWindow, title string, store *grants.Store, refused error) *grantsSection {
	s := &grantsSection{p: p, store: store, refused: refused, list: container.NewVBox()}
	path := store.Path
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
		p.mw.chooseFolderIn(p.win, "", s.addFolder)
	})
	s.box = container.NewVBox(h, caption(path), s.msg, s.list,
		container.NewBorder(nil, nil, nil, container.NewHBox(s.addRule, s.addDir), s.rule))
	return s
}

func (s *grantsSection) fail(err error) { s.say(err.Error()) }

func (s *grantsSection) say(msg string) {
	s.msg.SetText(msg)
	s.msg.Show()
}

// reload shows what the file holds now; UI goroutine only. It reads the
// small file in place; edits and outside changes go through apply.
func (s *grantsSection) reload() {
	perms, err := s.store.Read()
	s.show(perms, err)
}

// refresh reads the file off the UI goroutine and shows it.
func (s *grantsSection) refresh() { s.apply(func() error { return nil }, nil) }

// apply runs a settings change off the UI goroutine, where waiting for
// another writer's lock cannot freeze the window, then shows the file; done
// runs on the UI goroutine after a change that worked.
func (s *grantsSection) apply(change func() error, done func()) {
	go func() {
		err := change()
		perms, rerr := s.store.Read()
		s.p.mw.do(func() {
			s.show(perms, rerr)
			if err != nil {
				s.fail(err)
				return
			}
			if done != nil {
				done()
			}
		})
	}()
}

// show lists perms, or says why the file cannot be used.
func (s *grantsSection) show(perms grants.Permissions, err error) {
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
	if s.refused != nil {
		s.fail(s.refused)
		s.addRule.Disable()
		s.addDir.Disable()
	}
	row := func(kind, value string, remove func() error) fyne.CanvasObject {
		l := widget.NewLabel(value)
		l.TextStyle.Monospace = true
		l.Truncation = fyne.TextTruncateEllipsis
		b := newKButton("Remove", theme.DeleteIcon(), s.p.esc, func() { s.apply(remove, nil) })
		b.Importance = widget.LowImportance
		if s.refused != nil {
			b.Disable()
		}
		return container.NewBorder(nil, nil, caption(kind), b, l)
	}
	for _, r := range perms.Allow {
		s.list.Add(row("Rule  ", r, func() error { return s.store.RemoveRules(r) }))
	}
	for _, d := range perms.AdditionalDirectories {
		s.list.Add(row("Folder", d, func() error { return s.store.RemoveDirs(d) }))
	}
	if len(perms.Allow)+len(perms.AdditionalDirectories) == 0 {
		s.list.Add(caption("Nothing saved here yet."))
	}
	s.list.Refresh()
}

func (s *grantsSection) addRuleNow() {
	r := strings.TrimSpace(s.rule.Text)
	if r == "" {
		return
	}
	s.apply(func() error { return s.store.AddRules(r) }, func() { s.rule.SetText("") })
}

// addFolder saves a picked folder as it resolves, which is also the folder
// the second question (if any) names and the one the list then shows.
func (s *grantsSection) addFolder(dir string) {
	real, err := grants.ResolveDir(dir, "")
	if err != nil {
		s.fail(err)
		return
	}
	s.p.mw.confirmBroadIn(s.p.win, []string{real}, func(force bool) {
		s.apply(func() error { return s.store.AddDirs(force, real) }, nil)
	})
}
