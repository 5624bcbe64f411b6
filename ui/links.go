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

// safeMarkdown parses model-written markdown into segments that can do no
// harm: a link shows its target and, tapped, goes to open (which asks
// first) instead of straight to the desktop's URL opener; an image is never
// fetched or read — it becomes a line naming its source. The segments come
// from a widget that was never shown, so nothing was loaded while parsing.
func safeMarkdown(md string, open func(*url.URL)) []widget.RichTextSegment {
	segs := widget.NewRichTextFromMarkdown(md).Segments
	guardSegments(segs, open)
	return segs
}

func guardSegments(segs []widget.RichTextSegment, open func(*url.URL)) {
	for i, s := range segs {
		switch t := s.(type) {
		case *widget.HyperlinkSegment:
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
		case *widget.ImageSegment:
			src := "(no source)"
			if t.Source != nil {
				src = app.VisibleLine(t.Source.String())
			}
			label := "Image not loaded: " + src
			if t.Title != "" {
				label = "Image “" + app.VisibleLine(t.Title) + "” not loaded: " + src
			}
			segs[i] = &widget.TextSegment{Style: widget.RichTextStyleParagraph, Text: label}
		case *widget.ParagraphSegment:
			guardSegments(t.Texts, open)
		case *widget.ListSegment:
			guardSegments(t.Items, open)
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
