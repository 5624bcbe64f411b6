package app

import (
	"context"
	"time"
)

// Surface is what a Session needs from a screen. ui implements it; tests use
// a fake. Show never blocks; Ask and AskGrants block the Session's goroutine
// (never the stdout reader) until the person answers or ctx is cancelled.
type Surface interface {
	// Show delivers one event for the transcript and status line.
	Show(ev Event)
	// Ask puts a live can_use_tool question to the person. ctx is cancelled
	// when the CLI withdraws the question or the session ends.
	Ask(ctx context.Context, q Question) Decision
	// AskGrants offers, after a turn, every grantable denial of it at once.
	AskGrants(ctx context.Context, r GrantRequest) Decision
}

// EventKind says what an Event carries.
type EventKind int

const (
	EvStatus     EventKind = iota // Status: session state changed
	EvPrompt                      // Text: the person's own prompt (or Latch's retry message)
	EvText                        // Text: assistant text delta for block BlockID
	EvThinking                    // Text: thinking delta for block BlockID
	EvToolCall                    // Tool: a tool call began (Tool.Input may still be partial)
	EvToolUpdate                  // Tool: the call's full input is known
	EvToolResult                  // Tool: its result (Result, IsError, Denial)
	EvTurnEnd                     // Turn: the turn ended
	EvNotice                      // Text: something worth a line (retrying, resuming, interrupted)
	EvError                       // Err: something failed; say what and what to do
	EvGrant                       // Grant: a grant was made (with Undo) or undone
	EvRetry                       // Retry: the API failed and the CLI tries again; the turn's one retry row, updated
)

// Event is the one type that flows up from a Session to the UI.
type Event struct {
	Kind    EventKind
	Text    string
	BlockID string // identifies one streamed text/thinking block
	Tool    *ToolCall
	Turn    *TurnInfo
	Status  *Status
	Err     *ErrorInfo
	Grant   *GrantInfo
	Retry   *RetryInfo
	// Auto marks an EvPrompt that Latch sent itself (the retry message).
	Auto bool
	// Session is the ID of the Session the event came from (Session.ID),
	// and Proc the CLI process of that session it came from: 1, 2, … in
	// start order, 0 for what the session says itself (status, grants,
	// errors before a process ran). A window shows the events of the
	// session it shows and drops the rest.
	Session string
	Proc    int
}

// GrantInfo is one grant as the transcript shows it.
type GrantInfo struct {
	ID     string // for Session.Undo; the undo event carries the same ID
	Text   string // "Saved Bash(npm test:*) to /w/.claude/settings.local.json"
	Undone bool   // this event reports the grant taken back
}

// ToolCall is a tool call as the transcript shows it.
type ToolCall struct {
	ID      string
	Name    string
	Summary string // one line: the command, the path, …
	Input   string // the input, pretty-printed JSON
	Result  string
	IsError bool
	// Denial is the class in words ("blocked: permission channel closed",
	// "needs approval", "denied by rule", …), "" when not a denial.
	Denial    string
	Grantable bool
	// Diff is what an Edit, MultiEdit or Write changes, nil for other
	// tools: set on EvToolUpdate (made before the call runs, from the file
	// as it was) and the same value on EvToolResult. Shared: read only.
	Diff *FileDiff
}

// FileDiff is a file change as a tool card shows it. Every string in it
// (path, lines) is the model's or the file's: escape it where shown.
type FileDiff struct {
	Path string
	// New is set for a call that creates the file (a Write, or an Edit
	// with no old text, where no file is): Head and Size then say what it
	// writes, and Hunks is nil.
	New bool
	// Size is the bytes a Write (or a new file) writes.
	Size int
	// Added and Removed count lines (a new file's lines are all Added).
	Added, Removed int
	// Hunks is the change with 3 lines of context, DiffLine.Old/New the
	// lines' numbers in the file as it was and would be; numbered from 1
	// in the call's own text when the file could not be used (Summary
	// says why). Nil for a new file, or a Write over a file not read.
	Hunks []DiffHunk
	// Summary is one line: "path: +3 −1", "new file path, 1.2 KB, 40 lines",
	// with why the lines are not the file's, when they are not.
	Summary string
	// Head is the first lines (up to 20, each cut at 1000 characters) of
	// what a Write writes when Hunks cannot show it.
	Head []string
}

// RetryInfo is the CLI's retry of a failed API request.
type RetryInfo struct {
	Attempt, Max int
	Delay        time.Duration
	Status       int    // the HTTP status; 0 when there was no connection
	Error        string // the CLI's word for it ("server_error"), untrusted
	Text         string // the row: "Retrying in 8 s — attempt 3 of 10 (HTTP 500)"
}

// TurnInfo is the end of one turn.
type TurnInfo struct {
	IsError   bool
	ErrorText string // what went wrong, in words, when IsError
	// Stopped is set when the person stopped the turn: not a failure.
	// Note then says more when there is more to say (the process was
	// ended).
	Stopped bool
	Note    string
	// Incomplete is set when the CLI ended before the turn's result: the
	// last answer may be cut off.
	Incomplete bool
	// Earlier marks a turn read from a session file: its time, cost and
	// tokens are not known (zero), and it counts in no total.
	Earlier      bool
	CostUSD      float64
	InputTokens  int
	OutputTokens int
	Denials      int
	Duration     time.Duration
	// Session totals so far.
	SessionCostUSD      float64
	SessionInputTokens  int
	SessionOutputTokens int
}

// State is where a Session is.
type State int

const (
	Idle     State = iota // waiting for a prompt
	Running               // a turn is under way
	Stopping              // an interrupt was sent
	Asking                // a question waits for the person
	Closed
)

func (s State) String() string {
	switch s {
	case Idle:
		return "idle"
	case Running:
		return "running"
	case Stopping:
		return "stopping"
	case Asking:
		return "waiting for you"
	case Closed:
		return "closed"
	}
	return "unknown"
}

// Status is the status line's content.
type Status struct {
	State          State
	SessionID      string
	Model          string
	PermissionMode string // the CLI's permissionMode
	Prompts        string // "live" or "after_turn"
	Workdir        string
	DangerousSkip  bool // --dangerously-skip-permissions is on
	// Untrusted is set when Claude Code does not trust Workdir (its trust
	// dialog was never accepted there): it then ignores the project's
	// shared allow rules. TrustWarning is the CLI's own words about what
	// it ignored, when it said so on stderr.
	Untrusted    bool
	TrustWarning string
}

// ErrorInfo is a failure the person must see in the window.
type ErrorInfo struct {
	Title  string // one line: "Claude Code CLI not found"
	Detail string // what happened and what to do; may hold the stderr tail
	Full   string // the whole text, for Details / Copy
	// Hint is what to do about it, when Latch knows ("Log in with claude
	// in a terminal, or set ANTHROPIC_API_KEY").
	Hint string
	// Retry offers to send the turn's prompt again (Session.Retry).
	Retry bool
}

// Question is one live permission question.
type Question struct {
	Session     string // the ID of the Session that asks
	RequestID   string
	Tool        string
	DisplayName string
	Description string
	Summary     string // one line: the command, the path
	Input       string // pretty-printed input
	Command     string // Bash
	Path        string // file tools
	Diff        string // Edit/Write: the change as a unified diff
	BlockedPath string
	Reason      string // decision_reason
	// Rule is the suggested "always allow" rule, e.g. "Bash(touch x.txt)".
	Rule string
	// Folder, when set, is a folder whose grant would let the call run.
	Folder string
	// Writes is set when the call changes files: a folder grant then
	// defaults to reading and writing.
	Writes bool
	// What the CLI says about how to ask (all shown or honoured by the dialog).
	NoPersistent   bool   // suppress_always_allow_rule: offer no "always" and save nothing
	DefaultToNo    bool   // Deny has the focus; no one-key allow
	Deliberate     bool   // requires_user_interaction: no one-key answers
	MatchedAskRule string // the ask rule that made Claude Code ask
	AgentID        string // set when a subagent asks
	// Questions is set for AskUserQuestion: the person picks answers.
	Questions []AskItem
}

// AskItem is one question of an AskUserQuestion call.
type AskItem struct {
	Question    string
	Header      string
	Options     []string
	MultiSelect bool
}

// Action is what the person chose.
type Action int

const (
	// NoAnswer is the zero Decision: the question went away unanswered
	// (withdrawn, window closed). It is never sent to the CLI as an allow.
	NoAnswer    Action = iota
	AllowOnce          // run this call
	AllowAlways        // run it and save Rule in Scope
	Deny               // refuse with Message; the turn goes on
	DenyStop           // refuse and stop the turn
	GrantFolder        // save Folder (Scope) and run the call
	Grant              // after a turn: save Rules and Folders, then retry
	NotNow             // after a turn: grant nothing
)

// Scope is where a grant goes.
type Scope int

const (
	ScopeUser    Scope = iota // ~/.claude/settings.json
	ScopeProject              // <workdir>/.claude/settings.local.json
	ScopeOnce                 // this retry / this process only; saved nowhere
)

// Decision is the one type that flows back from the UI to a Session: the
// answer to a Question or to a GrantRequest.
type Decision struct {
	Action  Action
	Message string // Deny: the person's words ("" = Latch's default)
	Rule    string // AllowAlways: the rule as edited
	Folder  string // GrantFolder
	Scope   Scope
	// Answers holds the AskUserQuestion choices: question text -> option text.
	Answers map[string]string
	// Grant: the rules and folders the person ticked, as edited.
	Rules   []string
	Folders []string
	// ReadOnly lists the folders (of Folder or Folders) granted for reading
	// only: a Read(//dir/**) rule. Any other folder is granted for reading
	// and writing: it joins additionalDirectories with an Edit(//dir/**) rule,
	// so a Write there does not ask again.
	ReadOnly []string
	// Force is set when the person confirmed a grant of / or the home folder.
	Force bool
}

// GrantRequest lists a turn's grantable denials, deduplicated by tool rule
// and by folder.
type GrantRequest struct {
	Session string // the ID of the Session that asks
	Round   int    // 1 for the first retry, up to MaxRounds
	Tools   []ToolGrant
	Folders []FolderGrant
	Workdir string
}

// ToolGrant is one tool to offer.
type ToolGrant struct {
	Rule    string // the rule to save, e.g. "Bash"
	Tool    string
	Reason  string // the class in words
	Example string // what the denied call tried
}

// FolderGrant is one folder to offer.
type FolderGrant struct {
	Path    string // suggested folder
	Write   bool   // the call writes: offer reading and writing by default
	Tool    string
	Reason  string
	Example string
}

// DefaultDenyMessage is what Latch tells the CLI when the person denies
// without words of their own.
const DefaultDenyMessage = "Denied in Latch."

// RetryMessage is the fixed prompt of a resumed turn after grants.
const RetryMessage = "Continue — the permissions you needed are granted now. Retry the tool calls that failed."

// MaxRounds caps the grant-and-retry loop.
const MaxRounds = 3
