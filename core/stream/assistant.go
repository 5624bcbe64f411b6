package stream

import (
	"encoding/json"
	"strings"

	"github.com/tidwall/gjson"
)

// streamEvent decodes a partial-mode stream_event. It remembers which blocks
// of the current message streamed text (Block.Streamed) and joins the
// input_json_delta fragments of tool_use blocks.
func (d *Decoder) streamEvent(l *line, ev Event) {
	var typ, index, message, block, delta gjson.Result
	l.event.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "type":
			typ = v
		case "index":
			index = v
		case "message":
			message = v
		case "content_block":
			block = v
		case "delta":
			delta = v
		}
		return true
	})
	msgID := l.apiMessageID.Str
	if typ.Str == "message_start" {
		if id := message.Get("id").Str; id != "" {
			msgID = id
		}
		if msgID != d.streamMsg {
			d.streamMsg = msgID
			clear(d.streamed)
			clear(d.open)
		}
	}
	if msgID == "" {
		msgID = d.streamMsg
	}
	idx := int(index.Int())
	dl := &Delta{MessageID: msgID, Index: idx}
	ev.Delta = dl
	switch typ.Str {
	case "message_start":
		ev.Kind = kindMessageStart
	case "content_block_start":
		ev.Kind = KindBlockStart
		var id, name gjson.Result
		block.ForEach(func(k, v gjson.Result) bool {
			switch k.Str {
			case "type":
				dl.BlockType = v.Str
			case "id":
				id = v
			case "name":
				name = v
			}
			return true
		})
		if dl.BlockType == "tool_use" && id.Str != "" {
			dl.ToolUseID, dl.ToolName = id.Str, name.Str
			d.register(id.Str, name.Str, nil) // input arrives as deltas
			d.open[idx] = &openBlock{toolUseID: id.Str}
		}
	case "content_block_delta":
		var dt, text, thinking, partial gjson.Result
		delta.ForEach(func(k, v gjson.Result) bool {
			switch k.Str {
			case "type":
				dt = v
			case "text":
				text = v
			case "thinking":
				thinking = v
			case "partial_json":
				partial = v
			}
			return true
		})
		switch dt.Str {
		case "text_delta":
			ev.Kind = KindTextDelta
			dl.Text = text.Str
			d.streamed[idx] = true
		case "thinking_delta":
			ev.Kind = KindThinkingDelta
			dl.Text = thinking.Str
			d.streamed[idx] = true
		case "input_json_delta":
			ev.Kind = kindToolInputDelta
			if ob := d.open[idx]; ob != nil {
				ob.json.WriteString(partial.Str)
			}
		default:
			ev.Kind = kindUnknown // signature_delta, citations, …
			ev.Delta = nil
		}
	case "content_block_stop":
		ev.Kind = kindBlockStop
		if ob := d.open[idx]; ob != nil {
			delete(d.open, idx)
			// The assistant event usually gave the input already; the
			// joined deltas are for when it is missing.
			if t, _ := d.tool(ob.toolUseID); len(t.Input) == 0 {
				in := ob.json.String()
				if in == "" {
					in = "{}"
				}
				if gjson.Valid(in) {
					d.register(ob.toolUseID, "", json.RawMessage(in))
				}
			}
		}
	case "message_delta":
		ev.Kind = kindMessageDelta
	case "message_stop":
		ev.Kind = kindMessageStop
	default:
		ev.Kind = kindUnknown // ping, …
		ev.Delta = nil
	}
	d.emit(ev)
}

// assistant emits one KindAssistant event per content block. The CLI sends
// one line per block, all with the same message id, so a block's index in
// its message is the number of blocks of that id seen before it.
func (d *Decoder) assistant(l *line, ev Event) {
	var id, content gjson.Result
	l.message.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "id":
			id = v
		case "content":
			content = v
		}
		return true
	})
	if id.Str != d.asstMsg {
		// A copy: kept until the next message, a substring would keep the
		// whole line, which can be 64 MB.
		d.asstMsg, d.asstCount = strings.Clone(id.Str), 0
	}
	apiErr := l.isAPIError.Bool()
	one := func(b *Block) {
		b.MessageID = d.asstMsg
		b.APIError = apiErr
		idx := d.asstCount
		d.asstCount++
		if b.Type == "text" || b.Type == "thinking" {
			b.Streamed = id.Str != "" && id.Str == d.streamMsg && d.streamed[idx]
		}
		if b.Type == "text" && d.opt.PhraseDetection {
			d.turn.addText(b.Text)
		}
		e := ev
		e.Kind = KindAssistant
		e.Block = b
		d.emit(e)
	}
	if content.Type == gjson.String { // not sent by 2.1.328; be lenient
		one(&Block{Type: "text", Text: content.Str})
		return
	}
	if !content.IsArray() {
		d.emit(ev)
		return
	}
	content.ForEach(func(_, c gjson.Result) bool {
		b := &Block{}
		var tid, name, input string
		if c.IsObject() {
			// Not c.ForEach: it would unescape the text into one buffer and
			// copy it into another; str does it in one.
			eachMember(c.Raw, func(k, v string) {
				switch k {
				case "type":
					b.Type = str(v)
				case "text", "thinking":
					b.Text = str(v)
				case "id":
					tid = str(v)
				case "name":
					name = str(v)
				case "input":
					input = v
				}
			})
		}
		if b.Type == "tool_use" && tid != "" {
			t := d.register(tid, name, raw(gjson.Parse(input)))
			b.ToolUse = &t
		}
		one(b)
		return true
	})
}
