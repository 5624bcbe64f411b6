package app

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxPlainSpaces is the longest run of spaces shown as spaces. Longer runs
// are where a hostile command hides its tail (`git status` + 400 spaces +
// `; curl … | sh` looks like `git status` in a box), so they are named.
const maxPlainSpaces = 4

// Visible returns s with everything a person could not see made visible:
// runs of more than maxPlainSpaces spaces as ⟨N spaces⟩, tab, CR and other
// control characters as escapes (\t, \r, \x1b, \x00), bidirectional
// overrides, zero-width and other invisible or look-alike space characters
// as ⟨U+XXXX⟩, and invalid UTF-8 as \xNN. Newlines stay newlines. The
// brackets themselves are escaped too, so text cannot fake a marker.
// Everything else, including the tail of a long line, is kept whole.
func Visible(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		if s[i] == ' ' {
			j := i
			for j < len(s) && s[j] == ' ' {
				j++
			}
			if n := j - i; n > maxPlainSpaces {
				fmt.Fprintf(&b, "⟨%d spaces⟩", n)
			} else {
				b.WriteString(s[i:j])
			}
			i = j
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			fmt.Fprintf(&b, `\x%02x`, s[i])
			i++
			continue
		}
		switch {
		case r == '\n':
			b.WriteByte('\n')
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case hidden(r):
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isPlain is the fast path: printable ASCII without long space runs.
func isPlain(s string) bool {
	run := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ':
			run++
			if run > maxPlainSpaces {
				return false
			}
			continue
		case c == '\n':
		case c < 0x20 || c >= 0x7f:
			return false
		}
		run = 0
	}
	return true
}

// hidden reports runes that draw as nothing, as a space, or that reorder
// the text around them: C1 controls, format characters (bidi embeddings,
// overrides and isolates U+202A–U+202E, U+2066–U+2069, zero-width U+200B–
// U+200F, BOM U+FEFF, soft hyphen, …), line and paragraph separators,
// every space but ASCII's, and the marker brackets.
func hidden(r rune) bool {
	switch {
	case r >= 0x80 && r < 0xa0:
		return true
	case r == '⟨' || r == '⟩':
		return true
	case unicode.Is(unicode.Cf, r), unicode.Is(unicode.Zl, r), unicode.Is(unicode.Zp, r), unicode.Is(unicode.Zs, r):
		return true
	case r == 0x115f || r == 0x1160 || r == 0x3164 || r == 0xffa0: // Hangul fillers draw as blanks
		return true
	case unicode.Is(unicode.Mn, r) && r >= 0xfe00 && r <= 0xfe0f: // variation selectors
		return true
	case r >= 0xe0000 && r <= 0xe007f: // tag characters
		return true
	}
	return false
}

// VisibleLine is Visible for a one-line place (a summary, a title):
// newlines show as ⏎.
func VisibleLine(s string) string {
	return strings.ReplaceAll(Visible(s), "\n", "⏎")
}

// stripANSI removes terminal escape sequences (CSI "ESC [ … final", OSC
// "ESC ] … BEL/ST", and two-byte ESC sequences) from text the CLI meant for
// a terminal, such as decision_reason.
func stripANSI(s string) string {
	if !strings.Contains(s, "\x1b") && !strings.Contains(s, "\u009b") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		switch {
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[':
			i = skipCSI(s, i+2)
		case strings.HasPrefix(s[i:], "\u009b"):
			i = skipCSI(s, i+len("\u009b"))
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == ']':
			j := i + 2
			for j < len(s) && s[j] != 0x07 && !(s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\') {
				j++
			}
			switch {
			case j < len(s) && s[j] == 0x07:
				j++
			case j < len(s):
				j += 2
			}
			i = j
		case s[i] == 0x1b && i+1 < len(s):
			i += 2
		case s[i] == 0x1b:
			i++
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String()
}

// skipCSI returns the index after a CSI sequence's final byte (0x40–0x7e).
func skipCSI(s string, i int) int {
	for i < len(s) {
		c := s[i]
		i++
		if c >= 0x40 && c <= 0x7e {
			break
		}
	}
	return i
}
