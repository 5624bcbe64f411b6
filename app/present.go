package app

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/latch-app/latch/core/stream"
	"github.com/latch-app/latch/core/textdiff"
)

// maxResultShown caps a tool result kept for the transcript; the CLI already
// persists huge outputs to files and says where.
const maxResultShown = 64 << 10

// denialWords says a denial class the way the transcript shows it.
func denialWords(c stream.Class) string {
	switch c {
	case stream.StreamClosed:
		return "blocked: permission channel closed"
	case stream.NotGranted:
		return "needs approval"
	case stream.DenyRule:
		return "denied by rule"
	case stream.UserDenied:
		return "denied by you"
	case stream.HostError:
		return "blocked: permission request failed"
	case stream.Interrupted:
		return "stopped"
	case stream.Phrase:
		return "Claude says it needs permission"
	}
	return string(c)
}

// toolInput is the part of a tool's input Latch shows, but for the path the
// call touches, which stream.TouchedPath finds.
type toolInput struct {
	Command     string `json:"command"`
	Pattern     string `json:"pattern"`
	URL         string `json:"url"`
	Query       string `json:"query"`
	Description string `json:"description"`
	Content     string `json:"content"`
	OldString   string `json:"old_string"`
	NewString   string `json:"new_string"`
}

func parseInput(raw json.RawMessage) toolInput {
	var in toolInput
	_ = json.Unmarshal(raw, &in) // partial or odd input: show what parsed
	return in
}

// summarize is a tool call in one line: the command, the path, the pattern.
func summarize(name string, raw json.RawMessage) string {
	in := parseInput(raw)
	path, file := stream.TouchedPath(raw)
	var s string
	switch {
	case in.Command != "":
		s = in.Command
	case file:
		s = path
	case in.Pattern != "":
		s = in.Pattern
		if path != "" {
			s += " in " + path
		}
	case in.URL != "":
		s = in.URL
	case in.Query != "":
		s = in.Query
	case path != "":
		s = path
	case in.Description != "":
		s = in.Description
	default:
		s = compactJSON(raw)
	}
	return oneLine(s, 160)
}

// oneLine is s on one line, with everything invisible made visible (long
// space runs are named, not collapsed, so a hidden tail shows up as one),
// cut at max runes with an ellipsis; the card's Details show it whole.
func oneLine(s string, max int) string {
	return ellipsis(VisibleLine(strings.TrimSpace(s)), max)
}

func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	if b.String() == "{}" || b.Len() == 0 {
		return ""
	}
	return b.String()
}

func prettyJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	// Never clipped: the input is what the person approves.
	return b.String()
}

// clip is s cut after max characters (runes), and how many bytes that
// left out. It is the one way Latch shortens a text it shows: summaries
// (oneLine), tool results (resultText), the command in a message
// (clipCommand). What the person approves is never clipped.
func clip(s string, max int) (string, int) {
	n := 0
	for i := range s {
		if n == max {
			return s[:i], len(s) - i
		}
		n++
	}
	return s, 0
}

// ellipsis is s in at most max characters, the cut marked with "…".
func ellipsis(s string, max int) string {
	if _, more := clip(s, max); more > 0 {
		s, _ = clip(s, max-1)
		s += "…"
	}
	return s
}

// resultText is a tool result as the transcript keeps it: at most
// maxResultShown characters, saying how much was left out.
func resultText(s string) string {
	if c, more := clip(s, maxResultShown); more > 0 {
		return c + fmt.Sprintf("\n… (%d more bytes not shown)", more)
	}
	return s
}

// diffOf is an Edit, MultiEdit or Write as a unified diff (what fileDiff
// computes, with a new file's every line), "" for other tools.
func diffOf(name string, raw json.RawMessage, workdir string) string {
	c := computeDiff(name, raw, workdir, true)
	if c.fd == nil {
		return ""
	}
	from := c.fd.Path
	if c.fd.New {
		from = "/dev/null"
	}
	// Never clipped: the content is what the person approves.
	return textdiff.Unified(from, c.fd.Path, c.full)
}

// askItems is an AskUserQuestion's questions as the dialog shows them.
func askItems(c *stream.CanUseTool) []AskItem {
	var out []AskItem
	for _, q := range c.AskQuestions() {
		it := AskItem{Question: q.Question, Header: q.Header, MultiSelect: q.MultiSelect}
		for _, o := range q.Options {
			it.Options = append(it.Options, o.Label)
		}
		out = append(out, it)
	}
	return out
}

// question turns a can_use_tool request into what the dialog shows.
func question(reqID string, c *stream.CanUseTool, workdir string, workdirs []string) Question {
	in := parseInput(c.Input)
	path, file := stream.TouchedPath(c.Input)
	q := Question{
		RequestID:   reqID,
		Tool:        c.ToolName,
		DisplayName: c.DisplayName,
		Description: c.Description,
		Summary:     summarize(c.ToolName, c.Input),
		Input:       prettyJSON(c.Input),
		Command:     in.Command,
		Path:        path,
		Diff:        diffOf(c.ToolName, c.Input, workdir),
		BlockedPath: c.BlockedPath,
		Reason:      stripANSI(c.DecisionReason),

		NoPersistent:   c.SuppressAlwaysAllow,
		DefaultToNo:    c.DefaultToNo,
		Deliberate:     c.RequiresUserInteraction,
		MatchedAskRule: c.MatchedAskRule,
		AgentID:        c.AgentID,
		Rule:           alwaysRule(c, workdir),
		Writes:         writes(c.ToolName),
	}
	if q.DisplayName == "" {
		q.DisplayName = c.ToolName
	}
	// File tools describe themselves by their path, which the dialog shows
	// already.
	if q.Path != "" && (q.Description == q.Path || strings.HasSuffix(q.Path, "/"+q.Description)) {
		q.Description = ""
	}
	q.Questions = askItems(c)
	if c.DecisionReasonType == "workingDir" {
		// The folder is shown as it would be granted: absolute, clean and
		// resolved through symlinks, whatever the suggestion spelled.
		// Without one it is the folder of the file the call touches, or the
		// folder it names (Glob, Grep, LS), as in the after-turn request.
		if dirs := c.SuggestedDirs(); len(dirs) > 0 {
			q.Folder = resolvePath(dirs[0], workdir)
		} else if path != "" {
			q.Folder = resolvePath(path, workdir)
			if file {
				q.Folder = folderOf(q.Folder)
			}
		}
	}
	return q
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
