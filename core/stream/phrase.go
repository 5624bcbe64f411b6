package stream

import (
	"path/filepath"
	"strings"
)

// Permission-request phrases of the reactive fallback (issue 3 item 6),
// matched ASCII-case-insensitively.
var permissionPhrases = []string{
	"need permission", "needs permission", "is restricted",
	"don't have access to", "don’t have access to",
	"haven't granted", "haven’t granted", "permission to use",
}

// phraseTools are the tool names a phrase denial may name, matched as whole
// words with their exact case (so "read" in prose does not name Read).
var phraseTools = []string{
	"Bash", "Read", "Write", "Edit", "MultiEdit", "NotebookEdit", "Glob", "Grep",
	"LS", "WebFetch", "WebSearch",
}

// phraseDenial scans a turn's assistant text for a permission-request
// phrase. A hit names the earliest known tool in the text and the folder of
// the first absolute path in it (the path itself, or its parent when the last
// element has an extension, like "notes.txt"); a folder inside cwd or an
// added directory is dropped. A hit that names neither gives nothing to
// grant and is not reported.
func phraseDenial(text, cwd string, addDirs []string) (Denial, bool) {
	lower := asciiLower(text)
	at := -1
	for _, p := range permissionPhrases {
		if i := strings.Index(lower, p); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	if at < 0 {
		return Denial{}, false
	}
	dn := Denial{Class: Phrase, Tool: firstTool(text)}
	if p := firstAbsPath(text); p != "" {
		p = filepath.Clean(p)
		if ext := filepath.Ext(p); ext != "" && ext != filepath.Base(p) {
			p = filepath.Dir(p)
		}
		inside := within(p, cwd)
		for _, a := range addDirs {
			inside = inside || within(p, a)
		}
		if !inside {
			dn.Dir = p
		}
	}
	if dn.Tool == "" && dn.Dir == "" {
		return Denial{}, false
	}
	return dn, true
}

// asciiLower lower-cases A-Z only, so byte offsets match the input.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func firstTool(text string) string {
	best, bestAt := "", -1
	for _, name := range phraseTools {
		for off := 0; ; {
			i := strings.Index(text[off:], name)
			if i < 0 {
				break
			}
			i += off
			end := i + len(name)
			if (i == 0 || !isWordByte(text[i-1])) && (end == len(text) || !isWordByte(text[end])) {
				if bestAt < 0 || i < bestAt {
					best, bestAt = name, i
				}
				break
			}
			off = end
		}
	}
	return best
}

// firstAbsPath finds the first "/…" token that starts a word (after space,
// a quote, a backtick or a bracket).
func firstAbsPath(text string) string {
	for i := 0; i < len(text); i++ {
		if text[i] != '/' || (i > 0 && !strings.ContainsRune(" \t\n'\"`([<", rune(text[i-1]))) {
			continue
		}
		j := i
		for j < len(text) && !strings.ContainsRune(" \t\n'\"`)]>,;", rune(text[j])) {
			j++
		}
		p := strings.TrimRight(text[i:j], ".:")
		if len(p) > 1 {
			return p
		}
	}
	return ""
}
