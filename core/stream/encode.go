package stream

import (
	"bytes"
	"encoding/json"
)

// Encoders for every line Latch writes on the CLI's stdin (docs/protocol.md §4).
// Each returns one complete JSON line ending in '\n'. Raw JSON arguments are
// compacted, so a caller's pretty-printed input cannot break the line.

type userLine struct {
	Type            string      `json:"type"`
	SessionID       string      `json:"session_id"`
	ParentToolUseID *string     `json:"parent_tool_use_id"`
	Message         userMessage `json:"message"`
}

type userMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type controlRequestLine struct {
	Type      string `json:"type"`
	RequestID string `json:"request_id"`
	Request   any    `json:"request"`
}

type controlResponseLine struct {
	Type     string       `json:"type"`
	Response responseBody `json:"response"`
}

type responseBody struct {
	Subtype   string `json:"subtype"`
	RequestID string `json:"request_id"`
	Response  any    `json:"response,omitempty"`
	Error     string `json:"error,omitempty"`
}

type subtypeOnly struct {
	Subtype string `json:"subtype"`
}

type allowAnswer struct {
	Behavior           string            `json:"behavior"`
	UpdatedInput       json.RawMessage   `json:"updatedInput,omitempty"`
	UpdatedPermissions []json.RawMessage `json:"updatedPermissions,omitempty"`
}

type denyAnswer struct {
	Behavior  string `json:"behavior"`
	Message   string `json:"message"`
	Interrupt bool   `json:"interrupt,omitempty"`
}

func line1(v any) []byte {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		// Only invalid raw JSON can fail, and the callers filter it out.
		panic("stream: encode: " + err.Error())
	}
	return b.Bytes()
}

// UserMessage is a user turn: {"type":"user","session_id":"",
// "parent_tool_use_id":null,"message":{"role":"user","content":text}}.
func UserMessage(text string) []byte {
	return line1(userLine{Type: "user", Message: userMessage{Role: "user", Content: text}})
}

// Interrupt stops the running turn; the process stays usable.
func Interrupt(requestID string) []byte {
	return line1(controlRequestLine{Type: "control_request", RequestID: requestID, Request: subtypeOnly{"interrupt"}})
}

// Allow answers a can_use_tool with allow. updatedInput is the original or
// edited input ({} when nil; when it is not valid JSON it is left out, and
// the CLI runs the tool with its original input). updatedPermissions are
// PermissionUpdate objects (usually the request's own suggestions); invalid
// ones are dropped and the field is left out when empty.
func Allow(requestID string, updatedInput json.RawMessage, updatedPermissions []json.RawMessage) []byte {
	a := allowAnswer{Behavior: "allow", UpdatedInput: json.RawMessage("{}")}
	if updatedInput != nil {
		a.UpdatedInput = nil
		if json.Valid(updatedInput) {
			a.UpdatedInput = updatedInput
		}
	}
	for _, p := range updatedPermissions {
		if json.Valid(p) {
			a.UpdatedPermissions = append(a.UpdatedPermissions, p)
		}
	}
	return success(requestID, a)
}

// Deny answers a can_use_tool with deny. The CLI rejects an empty message as
// an invalid answer, so "Denied." stands in for one. With interrupt the CLI
// also stops the turn (and shows its own text instead of message).
func Deny(requestID, message string, interrupt bool) []byte {
	if message == "" {
		message = "Denied."
	}
	return success(requestID, denyAnswer{Behavior: "deny", Message: message, Interrupt: interrupt})
}

// ErrorAnswer answers any CLI request with the error envelope, so the CLI
// never waits for a request Latch does not serve. An empty msg becomes
// "unsupported request".
func ErrorAnswer(requestID, msg string) []byte {
	if msg == "" {
		msg = "unsupported request"
	}
	return line1(controlResponseLine{Type: "control_response",
		Response: responseBody{Subtype: "error", RequestID: requestID, Error: msg}})
}

// success answers a CLI request with response, a value that marshals to a
// JSON object.
func success(requestID string, response any) []byte {
	return line1(controlResponseLine{Type: "control_response",
		Response: responseBody{Subtype: "success", RequestID: requestID, Response: response}})
}

// FlagPermissions is the "permissions" object of an apply_flag_settings
// request. The CLI replaces its whole flag-settings layer with it, so an
// entry left out is an entry revoked. Slices are sent as [] when empty.
type FlagPermissions struct {
	Allow                 []string `json:"allow"`
	Ask                   []string `json:"ask"`
	AdditionalDirectories []string `json:"additionalDirectories"`
}

type flagSettingsRequest struct {
	Subtype  string `json:"subtype"`
	Settings struct {
		Permissions FlagPermissions `json:"permissions"`
	} `json:"settings"`
}

// ApplyFlagSettings sets the running CLI's flag-settings layer (CLI 2.1.328
// and later; older ones answer with an error). It takes effect for the next
// permission check, without a restart.
func ApplyFlagSettings(requestID string, p FlagPermissions) []byte {
	r := flagSettingsRequest{Subtype: "apply_flag_settings"}
	for _, l := range []*[]string{&p.Allow, &p.Ask, &p.AdditionalDirectories} {
		if *l == nil {
			*l = []string{}
		}
	}
	r.Settings.Permissions = p
	return line1(controlRequestLine{Type: "control_request", RequestID: requestID, Request: r})
}

type ruleValue struct {
	ToolName    string `json:"toolName"`
	RuleContent string `json:"ruleContent,omitempty"`
}

type addRulesUpdate struct {
	Type        string      `json:"type"`
	Rules       []ruleValue `json:"rules"`
	Behavior    string      `json:"behavior"`
	Destination string      `json:"destination"`
}

type addDirsUpdate struct {
	Type        string   `json:"type"`
	Directories []string `json:"directories"`
	Destination string   `json:"destination"`
}

// AddRulesUpdate is the PermissionUpdate, for an Allow's updatedPermissions,
// that makes the CLI allow one rule (tool and unescaped content) at
// destination ("session" is the only one Latch uses: it writes files itself).
func AddRulesUpdate(tool, content, destination string) json.RawMessage {
	return json.RawMessage(bytes.TrimSpace(line1(addRulesUpdate{Type: "addRules", Rules: []ruleValue{{tool, content}},
		Behavior: "allow", Destination: destination})))
}

// AddDirectoriesUpdate is the PermissionUpdate that adds working folders.
func AddDirectoriesUpdate(dirs []string, destination string) json.RawMessage {
	return json.RawMessage(bytes.TrimSpace(line1(addDirsUpdate{Type: "addDirectories", Directories: dirs, Destination: destination})))
}
