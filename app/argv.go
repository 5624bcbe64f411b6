package app

import (
	"os"
	"strings"
)

// liveFlags make the CLI speak stream-json both ways and ask Latch, over
// stdin, for every permission it needs.
var liveFlags = []string{
	"-p",
	"--input-format", "stream-json",
	"--output-format", "stream-json",
	"--verbose",
	"--include-partial-messages",
	"--permission-prompt-tool", "stdio",
}

// launch is what one CLI process is started with.
type launch struct {
	Command      []string // the configured claude command, split
	AllowedTools []string
	Dirs         []string // --add-dir, in order, deduplicated
	SessionID    string
	Resume       bool   // --resume=ID instead of --session-id=ID
	PromptFile   string // --append-system-prompt-file
	DangerSkip   bool
	Model        string // --model
}

// argv builds the CLI's argument vector. It never goes through a shell.
func (l launch) argv() []string {
	args := append([]string(nil), l.Command...)
	args = append(args, liveFlags...)
	if len(l.AllowedTools) > 0 {
		args = append(args, "--allowedTools", strings.Join(l.AllowedTools, ","))
	}
	for _, d := range l.Dirs {
		args = append(args, "--add-dir", d)
	}
	// One argument each, so an id can never be read as a flag.
	if l.Resume {
		args = append(args, "--resume="+l.SessionID)
	} else if l.SessionID != "" {
		args = append(args, "--session-id="+l.SessionID)
	}
	if l.Model != "" {
		args = append(args, "--model="+l.Model)
	}
	if l.PromptFile != "" {
		args = append(args, "--append-system-prompt-file", l.PromptFile)
	}
	if l.DangerSkip {
		args = append(args, "--dangerously-skip-permissions")
	}
	return args
}

// childEnv is env without the variables a parent Claude Code would leak into
// a child and make it think it is a sub-session.
func childEnv(env []string) []string {
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if strings.HasPrefix(kv, "CLAUDE_CODE_SESSION_ID=") || strings.HasPrefix(kv, "CLAUDE_CODE_ENTRYPOINT=") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// dedupe keeps the first of equal strings and drops empty ones.
func dedupe(lists ...[]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, l := range lists {
		for _, s := range l {
			if s == "" || seen[s] {
				continue
			}
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
