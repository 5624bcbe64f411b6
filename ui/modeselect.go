package ui

import (
	"context"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

// modeBypass is the mode in which Claude Code runs every call unasked.
const modeBypass = app.ModeBypass

// modeTitle is a mode in the selector's words; a mode Latch does not know
// is shown as the CLI spells it, made visible, on one line.
func modeTitle(mode string) string { return clipEnd(app.ModeTitle(mode), 40) }

// setModeTimeout bounds one switch of the mode.
const setModeTimeout = 30 * time.Second

// modeSelector is the status line's permission mode: it always shows the
// mode the CLI reports (bypass on red), and, when the shown session can
// switch modes, switches it. UI goroutine only.
type modeSelector struct {
	mw  *mainWindow
	sel *widget.Select
	bg  *canvas.Rectangle // a red frame round the selector in bypass mode
	lbl *widget.Label     // "Mode", red in bypass mode
	box *fyne.Container

	modes    []app.Mode // offered by the session (Inspector.Modes); nil: none
	shown    []app.Mode // the selector's options, in order
	busy     bool       // a switch is on its way
	syncing  bool       // the selector is being set, not chosen
	fetching bool       // Modes is being asked off the UI goroutine
	last     modeState  // what the selector shows now
	hasLast  bool
}

// modeState is what the selector shows; it is set again only when it
// changes, not at every frame.
type modeState struct {
	cur        string
	busy, live bool
	modes      string
}

func newModeSelector(mw *mainWindow) *modeSelector {
	m := &modeSelector{mw: mw}
	m.sel = widget.NewSelect(nil, m.chosen)
	m.sel.PlaceHolder = "Manual"
	m.bg = canvas.NewRectangle(theme.Color(theme.ColorNameError))
	m.bg.CornerRadius = theme.InputRadiusSize()
	m.bg.Hide()
	m.lbl = caption("Mode")
	// The frame shows round the selector, which paints its own background.
	frame := layout.NewCustomPaddedLayout(2, 2, 2, 2)
	m.box = container.NewHBox(m.lbl, container.NewStack(m.bg, container.New(frame, m.sel)))
	return m
}

// current is the mode the selector shows: the CLI's, else bypass when
// Latch starts the CLI with permission checks off, else the default.
func (m *modeSelector) current() string {
	st := m.mw.status
	switch {
	case st.PermissionMode != "":
		return st.PermissionMode
	case st.DangerousSkip:
		return modeBypass
	}
	return "default"
}

// inspector is the shown session, when it can switch modes.
func (m *modeSelector) inspector() app.Inspector {
	m.mw.mu.Lock()
	defer m.mw.mu.Unlock()
	in, _ := m.mw.runner.(app.Inspector)
	return in
}

// fetch asks the session, off the UI goroutine, which modes it offers.
func (m *modeSelector) fetch() {
	in := m.inspector()
	if in == nil {
		m.modes = nil
		m.sync()
		return
	}
	if m.fetching {
		return
	}
	m.fetching = true
	go func() {
		modes := in.Modes()
		m.mw.do(func() {
			m.fetching = false
			if m.inspector() != in {
				return // the session changed meanwhile
			}
			m.modes = modes
			m.sync()
		})
	}()
}

// update shows the current mode and the modes on offer, if that changed.
func (m *modeSelector) update() {
	st := modeState{cur: m.current(), busy: m.busy, live: m.inspector() != nil}
	for _, md := range m.modes {
		st.modes += md.Value + "\x00" + md.Title + "\x00"
	}
	if m.hasLast && st == m.last {
		return
	}
	m.sync()
}

// sync shows the current mode and the modes on offer.
func (m *modeSelector) sync() {
	cur := m.current()
	m.last = modeState{cur: cur, busy: m.busy, live: m.inspector() != nil}
	for _, md := range m.modes {
		m.last.modes += md.Value + "\x00" + md.Title + "\x00"
	}
	m.hasLast = true
	m.shown = m.shown[:0]
	found := false
	for _, md := range m.modes {
		if md.Title == "" {
			md.Title = modeTitle(md.Value)
		}
		m.shown = append(m.shown, md)
		found = found || md.Value == cur
	}
	if !found {
		m.shown = append([]app.Mode{{Value: cur, Title: modeTitle(cur), Danger: cur == modeBypass}}, m.shown...)
	}
	opts := make([]string, len(m.shown))
	title := ""
	for i, md := range m.shown {
		opts[i] = md.Title
		if md.Value == cur {
			title = md.Title
		}
	}
	m.syncing = true
	m.sel.Options = opts
	m.sel.SetSelected(title)
	m.syncing = false
	if len(m.modes) == 0 || m.busy || m.inspector() == nil {
		m.sel.Disable()
	} else {
		m.sel.Enable()
	}
	if cur == modeBypass {
		m.bg.FillColor = theme.Color(theme.ColorNameError) // the theme may have changed
		m.bg.Show()
		m.lbl.Importance = widget.DangerImportance
		m.lbl.TextStyle.Bold = true
	} else {
		m.bg.Hide()
		m.lbl.Importance = widget.LowImportance
		m.lbl.TextStyle.Bold = false
	}
	m.lbl.Refresh()
	m.sel.Refresh()
}

// chosen switches the session to the mode the person picked, off the UI
// goroutine; on an error the selector goes back to the mode the CLI
// reports and the error shows in the transcript.
func (m *modeSelector) chosen(title string) {
	if m.syncing || m.busy {
		return
	}
	var mode string
	for _, md := range m.shown {
		if md.Title == title {
			mode = md.Value
		}
	}
	in := m.inspector()
	if mode == "" || mode == m.current() || in == nil {
		m.sync()
		return
	}
	m.busy = true
	m.sync()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), setModeTimeout)
		defer cancel()
		reported, err := in.SetMode(ctx, mode)
		m.mw.do(func() {
			m.busy = false
			if err != nil {
				m.mw.tr.addError("The permission mode was not changed", err.Error())
				m.mw.tr.list.Sync()
			} else {
				if reported == "" {
					reported = mode
				}
				m.mw.status.PermissionMode = reported
			}
			m.mw.refresh()
		})
	}()
}
