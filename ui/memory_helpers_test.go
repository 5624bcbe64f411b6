package ui

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/latch-app/latch/app"
)

// testGOGC is the GOGC of the tests' measured steps: the garbage it lets
// pile up is 5% of the whole heap, which the windows of earlier tests in
// the binary can leave at 150 MB.
const testGOGC = 5

// mdGen writes answer-like markdown, the same for a seed: paragraphs of
// prose, bullet lists, fenced code with blank lines inside, and now and then
// a line with no space to break at (a URL, a hash, a minified blob).
type mdGen struct{ r *rand.Rand }

func newMDGen(seed uint64) *mdGen { return &mdGen{rand.New(rand.NewPCG(seed, 1))} }

var mdWords = strings.Fields("the a of to and in is it that for on with as this file test value error " +
	"function return string buffer memory row layout stream delta answer transcript window — naïve")

// block appends one block to b.
func (g *mdGen) block(b []byte) []byte {
	r := g.r
	word := func() string { return mdWords[r.IntN(len(mdWords))] }
	switch k := r.IntN(10); {
	case k < 6: // a paragraph
		for end := len(b) + 200 + r.IntN(1300); len(b) < end; {
			b = append(b, word()...)
			if r.IntN(12) == 0 {
				b = append(b, ".\n"...)
			} else {
				b = append(b, ' ')
			}
		}
		return append(b, "\n\n"...)
	case k < 8: // a list
		for i := 2 + r.IntN(8); i > 0; i-- {
			b = append(b, "- "...)
			for j := 3 + r.IntN(12); j > 0; j-- {
				b = append(append(b, word()...), ' ')
			}
			b = append(b, '\n')
		}
		return append(b, '\n')
	case k < 9: // a code block
		b = append(b, "```go\n"...)
		for i := 3 + r.IntN(60); i > 0; i-- {
			if r.IntN(8) == 0 {
				b = append(b, '\n')
				continue
			}
			b = fmt.Appendf(b, "\tx%d := strings.Repeat(%q, %d)\n", i, word(), r.IntN(100))
		}
		return append(b, "```\n\n"...)
	}
	for i := 500 + r.IntN(6000); i > 0; i-- {
		b = append(b, "abcdefghijklmnopqrstuvwxyz0123456789"[r.IntN(36)])
	}
	return append(b, "\n\n"...)
}

// markdownText is about n bytes of mdGen's markdown, in one allocation.
func markdownText(n int, seed uint64) string {
	g := newMDGen(seed)
	var sb strings.Builder
	sb.Grow(n + 8<<10)
	var tmp []byte
	for sb.Len() < n {
		tmp = g.block(tmp[:0])
		sb.Write(tmp)
	}
	s := sb.String()
	cut := n
	for cut > 0 && cut < len(s) && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}

// flood shows total bytes of mdGen's markdown as text deltas of 1–64 bytes,
// each a fresh string with a fresh BlockID as app.Session makes them, with
// frames flushes on the way, as the pump makes at 30 Hz (frames 1: the UI
// was busy the whole flood). The text is made as it goes, so only what the
// window keeps is on the heap. It ends the turn and returns the bytes sent
// and their FNV-1a hash.
func flood(show func(app.Event), flush func(), seed uint64, total, frames int) (int, uint64) {
	r := rand.New(rand.NewPCG(seed, 7))
	g := newMDGen(seed)
	h := fnv.New64a()
	var buf []byte
	sent, pos, next := 0, 0, total/frames
	for sent < total {
		if pos == len(buf) {
			buf, pos = g.block(buf[:0]), 0
		}
		end := min(pos+1+r.IntN(64), len(buf), pos+total-sent)
		for end < len(buf) && !utf8.RuneStart(buf[end]) {
			end++
		}
		h.Write(buf[pos:end])
		show(app.Event{Kind: app.EvText, BlockID: fmt.Sprintf("%s:%d", "msg_flood", 0), Text: string(buf[pos:end])})
		sent, pos = sent+end-pos, end
		if sent >= next {
			flush()
			next += total / frames
		}
	}
	show(app.Event{Kind: app.EvTurnEnd, Turn: &app.TurnInfo{OutputTokens: sent / 4}})
	flush()
	return sent, h.Sum64()
}

// bare is a surface feeding a transcript that is never laid out. The tests
// measure through it what grows with the text (the queue and the rows):
// Fyne's layout of the rows in view is a cost per frame, tens of MB of
// garbage for a 4 KB row, which would drown a bound on a few MB. The
// benchmarks measure the whole window.
type bare struct {
	s  *surface
	tr *transcript
}

func newBare() *bare { return &bare{s: newSurface(nil, nil), tr: newTranscript()} }

// flush applies the queue as mainWindow.apply does, less the layout.
func (b *bare) flush() {
	for _, ev := range b.s.take() {
		b.tr.apply(ev)
	}
}

var warmOnce sync.Once

// warmUp lays out a screenful of answer once, so the fonts, shapers and
// caches Fyne builds the first time are not counted against a measurement.
func warmUp(t testing.TB) {
	warmOnce.Do(func() {
		h := newHarness(t)
		h.mw.surf.Show(app.Event{Kind: app.EvText, BlockID: "warm", Text: markdownText(256<<10, 9)})
		h.mw.surf.flush()
	})
}
