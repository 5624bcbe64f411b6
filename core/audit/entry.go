// Package audit is Latch's permission audit log: one JSON line per ask,
// answer, denial, grant, revoke and Undo, appended to
// $XDG_STATE_HOME/latch/audit.jsonl. It knows nothing of processes or Fyne.
package audit

import "time"

// Kinds of entries.
const (
	KindAsk     = "ask"     // a live question was put to the person
	KindAnswer  = "answer"  // the person answered it (Decision says how), or it was withdrawn
	KindDenial  = "denial"  // a call was refused (Class, Decider say by what)
	KindAllowed = "allowed" // a call ran; Decider says who let it
	KindGrant   = "grant"   // rules or folders were granted
	KindRevoke  = "revoke"  // rules or folders were removed (Preferences, Permissions window)
	KindUndo    = "undo"    // a grant was taken back with Undo
	KindMode    = "mode"    // the permission mode was switched
	KindTrust   = "trust"   // the folder was marked trusted
	KindDropped = "dropped" // a gap: Message says how many entries were lost, and why
)

// Decisions of a KindAnswer entry.
const (
	AnswerOnce      = "once"
	AnswerSession   = "session"
	AnswerAlways    = "always"
	AnswerFolder    = "folder"
	AnswerDeny      = "deny"
	AnswerDenyStop  = "deny_stop"
	AnswerWithdrawn = "withdrawn"
)

// Deciders: who decided a call.
const (
	ByPerson       = "person"
	ByRule         = "rule"
	ByMode         = "mode"
	ByHook         = "hook"
	ByClassifier   = "classifier"
	ByChannelClose = "channel_closed"
	ByWorkingDir   = "working_dir"
	ByOther        = "other"
)

// Entry is one line of the log. Every string in it may come from the CLI
// or the model: a reader shows it escaped and never acts on it unseen.
type Entry struct {
	Time      time.Time `json:"time"`
	Kind      string    `json:"kind"`
	Session   string    `json:"session,omitempty"` // the CLI's session id
	Folder    string    `json:"folder,omitempty"`  // the working folder
	Tool      string    `json:"tool,omitempty"`
	ToolUseID string    `json:"tool_use_id,omitempty"`
	Input     string    `json:"input,omitempty"` // one-line summary: the command, the path (clipped)
	Path      string    `json:"path,omitempty"`  // the folder a grant would need, for a denial
	Decision  string    `json:"decision,omitempty"`
	Scope     string    `json:"scope,omitempty"` // user, project, session
	Message   string    `json:"message,omitempty"`
	Class     string    `json:"class,omitempty"`   // a denial's class (stream.Class)
	Decider   string    `json:"decider,omitempty"` // By*
	Rule      string    `json:"rule,omitempty"`    // the deciding or granted rule
	Source    string    `json:"source,omitempty"`  // where the rule or decision came from
	File      string    `json:"file,omitempty"`    // the settings file written
	Rules     []string  `json:"rules,omitempty"`
	Folders   []string  `json:"folders,omitempty"`
	Mode      string    `json:"mode,omitempty"`
}
