package grants

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
)

// This file is the one home of the rule syntax Claude Code reads: rules are
// built (CommandRule, FolderRule, DomainRule), checked (ValidRule) and taken
// apart (ParseRule) here and nowhere else.

// rule is a permission rule in Claude Code's syntax: the bare tool name, or
// Tool(content) such as Bash(npm run test:*). content is written as is.
func rule(tool, content string) string {
	if content == "" {
		return tool
	}
	return tool + "(" + content + ")"
}

// CommandRule allows exactly one command of tool (Bash): Tool(command), the
// command trimmed and escaped as Claude Code reads it back. It is "" for a
// blank command and for one no valid rule can hold (a multi-line command).
func CommandRule(tool, command string) string {
	command = strings.TrimSpace(command)
	if command == "" {
		return ""
	}
	return validOrEmpty(rule(tool, escapeContent(command)))
}

// FolderRule allows tool (Read, Edit) on everything below dir, an absolute
// path: Tool(//dir/**), escaped. An absolute path takes two slashes in a
// rule, since one leading slash would mean "relative to the settings
// file". It is "" for a relative dir, for the root folder (no narrow rule),
// and for a path no valid rule can hold.
func FolderRule(tool, dir string) string {
	if dir == "" || !filepath.IsAbs(dir) {
		return ""
	}
	dir = strings.TrimSuffix(filepath.ToSlash(filepath.Clean(dir)), "/")
	if dir == "" {
		return ""
	}
	if !strings.HasPrefix(dir, "/") {
		dir = "/" + dir // Windows: C:/x is written //C:/x
	}
	return validOrEmpty(rule(tool, "/"+escapeContent(dir)+"/**"))
}

// DomainRule allows WebFetch on one host: WebFetch(domain:host). It is ""
// for an empty host and for one no valid rule can hold.
func DomainRule(host string) string {
	if host == "" {
		return ""
	}
	return validOrEmpty(rule("WebFetch", "domain:"+host))
}

func validOrEmpty(r string) string {
	if ValidRule(r) != nil {
		return ""
	}
	return r
}

// ValidRule rejects what Claude Code would not read as a rule, and what it
// reads as something else: empty text, stray whitespace or control
// characters, a bad tool name, empty parentheses. Claude Code takes the
// content from the first "(" to the last ")", which must end the rule and
// must not be escaped by a backslash; parentheses inside need not balance,
// as in Bash(grep -n "eval\(" src/*.py) or Bash(touch "z)" last.txt).
func ValidRule(rule string) error {
	bad := func(why string) error { return fmt.Errorf("invalid rule %q: %s", rule, why) }
	if strings.TrimSpace(rule) == "" {
		return errors.New("invalid rule: empty")
	}
	if strings.TrimSpace(rule) != rule {
		return bad("leading or trailing whitespace")
	}
	if strings.ContainsFunc(rule, unicode.IsControl) {
		return bad("contains a control character")
	}
	tool, content, hasContent := strings.Cut(rule, "(")
	if !validToolName(tool) {
		return bad("the tool name must start with a letter and hold only letters, digits, _ - . *")
	}
	if !hasContent {
		return nil
	}
	content, closed := strings.CutSuffix(content, ")")
	if !closed {
		return bad("missing the closing parenthesis")
	}
	if slash := len(content) - len(strings.TrimRight(content, `\`)); slash%2 == 1 {
		return bad(`the closing parenthesis is escaped by a backslash; end the rule with ")"`)
	}
	if strings.TrimSpace(content) == "" {
		return bad("empty parentheses; use the bare tool name to allow all of it")
	}
	return nil
}

func validToolName(tool string) bool {
	for i, r := range tool {
		switch {
		case r < unicode.MaxASCII && unicode.IsLetter(r):
		case i > 0 && (r >= '0' && r <= '9' || strings.ContainsRune("_-.*", r)):
		default:
			return false
		}
	}
	return tool != ""
}

// escapeContent writes rule content as Claude Code reads it back: it takes
// \( \) and \\ in a rule as the characters themselves, so a command or
// path holding them is escaped before it becomes a rule.
func escapeContent(s string) string {
	if !strings.ContainsAny(s, `\()`) {
		return s
	}
	return strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`).Replace(s)
}

// ParseRule splits a rule into its tool and its content as Claude Code
// holds them in memory (escapes undone): "Bash(touch x)" is "Bash" and
// "touch x"; a bare tool has no content.
func ParseRule(rule string) (tool, content string) {
	i := strings.IndexByte(rule, '(')
	if i < 0 || !strings.HasSuffix(rule, ")") {
		return rule, ""
	}
	content = rule[i+1 : len(rule)-1]
	if strings.Contains(content, `\`) {
		content = strings.NewReplacer(`\\`, `\`, `\(`, `(`, `\)`, `)`).Replace(content)
	}
	return rule[:i], content
}
