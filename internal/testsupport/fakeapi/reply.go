package fakeapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// Block is one content block of a scripted reply: text or a tool_use.
type Block struct {
	Type  string          // "text" or "tool_use"
	Text  string          // text
	ID    string          // tool_use id; "" = a fresh toolu_ id each time it is served
	Name  string          // tool_use tool name
	Input json.RawMessage // tool_use input object
}

// Text is a text block.
func Text(s string) Block { return Block{Type: "text", Text: s} }

// ToolUse is a tool_use block. input is a JSON object given as a string,
// []byte, json.RawMessage, or any value encoding/json turns into an object
// (a map or a struct). It panics on input that is not a JSON object, since
// that is a mistake in the test script.
func ToolUse(name string, input any) Block {
	var raw []byte
	switch v := input.(type) {
	case string:
		raw = []byte(v)
	case []byte:
		raw = v
	case json.RawMessage:
		raw = v
	default:
		b, err := json.Marshal(v)
		if err != nil {
			panic(fmt.Sprintf("fakeapi.ToolUse(%s): %v", name, err))
		}
		raw = b
	}
	var obj map[string]any
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		panic(fmt.Sprintf("fakeapi.ToolUse(%s): input is not a JSON object: %s", name, raw))
	}
	return Block{Type: "tool_use", Name: name, Input: json.RawMessage(raw)}
}

// Bash is ToolUse("Bash", {"command": command, "description": "Run a command"}).
func Bash(command string) Block {
	return ToolUse("Bash", map[string]string{"command": command, "description": "Run a command"})
}

// Reply is one scripted answer to a conversation request: either content
// blocks streamed as SSE, or an HTTP error when Status is not 0 or 200.
type Reply struct {
	Blocks []Block
	// Status, when not 0/200, makes the reply an HTTP error with an
	// Anthropic error body carrying Message.
	Status  int
	Message string
	// Delay is slept before each SSE event, to make interrupts during
	// streaming testable.
	Delay time.Duration
}

// Say is a reply made of blocks.
func Say(blocks ...Block) Reply { return Reply{Blocks: blocks} }

// Fail is an HTTP error reply; the body's error type follows the status
// (401 authentication_error, 429 rate_limit_error, 529 overloaded_error,
// otherwise api_error).
func Fail(status int, message string) Reply {
	return Reply{Status: status, Message: message}
}

// defaultReply answers a conversation request when nothing is scripted.
func defaultReply() Reply { return Say(Text("done.")) }

func (r Reply) isError() bool { return r.Status != 0 && r.Status != http.StatusOK }

func (r Reply) hasToolUse() bool {
	for _, b := range r.Blocks {
		if b.Type == "tool_use" {
			return true
		}
	}
	return false
}

func errorType(status int) string {
	switch status {
	case http.StatusUnauthorized:
		return "authentication_error"
	case http.StatusTooManyRequests:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	case http.StatusBadRequest:
		return "invalid_request_error"
	}
	return "api_error"
}
