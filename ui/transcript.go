package ui

import (
	"strings"

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
				t.changed(n - 1)
				t.splitParagraphs(n - 1)
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

// splitParagraphs moves finished paragraphs of a streamed row into a row of
// their own, so each frame re-lays out only the paragraph being written,
// however long the answer grows. Code fences are never split.
func (t *transcript) splitParagraphs(id int) {
	e := t.entries[id]
	s := e.text.String()
	cut := paragraphCut(s)
	if cut <= 0 {
		return
	}
	e.text.Reset()
	e.text.WriteString(strings.TrimRight(s[:cut], "\n"))
	rest := &entry{kind: e.kind, block: e.block}
	rest.text.WriteString(s[cut:])
	t.add(rest)
}

// paragraphCut is the offset just after the last blank line outside a code
// fence, when text follows it; else -1.
func paragraphCut(s string) int {
	inFence, cut := false, -1
	for pos := 0; pos < len(s); {
		nl := strings.IndexByte(s[pos:], '\n')
		if nl < 0 {
			break
		}
		line := strings.TrimSpace(s[pos : pos+nl])
		if strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~") {
			inFence = !inFence
		}
		if !inFence && line == "" && pos > 0 {
			cut = pos + nl + 1
		}
		pos += nl + 1
	}
	if cut < 0 || strings.TrimSpace(s[cut:]) == "" {
		return -1
	}
	return cut
}
