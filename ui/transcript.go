package ui

import (
	"net/url"
	"strings"
	"unicode"
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
	rowGrant
	rowRetry      // the turn's API retries, one row updated in place
	rowStopped    // the person stopped the turn: one neutral row
	rowIncomplete // the answer above was cut off when Claude Code ended
)

func (k rowKind) String() string {
	return [...]string{"user", "assistant", "thinking", "tool", "notice", "error", "turn", "grant",
		"retry", "stopped", "incomplete"}[k]
}

// rowActions are what rows can ask of the window.
type rowActions struct {
	openLink   func(*url.URL) // a link in an answer was tapped: confirm first
	grantLater func(toolUseID string)
	undo       func(grantID string)
	retry      func() // Retry on an error card: send the last prompt again
}

// rowText is a row's text, never changed in place: the rows of a streamed
// block are substrings of the string a huge text arrived in, or of the
// transcript's pages, so breaking a 64 MB answer into rows copies nothing.
type rowText struct{ s string }

func (r rowText) String() string { return r.s }
func (r rowText) Len() int       { return len(r.s) }

// entry is one row of the transcript. A long answer has one per paragraph,
// so it is kept small: what only some kinds of row need is behind a pointer.
type entry struct {
	kind  rowKind
	text  rowText        // user, assistant, thinking, notice, retry text; error detail
	title string         // error title
	block string         // BlockID of a streamed text or thinking block
	tool  *app.ToolCall  // rowTool
	turn  *app.TurnInfo  // rowTurn, rowStopped
	grant *app.GrantInfo // rowGrant; Undone once taken back
	fail  *failure       // rowError: what to do about it
	full  string         // rowError: the whole text (all of stderr), for Copy

	auto     bool // rowUser: Latch's own retry message
	expanded bool // tool card shows input and result
	diffOpen bool // tool card shows its diff (toolcard.go), not only the summary
	finished bool // the tool call has its result
	// Splitting state of a streamed row: inside a code fence at scanned,
	// bytes scanned (whole lines), the end of the last whole line outside a
	// fence, and a break found but not yet taken (0: none).
	fence                 bool
	scanned, lineEnd, cut int
	// joiner is what stood between this row and the one before it when a
	// streamed block was split, so the block can be put back together.
	joiner string

	version int // bumped on every change, so a row re-parses markdown only when needed
	md      []widget.RichTextSegment
	mdVer   int
}

// failure is what an error card offers besides its text.
type failure struct {
	hint  string // what to do about it, escaped
	retry bool   // Retry sends the last prompt again (until the next prompt)
}

// transcript is the model behind the list: entries and the index from tool
// call id to row. It is touched only on the UI goroutine.
type transcript struct {
	entries []*entry
	tools   map[string]int
	grants  map[string]int // grant id -> row
	actions rowActions
	copy    func(string) // puts text on the clipboard
	list    *vlist

	// page holds streamed text: the deltas of tailRow, the last row, are
	// appended to it, and that row's text is page[tailAt:], a view, as are
	// the rows split off before it. A page is never grown in place (that
	// would copy what the finished rows hold); when full, a new one takes
	// the unfinished row's text. Pages are large objects, so the text of
	// thousands of rows costs its size and never pins half-empty spans.
	page    strings.Builder
	tailRow *entry
	tailAt  int
	paged   int // bytes of all pages so far

	// retry is 1 + the row of this turn's API retries, or 0; spare is 1 +
	// the row of retries just ended, when it is the last row: the next row
	// added takes its place. failed is set when this turn's failure has
	// its error card; retryCard is 1 + the row of the error card whose
	// Retry is on offer, or 0.
	retry, spare, retryCard int
	failed                  bool

	// found is the find bar's match, marked (find.go); nil until the
	// first showMatch.
	found *findMark
}

// pageSize is the smallest page, maxPage the largest but for a row that
// outgrows it.
const (
	pageSize = 64 << 10
	maxPage  = 1 << 20
)

func newTranscript() *transcript {
	t := &transcript{tools: map[string]int{}, grants: map[string]int{}}
	t.list = newVList(newRowView, t.bind, t.estimate)
	return t
}

func (t *transcript) add(e ...*entry) int {
	if t.spare > 0 && len(e) > 0 {
		// The retry row that just ended is the last row: the first new row
		// takes its place, so the retries are gone into what follows them.
		id := t.spare - 1
		t.spare = 0
		if id == len(t.entries)-1 {
			t.entries[id] = e[0]
			t.list.heights.set(id, float64(t.estimate(id, t.list.width)))
			t.changed(id)
			if len(e) > 1 {
				t.entries = append(t.entries, e[1:]...)
				t.list.Append(len(e) - 1)
			}
			return id
		}
	}
	t.entries = append(t.entries, e...)
	t.list.Append(len(e))
	return len(t.entries) - len(e)
}

// insert puts e at row at, moving the rows from there one down. It is
// for a row that belongs after one near the end (the incomplete-answer
// marker): the rows moved are re-indexed and shown again.
func (t *transcript) insert(at int, e *entry) {
	t.spare = 0
	n := len(t.entries)
	t.add(e)
	if at >= n {
		return
	}
	copy(t.entries[at+1:], t.entries[at:n])
	t.entries[at] = e
	for i := n; i > at; i-- {
		t.list.heights.set(i, t.list.heights.at(i-1))
		switch m := t.entries[i]; {
		case m.tool != nil && t.tools[m.tool.ID] == i-1:
			t.tools[m.tool.ID] = i
		case m.kind == rowGrant && m.grant != nil && t.grants[m.grant.ID] == i-1:
			t.grants[m.grant.ID] = i
		}
		if t.retry == i {
			t.retry++
		}
		if t.retryCard == i {
			t.retryCard++
		}
	}
	t.list.heights.set(at, float64(t.estimate(at, t.list.width)))
	if t.found != nil && t.found.row >= at {
		t.found.row++ // the marked match moved down with its row
	}
	for i := at; i <= n; i++ {
		t.changed(i)
	}
}

func (t *transcript) changed(id int) {
	e := t.entries[id]
	e.version++
	e.md = nil // it may hold views of text the row no longer has
	// A row out of view is bound afresh when it shows; marking it would
	// leave an entry in the list's dirty set for good.
	if _, shown := t.list.visible[id]; shown {
		t.list.RefreshItem(id)
	}
}

// addUser shows a prompt: the person's, or Latch's own (auto).
func (t *transcript) addUser(text string, auto bool) {
	t.add(&entry{kind: rowUser, text: rowText{text}, auto: auto})
}

func (t *transcript) addNotice(text string) {
	t.add(&entry{kind: rowNotice, text: rowText{text}})
}

func (t *transcript) addError(title, detail string) {
	t.add(&entry{kind: rowError, title: title, text: rowText{detail}})
}

// endRetry ends the turn's retry row: it takes no room any more, and the
// next row added takes its place if it is the last row.
func (t *transcript) endRetry() {
	id := t.retry - 1
	t.retry = 0
	t.entries[id].text = rowText{}
	t.changed(id)
	if id == len(t.entries)-1 {
		t.spare = id + 1
	}
	if _, shown := t.list.visible[id]; !shown {
		t.list.heights.set(id, 0)
	}
}

// withdrawRetry takes the Retry of the last failed turn off its card: a
// new prompt was sent, so Retry would send another.
func (t *transcript) withdrawRetry() {
	id := t.retryCard - 1
	t.retryCard = 0
	if f := t.entries[id].fail; f != nil && f.retry {
		t.entries[id].fail = &failure{hint: f.hint}
		t.changed(id)
	}
}

// apply folds one event into the rows. Streamed deltas only ever grow the
// last row; tool updates change the row of their call.
func (t *transcript) apply(ev app.Event) {
	if t.retry > 0 && ev.Kind != app.EvRetry && ev.Kind != app.EvStatus && ev.Kind != app.EvNotice && ev.Kind != app.EvGrant {
		// The API answered, or the turn is over: the retries are history.
		t.endRetry()
		defer func() { t.spare = 0 }()
	}
	switch ev.Kind {
	case app.EvPrompt:
		if t.retryCard > 0 {
			t.withdrawRetry()
		}
		t.failed = false
		t.addUser(ev.Text, ev.Auto)
	case app.EvText, app.EvThinking:
		kind := rowAssistant
		if ev.Kind == app.EvThinking {
			kind = rowThinking
		}
		if t.appends(ev) {
			n := len(t.entries)
			last := t.entries[n-1]
			t.grow(last, ev.Text)
			rows := t.split(last)
			t.changed(n - 1)
			if len(rows) > 0 {
				t.add(rows...)
			}
			return
		}
		e := &entry{kind: kind, block: ev.BlockID}
		if len(ev.Text) > pageSize {
			// A huge text arriving whole (one assistant line) is kept as it
			// came: its rows are substrings of it.
			e.text = rowText{ev.Text}
		} else {
			t.grow(e, ev.Text)
		}
		t.add(append([]*entry{e}, t.split(e)...)...)
	case app.EvToolCall, app.EvToolUpdate, app.EvToolResult:
		if ev.Tool == nil {
			return
		}
		if id, ok := t.tools[ev.Tool.ID]; ok && ev.Tool.ID != "" {
			e := t.entries[id]
			*e.tool = mergeTool(*e.tool, *ev.Tool, ev.Kind)
			e.finished = e.finished || ev.Kind == app.EvToolResult
			t.changed(id)
			return
		}
		tc := mergeTool(app.ToolCall{}, *ev.Tool, ev.Kind)
		e := &entry{kind: rowTool, tool: &tc, finished: ev.Kind == app.EvToolResult}
		t.tools[ev.Tool.ID] = t.add(e)
	case app.EvTurnEnd:
		if ev.Turn == nil {
			return
		}
		t.turnEnd(*ev.Turn)
	case app.EvNotice:
		t.addNotice(ev.Text)
	case app.EvRetry:
		if ev.Retry == nil {
			return
		}
		text := rowText{app.VisibleLine(ev.Retry.Text)}
		if t.retry > 0 {
			t.entries[t.retry-1].text = text
			t.changed(t.retry - 1)
			return
		}
		t.retry = 1 + t.add(&entry{kind: rowRetry, text: text})
	case app.EvError:
		t.failed = true
		if ev.Err == nil {
			t.addError(ev.Text, "")
			return
		}
		full := ev.Err.Full
		if full == "" {
			full = ev.Err.Detail
		}
		e := &entry{kind: rowError, title: ev.Err.Title, text: rowText{ev.Err.Detail}, full: full}
		if ev.Err.Hint != "" || ev.Err.Retry {
			e.fail = &failure{hint: app.Visible(ev.Err.Hint), retry: ev.Err.Retry}
		}
		id := t.add(e)
		if ev.Err.Retry {
			if t.retryCard > 0 {
				t.withdrawRetry()
			}
			t.retryCard = 1 + id
		}
	case app.EvGrant:
		if ev.Grant == nil {
			return
		}
		g := *ev.Grant
		if id, ok := t.grants[g.ID]; ok && g.Undone {
			t.entries[id].grant.Undone = true
			t.changed(id)
			t.addNotice(g.Text)
			return
		}
		t.grants[g.ID] = t.add(&entry{kind: rowGrant, grant: &g})
	}
}

// turnEnd shows the end of a turn: a stop is one neutral row; a failure
// has its error card (the session's, else one made here) and a turn line
// of figures only; an answer cut off is marked.
func (t *transcript) turnEnd(tu app.TurnInfo) {
	failed := t.failed
	t.failed = false
	if tu.Stopped {
		t.add(&entry{kind: rowStopped, turn: &tu})
		return
	}
	if tu.IsError && !failed {
		msg := tu.ErrorText
		if msg == "" {
			msg = "The turn ended with an error."
		}
		t.addError("The turn failed", msg)
	}
	if tu.Incomplete {
		t.markIncomplete()
	}
	t.add(&entry{kind: rowTurn, turn: &tu})
}

// incompleteText is the marker under an answer Claude Code did not finish.
const incompleteText = "Answer incomplete: Claude Code stopped before it finished."

// markIncomplete puts the marker under this turn's last answer row, if
// the turn has one.
func (t *transcript) markIncomplete() {
	for i := len(t.entries) - 1; i >= 0; i-- {
		switch t.entries[i].kind {
		case rowUser:
			return
		case rowAssistant:
			t.insert(i+1, &entry{kind: rowIncomplete, text: rowText{incompleteText}})
			return
		}
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
	if nw.Diff != nil {
		out.Diff = nw.Diff
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

// appends reports whether ev grows the last row.
func (t *transcript) appends(ev app.Event) bool {
	kind := rowAssistant
	switch ev.Kind {
	case app.EvText:
	case app.EvThinking:
		kind = rowThinking
	default:
		return false
	}
	n := len(t.entries)
	return n > 0 && t.entries[n-1].kind == kind && t.entries[n-1].block == ev.BlockID
}

// grow appends d to e, the last row (or a new one), in the page. The row's
// text is moved to the page once, and again only when a page fills; the
// new page then has room for as much again, so a row that outgrows pages (a
// long code block) grows in amortized linear time.
func (t *transcript) grow(e *entry, d string) {
	inPage := t.tailRow == e
	need := len(d)
	if !inPage {
		need += len(e.text.s)
	}
	if t.page.Cap()-t.page.Len() < need {
		// What a full page wastes (its end, and the copied-out row) is up to
		// a queued event's text, so pages get bigger, up to maxPage, as the
		// text grows: the waste stays a small part of what is kept.
		size := max(pageSize, min(t.paged/4, maxPage), 2*len(e.text.s)+len(d))
		t.page = strings.Builder{}
		t.page.Grow(size)
		t.paged += size
		inPage = false
	}
	if !inPage {
		t.tailRow, t.tailAt = e, t.page.Len()
		t.page.WriteString(e.text.s)
	}
	t.page.WriteString(d)
	e.text = rowText{t.page.String()[t.tailAt:]}
}

// split moves the finished paragraphs of streamed row e into rows of their
// own and returns those that follow e (the last is the new, unfinished
// tail); e keeps the first. Each frame then re-lays out only the paragraph
// being written, however long the answer grows. Prose longer than
// softRowText is broken at a line end or a space; code fences are never
// split. It is one pass over the text not yet scanned, and the rows are
// substrings of e's text: a 64 MB answer arriving in one piece costs its
// length in time and nothing in copies.
func (t *transcript) split(e *entry) []*entry {
	s := e.text.s
	// Positions below are relative to start, where the row being scanned
	// begins; the state is e's (see entry).
	start := 0
	scanned, lineEnd, cut, fence := e.scanned, e.lineEnd, e.cut, e.fence
	nl := -1   // the next '\n' at or after the scan position (len(s): none)
	text := -1 // the first non-space at or after the last break tried (len(s): none)
	var cuts []int
	for {
		for cut == 0 {
			pos := start + scanned
			if nl < pos {
				if i := strings.IndexByte(s[pos:], '\n'); i >= 0 {
					nl = pos + i
				} else {
					nl = len(s)
				}
			}
			if nl == len(s) {
				break
			}
			end := nl + 1 - start
			line := strings.TrimSpace(s[pos:nl])
			if strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~") {
				fence = !fence
			}
			if !fence {
				switch {
				case line == "" && scanned > 0:
					cut = end
				case end > softRowText && lineEnd > 0:
					cut = lineEnd
				}
				lineEnd = end
			}
			scanned = end
		}
		c := cut
		if c == 0 && !fence && len(s)-start > softRowText {
			c = lineEnd
			if c == 0 {
				c = wordCut(s[start+scanned:]) + scanned
			}
		}
		// A break with nothing after it yet waits for the text that follows.
		if c <= 0 || start+c >= len(s) {
			break
		}
		if text < start+c {
			text = len(s)
			if i := strings.IndexFunc(s[start+c:], notSpace); i >= 0 {
				text = start + c + i
			}
		}
		if text == len(s) {
			break
		}
		start += c
		cuts = append(cuts, start)
		scanned = max(0, scanned-c)
		lineEnd, cut = scanned, 0
	}
	if len(cuts) == 0 {
		e.scanned, e.lineEnd, e.cut, e.fence = scanned, lineEnd, cut, fence
		return nil
	}
	rows := make([]*entry, len(cuts))
	prev, cur := 0, e
	for i, c := range cuts {
		head := strings.TrimRight(s[prev:c], "\n")
		cur.text = rowText{head}
		cur.scanned, cur.lineEnd, cur.cut = len(head), 0, 0
		rows[i] = &entry{kind: e.kind, block: e.block, joiner: newlines(c - prev - len(head))}
		prev, cur = c, rows[i]
	}
	cur.text = rowText{s[prev:]}
	cur.scanned, cur.lineEnd, cur.cut, cur.fence = scanned, lineEnd, cut, fence
	if t.tailRow == e {
		// The unfinished row is still the end of the page: it grows there.
		t.tailRow, t.tailAt = cur, t.tailAt+prev
	}
	return rows
}

func notSpace(r rune) bool { return !unicode.IsSpace(r) }

// newlines is a string of n '\n's that holds no memory of its own: a joiner
// cut out of a row's text would keep that whole text alive.
func newlines(n int) string {
	const many = "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n"
	if n <= len(many) {
		return many[:n]
	}
	return strings.Repeat("\n", n)
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
// as it arrived. It is measured first, so a 200 MB answer is one copy.
func (t *transcript) lastAnswer() string {
	start := 0
	for i := len(t.entries) - 1; i >= 0; i-- {
		if t.entries[i].kind == rowUser {
			start = i + 1
			break
		}
	}
	var b strings.Builder
	for pass := 0; pass < 2; pass++ {
		n := 0
		var prev *entry
		for _, e := range t.entries[start:] {
			if e.kind != rowAssistant {
				continue
			}
			sep := ""
			switch {
			case prev != nil && prev.block == e.block:
				sep = e.joiner
			case n > 0:
				sep = "\n\n"
			}
			if pass == 1 {
				b.WriteString(sep)
				b.WriteString(e.text.s)
			}
			n += len(sep) + len(e.text.s)
			prev = e
		}
		if pass == 0 {
			b.Grow(n)
		}
	}
	return b.String()
}
