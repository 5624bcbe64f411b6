package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// sse writes server-sent events, flushing each one, optionally after a delay.
type sse struct {
	w     http.ResponseWriter
	r     *http.Request
	delay time.Duration
}

func (e *sse) send(name string, data any) error {
	if e.delay > 0 {
		t := time.NewTimer(e.delay)
		select {
		case <-t.C:
		case <-e.r.Context().Done():
			t.Stop()
			return errClientGone
		}
	}
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(e.w, "event: %s\ndata: %s\n\n", name, b); err != nil {
		return err
	}
	if f, ok := e.w.(http.Flusher); ok {
		f.Flush()
	}
	return nil
}

// streamReply writes reply as a Messages API stream: message_start, per
// block start/deltas/stop, message_delta, message_stop (docs/protocol.md §12).
func streamReply(w http.ResponseWriter, r *http.Request, reply Reply, model, msgID string) {
	w.Header().Set("content-type", "text/event-stream")
	w.Header().Set("cache-control", "no-cache")
	w.WriteHeader(http.StatusOK)
	e := &sse{w: w, r: r, delay: reply.Delay}

	type obj = map[string]any
	err := e.send("message_start", obj{"type": "message_start", "message": obj{
		"id": msgID, "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": obj{"input_tokens": 10, "output_tokens": 1,
			"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
	}})
	for i, b := range reply.Blocks {
		if err != nil {
			return
		}
		var start obj
		var deltas []obj
		switch b.Type {
		case "tool_use":
			start = obj{"type": "tool_use", "id": b.ID, "name": b.Name, "input": obj{}}
			for _, part := range split(compact(b.Input), 3) {
				deltas = append(deltas, obj{"type": "input_json_delta", "partial_json": part})
			}
		default:
			start = obj{"type": "text", "text": ""}
			for _, part := range split(b.Text, 3) {
				deltas = append(deltas, obj{"type": "text_delta", "text": part})
			}
		}
		err = e.send("content_block_start", obj{"type": "content_block_start", "index": i, "content_block": start})
		for _, d := range deltas {
			if err != nil {
				return
			}
			err = e.send("content_block_delta", obj{"type": "content_block_delta", "index": i, "delta": d})
		}
		if err == nil {
			err = e.send("content_block_stop", obj{"type": "content_block_stop", "index": i})
		}
	}
	if err != nil {
		return
	}
	stop := "end_turn"
	if reply.hasToolUse() {
		stop = "tool_use"
	}
	if err = e.send("message_delta", obj{"type": "message_delta",
		"delta": obj{"stop_reason": stop, "stop_sequence": nil},
		"usage": obj{"output_tokens": 5}}); err != nil {
		return
	}
	_ = e.send("message_stop", obj{"type": "message_stop"})
}

func compact(raw json.RawMessage) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// split cuts s into at most n non-empty pieces on rune boundaries, so a
// client must concatenate deltas to get the whole. An empty s is one piece.
func split(s string, n int) []string {
	rs := []rune(s)
	if len(rs) <= 1 || n <= 1 {
		return []string{s}
	}
	if n > len(rs) {
		n = len(rs)
	}
	size := (len(rs) + n - 1) / n
	var out []string
	for i := 0; i < len(rs); i += size {
		j := min(i+size, len(rs))
		out = append(out, string(rs[i:j]))
	}
	return out
}
