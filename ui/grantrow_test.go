package ui

import (
	"strings"
	"testing"

	"github.com/latch-app/latch/app"
)

// granterRunner is a fakeRunner that records Undo and GrantLater.
type granterRunner struct {
	*fakeRunner
	undone, later chan string
}

func (g *granterRunner) Undo(id string) error       { g.undone <- id; return nil }
func (g *granterRunner) GrantLater(id string) error { g.later <- id; return nil }

func granterHarness(t *testing.T) (*harness, *granterRunner) {
	h := newHarness(t)
	g := &granterRunner{fakeRunner: h.r, undone: make(chan string, 1), later: make(chan string, 1)}
	h.mw.mu.Lock()
	h.mw.runner = g
	h.mw.mu.Unlock()
	return h, g
}

// Every grant is a row with an Undo; the undo shows in place.
func TestGrantRowUndo(t *testing.T) {
	h, g := granterHarness(t)
	s := h.mw.surf
	s.Show(app.Event{Kind: app.EvGrant, Grant: &app.GrantInfo{ID: "g1", Text: "Saved Bash(npm test:*) to /w/.claude/settings.local.json"}})
	s.flush()
	rv := visibleRow(t, h.mw.tr, 0)
	if rv.grant == nil || !strings.Contains(rv.grant.text.Text, "Saved Bash(npm test:*) to /w/.claude/settings.local.json") || !rv.grant.undo.Visible() {
		t.Fatalf("grant row %+v", rv.grant)
	}
	rv.grant.undo.OnTapped()
	if id := <-g.undone; id != "g1" {
		t.Errorf("undo of %q", id)
	}
	s.Show(app.Event{Kind: app.EvGrant, Grant: &app.GrantInfo{ID: "g1", Text: "Undone: Bash(npm test:*) is no longer allowed.", Undone: true}})
	s.flush()
	rv = visibleRow(t, h.mw.tr, 0)
	if rv.grant.undo.Visible() || !strings.HasSuffix(rv.grant.text.Text, "— undone") {
		t.Errorf("after the undo: %q, Undo visible %v", rv.grant.text.Text, rv.grant.undo.Visible())
	}
	if n := len(h.mw.tr.entries); n != 2 || h.mw.tr.entries[1].kind != rowNotice {
		t.Errorf("%d rows; want the grant and a notice of its undo", n)
	}
}

// A refused call keeps a Grant… after the turn.
func TestToolCardGrantLater(t *testing.T) {
	h, g := granterHarness(t)
	s := h.mw.surf
	s.Show(app.Event{Kind: app.EvToolCall, Tool: &app.ToolCall{ID: "toolu_9", Name: "Bash", Summary: "rm x"}})
	s.flush()
	if visibleRow(t, h.mw.tr, 0).tool.grant.Visible() {
		t.Fatal("Grant… on a running call")
	}
	s.Show(app.Event{Kind: app.EvToolResult, Tool: &app.ToolCall{ID: "toolu_9", Denial: "denied by you", Grantable: true, IsError: true}})
	s.flush()
	rv := visibleRow(t, h.mw.tr, 0)
	if !rv.tool.grant.Visible() {
		t.Fatal("no Grant… on a refused call")
	}
	rv.tool.grant.OnTapped()
	if id := <-g.later; id != "toolu_9" {
		t.Errorf("grant later of %q", id)
	}
}

// Latch's own retry message is shown as Latch's, not as the person's.
func TestAutoPromptIsLatchs(t *testing.T) {
	h := newHarness(t)
	s := h.mw.surf
	s.Show(app.Event{Kind: app.EvPrompt, Text: app.RetryMessage, Auto: true})
	s.flush()
	if got := visibleRow(t, h.mw.tr, 0).user.head.Text; got != "Latch" {
		t.Errorf("retry row headed %q", got)
	}
}

// A link in an answer asks before it opens.
func TestAnswerLinksAskFirst(t *testing.T) {
	h := newHarness(t)
	rec := &recordingApp{App: h.mw.app}
	h.mw.app = rec
	s := h.mw.surf
	s.Show(app.Event{Kind: app.EvText, BlockID: "a", Text: "See [the docs](https://example.com/docs) or [this](file:///etc/passwd)."})
	s.flush()
	ls := links(mdSegments(visibleRow(t, h.mw.tr, 0).assistant))
	if len(ls) != 2 {
		t.Fatalf("%d links", len(ls))
	}
	ls[1].OnTapped()
	if len(rec.opened) != 0 || !overlayUp(h.c) {
		t.Fatalf("tapping a file: link opened %v / asked %v", rec.opened, overlayUp(h.c))
	}
	if !strings.Contains(strings.Join(allText(h.c.Overlays().Top()), " "), "file:///etc/passwd") {
		t.Error("the confirmation does not show the target")
	}
}

// An error shows its end; Copy gives the whole text.
func TestErrorCardCopiesTheWholeText(t *testing.T) {
	h := newHarness(t)
	full := strings.Repeat("noise line\n", 40000) + "the real reason: XYZ"
	h.mw.surf.Show(app.Event{Kind: app.EvError, Err: &app.ErrorInfo{Title: "Claude Code exited before it started the turn",
		Detail: "…\nthe real reason: XYZ", Full: full}})
	h.mw.surf.flush()
	rv := visibleRow(t, h.mw.tr, 0)
	if !strings.Contains(rv.errCard.body.Text, "the real reason: XYZ") {
		t.Errorf("card shows %q", rv.errCard.body.Text)
	}
	rv.errCopy.OnTapped()
	if got := h.mw.app.Clipboard().Content(); got != full {
		t.Errorf("copied %d bytes, want %d", len(got), len(full))
	}
}
