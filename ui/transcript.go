package ui

import (
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

// rowKind is what one transcript row shows.
type rowKind int

const (
	rowUser rowKind = iota
	rowAssistant
	rowThinking
	rowTool
	rowNotice
	rowError
	rowTurn
)

func (k rowKind) String() string {
	return [...]string{"user", "assistant", "thinking", "tool", "notice", "error", "turn"}[k]
}

// entry is one row of the transcript.
type entry struct {
	kind     rowKind
	text     strings.Builder // user, assistant, thinking, notice text; error detail
	title    string          // error title
	block    string          // BlockID of a streamed text or thinking block
	tool     app.ToolCall
	turn     app.TurnInfo
	expanded bool // tool card shows input and result
	finished bool // the tool call has its result

	// Splitting state of a streamed row: bytes scanned (whole lines), inside
	// a code fence there, the end of the last whole line outside a fence,
	// and a break found but not yet taken (0: none).
	scanned, lineEnd, cut int
	fence                 bool
	// joiner is what stood between this row and the one before it when a
	// streamed block was split, so the block can be put back together.
	joiner string

	version int // bumped on every change, so a row re-parses markdown only when needed
	md      []widget.RichTextSegment
	mdVer   int
}

// transcript is the model behind the list: entries and the index from tool
// call id to row. It is touched only on the UI goroutine.
type transcript struct {
	entries []*entry
	tools   map[string]int
	list    *vlist
	// lastPrompt is a prompt the window showed itself before the session
	// echoed it back as EvPrompt; the echo is then not shown twice.
	lastPrompt string
}

func newTranscript() *transcript {
	t := &transcript{tools: map[string]int{}}
	t.list = newVList(newRowView, t.bind, t.estimate)
	return t
}

func (t *transcript) add(e *entry) int {
	t.entries = append(t.entries, e)
	t.list.Append(1)
	return len(t.entries) - 1
}

func (t *transcript) changed(id int) {
	t.entries[id].version++
	t.list.RefreshItem(id)
}

// addUser shows a prompt the person sent.
func (t *transcript) addUser(text string) {
	e := &entry{kind: rowUser}
	e.text.WriteString(text)
	t.add(e)
	t.lastPrompt = text
}

func (t *transcript) addNotice(text string) {
	e := &entry{kind: rowNotice}
	e.text.WriteString(text)
	t.add(e)
}

func (t *transcript) addError(title, detail string) {
	e := &entry{kind: rowError, title: title}
	e.text.WriteString(detail)
	t.add(e)
}

// apply folds one event into the rows. Streamed deltas only ever grow the
// last row; tool updates change the row of their call.
func (t *transcript) apply(ev app.Event) {
	switch ev.Kind {
	case app.EvPrompt:
		if t.lastPrompt != "" && ev.Text == t.lastPrompt {
			t.lastPrompt = ""
			return
		}
		t.addUser(ev.Text)
		t.lastPrompt = ""
	case app.EvText, app.EvThinking:
		kind := rowAssistant
		if ev.Kind == app.EvThinking {
			kind = rowThinking
		}
		if n := len(t.entries); n > 0 {
			last := t.entries[n-1]
			if last.kind == kind && last.block == ev.BlockID {
				last.text.WriteString(ev.Text)
				t.splitParagraphs(n - 1) // refreshes the rows a split changes
				if len(t.entries) == n {
					t.changed(n - 1)
				}
				return
			}
		}
		e := &entry{kind: kind, block: ev.BlockID}
		e.text.WriteString(ev.Text)
		t.splitParagraphs(t.add(e))
	case app.EvToolCall, app.EvToolUpdate, app.EvToolResult:
		if ev.Tool == nil {
			return
		}
		if id, ok := t.tools[ev.Tool.ID]; ok && ev.Tool.ID != "" {
			e := t.entries[id]
			e.tool = mergeTool(e.tool, *ev.Tool, ev.Kind)
			e.finished = e.finished || ev.Kind == app.EvToolResult
			t.changed(id)
			return
		}
		e := &entry{kind: rowTool, tool: mergeTool(app.ToolCall{}, *ev.Tool, ev.Kind),
			finished: ev.Kind == app.EvToolResult}
		t.tools[ev.Tool.ID] = t.add(e)
	case app.EvTurnEnd:
		if ev.Turn == nil {
			return
		}
		if ev.Turn.IsError {
			msg := ev.Turn.ErrorText
			if msg == "" {
				msg = "The turn ended with an error."
			}
			t.addError("The turn failed", msg)
		}
		t.add(&entry{kind: rowTurn, turn: *ev.Turn})
	case app.EvNotice:
		t.addNotice(ev.Text)
	case app.EvError:
		if ev.Err == nil {
			t.addError(ev.Text, "")
			return
		}
		t.addError(ev.Err.Title, ev.Err.Detail)
	}
}

// mergeTool keeps what earlier events said about a call that later ones
// leave empty (a result event may not repeat the input).
func mergeTool(old, nw app.ToolCall, kind app.EventKind) app.ToolCall {
	out := old
	if nw.ID != "" {
		out.ID = nw.ID
	}
	if nw.Name != "" {
		out.Name = nw.Name
	}
	if nw.Summary != "" {
		out.Summary = nw.Summary
	}
	if nw.Input != "" {
		out.Input = nw.Input
	}
	if kind == app.EvToolResult {
		out.Result = nw.Result
		out.IsError = nw.IsError
		out.Denial = nw.Denial
		out.Grantable = nw.Grantable
	}
	return out
}

// softRowText is where a row of prose without a blank line is broken
// anyway: Fyne's word wrapping costs grow with the square of a row's text
// (4 KB lays out in ~0.1 s, 16 KB in ~1.7 s on the test driver).
const softRowText = 4 << 10

// splitParagraphs moves finished paragraphs of a streamed row into rows of
// their own, so each frame re-lays out only the paragraph being written,
// however long the answer grows; prose longer than softRowText is broken at
// a line end or a space. Code fences are never split. The row keeps how far
// it has scanned, so each delta costs its own length, not the row's.
func (t *transcript) splitParagraphs(id int) {
	for id >= 0 {
		id = t.splitOnce(id)
	}
}

// splitOnce splits row id at its first paragraph break (or, for prose that
// runs past softRowText, at a line end or a space) and returns the new row,
// or -1 when there is nothing to split yet.
func (t *transcript) splitOnce(id int) int {
	e := t.entries[id]
	s := e.text.String()
	for pos := e.scanned; pos < len(s) && e.cut == 0; {
		nl := strings.IndexByte(s[pos:], '\n')
		if nl < 0 {
			break
		}
		end := pos + nl + 1
		line := strings.TrimSpace(s[pos : pos+nl])
		if strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~") {
			e.fence = !e.fence
		}
		if !e.fence {
			switch {
			case line == "" && pos > 0:
				e.cut = end
			case end > softRowText && e.lineEnd > 0:
				e.cut = e.lineEnd
			}
			e.lineEnd = end
		}
		pos, e.scanned = end, end
	}
	cut := e.cut
	if cut == 0 && !e.fence && len(s) > softRowText {
		cut = e.lineEnd
		if cut == 0 {
			cut = wordCut(s[e.scanned:]) + e.scanned
		}
	}
	// A break with nothing after it yet waits for the text that follows.
	if cut <= 0 || cut >= len(s) || strings.TrimSpace(s[cut:]) == "" {
		return -1
	}
	rest := &entry{kind: e.kind, block: e.block, scanned: max(0, e.scanned-cut), fence: e.fence}
	rest.lineEnd = rest.scanned
	rest.text.WriteString(s[cut:])
	head := strings.TrimRight(s[:cut], "\n")
	rest.joiner = s[len(head):cut]
	e.text.Reset()
	e.text.WriteString(head)
	e.scanned, e.lineEnd, e.cut = e.text.Len(), 0, 0
	t.changed(id)
	return t.add(rest)
}

// wordCut is where to break one long line: after its last space within
// softRowText, else at softRowText on a character boundary.
func wordCut(s string) int {
	limit := min(softRowText, len(s))
	if sp := strings.LastIndexByte(s[:limit], ' '); sp >= softRowText/4 {
		return sp + 1
	}
	cut := limit
	for cut > 0 && cut < len(s) && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return cut
}

// lastAnswer is the assistant text since the last prompt, put back together
// as it arrived.
func (t *transcript) lastAnswer() string {
	start := 0
	for i := len(t.entries) - 1; i >= 0; i-- {
		if t.entries[i].kind == rowUser {
			start = i + 1
			break
		}
	}
	var b strings.Builder
	var prev *entry
	for _, e := range t.entries[start:] {
		if e.kind != rowAssistant {
			continue
		}
		switch {
		case prev != nil && prev.block == e.block:
			b.WriteString(e.joiner)
		case b.Len() > 0:
			b.WriteString("\n\n")
		}
		b.WriteString(e.text.String())
		prev = e
	}
	return b.String()
}
