package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

// cardFields is what the open Details show of the input: "Label: value".
func cardFields(t *testing.T, c *toolCard) []string {
	t.Helper()
	if len(c.input.Objects) != 1 {
		t.Fatalf("the input holds %d objects", len(c.input.Objects))
	}
	form := c.input.Objects[0].(*fyne.Container).Objects
	var out []string
	for i := 0; i+1 < len(form); i += 2 {
		out = append(out, form[i].(*widget.Label).Text+": "+strings.Join(allText(form[i+1]), ""))
	}
	return out
}

func openDetails(t *testing.T, h *harness, tc app.ToolCall) *toolCard {
	t.Helper()
	showTool(h, tc, true)
	visibleRow(t, h.mw.tr, 0).tool.toggle.OnTapped()
	return visibleRow(t, h.mw.tr, 0).tool
}

// Details read as labelled fields: a Bash command, its description and
// timeout, the exit code the result states; a path with offset and limit;
// an Edit's options (its text is in the diff); a URL and a prompt; any
// other tool's keys under their own names, objects pretty-printed.
func TestToolCardDetailsFields(t *testing.T) {
	tests := []struct {
		name    string
		call    app.ToolCall
		fields  []string
		exit    string // "" when no exit line shows
		exitImp widget.Importance
		output  string
	}{
		{"bash failed", app.ToolCall{Name: "Bash", Input: "{\n  \"command\": \"go test ./shop/...\",\n  \"description\": \"Run the cart tests\",\n  \"timeout\": 120000\n}",
			Result: "Exit code 1\n--- FAIL: TestTotal", IsError: true},
			[]string{"Command: go test ./shop/...", "Description: Run the cart tests", "Timeout: 120000 ms"}, "Exit code 1", widget.DangerImportance, "Output — error"},
		{"bash no code", app.ToolCall{Name: "Bash", Input: `{"command": "nosuch"}`, Result: "nosuch: command not found", IsError: true},
			[]string{"Command: nosuch"}, "Exit code not reported", widget.LowImportance, "Output — error"},
		{"bash ok", app.ToolCall{Name: "Bash", Input: `{"command": "true", "run_in_background": false}`, Result: ""},
			[]string{"Command: true", "In background: no"}, "", 0, "Output"},
		{"read", app.ToolCall{Name: "Read", Input: `{"file_path": "/w/shop/cart.go", "offset": 10, "limit": 50}`, Result: "     1\tpackage cart"},
			[]string{"Path: /w/shop/cart.go", "Offset: 10", "Limit: 50"}, "", 0, "Output"},
		{"edit", app.ToolCall{Name: "Edit", Input: strings.Replace(editInput, `"replace_all": false`, `"replace_all": true`, 1), Diff: editDiff(), Result: "updated"},
			[]string{"Path: shop/cart.go", "Replace all: yes"}, "", 0, "Output"},
		{"edit without a diff", app.ToolCall{Name: "Edit", Input: `{"file_path": "a", "old_string": "x", "new_string": "y"}`},
			[]string{"Path: a", "Old string: x", "New string: y"}, "", 0, "Output"},
		{"write", app.ToolCall{Name: "Write", Input: `{"file_path": "n.txt", "content": "a\nb\n"}`, Diff: &app.FileDiff{Path: "n.txt", New: true, Added: 2, Head: []string{"a", "b"}}},
			[]string{"Path: n.txt", "Content: 2 lines, 4 bytes (in the diff above; Copy as JSON has it whole)"}, "", 0, "Output"},
		{"multiedit", app.ToolCall{Name: "MultiEdit", Input: `{"file_path": "m.go", "edits": [{"old_string": "a", "new_string": "b"}, {"old_string": "c", "new_string": "d", "replace_all": true}]}`, Diff: editDiff()},
			[]string{"Path: m.go", "Edits: 2 edits (in the diff above), 1 with replace_all"}, "", 0, "Output"},
		{"webfetch", app.ToolCall{Name: "WebFetch", Input: `{"url": "https://example.com/docs", "prompt": "What does it say about carts?"}`, Result: "It says…"},
			[]string{"URL: https://example.com/docs", "Prompt: What does it say about carts?"}, "", 0, "Output"},
		{"unknown", app.ToolCall{Name: "mcp__shop__search", Input: `{"max_results": 5, "filters": {"tags": ["a", "b"]}, "exact": false, "note": null}`},
			[]string{"Max results: 5", "Filters: {  \"tags\": [    \"a\",    \"b\"  ]}" /* lines joined */, "Exact: no", "Note: null"}, "", 0, "Output"},
		{"partial", app.ToolCall{Name: "Bash", Input: `{"command": "go te`},
			[]string{`Input: {"command": "go te`}, "", 0, "Output"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t)
			tc.call.ID = "1"
			c := openDetails(t, h, tc.call)
			if got := cardFields(t, c); strings.Join(got, "\n") != strings.Join(tc.fields, "\n") {
				t.Errorf("fields:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.fields, "\n"))
			}
			if tc.exit == "" {
				if c.exit.Visible() {
					t.Errorf("exit line %q shown", c.exit.Text)
				}
			} else if !c.exit.Visible() || c.exit.Text != tc.exit || c.exit.Importance != tc.exitImp {
				t.Errorf("exit line %v %q/%v, want %q/%v", c.exit.Visible(), c.exit.Text, c.exit.Importance, tc.exit, tc.exitImp)
			}
			if c.resLbl.Text != tc.output {
				t.Errorf("output caption %q, want %q", c.resLbl.Text, tc.output)
			}
		})
	}
}

// Copy as JSON is the raw form: the input exactly as it came, and the
// result.
func TestToolCardCopyAsJSON(t *testing.T) {
	input := "{\n  \"command\": \"echo '<a & b>' \\u0026\\u0026 ls\",\n  \"timeout\": 5000\n}"
	h := newHarness(t)
	c := openDetails(t, h, app.ToolCall{ID: "t1", Name: "Bash", Input: input, Result: "Exit code 2\nls: x: No such file", IsError: true})
	c.copyJSON.OnTapped()
	got := h.mw.app.Clipboard().Content()
	if !strings.Contains(got, input) {
		t.Errorf("the copy does not hold the input exactly:\n%s", got)
	}
	var v struct {
		Tool    string          `json:"tool"`
		ID      string          `json:"id"`
		Input   json.RawMessage `json:"input"`
		Result  string          `json:"result"`
		IsError bool            `json:"is_error"`
	}
	if err := json.Unmarshal([]byte(got), &v); err != nil {
		t.Fatalf("the copy is not JSON: %v\n%s", err, got)
	}
	if v.Tool != "Bash" || v.ID != "t1" || string(v.Input) != input || v.Result != "Exit code 2\nls: x: No such file" || !v.IsError {
		t.Errorf("copy = %+v", v)
	}

	// An input that is not JSON yet is copied as a string.
	h2 := newHarness(t)
	c = openDetails(t, h2, app.ToolCall{ID: "t2", Name: "Bash", Input: `{"command": "ec`})
	c.copyJSON.OnTapped()
	got = h2.mw.app.Clipboard().Content()
	if err := json.Unmarshal([]byte(got), &v); err != nil || string(v.Input) != `"{\"command\": \"ec"` {
		t.Errorf("copy of a partial input = %q (%v)", got, err)
	}
}

// Hostile input and output — ANSI escapes, a bidi override, a tail hidden
// past spaces, a 100 KB line — are escaped, the input whole in pieces, the
// output bounded.
func TestToolCardHostileDetailsEscaped(t *testing.T) {
	huge := strings.Repeat("y", 100_000)
	hostile := func(tail string) string {
		return "ls \x1b[8mhidden\x1b[0m" + strings.Repeat(" ", 300) + hiddenTail + "\u202e" + tail + "END"
	}
	wantCmd := func(tail string) string {
		return `Command: ls \x1b[8mhidden\x1b[0m⟨300 spaces⟩` + hiddenTail + "⟨U+202E⟩" + tail + "END"
	}
	// In the card (a line of 3 KB: Fyne's test driver lays wrapped text
	// out slowly).
	in, _ := json.MarshalIndent(map[string]any{"command": hostile(strings.Repeat("z", 3000)), "description": "List\u2066 files\x1b[2J", "extra\u202ekey": 1}, "", "  ")
	out := "\x1b[31mboom\x1b[0m\u202e" + huge
	h := newHarness(t)
	c := openDetails(t, h, app.ToolCall{ID: "1", Name: "Bash", Input: string(in), Result: out, IsError: true})
	got := strings.Join(cardFields(t, c), "\n")
	for _, want := range []string{wantCmd(strings.Repeat("z", 3000)), `Description: List⟨U+2066⟩ files\x1b[2J`, "Extra⟨U+202E⟩key: 1"} {
		if !strings.Contains(got, want) {
			t.Errorf("fields do not show %.80q whole", want)
		}
	}
	if strings.ContainsAny(got, "\x1b\u202e\u2066") {
		t.Error("a field shows a raw control or bidi character")
	}
	res := c.result.Text()
	if strings.ContainsAny(res, "\x1b\u202e") || !strings.HasPrefix(res, `\x1b[31mboom\x1b[0m⟨U+202E⟩`) {
		t.Errorf("output %.80q", res)
	}
	if len(res) > 2*maxResultCols {
		t.Errorf("output shows %d bytes", len(res))
	}

	// A 100 KB line is shown whole, in pieces of at most wholePiece bytes.
	in, _ = json.MarshalIndent(map[string]any{"command": hostile(huge)}, "", "  ")
	box := container.NewVBox()
	setFields(box, inputFields("Bash", string(in), nil))
	var texts []string
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch w := o.(type) {
		case *fyne.Container:
			for _, c := range w.Objects {
				walk(c)
			}
		case *widget.Label:
			texts = append(texts, w.Text+": ")
		case *widget.RichText:
			if n := len(w.String()); n > wholePiece+16 {
				t.Errorf("one piece lays out %d bytes", n)
			}
			texts = append(texts, w.String())
		}
	}
	walk(box)
	if got := strings.Join(texts, ""); got != wantCmd(huge) {
		t.Errorf("the 100 KB command shows as %.100q…", got)
	}
}

func TestExitCode(t *testing.T) {
	for _, tc := range []struct {
		in   string
		code string
		ok   bool
	}{
		{"Exit code 1\nboom", "1", true},
		{"exit code: 127", "127", true},
		{"Error: exit status 2", "", false},
		{"exit status 2", "2", true},
		{"\n\nExit code 130\n", "130", true},
		{"Exit code -1", "-1", true},
		{"Exit code", "", false},
		{"Exit codes are listed below", "", false},
		{"ok", "", false},
		{"a\nb\nc\nd\ne\nExit code 1", "", false}, // only the first lines
	} {
		code, ok := exitCode(tc.in)
		if code != tc.code || ok != tc.ok {
			t.Errorf("exitCode(%q) = %q %v, want %q %v", tc.in, code, ok, tc.code, tc.ok)
		}
	}
}
