package ui

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// money shows a cost in dollars with enough digits for small turns.
func money(usd float64) string {
	switch {
	case usd == 0:
		return "$0"
	case usd < 0.01:
		return fmt.Sprintf("$%.4f", usd)
	default:
		return fmt.Sprintf("$%.2f", usd)
	}
}

// tokens shows a token count compactly: 950, 12.3k, 1.2M.
func tokens(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d", n)
	case n < 1_000_000:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/1000), ".0") + "k"
	default:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/1e6), ".0") + "M"
	}
}

func seconds(d time.Duration) string {
	if d <= 0 {
		return ""
	}
	if d < time.Minute {
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	return d.Round(time.Second).String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// clip keeps at most maxLines lines of at most maxCols runes each, so one
// huge tool result cannot make a row taller than the screen many times over.
func clip(s string, maxLines, maxCols int) (string, int) {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	more := 0
	if len(lines) > maxLines {
		more = len(lines) - maxLines
		lines = lines[:maxLines]
	}
	for i, l := range lines {
		if r := []rune(l); len(r) > maxCols {
			lines[i] = string(r[:maxCols]) + "…"
		}
	}
	return strings.Join(lines, "\n"), more
}

// maxRowText caps the text one transcript row lays out. Fyne measures
// wrapped text line by line, so a megabyte in one row (the CLI passes such
// answers through whole) would freeze the window. Prose reaches a row in
// pieces of at most softRowText; this cap is for what cannot be broken, such
// as one huge code block, which lays out far faster than wrapped prose.
const maxRowText = 16 << 10

// capText is s cut to maxRowText bytes.
func capText(s string) string { return capTextAt(s, maxRowText) }

// capTextAt is s cut to max bytes on a rune boundary, saying how much was
// left out.
func capTextAt(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("\n\n… %s more characters not shown", tokens(utf8.RuneCountInString(s[cut:])))
}
