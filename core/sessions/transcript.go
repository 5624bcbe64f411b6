package sessions

import (
	"fmt"
	"strings"
	"time"

	"github.com/latch-app/latch/core/stream"
	"github.com/tidwall/gjson"
)

// What a user line is.
const (
	uOther    = iota // nothing to show (an empty message, a meta line)
	uPrompt          // typed: a prompt, a slash command, a shell escape
	uTool            // tool results (and what comes with them)
	uNotice          // a replayed summary, an interrupt, a local command's output
	uSubagent        // the prompt a subagent was given
)

// classifyUser says what a user line is and its text in words (for a
// prompt, what was typed; for a notice, its one line). The lister and the
// reader both use it, so they count the same prompts.
func classifyUser(h *header) (kind int, text string) {
	// Raw scanning, not gjson: a tool result's big content is skipped, not
	// parsed.
	var content string
	stream.EachMember(h.message, func(k, raw string) {
		if k == "content" {
			content = raw
		}
	})
	var texts []string
	images := 0
	switch {
	case strings.HasPrefix(content, `"`):
		texts = append(texts, unquote(content))
	case strings.HasPrefix(content, "["):
		tool := false
		eachElement(content, func(el string) bool {
			var typ, txt string
			stream.EachMember(el, func(k, raw string) {
				switch k {
				case "type":
					typ = unquote(raw)
				case "text":
					txt = raw
				}
			})
			switch typ {
			case "tool_result":
				tool = true
			case "text":
				texts = append(texts, unquote(txt))
			case "image", "document":
				images++
			}
			return !tool
		})
		if tool {
			return uTool, ""
		}
	default:
		return uOther, ""
	}
	s := strings.Join(texts, "\n")
	switch {
	case h.flags&fMeta != 0:
		return uOther, "" // caveats, expanded commands, reminders: the CLI's own
	case h.flags&fCompactSummary != 0:
		return uNotice, fold("Summary of the earlier conversation: ", s)
	case strings.HasPrefix(s, "[Request interrupted by user"):
		return uNotice, oneLine(s, titleMax)
	}
	if t := strings.TrimLeft(s, " \t\r\n"); strings.HasPrefix(t, "<") {
		if k, words, ok := tagged(t); ok {
			if h.flags&fSidechain != 0 {
				k = uNotice
			}
			return k, words
		}
	}
	if h.flags&fSidechain != 0 {
		return uSubagent, fold("Subagent prompt: ", s)
	}
	if strings.TrimSpace(s) == "" {
		if images == 0 {
			return uOther, ""
		}
		s = "[image]"
	}
	return uPrompt, s
}

// tagged reads the CLI's markup of local commands: "<command-name>/x</…>
// <command-args>y</…>" (typed: a prompt "/x y"), "<bash-input>ls</…>"
// (typed: "! ls"), and their output, "<local-command-stdout>…",
// "<bash-stdout>…" (a notice).
func tagged(s string) (kind int, text string, ok bool) {
	inner := func(tag string) (string, bool) {
		_, after, found := strings.Cut(s, "<"+tag+">")
		if !found {
			return "", false
		}
		v, _, _ := strings.Cut(after, "</"+tag+">")
		return strings.TrimSpace(v), true
	}
	if strings.HasPrefix(s, "<command-") {
		if name, found := inner("command-name"); found {
			args, _ := inner("command-args")
			if !strings.HasPrefix(name, "/") {
				name = "/" + name
			}
			return uPrompt, strings.TrimSpace(name + " " + args), true
		}
	}
	if strings.HasPrefix(s, "<bash-input>") {
		in, _ := inner("bash-input")
		return uPrompt, "! " + in, true
	}
	for _, tag := range []string{"local-command-stdout", "local-command-stderr", "bash-stdout", "bash-stderr"} {
		if strings.HasPrefix(s, "<"+tag+">") {
			out, _ := inner(tag)
			return uNotice, fold("Output: ", out), true
		}
	}
	return 0, "", false
}

// transcriber turns the lines of the chosen branch into Items.
type transcriber struct {
	// quick: only the last turn's denials are wanted (the lister), so tool
	// results that cannot be denials are not decoded.
	quick bool
	fn    func(Item) error
	dec   *stream.Decoder
	evs   []stream.Event
	open  bool // a turn has begun and not yet ended

	cwd     string
	addDirs []string
	last    time.Time

	prompts     int
	firstPrompt string
	model       string
	lastTurn    *stream.Turn // the last turn ended
}

func newTranscriber(fn func(Item) error) *transcriber {
	if fn == nil {
		fn = func(Item) error { return nil }
	}
	return &transcriber{fn: fn, dec: stream.NewLineDecoder(stream.Options{})}
}

// line decodes one line of the branch (a valid JSON object).
func (t *transcriber) line(s string, lineNo int) error {
	h := parseHeader(s)
	var ts time.Time
	if h.hasTS {
		ts = time.Unix(0, h.ts)
		// After this line: a turn that this prompt ends ended before it.
		defer func() { t.last = ts }()
	}
	side := h.flags&fSidechain != 0
	if h.cwd != "" && h.cwd != t.cwd {
		t.cwd = strings.Clone(h.cwd)
		t.dec.SetDirs(t.cwd, t.addDirs)
	}
	switch h.typ {
	case tUser:
		kind, text := classifyUser(&h)
		switch kind {
		case uPrompt:
			if err := t.endTurn(); err != nil {
				return err
			}
			t.open = true
			t.prompts++
			if t.prompts == 1 {
				t.firstPrompt = text
			}
			return t.fn(Item{Kind: ItemPrompt, Text: text, Time: ts})
		case uNotice, uSubagent:
			return t.fn(Item{Kind: ItemNotice, Text: text, Sidechain: side, Time: ts})
		case uTool:
			if t.quick && noDenials(s) {
				return nil
			}
			return t.events(s, lineNo, side, ts)
		}
	case tAssistant:
		if t.quick {
			return nil // a denial's class does not depend on the call
		}
		if m := gjson.Get(h.message, "model").Str; m != "" && m != "<synthetic>" && m != t.model {
			t.model = strings.Clone(m)
		}
		return t.events(s, lineNo, side, ts)
	case tSystem:
		if text := systemNotice(s, h.subtype); text != "" {
			return t.fn(Item{Kind: ItemNotice, Text: text, Sidechain: side, Time: ts})
		}
	case tAttachment:
		// The environment snapshot names the folders the CLI works in, by
		// which a denial's Dir is judged, as system/init's in the stream.
		if a := gjson.Get(s, "attachment"); a.Get("type").Str == "environment" {
			snap := a.Get("snapshot")
			var dirs []string
			for _, d := range snap.Get("additionalWorkingDirectories").Array() {
				if d.Type == gjson.String {
					dirs = append(dirs, strings.Clone(d.Str))
				}
			}
			if wd := snap.Get("workingDirectory").Str; wd != "" {
				t.cwd = strings.Clone(wd)
			}
			t.addDirs = dirs
			t.dec.SetDirs(t.cwd, t.addDirs)
		}
	}
	return nil
}

// events passes a message line to the stream decoder and its assistant
// blocks and tool results on as Items.
func (t *transcriber) events(s string, lineNo int, side bool, ts time.Time) error {
	t.evs = t.dec.AppendLine(t.evs[:0], s, lineNo)
	for i := range t.evs {
		ev := t.evs[i]
		t.evs[i] = stream.Event{}
		var it Item
		switch ev.Kind {
		case stream.KindAssistant, stream.KindToolResult:
			it = Item{Kind: ItemEvent, Event: ev}
		case stream.KindInterruptMarker:
			it = Item{Kind: ItemNotice, Text: "[Request interrupted by user]"}
		default:
			continue
		}
		t.open = true
		it.Sidechain, it.Time = side, ts
		if err := t.fn(it); err != nil {
			return err
		}
	}
	return nil
}

func (t *transcriber) endTurn() error {
	if !t.open {
		return nil
	}
	t.open = false
	t.lastTurn = t.dec.EndTurn()
	return t.fn(Item{Kind: ItemTurnEnd, Turn: t.lastTurn, Time: t.last})
}

func (t *transcriber) finish() error { return t.endTurn() }

// unresolved is the number of grantable denials of the last turn.
func (t *transcriber) unresolved() int {
	if t.lastTurn == nil {
		return 0
	}
	return len(t.lastTurn.Grantable())
}

// systemNotice is the one line a system line is worth, or "".
func systemNotice(s, subtype string) string {
	switch subtype {
	case "compact_boundary":
		if trig := gjson.Get(s, "compactMetadata.trigger").Str; trig != "" {
			return "Conversation compacted (" + oneLine(trig, 40) + ")"
		}
		return "Conversation compacted"
	case "api_error":
		r := gjson.GetMany(s, "error.formatted", "error.message", "retryAttempt", "maxRetries")
		msg := r[0].Str
		if msg == "" {
			msg = r[1].Str
		}
		text := "API error"
		if msg != "" {
			text += ": " + oneLine(msg, 160)
		}
		if r[2].Exists() {
			text += fmt.Sprintf(" (retry %d of %d)", r[2].Int(), r[3].Int())
		}
		return text
	}
	return ""
}

// noDenials reports whether a user line's tool results surely hold no
// denial: none is an error, and none's text starts like the stream-closed
// forms that count without is_error (stream.classify). It reads the raw
// JSON: a big output is neither unescaped nor lower-cased. When unsure, it
// says false, and the line is decoded.
func noDenials(s string) bool {
	var msg, content string
	stream.EachMember(s, func(k, raw string) {
		if k == "message" {
			msg = raw
		}
	})
	stream.EachMember(msg, func(k, raw string) {
		if k == "content" {
			content = raw
		}
	})
	if content == "" || content[0] != '[' {
		return false
	}
	ok := true
	eachElement(content, func(el string) bool {
		var typ, isErr, body string
		stream.EachMember(el, func(k, raw string) {
			switch k {
			case "type":
				typ = raw
			case "is_error":
				isErr = raw
			case "content":
				body = raw
			}
		})
		if typ == `"tool_result"` && (isErr == "true" || mayBeStreamClosed(body)) {
			ok = false
		}
		return ok
	})
	return ok
}

// mayBeStreamClosed reports whether a tool_result's raw content could be
// one of the stream-closed texts: it starts, past white space and case,
// with "stream closed" or "tool permission". Anything but a plain string
// (text blocks, escapes other than white space, non-ASCII) may be.
func mayBeStreamClosed(raw string) bool {
	if len(raw) < 2 || raw[0] != '"' {
		return raw != "" && raw != "null"
	}
	s := raw[1:]
	for len(s) > 0 {
		switch {
		case s[0] == ' ':
			s = s[1:]
			continue
		case len(s) > 1 && s[0] == '\\' && (s[1] == 'n' || s[1] == 't' || s[1] == 'r'):
			s = s[2:]
			continue
		}
		break
	}
	if s == "" || (s[0]|0x20 != 's' && s[0]|0x20 != 't') {
		return false // neither "stream closed" nor "tool permission"
	}
	p := s[:min(len(s), 16)]
	for i := 0; i < len(p); i++ {
		if p[i] >= 0x80 || p[i] == '\\' {
			return true
		}
	}
	lower := strings.ToLower(p)
	return strings.HasPrefix(lower, "stream closed") || strings.HasPrefix(lower, "tool permission") ||
		strings.HasPrefix("stream closed", strings.TrimSuffix(lower, `"`)) // a short text cut by the quote
}

// eachElement calls fn with each raw element of arr, a JSON array, until
// fn returns false.
func eachElement(arr string, fn func(raw string) bool) {
	i := skipSpace(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return
	}
	for i++; ; i++ {
		i = skipSpace(arr, i)
		if i >= len(arr) || arr[i] == ']' {
			return
		}
		end := stream.ValueEnd(arr, i)
		if !fn(arr[i:end]) {
			return
		}
		if i = skipSpace(arr, end); i >= len(arr) || arr[i] != ',' {
			return
		}
	}
}
