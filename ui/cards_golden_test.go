package ui

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"

	"github.com/latch-app/latch/app"
)

// TestCardGoldenImages renders the rows of a turn's end in both themes:
// the error card with its hint and Retry, the retry row, the stopped row
// and the incomplete-answer marker (testdata/card_*_light.png, _dark.png).
func TestCardGoldenImages(t *testing.T) {
	cards := []struct {
		name   string
		events []app.Event
		row    int // the row shown
	}{
		{"error", []app.Event{
			{Kind: app.EvError, Err: &app.ErrorInfo{Title: "The Anthropic API failed (HTTP 529)", Detail: "Overloaded",
				Full: "Overloaded", Hint: "The API is overloaded or rate-limited. Try again in a minute.", Retry: true}},
		}, 0},
		{"retry", []app.Event{
			{Kind: app.EvRetry, Retry: &app.RetryInfo{Attempt: 2, Max: 10, Delay: 4 * time.Second, Status: 500, Text: "Retrying in 4 s — attempt 2 of 10 (HTTP 500)"}},
			{Kind: app.EvRetry, Retry: &app.RetryInfo{Attempt: 3, Max: 10, Delay: 8 * time.Second, Status: 529, Text: "Retrying in 8 s — attempt 3 of 10 (HTTP 529)"}},
		}, 0},
		{"stopped", []app.Event{
			{Kind: app.EvTurnEnd, Turn: &app.TurnInfo{Stopped: true, Note: "Claude Code did not end the turn in time, so its process was ended; the next prompt resumes the session.",
				CostUSD: 0.0123, InputTokens: 12840, OutputTokens: 912, Duration: 3200 * time.Millisecond}},
		}, 0},
		{"incomplete", []app.Event{
			{Kind: app.EvText, BlockID: "a", Text: "I'll run the tests"},
			{Kind: app.EvTurnEnd, Turn: &app.TurnInfo{IsError: true, Incomplete: true}},
		}, 1},
	}
	for _, v := range themeVariants {
		for _, c := range cards {
			t.Run(c.name+"_"+v.name, func(t *testing.T) {
				a := test.NewTempApp(t)
				a.Settings().SetTheme(latchTheme(v.v))
				tr := newTranscript()
				tr.actions.retry = func() {}
				tr.copy = func(string) {}
				for _, ev := range c.events {
					tr.apply(ev)
				}
				rv := newRowView()
				tr.bind(c.row, rv)
				w := test.NewTempWindow(t, container.NewPadded(rv))
				w.Resize(fyne.NewSize(560, 100))
				w.Resize(fyne.NewSize(560, w.Content().MinSize().Height))
				test.AssertImageMatches(t, "card_"+c.name+"_"+v.name+".png", w.Canvas().Capture())
			})
		}
	}
}
