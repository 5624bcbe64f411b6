package ui

import (
	"path/filepath"
	"runtime"
	"strings"
	"unicode/utf8"

	"github.com/latch-app/latch/app"
)

// What a desktop notification says, in one short line: notifications are
// small and often cut after a line or two, so the untrusted parts (a
// command, a path, a tool's name) are made visible on one line
// (app.VisibleLine) and clipped with an ellipsis. The dialog shows them
// whole.
const (
	noticeCommand = 80 // runes of a command, its start kept
	noticePath    = 60 // runes of a path, its end (the file's name) kept
	noticeName    = 40 // runes of a tool's or folder's name
)

// askNotice says what a live question waits for: "Bash wants to run
// `npm test`", "Write wants to change `/src/a.go`", "Read wants to read
// `/etc/hosts`", "WebFetch wants to run", or, for AskUserQuestion, "Claude
// has a question for you".
func askNotice(q app.Question) string {
	if len(q.Questions) > 0 {
		return "Claude has a question for you"
	}
	name := clipEnd(app.VisibleLine(toolName(q)), noticeName)
	switch {
	case q.Tool == "Bash" && q.Command != "":
		return name + " wants to run `" + visibleHead(q.Command, noticeCommand) + "`"
	case q.Path != "" && q.Writes:
		return name + " wants to change `" + visibleTail(q.Path, noticePath) + "`"
	case q.Path != "" && reads(q.Tool):
		return name + " wants to read `" + visibleTail(q.Path, noticePath) + "`"
	}
	return name + " wants to run"
}

// reads reports whether tool only reads the path it names.
func reads(tool string) bool {
	switch tool {
	case "Read", "NotebookRead", "Glob", "Grep", "LS":
		return true
	}
	return false
}

// grantsNotice says what the after-turn grant request waits for.
func grantsNotice(r app.GrantRequest) string {
	return "Claude was refused " + plural(len(r.Tools)+len(r.Folders), "permission", "permissions")
}

// inFolder is notice with the working folder's name after it ("… in
// project-x"), so a person running Latch in several folders knows which
// one waits; notice alone when there is no folder.
func inFolder(notice, workdir string) string {
	if workdir == "" {
		return notice
	}
	return notice + " in " + clipEnd(app.VisibleLine(filepath.Base(workdir)), noticeName)
}

// notificationBody is msg as the desktop's notification server reads it.
// On Linux and the BSDs Fyne hands the body to
// org.freedesktop.Notifications, whose servers (GNOME Shell, KDE, dunst,
// xfce4-notifyd, mako) read it as markup: a command's "<b>", "<span …>" or
// "&" would be rendered or dropped, so the notification would show another
// command than the one that waits. Escaped, it shows as written. Other
// systems show the body as plain text.
func notificationBody(msg string) string {
	switch runtime.GOOS {
	case "linux", "freebsd", "openbsd", "netbsd":
		return markupEscaper.Replace(msg)
	}
	return msg
}

var markupEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// visibleHead is the start of s, made visible on one line, at most max
// runes with the last an ellipsis when s is longer. Only the start of a
// huge s is looked at.
func visibleHead(s string, max int) string {
	cut := len(s)
	if limit := 4 * utf8.UTFMax * max; cut > limit {
		cut = limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
	}
	v := clipEnd(app.VisibleLine(s[:cut]), max)
	if cut < len(s) && !strings.HasSuffix(v, "…") {
		// What was never looked at is left out too: say so.
		v = firstRunes(v, max-1) + "…"
	}
	return v
}

// visibleTail is visibleHead from the other end: the end of s, the first
// rune an ellipsis when s is longer.
func visibleTail(s string, max int) string {
	cut := 0
	if limit := 4 * utf8.UTFMax * max; len(s) > limit {
		cut = len(s) - limit
		for cut < len(s) && !utf8.RuneStart(s[cut]) {
			cut++
		}
	}
	v := clipStart(app.VisibleLine(s[cut:]), max)
	if cut > 0 && !strings.HasPrefix(v, "…") {
		v = "…" + lastRunes(v, max-1)
	}
	return v
}

// clipEnd is s when it has at most max runes, else its first max-1 runes
// and "…".
func clipEnd(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	return firstRunes(s, max-1) + "…"
}

// clipStart is s when it has at most max runes, else "…" and its last
// max-1 runes.
func clipStart(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	return "…" + lastRunes(s, max-1)
}

// firstRunes is the first n runes of s (s when it has fewer).
func firstRunes(s string, n int) string {
	i := 0
	for ; n > 0 && i < len(s); n-- {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}

// lastRunes is the last n runes of s (s when it has fewer).
func lastRunes(s string, n int) string {
	i := len(s)
	for ; n > 0 && i > 0; n-- {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
	}
	return s[i:]
}
