package fakeapi

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Request is one recorded POST /v1/messages, decoded enough for assertions.
type Request struct {
	Query  string // raw query string, e.g. "beta=true"
	Header http.Header
	Body   []byte // the raw body
	Model  string
	System []string // the text of each system block
	Tools  []string // tool names
	// Messages are the conversation, role "system" included.
	Messages []Message
	// Conversation is false for side requests (no tools, or a lone
	// "Warmup" message), which never consume the script.
	Conversation bool
	// Served is the reply sent, with the tool_use ids it carried.
	Served Reply
}

// Message is one message of a request; string content becomes one text block.
type Message struct {
	Role    string
	Content []Content
}

// Content is one block of a message.
type Content struct {
	Type string // text, tool_use, tool_result, …
	Text string // text; for tool_result its content (a string, or its text blocks joined with "\n")
	// tool_use
	ID    string
	Name  string
	Input json.RawMessage
	// tool_result
	ToolUseID string
	IsError   bool
}

// Text is every text and tool_result text of the message, joined by "\n".
func (m Message) Text() string {
	var parts []string
	for _, c := range m.Content {
		if c.Text != "" {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// ToolResults lists every tool_result of the request, oldest first.
func (r Request) ToolResults() []Content {
	var out []Content
	for _, m := range r.Messages {
		for _, c := range m.Content {
			if c.Type == "tool_result" {
				out = append(out, c)
			}
		}
	}
	return out
}

// LastToolResult is the tool_result of the last message, if it holds one:
// what the CLI reports about the tool call just made.
func (r Request) LastToolResult() (Content, bool) {
	if len(r.Messages) == 0 {
		return Content{}, false
	}
	last := r.Messages[len(r.Messages)-1]
	for i := len(last.Content) - 1; i >= 0; i-- {
		if last.Content[i].Type == "tool_result" {
			return last.Content[i], true
		}
	}
	return Content{}, false
}

// Contains reports whether any message text (user, assistant, system-role or
// tool_result) or tool_use input contains s.
func (r Request) Contains(s string) bool {
	for _, m := range r.Messages {
		if strings.Contains(m.Text(), s) {
			return true
		}
		for _, c := range m.Content {
			if c.Type == "tool_use" && strings.Contains(compact(c.Input), s) {
				return true
			}
		}
	}
	return false
}

// LastUserText is the text of the last user message that is not only
// tool results: normally the prompt of the current turn.
func (r Request) LastUserText() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		m := r.Messages[i]
		if m.Role != "user" {
			continue
		}
		var parts []string
		for _, c := range m.Content {
			if c.Type == "text" {
				parts = append(parts, c.Text)
			}
		}
		if len(parts) > 0 {
			return strings.Join(parts, "\n")
		}
	}
	return ""
}

// wire shapes of the request body.
type wireRequest struct {
	Model    string          `json:"model"`
	System   json.RawMessage `json:"system"`
	Messages []wireMessage   `json:"messages"`
	Tools    []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

type wireMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type wireBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// decodeRequest parses a Messages API body. Unknown fields are ignored and
// content may be a string or a block array, as the API allows.
func decodeRequest(body []byte) (Request, error) {
	var w wireRequest
	if err := json.Unmarshal(body, &w); err != nil {
		return Request{}, err
	}
	r := Request{Body: body, Model: w.Model}
	for _, t := range w.Tools {
		r.Tools = append(r.Tools, t.Name)
	}
	sys, err := blocks(w.System)
	if err != nil {
		return Request{}, err
	}
	for _, b := range sys {
		r.System = append(r.System, b.Text)
	}
	for _, wm := range w.Messages {
		bs, err := blocks(wm.Content)
		if err != nil {
			return Request{}, err
		}
		m := Message{Role: wm.Role}
		for _, b := range bs {
			c := Content{Type: b.Type, Text: b.Text, ID: b.ID, Name: b.Name, Input: b.Input,
				ToolUseID: b.ToolUseID, IsError: b.IsError}
			if b.Type == "tool_result" {
				inner, err := blocks(b.Content)
				if err != nil {
					return Request{}, err
				}
				var parts []string
				for _, ib := range inner {
					if ib.Text != "" {
						parts = append(parts, ib.Text)
					}
				}
				c.Text = strings.Join(parts, "\n")
			}
			m.Content = append(m.Content, c)
		}
		r.Messages = append(r.Messages, m)
	}
	r.Conversation = len(r.Tools) > 0 &&
		!(len(r.Messages) == 1 && strings.TrimSpace(r.Messages[0].Text()) == "Warmup")
	return r, nil
}

// blocks decodes content that is absent, a string, or a block array.
func blocks(raw json.RawMessage) ([]wireBlock, error) {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" {
		return nil, nil
	}
	if s[0] == '"' {
		var text string
		if err := json.Unmarshal(raw, &text); err != nil {
			return nil, err
		}
		return []wireBlock{{Type: "text", Text: text}}, nil
	}
	var bs []wireBlock
	err := json.Unmarshal(raw, &bs)
	return bs, err
}
