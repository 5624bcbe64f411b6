package sessions

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// titleMax is the most runes of a title or a notice's line.
const titleMax = 200

// oneLine is the first non-blank line of s, trimmed, without ANSI escape
// sequences and with other control characters as spaces, cut to at most
// max runes (the last one "…" when cut).
func oneLine(s string, max int) string {
	line, _ := firstLine(s, max)
	return line
}

// firstLine is oneLine; whole says the line is all of s.
func firstLine(s string, max int) (line string, whole bool) {
	rest := s
	for rest != "" {
		var l string
		l, rest, _ = strings.Cut(rest, "\n")
		if line = strings.TrimSpace(stripANSI(l)); line != "" {
			break
		}
	}
	if line == "" {
		return "", true
	}
	whole = strings.TrimSpace(rest) == ""
	var b strings.Builder
	for n := 0; line != "" && n < max; n++ {
		r, size := utf8.DecodeRuneInString(line)
		if n == max-1 && len(line) > size { // more than this one rune left
			r, whole = '…', false
		} else if r == utf8.RuneError || unicode.IsControl(r) {
			r = ' '
		}
		b.WriteRune(r)
		line = line[size:]
	}
	return b.String(), whole
}

// stripANSI removes CSI escape sequences (colours, "\x1b[1m"), which
// command output often holds.
func stripANSI(s string) string {
	if strings.IndexByte(s, 0x1b) < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			i = j // the final byte, skipped by i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// fold is prefix and the first line of s, with the length of s when the
// line is not all of it: how a long text is one line of a transcript.
func fold(prefix, s string) string {
	line, whole := firstLine(s, titleMax)
	if line == "" {
		return strings.TrimSuffix(prefix, ": ")
	}
	if !whole {
		return fmt.Sprintf("%s%s (%d characters)", prefix, line, utf8.RuneCountInString(s))
	}
	return prefix + line
}
