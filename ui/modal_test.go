package ui

import (
	"context"
	"errors"
	"net/url"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/latch-app/latch/app"
)

// button finds the button labelled text under o.
func button(t *testing.T, o fyne.CanvasObject, text string) *kButton {
	t.Helper()
	var found *kButton
	visit(o, func(o fyne.CanvasObject) {
		if b, ok := o.(*kButton); ok && b.Text == text {
			found = b
		}
	})
	if found == nil {
		t.Fatalf("no %q button", text)
	}
	return found
}

// A question withdrawn (its ctx cancelled) while its "grant such a broad
// folder?" confirmation is up takes the confirmation down with it, and the
// keyboard goes back to the prompt box; a late click on the confirmation
// does nothing.
func TestWithdrawnQuestionTakesItsConfirmationDown(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	tests := []struct {
		name string
		open func(h *harness, ctx context.Context) chan app.Decision
		keys func(h *harness) // from the question to the confirmation
	}{
		{"live question", func(h *harness, ctx context.Context) chan app.Decision {
			return ask(h, ctx, app.Question{Tool: "Read", Path: home + "/notes.txt", Folder: home, Rule: "Read(/" + home + "/**)"})
		}, func(h *harness) { typeRunes(h.c, "4") }},
		{"grants after the turn", func(h *harness, ctx context.Context) chan app.Decision {
			res := make(chan app.Decision, 1)
			go func() {
				res <- h.mw.surf.AskGrants(ctx, app.GrantRequest{Round: 1, Folders: []app.FolderGrant{{Path: home, Tool: "Read"}}})
			}()
			return res
		}, func(h *harness) {
			press(h.c, fyne.KeySpace) // tick the folder
			press(h.c, fyne.KeyReturn)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			isolateConfig(t, "")
			h := newHarness(t)
			ctx, cancel := context.WithCancel(context.Background())
			res := tc.open(h, ctx)
			h.q.waitOne(t)
			tc.keys(h)
			if n := len(h.c.Overlays().List()); n != 2 {
				t.Fatalf("%d overlays, want the question and its confirmation", n)
			}
			confirm := h.c.Overlays().Top()
			yes := button(t, confirm, "Grant it anyway")

			cancel()
			h.q.waitOne(t) // the withdrawal
			if d := answer(t, res); d.Action != app.NoAnswer {
				t.Errorf("withdrawn question answered %+v", d)
			}
			if overlayUp(h.c) || confirm.Visible() {
				t.Errorf("overlays %d, confirmation visible %v: the confirmation outlived its question",
					len(h.c.Overlays().List()), confirm.Visible())
			}
			if h.c.Focused() != h.mw.prompt {
				t.Fatalf("the keyboard is on %T, not the prompt box", h.c.Focused())
			}
			yes.OnTapped() // a click that was on its way
			if overlayUp(h.c) || h.mw.modals.keys || h.c.OnTypedRune() != nil {
				t.Error("a click on the withdrawn confirmation changed the window")
			}
			typeRunes(h.c, "ok 4")
			press(h.c, fyne.KeyEscape)
			if h.mw.prompt.Text != "ok 4" || h.c.Focused() != h.mw.prompt {
				t.Errorf("the prompt box has %q and focus %v", h.mw.prompt.Text, h.c.Focused() == h.mw.prompt)
			}
		})
	}
}

// Every dialog is on the window's one stack: a question's confirmation and
// its folder chooser are its children, and an unrelated dialog under a
// question keeps its keyboard once the question is answered.
func TestOneModalStack(t *testing.T) {
	t.Run("the confirmation is the question's child", func(t *testing.T) {
		home := t.TempDir()
		t.Setenv("HOME", home)
		isolateConfig(t, "")
		h := newHarness(t)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		ask(h, ctx, app.Question{Tool: "Read", Folder: home})
		h.q.waitOne(t)
		typeRunes(h.c, "4")
		st := &h.mw.modals.modalStack
		if len(st.open) != 2 || st.open[1].parent != st.open[0] || st.top().owner != nil {
			t.Fatalf("stack %+v, want the question and its confirmation over it", st.open)
		}
		cancel()
		h.q.waitOne(t)
		if st.active() || st.keys {
			t.Errorf("%d dialogs left on the stack, its keys installed %v", len(st.open), st.keys)
		}
	})

	t.Run("Fyne's folder chooser is the question's child", func(t *testing.T) {
		old := portalPick
		t.Cleanup(func() { portalPick = old })
		portalPick = func(string, string) (string, bool, error) { return "", false, errors.New("no portal") }
		dir := t.TempDir()
		h := newHarness(t)
		ctx, cancel := context.WithCancel(context.Background())
		res := ask(h, ctx, app.Question{Tool: "Read", Path: dir + "/f", Folder: dir})
		h.q.waitOne(t)
		browse := button(t, h.c.Overlays().Top(), "Browse…")
		browse.OnTapped()
		h.q.waitOne(t) // the portal failed: Fyne's chooser
		if n := len(h.c.Overlays().List()); n != 2 {
			t.Fatalf("%d overlays, want the question and the chooser", n)
		}
		h.c.Unfocus()
		press(h.c, fyne.KeyEscape) // closes the chooser, and only it
		select {
		case d := <-res:
			t.Fatalf("Esc in the chooser answered the question: %+v", d)
		default:
		}
		if n := len(h.c.Overlays().List()); n != 1 {
			t.Fatalf("%d overlays after Esc in the chooser", n)
		}
		browse.OnTapped()
		h.q.waitOne(t)
		cancel()
		h.q.waitOne(t)
		answer(t, res)
		if overlayUp(h.c) || h.mw.modals.active() || h.c.Focused() != h.mw.prompt {
			t.Errorf("after the withdrawal: overlays %v, stack %d, prompt focused %v",
				overlayUp(h.c), len(h.mw.modals.open), h.c.Focused() == h.mw.prompt)
		}
	})

	t.Run("a link confirmation under a question", func(t *testing.T) {
		h := newHarness(t)
		rec := &recordingApp{App: h.mw.app}
		h.mw.app = rec
		u, _ := url.Parse("https://example.com/a")
		h.mw.confirmLink(u)
		res := ask(h, context.Background(), app.Question{Tool: "Bash", Command: "ls"})
		h.q.waitOne(t)
		if n := len(h.c.Overlays().List()); n != 2 {
			t.Fatalf("%d overlays", n)
		}
		typeRunes(h.c, "1")
		if d := answer(t, res); d.Action != app.AllowOnce {
			t.Fatalf("got %+v", d)
		}
		if n := len(h.c.Overlays().List()); n != 1 || !h.mw.modals.active() {
			t.Fatalf("%d overlays after the answer, want the link's", n)
		}
		if b, ok := h.c.Focused().(*kButton); !ok || b.Text != "Cancel" {
			t.Fatalf("the keyboard is on %v, want the link's Cancel", h.c.Focused())
		}
		press(h.c, fyne.KeyEscape)
		if overlayUp(h.c) || h.c.Focused() != h.mw.prompt || len(rec.opened) != 0 {
			t.Errorf("after Esc: overlays %v, prompt focused %v, opened %v", overlayUp(h.c), h.c.Focused() == h.mw.prompt, rec.opened)
		}
	})

	t.Run("a dialog going down under another leaves that one up", func(t *testing.T) {
		h := newHarness(t)
		u, _ := url.Parse("https://example.com/a")
		link := h.mw.newLinkConfirm(u)
		link.Show()
		res := ask(h, context.Background(), app.Question{Tool: "Bash", Command: "ls"})
		h.q.waitOne(t)
		question := h.c.Overlays().Top()
		link.Hide() // Fyne takes the overlays above it down too
		if n := len(h.c.Overlays().List()); n != 1 || h.c.Overlays().Top() != question || !question.Visible() {
			t.Fatalf("%d overlays; the question is up: %v", n, h.c.Overlays().Top() == question)
		}
		typeRunes(h.c, "1")
		if d := answer(t, res); d.Action != app.AllowOnce {
			t.Fatalf("got %+v", d)
		}
		if overlayUp(h.c) || h.mw.modals.active() || h.c.Focused() != h.mw.prompt {
			t.Errorf("after the answer: overlays %v, stack %d, prompt focused %v", overlayUp(h.c), len(h.mw.modals.open), h.c.Focused() == h.mw.prompt)
		}
	})

	t.Run("closing Preferences takes its confirmation down", func(t *testing.T) {
		h, home := prefsHarness(t, "")
		p := openPrefs(t, h)
		c := p.win.Canvas()
		var answers []bool
		p.modals.confirmBroad(nil, []string{home}, func(force bool) { answers = append(answers, force) })
		if c.Overlays().Top() == nil {
			t.Fatal("no second question for the home folder")
		}
		yes := button(t, c.Overlays().Top(), "Grant it anyway")
		p.Dismiss()
		yes.OnTapped()
		if len(answers) != 0 || p.modals.active() || c.Overlays().Top() != nil {
			t.Errorf("answers %v, stack %d, overlay %v after Preferences closed", answers, len(p.modals.open), c.Overlays().Top())
		}
	})
}
