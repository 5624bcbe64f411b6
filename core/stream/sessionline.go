package stream

import (
	"io"
	"strings"

	"github.com/tidwall/gjson"
)

// Claude Code's session files (~/.claude/projects/<slug>/<id>.jsonl) hold
// the same user and assistant messages as the stream, one per line, with
// camel-case fields around them. The Decoder reads such lines when they
// are given to it one at a time (AppendLine); what differs is handled here.

// NewLineDecoder returns a Decoder that is fed lines by AppendLine instead
// of reading a stream; its Next returns io.EOF.
func NewLineDecoder(opt Options) *Decoder {
	return &Decoder{
		opt:        opt,
		err:        io.EOF, // no reader (and no 64 KB buffer for one)
		streamed:   map[int]bool{},
		open:       map[int]*openBlock{},
		tools:      map[string]ToolUse{},
		userDenied: map[string]bool{},
	}
}

// AppendLine decodes one line, as Next would, and appends its events to
// dst. lineNo becomes Event.Line. A line that is not a JSON object gives a
// KindMalformed event. Not to be mixed with Next on the same Decoder.
func (d *Decoder) AppendLine(dst []Event, s string, lineNo int) []Event {
	d.line = lineNo
	if strings.TrimSpace(s) == "" {
		return dst
	}
	n := len(d.queue)
	d.decodeLine(s)
	if len(s) >= collectLine {
		for i := n; i < len(d.queue); i++ {
			d.queue[i].detach()
		}
	}
	dst = append(dst, d.queue[d.head:]...)
	clear(d.queue)
	d.queue, d.head = d.queue[:0], 0
	if len(s) >= collectLine {
		collectAfter(len(s))
	}
	return dst
}

// EndTurn ends the turn gathered so far as a result line without
// permission_denials would, and returns it: a session file has no result
// lines, and a stream may end before its last one.
func (d *Decoder) EndTurn() *Turn { return d.finishTurn(nil) }

// SetDirs sets the folders a denial's Dir is judged by, as system/init's
// cwd and additional_directories do; a session file says them in each
// line's cwd and in its environment attachment.
func (d *Decoder) SetDirs(cwd string, addDirs []string) {
	d.cwd, d.addDirs = cwd, addDirs
}

// sessionDecision reads a session file's user line: permissionDecision
// ({decision, source, reasonType, …}) and toolDenialKind say who decided on
// its tool call, as tool_result_meta's permission_decision and
// non_execution_kind do in the stream. The line names no tool_use_id, so
// they are taken only when the line holds exactly one tool_result, as the
// CLI writes them; it returns that result's id.
func sessionDecision(l *line, content gjson.Result) (string, *Decided) {
	pd, kind := l.permissionDecision, l.toolDenialKind
	if !pd.IsObject() && kind.Type != gjson.String {
		return "", nil
	}
	var id string
	n := 0
	content.ForEach(func(_, c gjson.Result) bool {
		if c.Get("type").Str == "tool_result" {
			n++
			id = c.Get("tool_use_id").Str
		}
		return n < 2
	})
	if n != 1 {
		return "", nil
	}
	return id, &Decided{
		Decision:         pd.Get("decision").Str,
		Source:           pd.Get("source").Str,
		ReasonType:       pd.Get("reasonType").Str,
		NonExecutionKind: kind.Str,
	}
}
