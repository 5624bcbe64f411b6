package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// keySink is a dialog's keyboard handler. Focused widgets pass it the keys
// they do not use themselves, so Esc, Enter and the digit keys work wherever
// the focus is, and never fall through to the window behind the dialog.
type keySink interface {
	// key handles a key; it reports whether it used it.
	key(ev *fyne.KeyEvent) bool
	// rune handles a typed character outside text fields.
	rune(r rune) bool
}

// kButton is a button that hands Esc, Enter and digits to its dialog.
// Space presses the button itself, as in widget.Button.
type kButton struct {
	widget.Button
	sink keySink
}

func newKButton(label string, icon fyne.Resource, sink keySink, tapped func()) *kButton {
	b := &kButton{sink: sink}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

func (b *kButton) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeySpace || b.sink == nil || !b.sink.key(ev) {
		b.Button.TypedKey(ev)
	}
}

func (b *kButton) TypedRune(r rune) {
	if b.sink != nil {
		b.sink.rune(r)
	}
}

// kCheck is a checkbox that hands Esc, Enter and digits to its dialog;
// Space toggles it.
type kCheck struct {
	widget.Check
	sink keySink
}

func newKCheck(label string, sink keySink, changed func(bool)) *kCheck {
	c := &kCheck{sink: sink}
	c.Text, c.OnChanged = label, changed
	c.ExtendBaseWidget(c)
	return c
}

func (c *kCheck) TypedKey(ev *fyne.KeyEvent) {
	if c.sink == nil || !c.sink.key(ev) {
		c.Check.TypedKey(ev)
	}
}

func (c *kCheck) TypedRune(r rune) {
	if r == ' ' {
		c.Check.TypedRune(r)
		return
	}
	if c.sink != nil {
		c.sink.rune(r)
	}
}

// kEntry is a one-line text field in a dialog: it keeps every character
// (digits included) and passes Esc and Enter to the dialog.
type kEntry struct {
	widget.Entry
	sink keySink
}

func newKEntry(sink keySink) *kEntry {
	e := &kEntry{sink: sink}
	e.ExtendBaseWidget(e)
	return e
}

func (e *kEntry) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyEscape, fyne.KeyReturn, fyne.KeyEnter:
		if e.sink != nil && e.sink.key(ev) {
			return
		}
	}
	e.Entry.TypedKey(ev)
}

// promptEntry is the prompt box: Ctrl+Enter sends.
type promptEntry struct {
	widget.Entry
	onSend   func()
	onEscape func() // Esc stops a running turn
	// eatSpace drops one space typed right after a dialog closed: Space
	// presses a dialog button on key-down, and its character arrives after
	// the focus is back here.
	eatSpace bool
	// scrollKey scrolls the transcript (PgUp, PgDn, Home, End); nil: none.
	// The prompt passes it PgUp and PgDn while its text fits in the box
	// (there is nothing for it to page through), and Ctrl+Home and
	// Ctrl+End always; plain Home and End stay with the text.
	scrollKey func(*fyne.KeyEvent) bool
}

func (p *promptEntry) TypedRune(r rune) {
	eat := p.eatSpace && r == ' '
	p.eatSpace = false
	if !eat {
		p.Entry.TypedRune(r)
	}
}

func (p *promptEntry) TypedKey(ev *fyne.KeyEvent) {
	p.eatSpace = false
	if ev.Name == fyne.KeyEscape && p.onEscape != nil {
		p.onEscape()
		return
	}
	if (ev.Name == fyne.KeyPageUp || ev.Name == fyne.KeyPageDown) && p.scrollKey != nil && !p.overflows() && p.scrollKey(ev) {
		return
	}
	p.Entry.TypedKey(ev)
}

// overflows reports whether the prompt's text takes more lines, wrapped,
// than the box shows: then PgUp and PgDn move in the text.
func (p *promptEntry) overflows() bool {
	th := p.Theme()
	pad := th.Size(theme.SizeNameInnerPadding)
	size := th.Size(theme.SizeNameText)
	line := fyne.MeasureText("Mg", size, p.TextStyle).Height
	shown := 3
	if h := p.Size().Height - 2*pad; h > 0 && line > 0 {
		shown = max(1, int(h/line))
	}
	width := p.Size().Width - 2*pad
	rows := 0
	text := p.Text
	for {
		i := strings.IndexByte(text, '\n')
		ln := text
		if i >= 0 {
			ln = text[:i]
		}
		rows++
		if width > 0 && len(ln) > 0 {
			if w := fyne.MeasureText(ln, size, p.TextStyle).Width; w > width {
				rows += int(w / width)
			}
		}
		if rows > shown {
			return true
		}
		if i < 0 {
			return false
		}
		text = text[i+1:]
	}
}

// AcceptsTab: Tab and Shift+Tab move the focus out of the prompt (to the
// transcript, the buttons) instead of typing a tab, so the keyboard never
// stays shut in the prompt. A pasted tab is kept.
func (p *promptEntry) AcceptsTab() bool { return false }

func (p *promptEntry) FocusLost() {
	p.eatSpace = false
	p.Entry.FocusLost()
}

func newPromptEntry(send func()) *promptEntry {
	p := &promptEntry{onSend: send}
	p.MultiLine = true
	p.Wrapping = fyne.TextWrapWord
	p.ExtendBaseWidget(p)
	return p
}

func isCtrlEnter(s fyne.Shortcut) bool {
	cs, ok := s.(*desktop.CustomShortcut)
	return ok && (cs.KeyName == fyne.KeyReturn || cs.KeyName == fyne.KeyEnter) &&
		cs.Modifier&(fyne.KeyModifierControl|fyne.KeyModifierSuper) != 0
}

// ctrlHomeEnd is Home or End for Ctrl+Home or Ctrl+End.
func ctrlHomeEnd(s fyne.Shortcut) (fyne.KeyName, bool) {
	cs, ok := s.(*desktop.CustomShortcut)
	if !ok || cs.Modifier != fyne.KeyModifierControl || (cs.KeyName != fyne.KeyHome && cs.KeyName != fyne.KeyEnd) {
		return "", false
	}
	return cs.KeyName, true
}

func (p *promptEntry) TypedShortcut(s fyne.Shortcut) {
	if isCtrlEnter(s) {
		if p.onSend != nil {
			p.onSend()
		}
		return
	}
	if k, ok := ctrlHomeEnd(s); ok && p.scrollKey != nil && p.scrollKey(&fyne.KeyEvent{Name: k}) {
		return
	}
	p.Entry.TypedShortcut(s)
}

// choice is one radio option: focusable, Space or a click selects it, and
// other keys go to the dialog. widget.RadioGroup's items cannot pass keys on.
type choice struct {
	widget.BaseWidget
	Label    string
	Selected bool
	group    *choiceGroup
	focused  bool
}

// choiceGroup is a set of choices of which one (or, when multi, several)
// can be selected.
type choiceGroup struct {
	items    []*choice
	multi    bool
	sink     keySink
	OnChange func()
	onFocus  func(fyne.CanvasObject) // an option got the focus (scroll it into view)
}

func newChoiceGroup(options []string, multi bool, sink keySink) *choiceGroup {
	g := &choiceGroup{multi: multi, sink: sink}
	for _, o := range options {
		c := &choice{Label: o, group: g}
		c.ExtendBaseWidget(c)
		g.items = append(g.items, c)
	}
	return g
}

func (g *choiceGroup) objects() []fyne.CanvasObject {
	out := make([]fyne.CanvasObject, len(g.items))
	for i, c := range g.items {
		out[i] = c
	}
	return out
}

// pick toggles (multi) or selects (single) option i.
func (g *choiceGroup) pick(i int) {
	if i < 0 || i >= len(g.items) {
		return
	}
	if g.multi {
		g.items[i].Selected = !g.items[i].Selected
		g.items[i].Refresh()
	} else {
		for j, c := range g.items {
			if c.Selected != (j == i) {
				c.Selected = j == i
				c.Refresh()
			}
		}
	}
	if g.OnChange != nil {
		g.OnChange()
	}
}

func (g *choiceGroup) selected() []string {
	var out []string
	for _, c := range g.items {
		if c.Selected {
			out = append(out, c.Label)
		}
	}
	return out
}

func (g *choiceGroup) index(c *choice) int {
	for i, x := range g.items {
		if x == c {
			return i
		}
	}
	return -1
}

func (c *choice) Tapped(*fyne.PointEvent) {
	if cv := fyne.CurrentApp().Driver().CanvasForObject(c); cv != nil {
		cv.Focus(c)
	}
	c.group.pick(c.group.index(c))
}

func (c *choice) FocusGained() {
	c.focused = true
	c.Refresh()
	if c.group.onFocus != nil {
		c.group.onFocus(c)
	}
}
func (c *choice) FocusLost() { c.focused = false; c.Refresh() }

func (c *choice) TypedRune(r rune) {
	if r == ' ' {
		c.group.pick(c.group.index(c))
		return
	}
	if c.group.sink != nil {
		c.group.sink.rune(r)
	}
}

func (c *choice) TypedKey(ev *fyne.KeyEvent) {
	if c.group.sink != nil {
		c.group.sink.key(ev)
	}
}

func (c *choice) CreateRenderer() fyne.WidgetRenderer {
	r := &choiceRenderer{c: c, icon: widget.NewIcon(nil), label: widget.NewLabel(""),
		focus: canvas.NewRectangle(theme.Color(theme.ColorNameFocus))}
	r.focus.CornerRadius = theme.InputRadiusSize()
	r.Refresh()
	return r
}

type choiceRenderer struct {
	c     *choice
	icon  *widget.Icon
	label *widget.Label
	focus *canvas.Rectangle
}

func (r *choiceRenderer) Layout(s fyne.Size) {
	p := theme.Padding()
	is := theme.IconInlineSize()
	r.focus.Resize(s)
	r.icon.Move(fyne.NewPos(p*2, (s.Height-is)/2))
	r.icon.Resize(fyne.NewSquareSize(is))
	r.label.Move(fyne.NewPos(p*2+is, 0))
	r.label.Resize(fyne.NewSize(s.Width-p*2-is, s.Height))
}

func (r *choiceRenderer) MinSize() fyne.Size {
	m := r.label.MinSize()
	return fyne.NewSize(m.Width+theme.IconInlineSize()+theme.Padding()*2, m.Height)
}

func (r *choiceRenderer) Refresh() {
	var icon fyne.Resource
	switch {
	case r.c.group.multi && r.c.Selected:
		icon = theme.CheckButtonCheckedIcon()
	case r.c.group.multi:
		icon = theme.CheckButtonIcon()
	case r.c.Selected:
		icon = theme.RadioButtonCheckedIcon()
	default:
		icon = theme.RadioButtonIcon()
	}
	if r.c.Selected {
		icon = theme.NewPrimaryThemedResource(icon)
	}
	r.icon.SetResource(icon)
	r.label.SetText(r.c.Label)
	if r.c.focused {
		r.focus.FillColor = theme.Color(theme.ColorNameFocus)
	} else {
		r.focus.FillColor = nil
	}
	r.focus.Refresh()
}

func (r *choiceRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.focus, r.icon, r.label}
}

func (r *choiceRenderer) Destroy() {}

// shiftEntry is an entry that knows whether Shift is held: Fyne passes
// Enter and Tab without their modifiers, and a field that gives them
// another meaning with Shift (a new line, going back) needs to know.
type shiftEntry struct {
	widget.Entry
	shift bool
}

func (e *shiftEntry) KeyDown(ev *fyne.KeyEvent) {
	if ev.Name == desktop.KeyShiftLeft || ev.Name == desktop.KeyShiftRight {
		e.shift = true
	}
	e.Entry.KeyDown(ev)
}

func (e *shiftEntry) KeyUp(ev *fyne.KeyEvent) {
	if ev.Name == desktop.KeyShiftLeft || ev.Name == desktop.KeyShiftRight {
		e.shift = false
	}
	e.Entry.KeyUp(ev)
}

func (e *shiftEntry) FocusLost() {
	e.shift = false
	e.Entry.FocusLost()
}
