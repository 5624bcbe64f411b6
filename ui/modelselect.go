package ui

import (
	"context"
	"slices"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

// modeler is a Runner whose model can be switched for the next turn;
// *app.Session is one. SetModel may wait on the CLI: call it off the UI
// goroutine.
type modeler interface {
	Models() []app.ModelChoice
	SetModel(ctx context.Context, model string) (string, error)
}

// setModelTimeout bounds one switch of the model.
const setModelTimeout = 30 * time.Second

// modelSelector is the status line's model: it shows the model the CLI
// reports and switches it for the next turn (set_model in a running CLI,
// --model for the next one started). Before a tab has a session, the
// choice waits for it. UI goroutine only.
type modelSelector struct {
	mw  *mainWindow
	sel *widget.Select
	box *fyne.Container

	choices  []app.ModelChoice // offered, in order
	titles   []string          // the selector's options, for choices
	busy     bool              // a switch is on its way
	syncing  bool              // the selector is being set, not chosen
	fetching bool
	// What update last showed, to redraw only on change.
	shownPH            string
	shownBusy, showing bool
}

func newModelSelector(mw *mainWindow) *modelSelector {
	m := &modelSelector{mw: mw}
	m.sel = widget.NewSelect(nil, m.chosen)
	m.box = container.NewHBox(caption("Model"), m.sel)
	return m
}

// modelTitle is how a choice reads in the selector: its name, made
// visible and short.
func modelTitle(c app.ModelChoice) string {
	name := c.DisplayName
	if name == "" {
		name = c.Value
	}
	return clipEnd(app.VisibleLine(name), 32)
}

// modelerOf is the shown tab's session, when its model can be switched.
func (m *modelSelector) modelerOf() modeler {
	m.mw.mu.Lock()
	defer m.mw.mu.Unlock()
	md, _ := m.mw.runner.(modeler)
	return md
}

// fetch asks the shown session, off the UI goroutine, which models it
// offers; without a session the aliases every CLI takes are offered.
func (m *modelSelector) fetch() {
	md := m.modelerOf()
	if md == nil {
		m.setChoices(app.FallbackModels()) // before the tab has a session
		return
	}
	if m.fetching {
		return
	}
	m.fetching = true
	go func() {
		choices := md.Models()
		m.mw.do(func() {
			m.fetching = false
			if m.modelerOf() == md {
				m.setChoices(choices)
			}
		})
	}()
}

func (m *modelSelector) setChoices(choices []app.ModelChoice) {
	m.choices = choices
	m.titles = make([]string, len(choices))
	for i, c := range choices {
		m.titles[i] = modelTitle(c)
	}
	m.update()
}

// update shows the model the shown session reports (or the one chosen
// for its first process) as the selector's text.
func (m *modelSelector) update() {
	cur := m.mw.status.Model
	if cur == "" {
		m.mw.mu.Lock()
		cur = m.mw.tab.model
		m.mw.mu.Unlock()
	}
	ph := "Default"
	if cur != "" {
		ph = clipEnd(app.VisibleLine(cur), 32)
	}
	if m.showing && ph == m.shownPH && m.busy == m.shownBusy && slices.Equal(m.titles, m.sel.Options) && m.sel.Selected == "" {
		return // the window calls update every frame it refreshes
	}
	m.shownPH, m.shownBusy, m.showing = ph, m.busy, true
	m.syncing = true
	m.sel.Options = m.titles
	m.sel.PlaceHolder = ph
	m.sel.ClearSelected()
	m.syncing = false
	if m.busy || len(m.titles) == 0 {
		m.sel.Disable()
	} else {
		m.sel.Enable()
	}
	m.sel.Refresh()
}

// chosen switches the model the person picked, off the UI goroutine; a
// tab without a session keeps the choice for its first process. An error
// shows in the transcript and the selector shows the model in use.
func (m *modelSelector) chosen(title string) {
	if m.syncing || m.busy {
		return
	}
	value := ""
	for i, t := range m.titles {
		if t == title {
			value = m.choices[i].Value
		}
	}
	if value == "" {
		m.update()
		return
	}
	t := m.mw.tab
	md := m.modelerOf()
	if md == nil {
		t.mu.Lock()
		t.model = value
		t.mu.Unlock()
		m.update()
		return
	}
	m.busy = true
	m.update()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), setModelTimeout)
		defer cancel()
		_, err := md.SetModel(ctx, value)
		if err != nil {
			t.surf.Show(app.Event{Kind: app.EvError, Err: &app.ErrorInfo{
				Title: "The model was not switched", Detail: app.Visible(err.Error())}})
		}
		m.mw.do(func() {
			m.busy = false
			t.surf.flush()
			if t == m.mw.tab {
				m.update()
			}
		})
	}()
}
