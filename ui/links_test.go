package ui

import (
	"net/url"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// recordingApp notes every URL handed to the desktop's opener.
type recordingApp struct {
	fyne.App
	opened []string
}

func (a *recordingApp) OpenURL(u *url.URL) error {
	a.opened = append(a.opened, u.String())
	return nil
}

func links(segs []widget.RichTextSegment) []*widget.HyperlinkSegment {
	var out []*widget.HyperlinkSegment
	for _, s := range segs {
		switch t := s.(type) {
		case *widget.HyperlinkSegment:
			out = append(out, t)
		case *widget.ParagraphSegment:
			out = append(out, links(t.Texts)...)
		case *widget.ListSegment:
			out = append(out, links(t.Items)...)
		}
	}
	return out
}

func TestLinksShowTheirTargetAndAskFirst(t *testing.T) {
	tests := []struct {
		md, target string
		opens      bool
	}{
		{"See [the docs](https://example.com/docs).", "https://example.com/docs", true},
		{"- item with [a link](http://example.org/x)", "http://example.org/x", true},
		{"[report](file:///home/me/.ssh/id_rsa)", "file:///home/me/.ssh/id_rsa", false},
		{"[click](javascript:alert(1))", "javascript:alert(1)", false},
		{"[pic](data:text/html;base64,PHNjcmlwdD4=)", "data:text/html;base64,PHNjcmlwdD4=", false},
		{"[app](vscode://file/etc/passwd)", "vscode://file/etc/passwd", false},
		{"[rel](../secrets.txt)", "../secrets.txt", false},
	}
	for _, tc := range tests {
		t.Run(tc.target, func(t *testing.T) {
			h := newHarness(t)
			rec := &recordingApp{App: h.mw.app}
			h.mw.app = rec
			var tapped []*url.URL
			segs := safeMarkdown(tc.md, func(u *url.URL) { tapped = append(tapped, u); h.mw.confirmLink(u) })
			ls := links(segs)
			if len(ls) != 1 {
				t.Fatalf("%d links in %q", len(ls), tc.md)
			}
			if !strings.Contains(ls[0].Text, tc.target) {
				t.Errorf("link text %q does not show its target", ls[0].Text)
			}
			ls[0].OnTapped()
			if len(rec.opened) != 0 {
				t.Fatalf("a tap opened %v before asking", rec.opened)
			}
			if !overlayUp(h.c) {
				t.Fatal("no confirmation shown")
			}
			texts := strings.Join(allText(h.c.Overlays().Top()), "\n")
			if !strings.Contains(texts, tc.target) {
				t.Errorf("confirmation does not show %q: %s", tc.target, texts)
			}
			hasOpen := strings.Contains(texts, "Open in browser")
			if hasOpen != tc.opens {
				t.Fatalf("offers Open = %v, want %v", hasOpen, tc.opens)
			}
			if tc.opens {
				// Tab from Cancel to Copy to Open, then Enter.
				press(h.c, fyne.KeyTab)
				press(h.c, fyne.KeyTab)
				press(h.c, fyne.KeyReturn)
				if len(rec.opened) != 1 || rec.opened[0] != tc.target {
					t.Errorf("opened %v, want %s", rec.opened, tc.target)
				}
			} else {
				press(h.c, fyne.KeyTab)
				press(h.c, fyne.KeyReturn) // Copy link
				if got := h.mw.app.Clipboard().Content(); got != tc.target {
					t.Errorf("clipboard = %q, want %q", got, tc.target)
				}
				if len(rec.opened) != 0 {
					t.Errorf("opened %v", rec.opened)
				}
			}
			if overlayUp(h.c) {
				t.Error("confirmation still up")
			}
		})
	}
}

func TestEscClosesLinkConfirmation(t *testing.T) {
	h := newHarness(t)
	rec := &recordingApp{App: h.mw.app}
	h.mw.app = rec
	u, _ := url.Parse("https://example.com")
	h.mw.confirmLink(u)
	press(h.c, fyne.KeyEscape)
	if overlayUp(h.c) || len(rec.opened) != 0 {
		t.Errorf("Esc left the dialog up or opened %v", rec.opened)
	}
}

// Images in an answer are never fetched or read; they become text.
func TestMarkdownImagesAreNotLoaded(t *testing.T) {
	segs := safeMarkdown("Look: ![tracker](https://x.example/t.png?u=me) and ![k](/home/me/.ssh/id_rsa)", nil)
	var text []string
	var walk func([]widget.RichTextSegment)
	walk = func(ss []widget.RichTextSegment) {
		for _, s := range ss {
			switch seg := s.(type) {
			case *widget.ImageSegment:
				t.Errorf("an image segment for %v is left in place", seg.Source)
			case *widget.ParagraphSegment:
				walk(seg.Texts)
			case *widget.TextSegment:
				text = append(text, seg.Text)
			}
		}
	}
	walk(segs)
	all := strings.Join(text, " ")
	for _, want := range []string{"https://x.example/t.png?u=me", "/home/me/.ssh/id_rsa"} {
		if !strings.Contains(all, want) {
			t.Errorf("the image's source %q is not named: %q", want, all)
		}
	}
}
