package ui

import (
	"context"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/latch-app/latch/app"
)

// TestGoldenImages renders the window, with and without its dialogs, and
// compares with testdata/*.png (on a mismatch fyne writes
// testdata/failed/*.png to look at).
func TestGoldenImages(t *testing.T) {
	turn := func(h *harness) {
		s := h.mw.surf
		s.Show(app.Event{Kind: app.EvStatus, Status: &app.Status{State: app.Idle, SessionID: "4f1c2a9e-77b0", Model: "claude-sonnet-4-5", Prompts: "live"}})
		s.Show(app.Event{Kind: app.EvPrompt, Text: "Fix the failing cart tests"})
		s.Show(app.Event{Kind: app.EvThinking, BlockID: "t", Text: "Run the suite first."})
		s.Show(app.Event{Kind: app.EvText, BlockID: "a", Text: "I'll run the tests to see **what fails**."})
		s.Show(app.Event{Kind: app.EvToolCall, Tool: &app.ToolCall{ID: "1", Name: "Bash", Summary: "go test ./..."}})
		s.Show(app.Event{Kind: app.EvToolResult, Tool: &app.ToolCall{ID: "1", Result: "FAIL shop/cart", IsError: true}})
		s.Show(app.Event{Kind: app.EvToolCall, Tool: &app.ToolCall{ID: "2", Name: "Write", Summary: "/srv/shared/money.go"}})
		s.Show(app.Event{Kind: app.EvToolResult, Tool: &app.ToolCall{ID: "2", Denial: "blocked: permission channel closed", Grantable: true, IsError: true}})
		s.Show(app.Event{Kind: app.EvError, Err: &app.ErrorInfo{Title: "API error 529", Detail: "Anthropic's API is overloaded. Try again in a minute."}})
		s.Show(app.Event{Kind: app.EvTurnEnd, Turn: &app.TurnInfo{CostUSD: 0.0412, InputTokens: 12840, OutputTokens: 912, Denials: 1,
			Duration: 8400 * time.Millisecond, SessionCostUSD: 0.0412, SessionInputTokens: 12840, SessionOutputTokens: 912}})
		s.flush()
	}
	tests := []struct {
		name   string
		dialog func(t *testing.T, h *harness)
	}{
		{"transcript", nil},
		{"ask", func(t *testing.T, h *harness) {
			ask(h, context.Background(), app.Question{Tool: "Bash", Description: "Install the dependencies",
				Command: "npm install left-pad", Rule: "Bash(npm install:*)", Folder: "/srv/shared"})
			h.q.waitOne(t)
		}},
		{"grants", func(t *testing.T, h *harness) {
			go h.mw.surf.AskGrants(context.Background(), app.GrantRequest{Round: 1,
				Tools:   []app.ToolGrant{{Rule: "Bash(npm install:*)", Tool: "Bash", Reason: "needs approval", Example: "npm install left-pad"}},
				Folders: []app.FolderGrant{{Path: "/srv/shared", Tool: "Write", Write: true, Reason: "outside the working folder"}}})
			h.q.waitOne(t)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			h.mw.workdir = "/home/ada/shop"
			h.mw.status.Prompts = "live"
			h.mw.status.DangerousSkip = false
			h.mw.win.Resize(fyne.NewSize(820, 640))
			turn(h)
			if tc.dialog != nil {
				tc.dialog(t, h)
			}
			test.AssertImageMatches(t, tc.name+".png", h.c.Capture())
		})
	}
}
