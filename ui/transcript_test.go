package ui

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

func TestStreamedDeltasCoalesceIntoLastRow(t *testing.T) {
	h := newHarness(t)
	s := h.mw.surf
	s.Show(app.Event{Kind: app.EvPrompt, Text: "hello"})
	words := strings.Fields("one two three four five six seven eight nine ten")
	for _, w := range words {
		s.Show(app.Event{Kind: app.EvThinking, BlockID: "t", Text: w + " "})
	}
	for _, w := range words {
		s.Show(app.Event{Kind: app.EvText, BlockID: "a", Text: w + " "})
	}
	s.flush()
	got := kinds(h.mw.tr)
	if want := "user thinking assistant"; got != want {
		t.Fatalf("rows = %q, want %q", got, want)
	}
	if txt := h.mw.tr.entries[2].text.String(); txt != strings.Join(words, " ")+" " {
		t.Errorf("assistant row = %q", txt)
	}
	// A new block is a new row; more deltas of it grow only that row.
	s.Show(app.Event{Kind: app.EvText, BlockID: "b", Text: "second"})
	s.Show(app.Event{Kind: app.EvText, BlockID: "b", Text: " block"})
	s.flush()
	if n := len(h.mw.tr.entries); n != 4 {
		t.Fatalf("%d rows, want 4", n)
	}
	if txt := h.mw.tr.entries[3].text.String(); txt != "second block" {
		t.Errorf("last row = %q", txt)
	}
	// The visible assistant row shows the markdown of the whole block.
	rv := visibleRow(t, h.mw.tr, 3)
	if got := mdText(rv.assistant); got != "second block" {
		t.Errorf("rendered %q", got)
	}
}

// The prompt row is the session's: the window shows the prompt when the
// session says it has it, once, and Latch's own retry message as such.
func TestPromptRowComesFromTheSession(t *testing.T) {
	h := newHarness(t)
	quiet := &fakeRunner{id: "session-quiet"}
	h.mw.opts.NewRunner = func(string, app.Surface) (Runner, error) { return quiet, nil }
	h.mw.prompt.SetText("do it")
	h.mw.send()
	h.q.waitOne(t)
	if got := kinds(h.mw.tr); got != "" {
		t.Fatalf("rows before the session spoke = %q", got)
	}
	h.mw.surf.Show(app.Event{Session: quiet.id, Kind: app.EvPrompt, Text: "do it"})
	h.mw.surf.Show(app.Event{Session: quiet.id, Kind: app.EvPrompt, Text: app.RetryMessage, Auto: true})
	h.mw.surf.flush()
	if got := kinds(h.mw.tr); got != "user user" {
		t.Fatalf("rows = %q, want the prompt once and the retry message", got)
	}
	if h.mw.tr.entries[0].auto || !h.mw.tr.entries[1].auto {
		t.Error("the retry message is not marked as Latch's own, or the prompt is")
	}
}

func TestToolCardShowsDenialInWords(t *testing.T) {
	tests := []struct {
		name      string
		result    app.ToolCall
		state     string
		denial    string
		stateImp  widget.Importance
		showsDeny bool
	}{
		{"channel closed", app.ToolCall{ID: "1", Denial: "blocked: permission channel closed", Grantable: true, IsError: true},
			"denied", "Blocked: permission channel closed. Grant… offers it again, and Claude retries it.", widget.DangerImportance, true},
		{"by rule", app.ToolCall{ID: "1", Denial: "denied by rule", IsError: true},
			"denied", "Denied by rule.", widget.DangerImportance, true},
		{"error", app.ToolCall{ID: "1", Result: "exit status 1", IsError: true}, "error", "", widget.DangerImportance, false},
		{"ok", app.ToolCall{ID: "1", Result: "fine"}, "done", "", widget.SuccessImportance, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			s := h.mw.surf
			s.Show(app.Event{Kind: app.EvToolCall, Tool: &app.ToolCall{ID: "1", Name: "Bash", Summary: "touch x"}})
			s.flush()
			rv := visibleRow(t, h.mw.tr, 0)
			if rv.tool.state.Text != "running…" {
				t.Errorf("state before result = %q", rv.tool.state.Text)
			}
			s.Show(app.Event{Kind: app.EvToolResult, Tool: &tc.result})
			s.flush()
			if n := len(h.mw.tr.entries); n != 1 {
				t.Fatalf("%d rows, want the one tool card", n)
			}
			rv = visibleRow(t, h.mw.tr, 0)
			tcard := rv.tool
			if tcard.name.Text != "Bash" || tcard.summary.Text != "touch x" {
				t.Errorf("card lost its call: %q %q", tcard.name.Text, tcard.summary.Text)
			}
			if tcard.state.Text != tc.state || tcard.state.Importance != tc.stateImp {
				t.Errorf("state = %q/%v, want %q/%v", tcard.state.Text, tcard.state.Importance, tc.state, tc.stateImp)
			}
			if tcard.denial.Visible() != tc.showsDeny || (tc.showsDeny && tcard.denial.Text != tc.denial) {
				t.Errorf("denial = %v %q, want %v %q", tcard.denial.Visible(), tcard.denial.Text, tc.showsDeny, tc.denial)
			}
		})
	}
}

func TestToolCardExpandsResultInRed(t *testing.T) {
	h := newHarness(t)
	s := h.mw.surf
	s.Show(app.Event{Kind: app.EvToolCall, Tool: &app.ToolCall{ID: "x", Name: "Bash", Summary: "make"}})
	s.Show(app.Event{Kind: app.EvToolResult, Tool: &app.ToolCall{ID: "x", Result: "line1\nline2", IsError: true}})
	s.flush()
	rv := visibleRow(t, h.mw.tr, 0)
	before := rv.Size().Height
	if rv.tool.details.Visible() {
		t.Fatal("details shown before they were asked for")
	}
	rv.tool.toggle.OnTapped()
	rv = visibleRow(t, h.mw.tr, 0)
	if !rv.tool.details.Visible() || rv.tool.result.Text() != "line1\nline2" {
		t.Fatalf("expanded result = %q", rv.tool.result.Text())
	}
	if rv.Size().Height <= before {
		t.Errorf("row height %v did not grow from %v", rv.Size().Height, before)
	}
	if st := rv.tool.result.Rows[0].Style; st == nil || st.TextColor() == nil {
		t.Error("error result is not coloured")
	}
	if rv.tool.resLbl.Importance != widget.DangerImportance {
		t.Error("error caption is not red")
	}
}

func TestErrorsShowInPlaceInRed(t *testing.T) {
	h := newHarness(t)
	s := h.mw.surf
	s.Show(app.Event{Kind: app.EvText, BlockID: "a", Text: "working"})
	s.Show(app.Event{Kind: app.EvError, Err: &app.ErrorInfo{Title: "Claude Code CLI not found",
		Detail: "Install it with npm install -g @anthropic-ai/claude-code, or set the command in Preferences."}})
	s.Show(app.Event{Kind: app.EvTurnEnd, Turn: &app.TurnInfo{IsError: true, ErrorText: "API error 500"}})
	// A turn that failed with no error of the session's gets a card here.
	s.Show(app.Event{Kind: app.EvPrompt, Text: "again"})
	s.Show(app.Event{Kind: app.EvTurnEnd, Turn: &app.TurnInfo{IsError: true, ErrorText: "API error 500"}})
	s.flush()
	// The session's error card says it once; the turn line adds no second one.
	if got := kinds(h.mw.tr); got != "assistant error turn user error turn" {
		t.Fatalf("rows = %q", got)
	}
	for _, id := range []int{1, 4} {
		rv := visibleRow(t, h.mw.tr, id)
		if rv.errCard.head.Importance != widget.DangerImportance || rv.errCard.body.Importance != widget.DangerImportance {
			t.Errorf("row %d is not red", id)
		}
	}
	if rv := visibleRow(t, h.mw.tr, 1); rv.errCard.head.Text != "Claude Code CLI not found" {
		t.Errorf("title = %q", rv.errCard.head.Text)
	}
	if rv := visibleRow(t, h.mw.tr, 4); rv.errCard.body.Text != "API error 500" {
		t.Errorf("turn error = %q", rv.errCard.body.Text)
	}
	for _, id := range []int{2, 5} {
		if line := visibleRow(t, h.mw.tr, id).turn.Text; strings.Contains(line, "failed") || strings.Contains(line, "Turn finished") {
			t.Errorf("turn line %q after a failure: want the figures only", line)
		}
	}
}

func TestRowHeightsFollowContent(t *testing.T) {
	h := newHarness(t)
	long := strings.Repeat("a long paragraph of words that wraps ", 40)
	h.mw.surf.Show(app.Event{Kind: app.EvText, BlockID: "s", Text: "short"})
	h.mw.surf.Show(app.Event{Kind: app.EvText, BlockID: "l", Text: long})
	h.mw.surf.flush()
	l := h.mw.tr.list
	short, tall := l.heights.at(0), l.heights.at(1)
	if tall < 3*short {
		t.Errorf("wrapped row is %v tall, one-line row %v", tall, short)
	}
	for id := 0; id < 2; id++ {
		rv := visibleRow(t, h.mw.tr, id)
		if got, want := rv.Size().Height, rv.MinSize().Height; got != want {
			t.Errorf("row %d laid out %v tall, needs %v", id, got, want)
		}
	}
}

func TestHeightIndexMatchesPrefixSums(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var h heightIndex
	var naive []float64
	for step := 0; step < 5000; step++ {
		if len(naive) == 0 || rng.Intn(3) > 0 {
			x := float64(1 + rng.Intn(100))
			h.push(x)
			naive = append(naive, x)
		} else {
			i := rng.Intn(len(naive))
			x := float64(1 + rng.Intn(100))
			h.set(i, x)
			naive[i] = x
		}
		if step%97 == 0 {
			sum := 0.0
			for i, x := range naive {
				if got := h.offset(i); got != sum {
					t.Fatalf("offset(%d) = %v, want %v", i, got, sum)
				}
				if got := h.find(sum + x/2); got != i {
					t.Fatalf("find(%v) = %d, want %d", sum+x/2, got, i)
				}
				sum += x
			}
			if h.total() != sum {
				t.Fatalf("total = %v, want %v", h.total(), sum)
			}
		}
	}
}

func TestTranscriptFollowsTheEnd(t *testing.T) {
	h := newHarness(t)
	for i := 0; i < 200; i++ {
		h.mw.surf.Show(app.Event{Kind: app.EvNotice, Text: fmt.Sprintf("notice %d", i)})
	}
	h.mw.surf.flush()
	l := h.mw.tr.list
	if _, ok := l.visible[199]; !ok {
		t.Fatal("the last row is not in view")
	}
	if _, ok := l.visible[0]; ok {
		t.Fatal("the first row is still in view after 200 rows")
	}
	if len(l.visible) > 60 {
		t.Errorf("%d row widgets exist for a ~600px view", len(l.visible))
	}
}

func kinds(t *transcript) string {
	var out []string
	for _, e := range t.entries {
		out = append(out, e.kind.String())
	}
	return strings.Join(out, " ")
}

func visibleRow(t *testing.T, tr *transcript, id int) *rowView {
	t.Helper()
	o, ok := tr.list.visible[id]
	if !ok {
		t.Fatalf("row %d is not shown", id)
	}
	return o.(*rowView)
}

var _ fyne.CanvasObject = (*rowView)(nil)

func TestLongAnswersSplitAtParagraphs(t *testing.T) {
	tests := []struct {
		name   string
		deltas []string
		rows   []string
	}{
		{"paragraphs", []string{"one\n", "\ntwo", "\n\nthree"}, []string{"one", "two", "three"}},
		{"break waits for text", []string{"one\n\n"}, []string{"one\n\n"}},
		{"code fence kept whole", []string{"```\na\n\nb\n```\n\nafter"}, []string{"```\na\n\nb\n```", "after"}},
		{"open fence not split", []string{"```go\nx := 1\n\ny := 2"}, []string{"```go\nx := 1\n\ny := 2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTranscript()
			for _, d := range tc.deltas {
				tr.apply(app.Event{Kind: app.EvText, BlockID: "b", Text: d})
			}
			var got []string
			for _, e := range tr.entries {
				got = append(got, e.text.String())
			}
			if strings.Join(got, "|") != strings.Join(tc.rows, "|") {
				t.Errorf("rows %q, want %q", got, tc.rows)
			}
		})
	}
}
