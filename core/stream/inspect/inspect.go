// Package inspect is `latch inspect [--json] FILE|-`: it reads a saved CLI
// transcript and reports, per turn, what the turn did and which tool calls a
// permission check refused. It is how a user finds out why a turn silently
// did nothing.
package inspect

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/latch-app/latch/core/stream"
)

const usage = "usage: latch inspect [--json] FILE|-"

// report is the --json output.
type report struct {
	Turns          []turnReport `json:"turns"`
	MalformedLines int          `json:"malformed_lines"`
}

// turnReport is one result event of the transcript.
type turnReport struct {
	SessionID string         `json:"session_id"`
	Subtype   string         `json:"subtype"`
	IsError   bool           `json:"is_error"`
	CostUSD   float64        `json:"cost_usd"`
	ToolUses  int            `json:"tool_uses"`
	Denials   []denialReport `json:"denials"`
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
	if file == "-" {
		name = "standard input"
	} else {
		f, err := os.Open(file)
		if err != nil {
			fmt.Fprintf(stderr, "latch inspect: cannot read %s: %v\n", file, err)
			return 1
		}
		defer f.Close()
		in = f
	}
	rep, err := readTranscript(in, strings.HasSuffix(file, ".gz"))
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

// readTranscript reads a transcript (gzip-compressed when it starts with the gzip
// magic, or when gz says so) and gathers its turns.
func readTranscript(r io.Reader, gz bool) (*report, error) {
	br := bufio.NewReader(r)
	if magic, _ := br.Peek(2); gz || (len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		defer zr.Close()
		r = zr
	} else {
		r = br
	}
	d := stream.NewDecoder(r, stream.Options{})
	rep := &report{Turns: []turnReport{}}
	for {
		ev, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if ev.Kind != stream.KindResult {
			continue
		}
		res := ev.Result
		tr := turnReport{
			SessionID: res.SessionID, Subtype: res.Subtype, IsError: res.IsError,
			CostUSD: res.CostUSD, ToolUses: len(res.Turn.ToolUses), Denials: []denialReport{},
		}
		for _, dn := range res.Turn.Denials {
			in := dn.Input
			if len(in) == 0 {
				in = json.RawMessage("{}")
			}
			tr.Denials = append(tr.Denials, denialReport{
				Class: dn.Class, Tool: dn.Tool, ToolUseID: dn.ToolUseID,
				Input: in, Dir: dn.Dir, Grantable: dn.Class.Grantable(),
			})
		}
		rep.Turns = append(rep.Turns, tr)
	}
	rep.MalformedLines = d.MalformedLines()
	return rep, nil
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
	if len(rep.Turns) == 0 {
		fmt.Fprintln(bw, "no turns (the transcript has no result line)")
	}
	for i, t := range rep.Turns {
		fmt.Fprintf(bw, "turn %d: session %s, %s, is_error %v, cost $%.6f, %d tool uses, %d denials\n",
			i+1, orDash(t.SessionID), orDash(t.Subtype), t.IsError, t.CostUSD, t.ToolUses, len(t.Denials))
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

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
