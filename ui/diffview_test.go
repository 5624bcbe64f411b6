package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"github.com/latch-app/latch/app"
)

// editDiff is an Edit of shop/cart.go: two lines of context, one line
// replaced by three.
func editDiff() *app.FileDiff {
	return &app.FileDiff{Path: "shop/cart.go", Added: 3, Removed: 1, Summary: "shop/cart.go: +3 −1",
		Hunks: []app.DiffHunk{{OldStart: 10, OldLines: 5, NewStart: 10, NewLines: 7, Lines: []app.DiffLine{
			{Op: app.DiffEqual, Text: "func Total(items []Item) int {", Old: 10, New: 10},
			{Op: app.DiffEqual, Text: "\tsum := 0", Old: 11, New: 11},
			{Op: app.DiffDelete, Text: "\tfor _, it := range items { sum += it.Price }", Old: 12},
			{Op: app.DiffInsert, Text: "\tfor _, it := range items {", New: 12},
			{Op: app.DiffInsert, Text: "\t\tsum += it.Price * it.Qty", New: 13},
			{Op: app.DiffInsert, Text: "\t}", New: 14},
			{Op: app.DiffEqual, Text: "\treturn sum", Old: 13, New: 15},
			{Op: app.DiffEqual, Text: "}", Old: 14, New: 16, NoEOL: true},
		}}}}
}

const editInput = `{
  "file_path": "shop/cart.go",
  "old_string": "\tfor _, it := range items { sum += it.Price }",
  "new_string": "\tfor _, it := range items {\n\t\tsum += it.Price * it.Qty\n\t}",
  "replace_all": false
}`

// newFileDiff is a Write of a new 40-line file.
func newFileDiff() (*app.FileDiff, string) {
	var b strings.Builder
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "Line %d of the shop's notes.\n", i)
	}
	content := b.String()
	head := strings.Split(content, "\n")[:20]
	fd := &app.FileDiff{Path: "shop/NOTES.md", New: true, Size: len(content), Added: 40, Head: head,
		Summary: fmt.Sprintf("new file shop/NOTES.md, %.1f KB, 40 lines", float64(len(content))/1000)}
	in := fmt.Sprintf("{\n  \"file_path\": \"shop/NOTES.md\",\n  \"content\": %q\n}", content)
	return fd, in
}

// diffTexts is what the open diff draws, row by row: gutter and text
// (each row draws its gutter, then its text).
func diffTexts(t *testing.T, v *diffView) []string {
	t.Helper()
	var texts []string
	for _, o := range test.WidgetRenderer(v).Objects() {
		if txt, ok := o.(*canvas.Text); ok {
			texts = append(texts, txt.Text)
		}
	}
	var out []string
	for i := 0; i+1 < len(texts); i += 2 {
		out = append(out, texts[i]+texts[i+1])
	}
	return out
}

func showTool(h *harness, tc app.ToolCall, finished bool) {
	s := h.mw.surf
	s.Show(app.Event{Kind: app.EvToolCall, Tool: &tc})
	if finished {
		s.Show(app.Event{Kind: app.EvToolResult, Tool: &app.ToolCall{ID: tc.ID, Result: tc.Result, IsError: tc.IsError}})
	}
	s.flush()
}

// The diff is a summary line until opened; open or closed, the state is
// the entry's, so a view bound to another entry and back, or a new view,
// shows it as it was left.
func TestToolCardDiffOpensAndKeepsState(t *testing.T) {
	h := newHarness(t)
	s := h.mw.surf
	// The diff comes with the update and stays through the result, which
	// does not repeat it.
	s.Show(app.Event{Kind: app.EvToolCall, Tool: &app.ToolCall{ID: "e", Name: "Edit", Summary: "shop/cart.go"}})
	s.Show(app.Event{Kind: app.EvToolUpdate, Tool: &app.ToolCall{ID: "e", Input: editInput, Diff: editDiff()}})
	s.Show(app.Event{Kind: app.EvToolResult, Tool: &app.ToolCall{ID: "e", Result: "The file shop/cart.go has been updated."}})
	showTool(h, app.ToolCall{ID: "b", Name: "Bash", Summary: "go test", Input: `{"command": "go test"}`, Result: "ok"}, true)
	rv := visibleRow(t, h.mw.tr, 0)
	c := rv.tool
	if !c.diffBox.Visible() || c.diffSum.Text != "shop/cart.go: +3 −1" {
		t.Fatalf("summary line = %v %q", c.diffBox.Visible(), c.diffSum.Text)
	}
	if c.diff.Visible() || c.copyDiff.Visible() {
		t.Fatal("the diff is open before it was asked for")
	}
	if visibleRow(t, h.mw.tr, 1).tool.diffBox.Visible() {
		t.Error("a Bash card shows a diff line")
	}
	before := rv.Size().Height
	c.diffToggle.OnTapped()
	rv = visibleRow(t, h.mw.tr, 0)
	if !rv.tool.diff.Visible() || !rv.tool.copyDiff.Visible() {
		t.Fatal("the diff did not open")
	}
	if rv.Size().Height <= before {
		t.Errorf("row height %v did not grow from %v", rv.Size().Height, before)
	}
	want := []string{
		"        @@ -10,5 +10,7 @@",
		"10 10   func Total(items []Item) int {",
		"11 11       sum := 0",
		"12    -     for _, it := range items { sum += it.Price }",
		"   12 +     for _, it := range items {",
		"   13 +         sum += it.Price * it.Qty",
		"   14 +     }",
		"13 15       return sum",
		"14 16   }",
		`        \ No newline at end of file`,
	}
	if got := diffTexts(t, rv.tool.diff); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diff rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// Another view, and the same view bound elsewhere and back.
	fresh := newRowView().(*rowView)
	h.mw.tr.bind(0, fresh)
	if !fresh.tool.diff.Visible() {
		t.Error("a new view of the entry shows the diff closed")
	}
	h.mw.tr.bind(1, fresh)
	if fresh.tool.diffBox.Visible() {
		t.Error("the view bound to the Bash call still shows a diff")
	}
	h.mw.tr.bind(0, fresh)
	if !fresh.tool.diff.Visible() {
		t.Error("bound back, the diff is closed")
	}
	fresh.tool.diffToggle.OnTapped()
	h.mw.tr.bind(0, fresh)
	if fresh.tool.diff.Visible() || h.mw.tr.entries[0].diffOpen {
		t.Error("closed, the diff stays open")
	}

	// Copy diff is the exact unified text.
	visibleRow(t, h.mw.tr, 0).tool.copyDiff.OnTapped()
	wantCopy := "--- shop/cart.go\n+++ shop/cart.go\n@@ -10,5 +10,7 @@\n func Total(items []Item) int {\n \tsum := 0\n" +
		"-\tfor _, it := range items { sum += it.Price }\n+\tfor _, it := range items {\n+\t\tsum += it.Price * it.Qty\n+\t}\n" +
		" \treturn sum\n }\n\\ No newline at end of file\n"
	if got := h.mw.app.Clipboard().Content(); got != wantCopy {
		t.Errorf("Copy diff gave\n%s\nwant\n%s", got, wantCopy)
	}
}

// A 10,000-line change draws at most maxDiffRows rows, says how many
// lines are left out, and Copy diff gives every line.
func TestToolCardBigDiffIsCapped(t *testing.T) {
	const n = 10_000
	lines := make([]app.DiffLine, n)
	for i := range lines {
		lines[i] = app.DiffLine{Op: app.DiffInsert, Text: fmt.Sprintf("line %d", i+1), New: i + 1}
	}
	fd := &app.FileDiff{Path: "big.txt", Added: n, Summary: "big.txt: +10000 −0",
		Hunks: []app.DiffHunk{{OldStart: 0, OldLines: 0, NewStart: 1, NewLines: n, Lines: lines}}}
	h := newHarness(t)
	showTool(h, app.ToolCall{ID: "w", Name: "Write", Summary: "big.txt", Input: `{"file_path": "big.txt", "content": "…"}`, Diff: fd, Result: "ok"}, true)
	visibleRow(t, h.mw.tr, 0).tool.diffToggle.OnTapped()
	v := visibleRow(t, h.mw.tr, 0).tool.diff
	rows := diffTexts(t, v)
	if len(rows) > maxDiffRows {
		t.Fatalf("%d rows drawn, the cap is %d", len(rows), maxDiffRows)
	}
	if objs := len(test.WidgetRenderer(v).Objects()); objs > 3*maxDiffRows {
		t.Errorf("%d objects drawn for %d rows", objs, len(rows))
	}
	drawn := len(rows) - 2 // the header and the note
	want := fmt.Sprintf("… %d more lines (Copy diff for all)", n-drawn)
	if last := rows[len(rows)-1]; !strings.HasSuffix(last, want) {
		t.Errorf("last row %q, want %q", last, want)
	}
	if !strings.HasSuffix(rows[len(rows)-2], fmt.Sprintf("+ line %d", drawn)) {
		t.Errorf("row before the note: %q", rows[len(rows)-2])
	}
	visibleRow(t, h.mw.tr, 0).tool.copyDiff.OnTapped()
	got := h.mw.app.Clipboard().Content()
	if c := strings.Count(got, "\n+line "); c != n {
		t.Errorf("Copy diff has %d of %d lines", c, n)
	}
	if !strings.HasPrefix(got, "--- big.txt\n+++ big.txt\n@@ -0,0 +1,10000 @@\n+line 1\n") || !strings.HasSuffix(got, "+line 10000\n") {
		t.Errorf("Copy diff starts %.80q, ends %q", got, got[len(got)-40:])
	}
}

// A new file shows its size in the summary, its first lines numbered,
// and how many more there are; Copy diff gives all of it from the input.
func TestToolCardNewFileShowsSizeAndHead(t *testing.T) {
	fd, in := newFileDiff()
	h := newHarness(t)
	showTool(h, app.ToolCall{ID: "w", Name: "Write", Summary: "shop/NOTES.md", Input: in, Diff: fd, Result: "File created"}, true)
	c := visibleRow(t, h.mw.tr, 0).tool
	if c.diffSum.Text != fd.Summary || !strings.HasPrefix(fd.Summary, "new file shop/NOTES.md, 1.2 KB, 40 lines") {
		t.Errorf("summary %q", c.diffSum.Text)
	}
	c.diffToggle.OnTapped()
	rows := diffTexts(t, visibleRow(t, h.mw.tr, 0).tool.diff)
	if len(rows) != 21 || rows[0] != "    1 + Line 1 of the shop's notes." || rows[19] != "   20 + Line 20 of the shop's notes." || !strings.HasSuffix(rows[20], "… 20 more lines") {
		t.Errorf("rows:\n%s", strings.Join(rows, "\n"))
	}
	visibleRow(t, h.mw.tr, 0).tool.copyDiff.OnTapped()
	got := h.mw.app.Clipboard().Content()
	if !strings.HasPrefix(got, "--- /dev/null\n+++ shop/NOTES.md\n@@ -0,0 +1,40 @@\n+Line 1 of") || strings.Count(got, "\n+Line ") != 40 || strings.Contains(got, "No newline") {
		t.Errorf("Copy diff:\n%s", got)
	}
}

// Hostile lines in a diff — ANSI escapes, a bidi override, a tail hidden
// past a run of blanks, a 100 KB line — are drawn escaped and bounded;
// Copy diff gives them exactly.
func TestToolCardHostileDiffIsEscapedAndBounded(t *testing.T) {
	huge := strings.Repeat("x", 100_000)
	hostile := []string{
		"\x1b[31mred\x1b[0m",
		"abc\u202edcba",
		"ok" + strings.Repeat(" ", 400) + hiddenTail,
		"ok" + strings.Repeat("\t", 40) + hiddenTail,
		huge,
	}
	var lines []app.DiffLine
	for i, l := range hostile {
		lines = append(lines, app.DiffLine{Op: app.DiffInsert, Text: l, New: i + 1})
	}
	fd := &app.FileDiff{Path: "evil\u202etxt.go", Added: len(lines), Summary: "evil\u202etxt.go: +5 −0\x1b[2J",
		Hunks: []app.DiffHunk{{NewStart: 1, NewLines: len(lines), Lines: lines}}}
	h := newHarness(t)
	showTool(h, app.ToolCall{ID: "e", Name: "Edit", Summary: "evil", Input: "{}", Diff: fd, Result: "ok"}, true)
	c := visibleRow(t, h.mw.tr, 0).tool
	if c.diffSum.Text != `evil⟨U+202E⟩txt.go: +5 −0\x1b[2J` {
		t.Errorf("summary %q", c.diffSum.Text)
	}
	c.diffToggle.OnTapped()
	v := visibleRow(t, h.mw.tr, 0).tool.diff
	wants := []string{`\x1b[31mred\x1b[0m`, "abc⟨U+202E⟩dcba", "ok⟨400 spaces⟩" + hiddenTail, `ok\t\t\t`, strings.Repeat("x", maxDiffLine) + " ⟨… 98000 more characters⟩"}
	for i, row := range v.rows[1:] {
		if !strings.HasPrefix(row.text, wants[i]) && !strings.Contains(row.text, wants[i]) {
			t.Errorf("row %d = %.120q, want %.120q", i, row.text, wants[i])
		}
		if strings.ContainsAny(row.text, "\x1b\u202e\t") {
			t.Errorf("row %d draws a raw control: %.80q", i, row.text)
		}
		if len(row.text) > maxDiffLine+100 {
			t.Errorf("row %d holds %d bytes", i, len(row.text))
		}
	}
	// What is drawn fits the view's width.
	for _, o := range test.WidgetRenderer(v).Objects() {
		if txt, ok := o.(*canvas.Text); ok && txt.MinSize().Width > v.Size().Width+1 {
			t.Errorf("a row of width %v is drawn in %v: %.60q", txt.MinSize().Width, v.Size().Width, txt.Text)
		}
	}
	visibleRow(t, h.mw.tr, 0).tool.copyDiff.OnTapped()
	got := h.mw.app.Clipboard().Content()
	for _, l := range hostile {
		if !strings.Contains(got, "\n+"+l+"\n") {
			t.Errorf("Copy diff lost %.60q", l)
		}
	}
}

// displayLine keeps code readable: tabs at stops, indentation as spaces,
// short gaps as spaces.
func TestDisplayLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"\tx := 1", "    x := 1"},
		{"\t\tif a {", "        if a {"},
		{"a\tb", "a   b"},
		{"  two", "  two"},
		{"x" + strings.Repeat(" ", 9) + "y", "x⟨9 spaces⟩y"},
		{strings.Repeat("\t", 9) + "deep", `\t\t\t\t\t\t\t\t\tdeep`},
		{"é\u200bz", "é⟨U+200B⟩z"},
		{"", ""},
	} {
		if got := displayLine(tc.in); got != tc.want {
			t.Errorf("displayLine(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
