// Package inspect is `latch inspect [--json] FILE|-`: it reads a saved CLI
// transcript and reports, per turn, what the turn did and which tool calls a
// permission check refused. It is how a user finds out why a turn silently
// did nothing. What the file is comes from its content, not its name
// (sessions.Sniff): stream-json NDJSON, a JSON array of such events, or a
// Claude Code session file (~/.claude/projects/…/<id>.jsonl); any of them
// may be gzip-compressed.
package inspect

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/latch-app/latch/core/sessions"
	"github.com/latch-app/latch/core/stream"
)

const usage = "usage: latch inspect [--json] FILE|-"

// report is the --json output. Fields added after the first version are
// omitted when empty, so a stream's report reads as it always did.
type report struct {
	// Format is "session" for a Claude Code session file, "json_array" for
	// a JSON array of stream events; omitted for stream-json NDJSON.
	Format         string       `json:"format,omitempty"`
	Turns          []turnReport `json:"turns"`
	MalformedLines int          `json:"malformed_lines"`
	// Session file only: what its lines say of it (the file's text).
	Version string `json:"version,omitempty"`
	Cwd     string `json:"cwd,omitempty"`
}

// turnReport is one turn of the transcript: a stream's result event (or
// the turn the stream ended in before one), a session file's prompt and
// what followed it.
type turnReport struct {
	SessionID string         `json:"session_id"`
	Subtype   string         `json:"subtype"`
	IsError   bool           `json:"is_error"`
	CostUSD   float64        `json:"cost_usd"`
	ToolUses  int            `json:"tool_uses"`
	Denials   []denialReport `json:"denials"`
	// Unfinished: the stream ended before this turn's result line; what
	// is reported is what was seen up to there.
	Unfinished bool `json:"unfinished,omitempty"`
	// Prompt is a session file's prompt, whole (the text output cuts it).
	Prompt string `json:"prompt,omitempty"`
	// Tools are the turn's tool calls, for session files and unfinished
	// turns (a finished stream turn gives their number only).
	Tools []toolReport `json:"tools,omitempty"`
}

// toolReport is one tool call of a turn.
type toolReport struct {
	Tool      string          `json:"tool"`
	ToolUseID string          `json:"tool_use_id"`
	Input     json.RawMessage `json:"input"`
}

// denialReport is one refused tool call.
type denialReport struct {
	Class     stream.Class    `json:"class"`
	Tool      string          `json:"tool"`
	ToolUseID string          `json:"tool_use_id"`
	Input     json.RawMessage `json:"input"`
	Dir       string          `json:"dir"`
	Grantable bool            `json:"grantable"`
}

// Run executes the subcommand; args are the arguments after "inspect".
// It returns the exit code: 0 when the transcript was read (malformed lines
// are reported, not fatal), 1 when it could not be read, 2 on bad usage.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	asJSON, file, ok := parseArgs(args)
	if !ok {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	if file == "" { // -h / --help
		fmt.Fprintln(stdout, usage)
		return 0
	}
	name := file
	var in io.Reader = stdin
	var disk *os.File // the file itself, when it can be read at offsets
	if file == "-" {
		name = "standard input"
	} else {
		f, err := os.Open(file)
		if err != nil {
			fmt.Fprintf(stderr, "latch inspect: cannot read %s: %v\n", file, err)
			return 1
		}
		defer f.Close()
		in, disk = f, f
	}
	rep, err := readTranscript(in, disk, strings.HasSuffix(file, ".gz"))
	if err != nil {
		fmt.Fprintf(stderr, "latch inspect: cannot read %s: %v\n", name, err)
		return 1
	}
	if asJSON {
		err = writeJSON(stdout, rep)
	} else {
		err = writeText(stdout, rep)
	}
	if err != nil {
		fmt.Fprintf(stderr, "latch inspect: %v\n", err)
		return 1
	}
	return 0
}

func parseArgs(args []string) (asJSON bool, file string, ok bool) {
	for _, a := range args {
		switch {
		case a == "--json":
			asJSON = true
		case a == "-h" || a == "--help":
			return false, "", true
		case a == "-" || !strings.HasPrefix(a, "-"):
			if file != "" {
				return false, "", false
			}
			file = a
		default:
			return false, "", false
		}
	}
	return asJSON, file, file != ""
}

// sniffSize is how much of the input is looked at to tell its format
// (sessions.Sniff reads no more).
const sniffSize = 1 << 20

// readTranscript reads a transcript (gzip-compressed when it starts with the gzip
// magic, or when gz says so), tells its format from its content, and
// gathers its turns. disk is r itself when r is a plain file on disk.
func readTranscript(r io.Reader, disk *os.File, gz bool) (*report, error) {
	br := bufio.NewReader(r)
	if magic, _ := br.Peek(2); gz || (len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		defer zr.Close()
		r, disk = zr, nil
	} else {
		r = br
	}
	br = bufio.NewReaderSize(r, sniffSize)
	head, err := br.Peek(sniffSize)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, err
	}
	format, desc, _ := sessions.Sniff(bytes.NewReader(head))
	switch format {
	case sessions.FormatSession:
		return readSession(br, disk)
	case sessions.FormatJSONArray:
		rep, err := readStream(&arrayReader{dec: json.NewDecoder(br)})
		if rep != nil {
			rep.Format = "json_array"
		}
		return rep, err
	case sessions.FormatStream:
		return readStream(br)
	}
	if desc == "empty file" {
		return readStream(br) // an empty transcript: no turns
	}
	return nil, fmt.Errorf("not a transcript (stream-json, a JSON array of its events, or a Claude Code session file): %s", desc)
}

// readStream reads stream-json NDJSON: one turn per result line, and the
// turn the stream ended in before its result, if any, as unfinished.
func readStream(r io.Reader) (*report, error) {
	d := stream.NewDecoder(r, stream.Options{})
	rep := &report{Turns: []turnReport{}}
	pending, sessionID := false, ""
	for {
		ev, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch ev.Kind {
		case stream.KindInit:
			pending, sessionID = true, ev.Init.SessionID
		case stream.KindAssistant, stream.KindToolResult, stream.KindBlockStart, stream.KindTextDelta,
			stream.KindThinkingDelta, stream.KindInterruptMarker:
			pending = true
		}
		if ev.Kind != stream.KindResult {
			continue
		}
		pending = false
		res := ev.Result
		tr := turnReport{
			SessionID: res.SessionID, Subtype: res.Subtype, IsError: res.IsError,
			CostUSD: res.CostUSD, ToolUses: len(res.Turn.ToolUses), Denials: denials(res.Turn),
		}
		rep.Turns = append(rep.Turns, tr)
	}
	if pending {
		t := d.EndTurn()
		rep.Turns = append(rep.Turns, turnReport{
			SessionID: sessionID, Unfinished: true, ToolUses: len(t.ToolUses),
			Denials: denials(t), Tools: tools(t),
		})
	}
	rep.MalformedLines = d.MalformedLines()
	return rep, nil
}

// readSession reads a Claude Code session file turn by turn. A file on
// disk is read in place; anything else (standard input, a decompressed
// file) is copied to a private temporary file first, as the reader goes
// back to the lines it picked.
func readSession(r io.Reader, disk *os.File) (*report, error) {
	var ra io.ReaderAt
	var size int64
	if fi, err := statRegular(disk); fi != nil {
		ra, size = disk, fi.Size()
	} else if err != nil {
		return nil, err
	} else {
		tmp, err := os.CreateTemp("", "latch-inspect-*.jsonl")
		if err != nil {
			return nil, err
		}
		defer os.Remove(tmp.Name())
		defer tmp.Close()
		if size, err = io.Copy(tmp, r); err != nil {
			return nil, err
		}
		ra = tmp
	}
	rep := &report{Format: "session", Turns: []turnReport{}}
	prompt := ""
	info, err := sessions.ReadFrom(context.Background(), ra, size, func(it sessions.Item) error {
		switch it.Kind {
		case sessions.ItemPrompt:
			prompt = it.Text
		case sessions.ItemTurnEnd:
			rep.Turns = append(rep.Turns, turnReport{
				Prompt: prompt, ToolUses: len(it.Turn.ToolUses), Denials: denials(it.Turn), Tools: tools(it.Turn),
			})
			prompt = ""
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range rep.Turns {
		rep.Turns[i].SessionID = info.SessionID
	}
	rep.MalformedLines, rep.Version, rep.Cwd = info.Malformed, info.Version, info.Cwd
	return rep, nil
}

// statRegular is f's FileInfo when f is a regular file (not a pipe or a
// device, which cannot be read at offsets), else nil.
func statRegular(f *os.File) (os.FileInfo, error) {
	if f == nil {
		return nil, nil
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, err
	}
	return fi, nil
}

func denials(t *stream.Turn) []denialReport {
	out := []denialReport{}
	for _, dn := range t.Denials {
		out = append(out, denialReport{
			Class: dn.Class, Tool: dn.Tool, ToolUseID: dn.ToolUseID,
			Input: orEmpty(dn.Input), Dir: dn.Dir, Grantable: dn.Class.Grantable(),
		})
	}
	return out
}

func tools(t *stream.Turn) []toolReport {
	var out []toolReport
	for _, u := range t.ToolUses {
		out = append(out, toolReport{Tool: u.Name, ToolUseID: u.ID, Input: orEmpty(u.Input)})
	}
	return out
}

func orEmpty(in json.RawMessage) json.RawMessage {
	if len(in) == 0 {
		return json.RawMessage("{}")
	}
	return in
}

// arrayReader turns a JSON array of stream events into NDJSON, one
// compacted element per line, as the decoder reads it.
type arrayReader struct {
	dec           *json.Decoder
	buf           bytes.Buffer
	started, done bool
}

func (a *arrayReader) Read(p []byte) (int, error) {
	for a.buf.Len() == 0 {
		switch {
		case a.done:
			return 0, io.EOF
		case !a.started:
			tok, err := a.dec.Token()
			if err != nil {
				return 0, fmt.Errorf("JSON array: %w", err)
			}
			if tok != json.Delim('[') {
				return 0, errors.New("JSON array: it is not one")
			}
			a.started = true
		case !a.dec.More():
			a.done = true
			if _, err := a.dec.Token(); err != nil { // the closing ']'
				return 0, fmt.Errorf("JSON array: %w", err)
			}
		default:
			var el json.RawMessage
			if err := a.dec.Decode(&el); err != nil {
				return 0, fmt.Errorf("JSON array element: %w", err)
			}
			if err := json.Compact(&a.buf, el); err != nil {
				return 0, err
			}
			a.buf.WriteByte('\n')
		}
	}
	return a.buf.Read(p)
}

func writeJSON(w io.Writer, rep *report) error {
	bw := bufio.NewWriter(w)
	e := json.NewEncoder(bw)
	e.SetEscapeHTML(false)
	if err := e.Encode(rep); err != nil {
		return err
	}
	return bw.Flush()
}

func writeText(w io.Writer, rep *report) error {
	bw := bufio.NewWriter(w)
	if rep.Format == "session" {
		sid := ""
		if len(rep.Turns) > 0 {
			sid = rep.Turns[0].SessionID
		}
		fmt.Fprintf(bw, "Claude Code session file: session %s, version %s, cwd %s\n", orDash(sid), orDash(rep.Version), quoted(rep.Cwd, 200))
	}
	if len(rep.Turns) == 0 {
		if rep.Format == "session" {
			fmt.Fprintln(bw, "no turns (the session has no prompt)")
		} else {
			fmt.Fprintln(bw, "no turns (the transcript has no result line)")
		}
	}
	for i, t := range rep.Turns {
		switch {
		case rep.Format == "session":
			p := "(none)"
			if t.Prompt != "" {
				p = quoted(t.Prompt, 80)
			}
			fmt.Fprintf(bw, "turn %d: prompt %s, %d tool uses, %d denials\n", i+1, p, t.ToolUses, len(t.Denials))
		case t.Unfinished:
			fmt.Fprintf(bw, "turn %d (unfinished: no result line): session %s, %d tool uses, %d denials\n",
				i+1, orDash(t.SessionID), t.ToolUses, len(t.Denials))
		default:
			fmt.Fprintf(bw, "turn %d: session %s, %s, is_error %v, cost $%.6f, %d tool uses, %d denials\n",
				i+1, orDash(t.SessionID), orDash(t.Subtype), t.IsError, t.CostUSD, t.ToolUses, len(t.Denials))
		}
		for _, u := range t.Tools {
			fmt.Fprintf(bw, "  tool use %s %s\n", word(u.Tool), word(u.ToolUseID))
		}
		for _, dn := range t.Denials {
			g := "not grantable"
			if dn.Grantable {
				g = "grantable"
			}
			fmt.Fprintf(bw, "  denial %s: %s %s, folder %s, %s\n", dn.Class, orDash(dn.Tool), orDash(dn.ToolUseID), orDash(dn.Dir), g)
		}
	}
	fmt.Fprintf(bw, "malformed lines: %d\n", rep.MalformedLines)
	return bw.Flush()
}

// word is s as it is when it is a plain name or id, else quoted.
func word(s string) string {
	for _, r := range s {
		if !(r == '_' || r == '-' || r == '.' || r == ':' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return quoted(s, 80)
		}
	}
	return orDash(s)
}

// quoted is s escaped (untrusted text never reaches the terminal as
// is) and cut to max runes.
func quoted(s string, max int) string {
	if utf8.RuneCountInString(s) > max {
		r := []rune(s)
		return strconv.Quote(string(r[:max])) + "…"
	}
	return strconv.Quote(s)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
