package ui

import (
	"net/url"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

// safeSegments draws model-written inline runs so they can do no harm: a
// link shows its target and, tapped, goes to open (which asks first)
// instead of straight to the desktop's URL opener; an image was never
// fetched or read — its run is a line naming its source (imageLabel).
func safeSegments(spans []mdSpan, base widget.RichTextStyle, open func(*url.URL)) []widget.RichTextSegment {
	segs := make([]widget.RichTextSegment, 0, len(spans))
	for _, sp := range spans {
		if sp.link != nil {
			segs = append(segs, &widget.HyperlinkSegment{Text: sp.text, URL: sp.link, Alignment: base.Alignment})
			continue
		}
		st := base
		st.TextStyle.Bold = st.TextStyle.Bold || sp.style&spanBold != 0
		st.TextStyle.Italic = st.TextStyle.Italic || sp.style&spanItalic != 0
		if sp.style&spanCode != 0 {
			st.TextStyle.Monospace = true
		}
		segs = append(segs, &widget.TextSegment{Text: sp.text, Style: st})
	}
	guardSegments(segs, open)
	return segs
}

// imageLabel is what stands for an image: it is never loaded.
func imageLabel(title, src string) string {
	if src == "" {
		src = "(no source)"
	} else {
		src = app.VisibleLine(src)
	}
	if title != "" {
		return "Image “" + app.VisibleLine(title) + "” not loaded: " + src
	}
	return "Image not loaded: " + src
}

func guardSegments(segs []widget.RichTextSegment, open func(*url.URL)) {
	for _, s := range segs {
		if t, ok := s.(*widget.HyperlinkSegment); ok {
			u := t.URL
			if u == nil {
				u = &url.URL{}
			}
			if target := linkTarget(u); target != "" && target != t.Text {
				t.Text = app.VisibleLine(t.Text) + " ⟨" + target + "⟩"
			}
			t.OnTapped = func() {
				if open != nil {
					open(u)
				}
			}
		}
	}
}

// linkTarget is a URL as a person should read it before it opens.
func linkTarget(u *url.URL) string {
	return app.VisibleLine(u.String())
}

// opensInBrowser reports the only schemes Latch hands to the desktop:
// web links. file:, javascript:, data: and anything unknown never open.
func opensInBrowser(u *url.URL) bool {
	s := strings.ToLower(u.Scheme)
	return (s == "http" || s == "https") && u.Host != ""
}

// confirmLink shows a link's whole target before anything happens (the
// transcript's links call it).
func (mw *mainWindow) confirmLink(u *url.URL) { mw.newLinkConfirm(u).Show() }

// newLinkConfirm builds the question for a link on the window's stack. Web
// links can then be opened; every link can be copied.
func (mw *mainWindow) newLinkConfirm(u *url.URL) *modal {
	m := mw.modals.newModal(nil, nil, 520)
	var cancel *kButton
	m.onKey = func(ev *fyne.KeyEvent) bool {
		switch ev.Name {
		case fyne.KeyEscape:
			m.Dismiss()
			return true
		case fyne.KeyReturn, fyne.KeyEnter:
			if f, ok := mw.win.Canvas().Focused().(*kButton); ok {
				f.OnTapped()
			} else {
				cancel.OnTapped()
			}
			return true
		}
		return false
	}
	m.onRune = func(rune) bool { return false }
	target := widget.NewLabel(linkTarget(u))
	target.Wrapping = fyne.TextWrapBreak
	target.TextStyle.Monospace = true
	copyBtn := newKButton("Copy link", theme.ContentCopyIcon(), m, func() {
		mw.app.Clipboard().SetContent(u.String())
		m.Hide()
	})
	cancel = newKButton("Cancel", nil, m, m.Hide)
	var rows []fyne.CanvasObject
	buttons := []fyne.CanvasObject{layout.NewSpacer(), cancel, copyBtn}
	title := "Open this link?"
	if opensInBrowser(u) {
		open := newKButton("Open in browser", theme.ComputerIcon(), m, func() {
			if m.closed {
				return
			}
			m.Hide()
			_ = mw.app.OpenURL(u)
		})
		open.Importance = widget.HighImportance
		buttons = append(buttons, open)
		rows = append(rows, wrapped("Claude's answer links to:"), target)
	} else {
		title = "Latch does not open this link"
		scheme := u.Scheme
		if scheme == "" {
			scheme = "(no scheme)"
		}
		rows = append(rows, target, wrapped("Links of the kind “"+app.VisibleLine(scheme)+"” can run or reveal things on this computer, so Latch never opens them. You can copy it."))
	}
	rows = append(rows, container.NewHBox(buttons...))
	m.dlg = dialog.NewCustomWithoutButtons(title, container.NewVBox(rows...), mw.win)
	m.first = cancel
	return m
}
