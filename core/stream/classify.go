package stream

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"unsafe"

	"github.com/tidwall/gjson"
)

// Phrases of the CLI's tool_result texts, lower-cased (docs/protocol.md §5, §6).
var (
	interruptedPhrases = []string{
		"the user doesn't want to proceed with this tool use",
		"the user doesn’t want to proceed with this tool use",
		strings.ToLower(interruptPrefix),
	}
	hostErrorPhrases = []string{
		"tool permission request failed:", // "…: Error: host failed"; stream closed is tested first
		"the canusetool callback returned an invalid permission result",
	}
	notGrantedPhrases = []string{
		"needs approval",
		"haven't granted it yet",
		"haven’t granted it yet",
		"no approval surface",
		"don't ask mode",
		"don’t ask mode",
		"this command requires approval", // 2.0.77
		"for security, claude code may only create or modify files in the allowed working directories", // 2.1.70
	}
)

// classify gives the denial class of one tool_result, in the order of
// docs/protocol.md §6: stream_closed, interrupted, user_denied, host_error,
// not_granted, deny_rule. permDenied says a system/permission_denied named
// this call; userDenied that the host answered deny (MarkUserDenied, or the
// CLI's meta source "user_reject"). The host's deny message is free text, so
// it is trusted over the phrase tables but not over stream closed or an
// interrupt (a deny with interrupt:true reads as interrupted). Non-failed
// results are never denials, except the exact stream-closed forms, which
// the protocol says not to gate on is_error (docs/protocol.md §5).
func classify(text string, isErr, permDenied, userDenied bool) (Class, bool) {
	lower := strings.ToLower(text)
	if !isErr {
		t := strings.TrimSpace(lower)
		if strings.Contains(t, "stream closed") &&
			(t == "stream closed" || strings.HasPrefix(t, "tool permission request failed:") || strings.HasPrefix(t, "tool permission stream closed")) {
			return StreamClosed, true
		}
		return "", false
	}
	switch {
	case strings.Contains(lower, "stream closed"):
		return StreamClosed, true
	case containsAny(lower, interruptedPhrases):
		return Interrupted, true
	case userDenied:
		return UserDenied, true
	case containsAny(lower, hostErrorPhrases):
		return HostError, true
	case containsAny(lower, notGrantedPhrases):
		return NotGranted, true
	case isDenyRule(lower):
		return DenyRule, true
	case permDenied:
		return NotGranted, true
	}
	return "", false
}

// isDenyRule matches "Permission to use … has been denied." (lower-cased).
func isDenyRule(lower string) bool {
	i := strings.Index(lower, "permission to use ")
	return i >= 0 && strings.Contains(lower[i:], " has been denied")
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// TouchedPath is the path a tool call reads or changes, as its input names
// it (not resolved): file_path (Read, Write, Edit, MultiEdit), else
// notebook_path (NotebookEdit), else path (Glob, Grep, LS). file says it
// names a file, whose folder is what a folder grant names; path names the
// folder itself. Keys match exactly and the last of duplicate keys wins, as
// in the CLI's JSON.parse, so the path shown is the one the tool uses. It
// is "" when the input names none (Bash, WebFetch) or is not a JSON object.
// The input is scanned in place: a huge Write costs no copy.
func TouchedPath(input json.RawMessage) (path string, file bool) {
	if len(input) == 0 {
		return "", false
	}
	// Read only, and nothing below keeps a substring of it but the result,
	// which is copied.
	s := unsafe.String(unsafe.SliceData(input), len(input))
	if i := skipSpace(s, 0); i >= len(s) || s[i] != '{' || !gjson.Valid(s) {
		return "", false
	}
	var filePath, notebookPath, dirPath string
	eachMember(s, func(key, raw string) {
		switch key {
		case "file_path":
			filePath = str(raw) // "" unless a string
		case "notebook_path":
			notebookPath = str(raw)
		case "path":
			dirPath = str(raw)
		}
	})
	switch {
	case filePath != "":
		return strings.Clone(filePath), true
	case notebookPath != "":
		return strings.Clone(notebookPath), true
	}
	return strings.Clone(dirPath), false
}

// grantDir is the folder whose grant would let the call run: the folder of
// the path it touches (TouchedPath), absolute and cleaned, when it lies
// outside cwd and every added directory. Only what system/init said counts;
// the disk is never looked at. A relative path is taken against cwd. Bash
// gets none: a folder grant does not help a shell.
func grantDir(tool string, input json.RawMessage, cwd string, addDirs []string) string {
	if tool == "Bash" {
		return ""
	}
	p, isFile := TouchedPath(input)
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		if cwd == "" {
			return ""
		}
		p = filepath.Join(cwd, p)
	}
	p = filepath.Clean(p)
	if within(p, cwd) {
		return ""
	}
	for _, a := range addDirs {
		if within(p, a) {
			return ""
		}
	}
	if isFile {
		return filepath.Dir(p)
	}
	return p
}

// within reports whether p is root or below it (both absolute).
func within(p, root string) bool {
	if root == "" || !filepath.IsAbs(root) {
		return false
	}
	root = filepath.Clean(root)
	if p == root {
		return true
	}
	if !strings.HasSuffix(root, string(filepath.Separator)) {
		root += string(filepath.Separator)
	}
	return strings.HasPrefix(p, root)
}
