package stream

import (
	"strings"

	"github.com/tidwall/gjson"
)

// interruptPrefix starts the CLI's interrupt markers:
// "[Request interrupted by user]" and "[Request interrupted by user for tool use]".
const interruptPrefix = "[Request interrupted by user"

// user decodes a user line: tool_result blocks (one event each), interrupt
// markers, and replayed host text.
func (d *Decoder) user(l *line, ev Event) {
	content := l.message.Get("content")
	if content.Type == gjson.String {
		ev.Kind = userTextKind(content.Str)
		d.emit(ev)
		return
	}
	if !content.IsArray() {
		d.emit(ev)
		return
	}
	var rejected []string // ids the host's own deny answer refused (meta source user_reject)
	decided := map[string]*Decided{}
	l.toolResultMeta.ForEach(func(_, m gjson.Result) bool {
		id := m.Get("id").Str
		if m.Get("permission_decision.source").Str == "user_reject" {
			rejected = append(rejected, id)
		}
		if pd := m.Get("permission_decision"); pd.IsObject() || m.Get("non_execution_kind").Exists() {
			decided[id] = &Decided{
				Decision:         pd.Get("decision").Str,
				Source:           pd.Get("source").Str,
				ReasonType:       pd.Get("reason_type").Str,
				NonExecutionKind: m.Get("non_execution_kind").Str,
			}
		}
		return true
	})
	if !l.toolResultMeta.Exists() {
		if id, dc := sessionDecision(l, content); dc != nil {
			decided[id] = dc
			if dc.Source == "user_reject" {
				rejected = append(rejected, id)
			}
		}
	}
	content.ForEach(func(_, c gjson.Result) bool {
		var typ, id, body, isErr, text gjson.Result
		c.ForEach(func(k, v gjson.Result) bool {
			switch k.Str {
			case "type":
				typ = v
			case "tool_use_id":
				id = v
			case "content":
				body = v
			case "is_error":
				isErr = v
			case "text":
				text = v
			}
			return true
		})
		e := ev
		switch typ.Str {
		case "tool_result":
			e.Kind = KindToolResult
			e.ToolResult = d.toolResult(id.Str, contentText(body), isErr.Bool(), contains(rejected, id.Str))
			e.ToolResult.Decided = decided[id.Str]
		case "text":
			e.Kind = userTextKind(text.Str)
		default:
			e.Kind = kindUnknown // images, …
		}
		d.emit(e)
		return true
	})
}

func userTextKind(s string) Kind {
	if strings.HasPrefix(s, interruptPrefix) {
		return KindInterruptMarker
	}
	return kindUserText
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// contentText is a tool_result's content: the string (built-in tools) or the
// text blocks joined with "\n" (MCP tools).
func contentText(c gjson.Result) string {
	if c.Type == gjson.String {
		return c.Str
	}
	if !c.IsArray() {
		return ""
	}
	var parts []string
	c.ForEach(func(_, b gjson.Result) bool {
		if b.Get("type").Str == "text" {
			parts = append(parts, b.Get("text").Str)
		}
		return true
	})
	return strings.Join(parts, "\n")
}

func (d *Decoder) toolResult(id, text string, isErr, rejected bool) *ToolResult {
	t, _ := d.tool(id)
	tr := &ToolResult{ToolUseID: id, Tool: t.Name, Input: t.Input, Text: text, IsError: isErr}
	permDenied := d.turn.pd[id]
	userDenied := rejected || d.isUserDenied(id)
	if c, ok := classify(text, isErr, permDenied, userDenied); ok {
		tr.Denial = &Denial{
			Class:     c,
			Tool:      t.Name,
			ToolUseID: id,
			Input:     t.Input,
			Dir:       grantDir(t.Name, t.Input, d.cwd, d.addDirs),
		}
		d.turn.addDenial(*tr.Denial)
	}
	return tr
}
