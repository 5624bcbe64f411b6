// Package sessions reads Claude Code's own session files,
// <configDir>/projects/<slug>/<session-id>.jsonl: the history of a folder
// (Lister) and the transcript of one session (Read), decoded into the same
// stream.Events, turns and denial classes as the live stream. It reads
// files only; it starts no process and knows nothing of Fyne.
//
// Everything in a session file is untrusted text: it is decoded and shown,
// never executed, and no path it names is opened.
package sessions

import (
	"path/filepath"
	"time"

	"github.com/latch-app/latch/core/stream"
)

// Slug is the name Claude Code gives the folder of workdir's sessions:
// workdir with every character that is not an ASCII letter or digit
// replaced by '-' ("/home/a/my.proj" → "-home-a-my-proj"). Each byte of a
// multi-byte character becomes one '-', as the CLI replaces UTF-16 code
// units; workdir is taken as given (absolute, not resolved).
func Slug(workdir string) string {
	b := []byte(workdir)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			b[i] = '-'
		}
	}
	return string(b)
}

// Dir is the folder of workdir's sessions: <configDir>/projects/<Slug(workdir)>.
// configDir is $CLAUDE_CONFIG_DIR when set, else ~/.claude; the caller
// decides.
func Dir(configDir, workdir string) string {
	return filepath.Join(configDir, "projects", Slug(workdir))
}

// Summary is one session as a history list shows it. Title, Cwd, GitBranch
// and Version are the file's text, untrusted.
type Summary struct {
	ID         string    // the session id: the file name without .jsonl
	Path       string    // the session file
	Title      string    // the newest summary line's text, else the first prompt; one line, at most 200 runes; "" if none
	Started    time.Time // the first timestamp in the file
	Updated    time.Time // the last timestamp (the file's mtime when there is none)
	Prompts    int       // prompts typed (not meta lines, not tool results, not compact summaries)
	Unresolved int       // grantable denials (stream.Class.Grantable) in the session's last turn
	Cwd        string    // from the last line that has one
	GitBranch  string    // from the last line that has one
	Version    string    // the CLI version, from the last line that has one
	Size       int64     // the file's size in bytes
}

// ItemKind says which field of an Item is set.
type ItemKind int

const (
	// ItemPrompt is a prompt: Text is what the person (or Latch) typed.
	ItemPrompt ItemKind = iota
	// ItemEvent is a stream.Event as the live decoder makes it:
	// KindAssistant (text, thinking, tool_use blocks; Block.APIError set
	// for the CLI's synthetic API error message) or KindToolResult (with
	// Denial and Decided as the live stream would have them).
	ItemEvent
	// ItemTurnEnd is the end of one turn (at the next prompt or the end of
	// the file): Turn holds its tool uses and denials.
	ItemTurnEnd
	// ItemNotice is something worth one line, in Text: "Conversation
	// compacted", a replayed summary (folded: its first line and length),
	// an interrupt, an API error, a local command and its output.
	ItemNotice
)

// Item is one thing of a session's transcript, in order. Text is the
// file's text, untrusted.
type Item struct {
	Kind      ItemKind
	Text      string       // ItemPrompt, ItemNotice
	Event     stream.Event // ItemEvent; Event.Line is the line number in the file
	Turn      *stream.Turn // ItemTurnEnd
	Sidechain bool         // subagent traffic (isSidechain): a viewer folds it
	Time      time.Time    // the line's timestamp, zero when none
}

// Info is what Read learned of the file. The strings are the file's text,
// untrusted.
type Info struct {
	SessionID, Cwd, Version, GitBranch string // from the last line that has them
	Model                              string // the last assistant message's model ("<synthetic>" ones skipped)
	Lines, Malformed                   int    // non-blank lines read; lines that were not JSON (a torn last line counts here)
	Prompts                            int    // prompts on the branch read (as Summary.Prompts)
}
