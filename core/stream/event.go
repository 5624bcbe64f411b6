// Package stream is the Claude Code CLI's stream-json protocol: it reads the
// CLI's stdout into typed events, ties tool results to their tool calls,
// classifies permission denials per turn, and encodes every line Latch writes
// back on the CLI's stdin. It knows nothing of processes, files or Fyne.
package stream

import "encoding/json"

// Kind says which field of an Event is set.
type Kind int

const (
	kindUnknown   Kind = iota // a well-formed line (or stream_event / content block) of a type Latch does not know; ignored
	KindMalformed             // a line that is not JSON; Event.Malformed is set

	KindInit             // system/init; Event.Init
	KindStatus           // system/status; Event.Status
	KindAPIRetry         // system/api_retry; Event.APIRetry
	kindPermissionDenied // system/permission_denied; it counts for the turn's denials

	kindMessageStart // stream_event message_start; Event.Delta (MessageID only)
	KindBlockStart   // stream_event content_block_start; Event.Delta (Index, BlockType, ToolUseID, ToolName)
	KindTextDelta    // stream_event text_delta; Event.Delta.Text
	KindThinkingDelta
	kindToolInputDelta // stream_event input_json_delta; the input reaches the registry
	kindBlockStop
	kindMessageDelta // stream_event message_delta
	kindMessageStop

	KindAssistant // one assistant content block; Event.Block
	KindToolResult
	KindInterruptMarker // "[Request interrupted by user…]"
	kindUserText        // other user text (replays)

	KindResult // end of a turn; Event.Result (with Result.Turn filled)

	KindControlRequest // CLI -> host; Event.Request
	KindControlCancel  // control_cancel_request; Event.RequestID
	KindControlResponse
)

// Event is one line of the CLI's stdout, decoded. At most the field named
// by Kind is set; a kind without a field carries nothing Latch uses.
type Event struct {
	Kind Kind
	Line int // 1-based line number in the stream

	Init       *Init
	Status     *Status
	APIRetry   *APIRetry
	Delta      *Delta
	Block      *Block
	ToolResult *ToolResult
	Result     *Result
	Request    *ControlRequest
	Response   *ControlResponse
	RequestID  string // KindControlCancel
	Malformed  *Malformed
}

// Init is a system/init line. Its cwd and additional_directories are kept
// by the Decoder, which judges paths by them (Denial.Dir).
type Init struct {
	SessionID      string
	Model          string
	PermissionMode string
}

// Status is a system/status line.
type Status struct {
	PermissionMode string
}

// APIRetry is a system/api_retry line.
type APIRetry struct {
	Attempt      int
	MaxRetries   int
	RetryDelayMS int
	ErrorStatus  int // 0 when the CLI sent null (connection refused)
	Error        string
}

// Delta is a stream_event (partial mode only).
type Delta struct {
	MessageID string
	Index     int
	BlockType string // "text", "thinking", "tool_use" (content_block_start)
	ToolUseID string // content_block_start of a tool_use
	ToolName  string
	Text      string // text_delta / thinking_delta
}

// Block is one assistant content block.
type Block struct {
	MessageID string
	Type      string // "text", "thinking", "tool_use", or what the CLI sent
	Text      string // text / thinking
	// Streamed is true when the same text already arrived as deltas of this
	// message, so a viewer must not show it twice.
	Streamed bool
	ToolUse  *ToolUse // Type == "tool_use"
	// APIError is set on the CLI's synthetic "API Error: …" message.
	APIError bool
}

// ToolUse is one tool call, as known from content_block_start +
// input_json_delta or from the assistant tool_use block.
type ToolUse struct {
	ID    string
	Name  string
	Input json.RawMessage
}

// ToolResult is one tool_result block of a user line.
type ToolResult struct {
	ToolUseID string
	Tool      string // from the registry; "" if the call was never seen
	Input     json.RawMessage
	Text      string // string content, or the text blocks joined
	IsError   bool
	Denial    *Denial // nil unless this failure is a permission denial
	// Decided is who let the call run or refused it, from the user line's
	// tool_result_meta (docs/protocol.md §3.6); nil when the CLI said nothing.
	Decided *Decided
}

// Decided is a tool_result_meta entry's permission_decision: decision
// "accept" or "reject"; source such as "config" (a rule or the mode),
// "user_temporary", "user_permanent", "user_reject", "hook"; reason_type
// such as "rule", "mode", "hook", "classifier", "workingDir", "other".
// Every field is the CLI's text, untrusted.
type Decided struct {
	Decision         string
	Source           string
	ReasonType       string
	NonExecutionKind string // "user-rejected", "permission-rule", "interrupted", …
}

// Class is the kind of permission denial (see docs/protocol.md §6).
type Class string

const (
	StreamClosed Class = "stream_closed"
	NotGranted   Class = "not_granted"
	DenyRule     Class = "deny_rule"
	UserDenied   Class = "user_denied"
	HostError    Class = "host_error"
	Interrupted  Class = "interrupted"
	Phrase       Class = "phrase" // reactive phrase detection (opt-in)
)

// Grantable reports whether granting the tool or folder and retrying can help.
func (c Class) Grantable() bool {
	switch c {
	case StreamClosed, NotGranted, HostError, Phrase:
		return true
	}
	return false
}

// Denial is one tool call refused by a permission check.
type Denial struct {
	Class     Class
	Tool      string
	ToolUseID string
	Input     json.RawMessage
	// Dir is the absolute, cleaned folder whose grant would let the call run,
	// or "" when a folder grant does not help (Bash, paths inside the cwd).
	Dir string
}

// Result is the end of one turn.
type Result struct {
	Subtype        string
	IsError        bool
	Text           string // "result"
	SessionID      string
	CostUSD        float64
	Usage          Usage
	Errors         []string
	TerminalReason string
	APIErrorStatus int   // 0 when null
	Turn           *Turn // what the Decoder gathered over the turn
}

// Usage is a result's token counts.
type Usage struct {
	InputTokens              int
	OutputTokens             int
	CacheCreationInputTokens int
	CacheReadInputTokens     int
}

// Turn is what one turn did, gathered by the Decoder up to its result.
type Turn struct {
	ToolUses []ToolUse
	Denials  []Denial // every denial of the turn, in call order, one per tool_use_id
}

// Grantable returns the denials that a grant and a retry could fix.
func (t *Turn) Grantable() []Denial {
	var out []Denial
	for _, d := range t.Denials {
		if d.Class.Grantable() {
			out = append(out, d)
		}
	}
	return out
}

// ControlRequest is a request from the CLI to the host.
type ControlRequest struct {
	RequestID  string
	Subtype    string      // "can_use_tool", "hook_callback", "mcp_message", "elicitation", …
	CanUseTool *CanUseTool // Subtype == "can_use_tool"
}

// CanUseTool asks the host to approve one tool call.
type CanUseTool struct {
	ToolName                string
	DisplayName             string
	Input                   json.RawMessage
	Description             string
	Suggestions             []json.RawMessage // permission_suggestions, verbatim; only the chosen rule goes back
	BlockedPath             string
	DecisionReason          string // a string, or an object's text, parsed leniently
	DecisionReasonType      string
	ToolUseID               string
	RequiresUserInteraction bool   // answer only by a deliberate act, no one-key answers
	SuppressAlwaysAllow     bool   // suppress_always_allow_rule: offer nothing persistent
	DefaultToNo             bool   // default_to_no: Deny is the default
	MatchedAskRule          string // matched_ask_rule: the ask rule that made the CLI ask, in words
	AgentID                 string // agent_id: a subagent asks
}

// ControlResponse is the CLI's answer to a request of Latch's.
type ControlResponse struct {
	RequestID string
	Subtype   string // "success" or "error"
	Error     string
	// ErrorCode is the CLI's machine-readable reason ("unsupported_request",
	// "bypass_not_launched"); "" when it gave none.
	ErrorCode string
	// Body is the success answer's "response" object, verbatim; decode it
	// with the Decode* function of the request (control.go).
	Body json.RawMessage
}

// Malformed is a line that is not a JSON object.
type Malformed struct {
	Err string
}
