package sessions

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The generator builds realistic 2.1.x session files from the real
// fixture live-three-turns.jsonl: its first turn (with the CLI's big
// request-shape lines) as the head, then turns copied from its second
// (a Bash call allowed, with an output of the size asked) and third (a
// Bash call denied, or refused with "Stream closed"), each with fresh
// uuids, tool ids, timestamps and turnIndex.

const genFixture = "testdata/cli-2.1.328/live-three-turns.jsonl"

type genTemplates struct {
	sid         string
	head        []string // lines 1-23: turn 1 and its trailing lines
	allowed     []string // lines 24-33: a prompt and an allowed Bash call
	denied      []string // lines 34-42: a prompt and a denied Bash call
	blobTypes   []string // line types a small file leaves out
	lorem       string
	loremEscape string
}

var (
	reUUID      = regexp.MustCompile(`"(uuid|parentUuid|leafUuid)":"([0-9a-f-]{36})"`)
	reTool      = regexp.MustCompile(`toolu_fake[0-9a-f]+`)
	reMsg       = regexp.MustCompile(`msg_fake_[0-9]+_[0-9a-f]+`)
	reTS        = regexp.MustCompile(`"timestamp":"[^"]+"`)
	reTurnIndex = regexp.MustCompile(`"turnIndex":[0-9]+`)
)

func loadTemplates(tb testing.TB) *genTemplates {
	tb.Helper()
	b, err := os.ReadFile(genFixture)
	if err != nil {
		tb.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 42 {
		tb.Fatalf("%s: %d lines, want 42", genFixture, len(lines))
	}
	t := &genTemplates{
		sid:       "65b49ddb-caa3-442c-866c-bdb4cd44e255",
		head:      lines[:23],
		allowed:   lines[23:33],
		denied:    lines[33:42],
		blobTypes: []string{`"type":"api-request-blob"`, `"type":"api-request-shape"`, `"type":"attachment"`},
	}
	var sb strings.Builder
	for i := 0; sb.Len() < 4096; i++ {
		fmt.Fprintf(&sb, "ok  \tgithub.com/example/pkg%d\t0.%03ds\tcoverage: %d.%d%% of statements\n", i, i%1000, i%100, i%10)
	}
	t.lorem = sb.String()
	t.loremEscape = strings.ReplaceAll(strings.ReplaceAll(t.lorem, "\t", `\t`), "\n", `\n`)
	return t
}

// genSpec is one file to generate.
type genSpec struct {
	seed   uint64
	size   int  // at least this many bytes (the head alone may be more)
	small  bool // leave out the head's big request-shape and attachment lines
	closed bool // the last turn's call is refused with "Stream closed" (grantable)
	output int  // bytes of each allowed call's output at most (random below)
}

// genFile writes one session file and returns the number of prompts and
// the grantable denials of its last turn, as Read must find them.
func (g *genTemplates) genFile(tb testing.TB, path string, sp genSpec) (prompts, unresolved int) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(sp.seed, 7))
	newID := func() string {
		return fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", rng.Uint32(), rng.Uint32()&0xffff, rng.Uint32()&0xfff, rng.Uint32()&0xfff, rng.Uint64()&0xffffffffffff)
	}
	sid := newID()
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(rng.IntN(300*24)) * time.Hour)
	var buf bytes.Buffer
	prev := "" // the last message's uuid: the next prompt's parent
	emit := func(lines []string, turn int, output string, denial string) {
		ids, tools, msgs := map[string]string{}, map[string]string{}, map[string]string{}
		for _, l := range lines {
			if sp.small && turn == 1 && containsAny(l, g.blobTypes) {
				// Left out; its children hang from its parent instead.
				if h := parseHeader(l); h.uuid != "" {
					if p := ids[h.parent]; p != "" {
						ids[h.uuid] = p
					} else {
						ids[h.uuid] = prev
					}
				}
				continue
			}
			l = strings.ReplaceAll(l, g.sid, sid)
			l = reUUID.ReplaceAllStringFunc(l, func(m string) string {
				sub := reUUID.FindStringSubmatch(m)
				key, old := sub[1], sub[2]
				if key == "parentUuid" && ids[old] == "" {
					return `"parentUuid":"` + prev + `"`
				}
				if ids[old] == "" {
					ids[old] = newID()
				}
				return `"` + key + `":"` + ids[old] + `"`
			})
			l = reTool.ReplaceAllStringFunc(l, func(m string) string {
				if tools[m] == "" {
					tools[m] = fmt.Sprintf("toolu_gen%016x", rng.Uint64())
				}
				return tools[m]
			})
			l = reMsg.ReplaceAllStringFunc(l, func(m string) string {
				if msgs[m] == "" {
					msgs[m] = fmt.Sprintf("msg_gen_%016x", rng.Uint64())
				}
				return msgs[m]
			})
			clock = clock.Add(time.Duration(5+rng.IntN(500)) * time.Millisecond)
			l = reTS.ReplaceAllString(l, `"timestamp":"`+clock.Format("2006-01-02T15:04:05.000Z")+`"`)
			l = reTurnIndex.ReplaceAllString(l, fmt.Sprintf(`"turnIndex":%d`, turn))
			if output != "" {
				l = strings.Replace(l, `"content":"(Bash completed with no output)"`, `"content":"`+output+`"`, 1)
				l = strings.Replace(l, `"stdout":""`, `"stdout":"`+output+`"`, 1)
			}
			if denial == "closed" {
				l = strings.Replace(l, `"content":"Not now."`, `"content":"Tool permission request failed: AbortError: Stream closed"`, 1)
				l = strings.Replace(l, `"source":"user_reject"`, `"source":"config"`, 1)
			}
			if u := parseHeader(l).uuid; u != "" {
				prev = u // the next prompt's parent
			}
			buf.WriteString(l)
			buf.WriteByte('\n')
		}
	}
	emit(g.head, 1, "", "")
	prompts = 1
	for turn := 2; ; turn++ {
		if buf.Len() >= sp.size && turn > 2 {
			if sp.closed {
				prompts++
				emit(g.denied, turn, "", "closed") // the last turn
			}
			break
		}
		prompts++
		if rng.IntN(4) == 0 {
			emit(g.denied, turn, "", "")
			continue
		}
		out := ""
		if sp.output > 0 {
			n := rng.IntN(sp.output)
			for len(out) < n {
				out += g.loremEscape
			}
			out = trimEscape(out[:min(len(out), n)])
		}
		emit(g.allowed, turn, out, "")
	}
	if sp.closed {
		unresolved = 1
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		tb.Fatal(err)
	}
	return prompts, unresolved
}

// trimEscape drops a backslash escape cut in half at the end of s.
func trimEscape(s string) string {
	n := 0
	for i := len(s) - 1; i >= 0 && s[i] == '\\'; i-- {
		n++
	}
	return s[:len(s)-n%2]
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// genDir writes n files of realistic sizes (20 KB – 500 KB, about one in a
// hundred 1–4 MB) into dir.
func genDir(tb testing.TB, dir string, n int) (total int64) {
	tb.Helper()
	g := loadTemplates(tb)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range n {
		sp := genSpec{seed: uint64(i + 1), closed: i%7 == 0, output: 16 << 10}
		switch {
		case i%100 == 50:
			sp.size, sp.output = 1<<20+rng.IntN(3<<20), 256<<10
		default:
			// log-uniform between 20 KB and 500 KB
			sp.size = int(20e3 * math.Pow(25, rng.Float64()))
			sp.small = sp.size < 150e3
		}
		p := filepath.Join(dir, fmt.Sprintf("%08x-0000-4000-8000-%012x.jsonl", i, i))
		g.genFile(tb, p, sp)
		fi, err := os.Stat(p)
		if err != nil {
			tb.Fatal(err)
		}
		total += fi.Size()
	}
	return total
}
