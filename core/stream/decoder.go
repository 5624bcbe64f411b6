package stream

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"

	"github.com/tidwall/gjson"
)

// Options tunes a Decoder.
type Options struct {
	// PhraseDetection scans the assistant text of a turn without any
	// structured denial for permission-request phrases (the old, reactive
	// fallback); a hit becomes a Phrase denial. Off by default.
	PhraseDetection bool
}

// Decoder reads the CLI's stdout and returns one Event per content block or
// line. It keeps the per-session tool registry and the per-turn state; only
// MarkUserDenied may be called from other goroutines.
type Decoder struct {
	lr  *lineReader
	opt Options
	err error

	line      int
	malformed int
	queue     []Event
	head      int

	cwd     string
	addDirs []string

	// partial-mode state of the API message being streamed
	streamMsg string
	streamed  map[int]bool       // block index -> text/thinking arrived as deltas
	open      map[int]*openBlock // tool_use blocks collecting input_json_delta
	asstMsg   string             // message id of the last assistant event
	asstCount int                // assistant blocks seen for asstMsg

	turn turnState

	mu         sync.RWMutex
	tools      map[string]ToolUse
	userDenied map[string]bool
}

type openBlock struct {
	toolUseID string
	json      strings.Builder
}

// NewDecoder decodes the stream-json lines of r.
func NewDecoder(r io.Reader, opt Options) *Decoder {
	return &Decoder{
		lr:         newLineReader(r),
		opt:        opt,
		streamed:   map[int]bool{},
		open:       map[int]*openBlock{},
		tools:      map[string]ToolUse{},
		userDenied: map[string]bool{},
	}
}

// Next returns the next event, or io.EOF (or the reader's error) at the end.
// Malformed lines come back as KindMalformed events; blank lines are skipped.
func (d *Decoder) Next() (Event, error) {
	for {
		if d.head < len(d.queue) {
			ev := d.queue[d.head]
			d.queue[d.head] = Event{}
			d.head++
			return ev, nil
		}
		d.queue, d.head = d.queue[:0], 0
		if d.err != nil {
			return Event{}, d.err
		}
		s, err := d.lr.readLine()
		if err != nil {
			d.err = err
			continue
		}
		d.line++
		if strings.TrimSpace(s) == "" {
			continue
		}
		n := len(d.queue)
		d.decodeLine(s)
		if len(s) >= collectLine {
			for i := n; i < len(d.queue); i++ {
				d.queue[i].detach()
			}
			// The line is garbage now (its text lives on, copied out or
			// as a substring): collected before the window lays the text
			// out, it does not count towards the collector's next goal.
			collectAfter(len(s))
		}
	}
}

// detach copies the small strings of an event of a huge line, which would
// otherwise keep the whole line alive as long as the event: only a text
// block's text may share the line's memory.
func (ev *Event) detach() {
	if b := ev.Block; b != nil {
		b.Type, b.MessageID = strings.Clone(b.Type), strings.Clone(b.MessageID)
	}
}

// MalformedLines is the number of lines so far that were not a JSON object.
func (d *Decoder) MalformedLines() int { return d.malformed }

// MarkUserDenied records that the host answered deny for toolUseID, so its
// failed tool_result is classed UserDenied. Safe for concurrent use.
func (d *Decoder) MarkUserDenied(toolUseID string) {
	d.mu.Lock()
	d.userDenied[toolUseID] = true
	d.mu.Unlock()
}

// tool returns the call registered for a tool_use_id. Safe for concurrent use.
func (d *Decoder) tool(id string) (ToolUse, bool) {
	d.mu.RLock()
	t, ok := d.tools[id]
	d.mu.RUnlock()
	return t, ok
}

func (d *Decoder) isUserDenied(id string) bool {
	d.mu.RLock()
	ok := d.userDenied[id]
	d.mu.RUnlock()
	return ok
}

// register records a call; an empty name or input does not erase a known one.
// The registry lives as long as the process: it keeps copies of the id and
// name, as substrings would keep whole lines (a Write of 64 MB).
func (d *Decoder) register(id, name string, input json.RawMessage) ToolUse {
	d.mu.Lock()
	t, known := d.tools[id]
	if !known {
		t.ID = strings.Clone(id)
	}
	if name != "" && name != t.Name {
		t.Name = strings.Clone(name)
	}
	if len(input) > 0 {
		t.Input = input
	}
	d.tools[t.ID] = t
	d.mu.Unlock()
	d.turn.addUse(t)
	return t
}

func (d *Decoder) emit(ev Event) { d.queue = append(d.queue, ev) }

// line holds the top-level members of one line that any type needs; it is
// filled in a single pass because key order is not stable and big members
// (a 1 MB "result") should be scanned once.
type line struct {
	typ, subtype, sessionID                      gjson.Result
	message, event, request, requestID, response gjson.Result
	apiMessageID, toolResultMeta                 gjson.Result

	cwd, model, permissionMode, addDirs                      gjson.Result
	attempt, maxRetries, retryDelay, errorStatus, errorField gjson.Result
	toolUseID                                                gjson.Result

	isAPIError, apiErrorStatus gjson.Result

	// A session file's user line says who decided on its tool call in
	// these two instead of tool_result_meta (sessionline.go).
	permissionDecision, toolDenialKind gjson.Result

	isError, result, cost, usage, permissionDenials gjson.Result
	errors, terminalReason                          gjson.Result
}

func (l *line) set(key, raw string) {
	v := result(raw)
	switch key {
	case "type":
		l.typ = v
	case "subtype":
		l.subtype = v
	case "session_id":
		l.sessionID = v
	case "message":
		l.message = v
	case "event":
		l.event = v
	case "request":
		l.request = v
	case "request_id":
		l.requestID = v
	case "response":
		l.response = v
	case "api_message_id":
		l.apiMessageID = v
	case "tool_result_meta":
		l.toolResultMeta = v
	case "cwd":
		l.cwd = v
	case "model":
		l.model = v
	case "permissionMode":
		l.permissionMode = v
	case "additional_directories":
		l.addDirs = v
	case "attempt":
		l.attempt = v
	case "max_retries":
		l.maxRetries = v
	case "retry_delay_ms":
		l.retryDelay = v
	case "error_status":
		l.errorStatus = v
	case "error":
		l.errorField = v
	case "tool_use_id":
		l.toolUseID = v
	case "is_api_error_message", "isApiErrorMessage": // the stream's name, a session file's
		l.isAPIError = v
	case "permissionDecision":
		l.permissionDecision = v
	case "toolDenialKind":
		l.toolDenialKind = v
	case "api_error_status":
		l.apiErrorStatus = v
	case "is_error":
		l.isError = v
	case "result":
		l.result = v
	case "total_cost_usd":
		l.cost = v
	case "usage":
		l.usage = v
	case "permission_denials":
		l.permissionDenials = v
	case "errors":
		l.errors = v
	case "terminal_reason":
		l.terminalReason = v
	}
}

func (d *Decoder) decodeLine(s string) {
	ev := Event{Line: d.line}
	if !gjson.Valid(s) {
		d.malformedLine(ev, s, "")
		return
	}
	root := gjson.Parse(s)
	if !root.IsObject() {
		d.malformedLine(ev, s, "not a JSON object")
		return
	}
	var l line
	eachMember(s, l.set)
	switch l.typ.Str {
	case "system":
		d.system(&l, ev)
	case "stream_event":
		d.streamEvent(&l, ev)
	case "assistant":
		d.assistant(&l, ev)
	case "user":
		d.user(&l, ev)
	case "result":
		d.result(&l, ev)
	case "control_request":
		d.controlRequest(&l, ev)
	case "control_cancel_request":
		ev.Kind = KindControlCancel
		ev.RequestID = l.requestID.Str
		d.emit(ev)
	case "control_response":
		d.controlResponse(&l, ev)
	default:
		d.emit(ev) // kindUnknown
	}
}

func (d *Decoder) malformedLine(ev Event, s, why string) {
	d.malformed++
	if why == "" {
		why = "invalid JSON"
		var v json.RawMessage
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			why = err.Error()
		}
	}
	ev.Kind = KindMalformed
	ev.Malformed = &Malformed{Err: why}
	d.emit(ev)
}

func strs(r gjson.Result) []string {
	if !r.IsArray() {
		return nil
	}
	var out []string
	r.ForEach(func(_, v gjson.Result) bool {
		out = append(out, v.String())
		return true
	})
	return out
}

// reasonText reads decision_reason, a string in 2.1.328 and possibly an
// object in other versions.
func reasonText(r gjson.Result) string {
	if !r.IsObject() {
		if r.Type == gjson.String {
			return r.Str
		}
		return ""
	}
	for _, k := range []string{"reason", "message", "text", "type"} {
		if v := r.Get(k); v.Type == gjson.String {
			return v.Str
		}
	}
	return r.Raw
}

// result is gjson's reading of the raw JSON value, but for a string
// unescaped by str: a result line repeats the whole answer.
func result(raw string) gjson.Result {
	if len(raw) > 0 && raw[0] == '"' {
		return gjson.Result{Type: gjson.String, Raw: raw, Str: str(raw)}
	}
	return gjson.Parse(raw)
}

// str is the string a JSON value holds, as gjson's Result.Str: "" for
// anything but a string. Without escapes it is a substring of raw. With
// them, it is unescaped into a buffer of the escaped length (the text is
// never longer), where gjson fills one buffer and copies it into a second:
// for a 64 MB answer, 64 MB more at the peak.
func str(raw string) string {
	if len(raw) < 2 || raw[0] != '"' {
		return ""
	}
	s := raw[1 : len(raw)-1]
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for {
		i := strings.IndexByte(s, '\\')
		if i < 0 {
			b.WriteString(s)
			break
		}
		b.WriteString(s[:i])
		if i+1 >= len(s) {
			break
		}
		n := 2
		switch c := s[i+1]; c {
		case '\\', '/', '"':
			b.WriteByte(c)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			if i+6 > len(s) {
				return b.String()
			}
			r := hex4(s[i+2:])
			n = 6
			if utf16.IsSurrogate(r) && r < 0xDC00 && i+12 <= len(s) && s[i+6] == '\\' && s[i+7] == 'u' {
				if r2 := hex4(s[i+8:]); r2 >= 0xDC00 && r2 < 0xE000 {
					r, n = utf16.DecodeRune(r, r2), 12
				}
			}
			b.WriteRune(r) // a lone surrogate becomes U+FFFD, as in gjson
		default: // not valid JSON; gjson stops here too
			return b.String()
		}
		s = s[i+n:]
	}
	if b.Cap()-b.Len() > b.Len()/4 { // mostly \u escapes: keep only the text
		return strings.Clone(b.String())
	}
	return b.String()
}

// hex4 is the value of 4 hex digits, 0 if they are not (as gjson's runeit).
func hex4(s string) rune {
	n, _ := strconv.ParseUint(s[:4], 16, 64)
	return rune(n)
}

// EachMember is eachMember for the other readers of Claude Code's JSON
// lines (core/sessions).
func EachMember(obj string, fn func(key, raw string)) { eachMember(obj, fn) }

// ValueEnd is the index just after the JSON value that starts at s[i]
// (len(s) when it is cut), for the same readers.
func ValueEnd(s string, i int) int { return valueEnd(s, i) }

// eachMember calls fn with the key and the raw value of each member of obj,
// a valid JSON object. Unlike gjson's ForEach it unescapes no value, so a
// huge string is unescaped once, by str, and only if it is wanted.
func eachMember(obj string, fn func(key, raw string)) {
	i := strings.IndexByte(obj, '{')
	if i < 0 {
		return
	}
	for i++; ; i++ {
		i = skipSpace(obj, i)
		if i >= len(obj) || obj[i] != '"' {
			return // '}'
		}
		end := stringEnd(obj, i)
		key := str(obj[i:end])
		i = skipSpace(obj, end)
		if i >= len(obj) || obj[i] != ':' {
			return
		}
		i = skipSpace(obj, i+1)
		end = valueEnd(obj, i)
		fn(key, obj[i:end])
		if i = skipSpace(obj, end); i >= len(obj) || obj[i] != ',' {
			return
		}
	}
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// stringEnd is the index just after the JSON string that starts at s[i].
func stringEnd(s string, i int) int {
	for j := i + 1; ; j++ {
		k := strings.IndexByte(s[j:], '"')
		if k < 0 {
			return len(s)
		}
		j += k
		odd := false // an odd run of backslashes escapes the quote
		for p := j - 1; p > i && s[p] == '\\'; p-- {
			odd = !odd
		}
		if !odd {
			return j + 1
		}
	}
}

// valueEnd is the index just after the JSON value that starts at s[i].
func valueEnd(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '"':
		return stringEnd(s, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(s); j++ {
			switch s[j] {
			case '"':
				j = stringEnd(s, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return len(s)
	}
	j := i
	for j < len(s) && s[j] != ',' && s[j] != '}' && s[j] != ']' && s[j] != ' ' && s[j] != '\t' && s[j] != '\n' && s[j] != '\r' {
		j++
	}
	return j
}

func raw(r gjson.Result) json.RawMessage {
	if !r.Exists() || r.Type == gjson.Null {
		return nil
	}
	return json.RawMessage(r.Raw)
}

func (d *Decoder) system(l *line, ev Event) {
	switch l.subtype.Str {
	case "init":
		ev.Kind = KindInit
		ev.Init = &Init{
			SessionID:      l.sessionID.Str,
			Model:          l.model.Str,
			PermissionMode: l.permissionMode.Str,
		}
		d.cwd, d.addDirs = l.cwd.Str, strs(l.addDirs)
		d.turn.reset() // every turn starts with an init
	case "status":
		ev.Kind = KindStatus
		ev.Status = &Status{PermissionMode: l.permissionMode.Str}
	case "api_retry":
		ev.Kind = KindAPIRetry
		ev.APIRetry = &APIRetry{
			Attempt:      int(l.attempt.Int()),
			MaxRetries:   int(l.maxRetries.Int()),
			RetryDelayMS: int(l.retryDelay.Int()),
			ErrorStatus:  int(l.errorStatus.Int()),
			Error:        l.errorField.String(),
		}
	case "permission_denied":
		ev.Kind = kindPermissionDenied
		d.turn.permDenied(l.toolUseID.Str)
	}
	d.emit(ev)
}
