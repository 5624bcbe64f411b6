package ui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

var editQuestion = app.Question{
	Tool: "Edit", Description: "Fix the rounding", Path: "/w/cart.go",
	Diff:        "--- a/cart.go\n+++ b/cart.go\n@@ -1 +1 @@\n-return x * 1.0000001\n+return math.Round(x)",
	Rule:        "Edit(/w/**)",
	BlockedPath: "/w/cart.go", Reason: "outside the allowed folders",
}

// openAsk puts q up and returns the dialog's answer channel.
func openAsk(t *testing.T, h *harness, q app.Question) chan app.Decision {
	t.Helper()
	res := ask(h, context.Background(), q)
	h.q.waitOne(t)
	if !overlayUp(h.c) {
		t.Fatal("no dialog")
	}
	return res
}

func currentAsk(h *harness) *askDialog {
	return h.mw.modals.cur.m.owner.(*askDialog)
}

func TestAskDialogKeys(t *testing.T) {
	tests := []struct {
		name  string
		q     app.Question
		keys  func(h *harness)
		want  app.Decision
		force bool
	}{
		{"1 allows once", editQuestion, func(h *harness) { typeRunes(h.c, "1") }, app.Decision{Action: app.AllowOnce}, false},
		{"Enter presses the focused button", editQuestion, func(h *harness) { press(h.c, fyne.KeyReturn) }, app.Decision{Action: app.AllowOnce}, false},
		{"Space presses the focused button", editQuestion, func(h *harness) { press(h.c, fyne.KeySpace) }, app.Decision{Action: app.AllowOnce}, false},
		{"2 always allows the rule in this project", editQuestion, func(h *harness) { typeRunes(h.c, "2") },
			app.Decision{Action: app.AllowAlways, Rule: "Edit(/w/**)", Scope: app.ScopeProject}, false},
		{"all my projects", editQuestion, func(h *harness) {
			h.c.Focus(currentAsk(h).scope.items[2])
			press(h.c, fyne.KeySpace)
			typeRunes(h.c, "2")
		}, app.Decision{Action: app.AllowAlways, Rule: "Edit(/w/**)", Scope: app.ScopeUser}, false},
		{"this session", editQuestion, func(h *harness) {
			h.c.Focus(currentAsk(h).scope.items[0])
			press(h.c, fyne.KeySpace)
			typeRunes(h.c, "2")
		}, app.Decision{Action: app.AllowAlways, Rule: "Edit(/w/**)", Scope: app.ScopeOnce}, false},
		{"3 denies with Latch's words", editQuestion, func(h *harness) { typeRunes(h.c, "3") },
			app.Decision{Action: app.Deny, Message: app.DefaultDenyMessage}, false},
		{"Esc denies and stops", editQuestion, func(h *harness) { press(h.c, fyne.KeyEscape) },
			app.Decision{Action: app.DenyStop, Message: app.DefaultDenyMessage}, false},
		{"Tab to Deny, Enter", editQuestion, func(h *harness) {
			press(h.c, fyne.KeyTab)
			press(h.c, fyne.KeyTab)
			press(h.c, fyne.KeyReturn)
		}, app.Decision{Action: app.Deny, Message: app.DefaultDenyMessage}, false},
		{"edited rule, this project", editQuestion, func(h *harness) {
			d := currentAsk(h)
			h.c.Focus(d.rule)
			d.rule.SetText("")
			typeRunes(h.c, "Edit(/w/src/**)")
			shiftTab(h.c)
			h.c.Focus(d.scope.items[1])
			press(h.c, fyne.KeySpace)
			typeRunes(h.c, "2")
		}, app.Decision{Action: app.AllowAlways, Rule: "Edit(/w/src/**)", Scope: app.ScopeProject}, false},
		{"Enter on a save-in option always allows there", editQuestion, func(h *harness) {
			d := currentAsk(h)
			h.c.Focus(d.scope.items[1])
			press(h.c, fyne.KeySpace)
			press(h.c, fyne.KeyReturn)
		}, app.Decision{Action: app.AllowAlways, Rule: "Edit(/w/**)", Scope: app.ScopeProject}, false},
		{"deny with my words, Enter in the field", editQuestion, func(h *harness) {
			h.c.Focus(currentAsk(h).msg)
			typeRunes(h.c, "use 2 spaces")
			press(h.c, fyne.KeyReturn)
		}, app.Decision{Action: app.Deny, Message: "use 2 spaces"}, false},
		{"4 grants the folder", app.Question{Tool: "Read", Path: "/tmp/x", Folder: "/tmp", Rule: "Read(//tmp/**)"}, func(h *harness) { typeRunes(h.c, "4") },
			app.Decision{Action: app.GrantFolder, Folder: "/tmp", Scope: app.ScopeProject}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			isolateConfig(t, "")
			h := newHarness(t)
			res := openAsk(t, h, tc.q)
			tc.keys(h)
			d := answer(t, res)
			if d.Action != tc.want.Action || d.Rule != tc.want.Rule || d.Message != tc.want.Message ||
				d.Folder != tc.want.Folder || d.Scope != tc.want.Scope || d.Force != tc.force {
				t.Errorf("got %+v, want %+v", d, tc.want)
			}
			if overlayUp(h.c) {
				t.Error("dialog still up")
			}
			if h.mw.prompt.Text != "" {
				t.Errorf("keys reached the prompt box: %q", h.mw.prompt.Text)
			}
			if h.c.Focused() != h.mw.prompt {
				t.Error("prompt box does not have the focus after the answer")
			}
		})
	}
}

func TestAskDialogFocusStartsOnAButton(t *testing.T) {
	h := newHarness(t)
	h.c.Focus(h.mw.prompt)
	openAsk(t, h, editQuestion)
	b, ok := h.c.Focused().(*kButton)
	if !ok || !strings.Contains(b.Text, "Allow once") {
		t.Fatalf("focus is on %T", h.c.Focused())
	}
}

func TestAskDialogDigitsTypeIntoTextFields(t *testing.T) {
	h := newHarness(t)
	res := openAsk(t, h, editQuestion)
	d := currentAsk(h)
	h.c.Focus(d.msg)
	typeRunes(h.c, "123")
	if d.msg.Text != "123" {
		t.Fatalf("message field = %q", d.msg.Text)
	}
	select {
	case got := <-res:
		t.Fatalf("digits in a text field answered %+v", got)
	default:
	}
	if h.mw.prompt.Text != "" {
		t.Errorf("prompt box got %q", h.mw.prompt.Text)
	}
}

func TestAskDialogShowsTheCall(t *testing.T) {
	h := newHarness(t)
	openAsk(t, h, editQuestion)
	texts := strings.Join(allText(h.c.Overlays().Top()), "\n")
	for _, want := range []string{"Allow Edit?", "Fix the rounding", "+return math.Round(x)", "-return x * 1.0000001",
		"Blocked path: /w/cart.go", "outside the allowed folders", "Edit(/w/**)", "1  Allow once", "2  Always allow", "3  Deny"} {
		if !strings.Contains(texts, want) {
			t.Errorf("dialog does not show %q", want)
		}
	}
	if strings.Contains(texts, "Grant folder") {
		t.Error("offers a folder grant without a folder")
	}
}

func TestAskUserQuestion(t *testing.T) {
	h := newHarness(t)
	q := app.Question{Tool: "AskUserQuestion", Questions: []app.AskItem{
		{Question: "Which database?", Header: "DB", Options: []string{"Postgres", "SQLite", "None"}},
		{Question: "Which extras?", Options: []string{"Docker", "CI"}, MultiSelect: true},
	}}
	res := openAsk(t, h, q)
	d := currentAsk(h)
	if c, ok := h.c.Focused().(*choice); !ok || c.Label != "Postgres" {
		t.Fatalf("focus is on %v", h.c.Focused())
	}
	typeRunes(h.c, "2") // second option of the focused question
	h.c.Focus(d.groups[1].items[0])
	press(h.c, fyne.KeySpace)
	press(h.c, fyne.KeyTab)
	press(h.c, fyne.KeySpace)
	press(h.c, fyne.KeyReturn)
	got := answer(t, res)
	if got.Action != app.AllowOnce || got.Answers["Which database?"] != "SQLite" || got.Answers["Which extras?"] != "Docker, CI" {
		t.Errorf("got %+v", got)
	}
}

// allText collects the text of labels, entries, buttons and grids under o.
func allText(o fyne.CanvasObject) []string {
	var out []string
	visit(o, func(o fyne.CanvasObject) {
		switch w := o.(type) {
		case *widget.Label:
			out = append(out, w.Text)
		case *kEntry:
			out = append(out, w.Text)
		case *kButton:
			out = append(out, w.Text)
		case *kCheck:
			out = append(out, w.Text)
		case *widget.TextGrid:
			out = append(out, w.Text())
		case *widget.RichText:
			out = append(out, w.String())
		}
	})
	return out
}
