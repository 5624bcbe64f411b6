package sessions

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/latch-app/latch/core/stream"
	"github.com/latch-app/latch/internal/heapmeter"
)

// describe is a transcript in short lines, to compare with what a test
// expects.
func describe(items []Item) []string {
	var out []string
	for _, it := range items {
		side := ""
		if it.Sidechain {
			side = "(sidechain) "
		}
		switch it.Kind {
		case ItemPrompt:
			out = append(out, "prompt: "+it.Text)
		case ItemNotice:
			out = append(out, side+"notice: "+it.Text)
		case ItemTurnEnd:
			var ds []string
			for _, d := range it.Turn.Denials {
				ds = append(ds, fmt.Sprintf("%s %s %s", d.Class, d.Tool, d.Dir))
			}
			out = append(out, fmt.Sprintf("turn end: %d uses, denials [%s]", len(it.Turn.ToolUses), strings.Join(ds, "; ")))
		case ItemEvent:
			ev := it.Event
			switch {
			case ev.Kind == stream.KindAssistant && ev.Block.ToolUse != nil:
				out = append(out, side+"tool_use: "+ev.Block.ToolUse.Name+" "+string(ev.Block.ToolUse.Input))
			case ev.Kind == stream.KindAssistant:
				s := side + ev.Block.Type + ": " + ev.Block.Text
				if ev.Block.APIError {
					s += " [api error]"
				}
				out = append(out, s)
			case ev.Kind == stream.KindToolResult:
				tr := ev.ToolResult
				s := fmt.Sprintf("%sresult: %s %q", side, tr.Tool, tr.Text)
				if tr.Denial != nil {
					s += " denial " + string(tr.Denial.Class)
				}
				if tr.Decided != nil {
					s += fmt.Sprintf(" decided %s/%s/%s", tr.Decided.Decision, tr.Decided.Source, tr.Decided.NonExecutionKind)
				}
				out = append(out, s)
			default:
				out = append(out, fmt.Sprintf("event kind %d", ev.Kind))
			}
		}
	}
	return out
}

func readAll(t *testing.T, path string) ([]Item, Info) {
	t.Helper()
	var items []Item
	info, err := Read(context.Background(), path, func(it Item) error {
		items = append(items, it)
		return nil
	})
	if err != nil {
		t.Fatalf("Read %s: %v", path, err)
	}
	return items, info
}

func diffLines(t *testing.T, got, want []string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

const bashTouch = `{"command":"touch allowed.txt","description":"Run a command"}`

var readCases = []struct {
	file string
	want []string
	info Info
}{
	{
		file: "cli-2.1.328/live-three-turns.jsonl",
		want: []string{
			"prompt: say hello",
			"text: Hello. Here is a **list**:\n\n- one\n- two",
			"turn end: 0 uses, denials []",
			"prompt: make a file",
			"text: On it.",
			"tool_use: Bash " + bashTouch,
			`result: Bash "(Bash completed with no output)" decided accept/user_temporary/`,
			"text: done.",
			"turn end: 1 uses, denials []",
			"prompt: clean up",
			"text: On it.",
			"tool_use: Bash " + bashTouch,
			`result: Bash "Not now." denial user_denied decided reject/user_reject/permission-rule`,
			"text: done.",
			"turn end: 1 uses, denials [user_denied Bash ]",
		},
		info: Info{SessionID: "65b49ddb-caa3-442c-866c-bdb4cd44e255", Cwd: "/tmp/TestContractSessionFileCapturelive1587281644/002",
			Version: "2.1.328", GitBranch: "HEAD", Model: "claude-opus-5-5", Lines: 42, Prompts: 3},
	},
	{
		file: "cli-2.1.328/after-turn-stream-closed.jsonl",
		want: []string{
			"prompt: run the tests",
			"text: On it.",
			`tool_use: Bash {"command":"npm test","description":"Run a command"}`,
			`result: Bash "Tool permission request failed: AbortError: Stream closed" denial stream_closed decided reject/config/permission-rule`,
			"text: done.",
			"turn end: 1 uses, denials [stream_closed Bash ]",
		},
		info: Info{SessionID: "bb60b942-372b-4f2f-83a7-ba78c0f53c81", Cwd: "/tmp/TestContractSessionFileCaptureafter-turn3329515303/002",
			Version: "2.1.328", GitBranch: "HEAD", Model: "claude-opus-5-5", Lines: 27, Prompts: 1},
	},
	{
		file: "cli-2.1.328/after-turn-granted-resumed.jsonl",
		want: []string{
			"prompt: make a file",
			"text: On it.",
			`tool_use: Bash {"command":"touch granted.txt","description":"Run a command"}`,
			`result: Bash "Tool permission request failed: AbortError: Stream closed" denial stream_closed decided reject/config/permission-rule`,
			"text: done.",
			"turn end: 1 uses, denials [stream_closed Bash ]",
			"prompt: Continue — the permissions you needed are granted now. Retry the tool calls that failed.",
			"text: On it.",
			`tool_use: Bash {"command":"touch granted.txt","description":"Run a command"}`,
			`result: Bash "(Bash completed with no output)" decided accept/config/`,
			"text: done.",
			"turn end: 1 uses, denials []",
		},
		info: Info{SessionID: "4afc93f8-b90c-4ed5-8a79-f7cc1431954e", Cwd: "/tmp/TestContractSessionFileCapturegrant-and-resume98192424/002",
			Version: "2.1.328", GitBranch: "HEAD", Model: "claude-opus-5-5", Lines: 40, Prompts: 2},
	},
	{
		file: "cli-2.1.328/api-error.jsonl",
		want: []string{
			"prompt: hi",
			"notice: API error: 500 overloaded (retry 1 of 2)",
			"notice: API error: 500 overloaded (retry 2 of 2)",
			"text: API Error: 500 overloaded. This is a server-side issue, usually temporary — try again in a moment. If it persists, check your inference gateway (127.0.0.1:44787). [api error]",
			"turn end: 0 uses, denials []",
		},
		// The synthetic message's model, "<synthetic>", is no model.
		info: Info{SessionID: "f4f61670-e5e5-4b6e-8f3d-5a8739538b1d", Cwd: "/tmp/TestContractSessionFileCaptureapi-error3699567619/002",
			Version: "2.1.328", GitBranch: "HEAD", Lines: 24, Prompts: 1},
	},
	{
		file: "v1.0-summary-meta-sidechain.jsonl",
		want: []string{
			// The caveat (isMeta) is not shown; the slash command is typed.
			"prompt: /model sonnet",
			"notice: Output: Set model to sonnet",
			"turn end: 0 uses, denials []",
			"prompt: the login test is flaky\nplease fix it",
			"text: Let me find it.",
			`tool_use: Task {"description":"find test","prompt":"Find the login test"}`,
			"(sidechain) notice: Subagent prompt: Find the login test",
			`(sidechain) tool_use: Grep {"pattern":"login","path":"/home/dev/proj"}`,
			`(sidechain) result: Grep "tests/login_test.go"`,
			"(sidechain) text: It is tests/login_test.go",
			`result: Task "It is tests/login_test.go"`,
			`tool_use: Bash {"command":"go test ./tests/","description":"Run the tests"}`,
			`result: Bash "Claude requested permissions to use Bash, but you haven't granted it yet." denial not_granted`,
			"text: I need your permission to run the tests.",
			"turn end: 3 uses, denials [not_granted Bash ]",
		},
		info: Info{SessionID: "1b0c7e3e-0d7a-4a43-9d64-0a1e0e6a5a01", Cwd: "/home/dev/proj", Version: "1.0.51", GitBranch: "main",
			Model: "claude-sonnet-4-20250514", Lines: 15, Prompts: 2},
	},
	{
		file: "v2.0-compact.jsonl",
		want: []string{
			"prompt: write the README",
			"text: Done: README written.",
			"notice: Conversation compacted (manual)",
			"notice: Summary of the earlier conversation: This session is being continued from a previous conversation that ran out of context. The conversation is summarized below: (197 characters)",
			"turn end: 0 uses, denials []",
			"prompt: now add a license",
			`tool_use: Write {"file_path":"/home/dev/other/LICENSE","content":"MIT"}`,
			`result: Write "Tool permission request failed: Error: Stream closed" denial stream_closed`,
			"notice: [Request interrupted by user]",
			"turn end: 1 uses, denials [stream_closed Write /home/dev/other]",
		},
		info: Info{SessionID: "1b0c7e3e-0d7a-4a43-9d64-0a1e0e6a5a01", Cwd: "/home/dev/proj", Version: "2.0.14", GitBranch: "main",
			Model: "claude-opus-4-1-20250805", Lines: 10, Prompts: 2},
	},
	{
		file: "v1.0-branch-edit.jsonl",
		want: []string{
			"prompt: first question",
			"text: first answer",
			"turn end: 0 uses, denials []",
			"prompt: second question (edited)",
			"text: new answer",
			"turn end: 0 uses, denials []",
		},
		info: Info{SessionID: "1b0c7e3e-0d7a-4a43-9d64-0a1e0e6a5a01", Cwd: "/home/dev/proj", Version: "1.0.90", GitBranch: "main",
			Model: "claude-sonnet-4-20250514", Lines: 7, Prompts: 2},
	},
}

func TestReadFixtures(t *testing.T) {
	for _, c := range readCases {
		t.Run(c.file, func(t *testing.T) {
			items, info := readAll(t, filepath.Join("testdata", c.file))
			diffLines(t, describe(items), c.want)
			if info != c.info {
				t.Errorf("info %+v\nwant %+v", info, c.info)
			}
			for _, it := range items {
				if it.Kind != ItemTurnEnd && it.Time.IsZero() {
					t.Errorf("item kind %d %q has no time", it.Kind, it.Text)
				}
			}
		})
	}
}

// TestReadLiveDeniedCallMatchesStream: the person's "Not now." reads the
// same from the session file as from the live stream (fixture live-deny):
// class, tool, input, and who decided.
func TestReadLiveDeniedCallMatchesStream(t *testing.T) {
	items, _ := readAll(t, "testdata/cli-2.1.328/live-three-turns.jsonl")
	var tr *stream.ToolResult
	for _, it := range items {
		if it.Kind == ItemEvent && it.Event.ToolResult != nil && it.Event.ToolResult.Denial != nil {
			tr = it.Event.ToolResult
		}
	}
	if tr == nil {
		t.Fatal("no denial")
	}
	want := stream.Denial{Class: stream.UserDenied, Tool: "Bash", ToolUseID: "toolu_fake2ae6e1f7b4bb6b26ace8ce1f", Input: []byte(bashTouch)}
	if !reflect.DeepEqual(*tr.Denial, want) || tr.Decided.Source != "user_reject" {
		t.Errorf("denial %+v decided %+v", tr.Denial, tr.Decided)
	}
}

func writeFile(t *testing.T, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "11111111-2222-4333-8444-555555555555.jsonl")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReadTolerates: the same transcript whatever is around it — a torn
// last line, CRLF line ends, blank and unknown lines, a malformed line in
// the middle, no trailing newline.
func TestReadTolerates(t *testing.T) {
	const name = "cli-2.1.328/live-three-turns.jsonl"
	base := fixture(t, name)
	want := readCases[0].want
	torn := `{"parentUuid":"c9377228-2891-458e-be9a-02dd0b745231","isSidechain":false,"type":"user","message":{"role":"user","content":"half a pro`
	lines := bytes.Split(bytes.TrimSuffix(base, []byte("\n")), []byte("\n"))
	mid := bytes.Join([][]byte{
		bytes.Join(lines[:10], []byte("\n")),
		[]byte("this line is not JSON"),
		[]byte(""),
		[]byte(`{"type":"some-future-line","uuidless":true,"sessionId":"x"}`),
		[]byte(`["an","array"]`),
		bytes.Join(lines[10:], []byte("\n")),
	}, []byte("\n"))
	for _, c := range []struct {
		name            string
		data            []byte
		lines, malforme int
	}{
		{"torn last line", append(append([]byte{}, base...), torn...), 43, 1},
		{"torn after newline", append(append([]byte{}, base...), torn+"\n"...), 43, 1},
		{"CRLF", bytes.ReplaceAll(base, []byte("\n"), []byte("\r\n")), 42, 0},
		{"no trailing newline", bytes.TrimSuffix(base, []byte("\n")), 42, 0},
		{"junk in the middle", mid, 45, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			items, info := readAll(t, writeFile(t, c.data))
			diffLines(t, describe(items), want)
			if info.Lines != c.lines || info.Malformed != c.malforme || info.Prompts != 3 {
				t.Errorf("info %+v", info)
			}
		})
	}
}

// TestReadHugeLine: a tool result of several MB in one line (over the
// scanner's chunk many times) is read whole, as are the lines after it.
func TestReadHugeLine(t *testing.T) {
	n := 6 << 20
	if testing.Short() {
		n = 300 << 10
	}
	big := strings.Repeat("0123456789abcdef", n/16)
	base := string(fixture(t, "cli-2.1.328/live-three-turns.jsonl"))
	data := strings.Replace(base, `"content":"(Bash completed with no output)"`, `"content":"`+big+`"`, 1)
	data = strings.Replace(data, `"stdout":""`, `"stdout":"`+big+`"`, 1)
	items, info := readAll(t, writeFile(t, []byte(data)))
	got := describe(items)
	want := append([]string{}, readCases[0].want...)
	want[6] = fmt.Sprintf(`result: Bash %q decided accept/user_temporary/`, big)
	diffLines(t, got, want)
	if info.Malformed != 0 || info.Lines != 42 {
		t.Errorf("info %+v", info)
	}
}

// TestReadAppendedWhileReading: lines appended after Read began are not
// read, and Read does not fail because the file grew.
func TestReadAppendedWhileReading(t *testing.T) {
	base := fixture(t, "cli-2.1.328/after-turn-stream-closed.jsonl")
	p := writeFile(t, base)
	more := fixture(t, "cli-2.1.328/live-three-turns.jsonl")
	var items []Item
	appended := false
	info, err := Read(context.Background(), p, func(it Item) error {
		if !appended {
			appended = true
			f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			// Half a line first, as a writer caught mid-write leaves it.
			f.Write(more[:len(more)/2])
			f.Close()
		}
		items = append(items, it)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	diffLines(t, describe(items), readCases[1].want)
	if info.Lines != 27 || info.Malformed != 0 {
		t.Errorf("info %+v", info)
	}
	// Read again, it sees the appended lines, the torn one counted.
	_, info = readAll(t, p)
	if info.Malformed != 1 || info.Lines <= 27 {
		t.Errorf("second read: %+v", info)
	}
}

// TestReadBranches: of two children of one parent, the branch that ends at
// the newest leaf is shown; when the leaves' timestamps are equal, the one
// later in the file.
func TestReadBranches(t *testing.T) {
	base := string(fixture(t, "v1.0-branch-edit.jsonl"))
	oldBranch := []string{
		"prompt: first question", "text: first answer", "turn end: 0 uses, denials []",
		"prompt: second question (old)", `tool_use: Bash {"command":"rm -rf build"}`,
		`result: Bash "This command requires approval" denial not_granted`,
		"turn end: 1 uses, denials [not_granted Bash ]",
	}
	for _, c := range []struct {
		name string
		data string
		want []string
	}{
		{"newest is last in file", base, readCases[6].want},
		// The old branch's leaf (12:03:30) made newer than the new one's (12:06).
		{"newest is earlier in file", strings.Replace(base, "2025-08-20T12:03:30.000Z", "2025-08-20T12:09:00.000Z", 1), oldBranch},
		{"equal: the later line", strings.Replace(base, "2025-08-20T12:03:30.000Z", "2025-08-20T12:06:00.000Z", 1), readCases[6].want},
		// Leaves without timestamps: file order decides.
		{"no timestamps", strings.ReplaceAll(base, `"timestamp":`, `"time":`), readCases[6].want},
	} {
		t.Run(c.name, func(t *testing.T) {
			items, _ := readAll(t, writeFile(t, []byte(c.data)))
			diffLines(t, describe(items), c.want)
		})
	}
}

// TestReadWithoutUUIDs: a file whose messages carry no uuids is read in
// file order.
func TestReadWithoutUUIDs(t *testing.T) {
	data := `{"type":"user","message":{"role":"user","content":"hello"},"timestamp":"2025-01-01T00:00:00Z"}
{"type":"assistant","message":{"id":"m","role":"assistant","content":[{"type":"text","text":"hi"}]}}
{"type":"user","message":{"role":"user","content":"bye"}}
`
	items, info := readAll(t, writeFile(t, []byte(data)))
	diffLines(t, describe(items), []string{"prompt: hello", "text: hi", "turn end: 0 uses, denials []", "prompt: bye", "turn end: 0 uses, denials []"})
	if info.Prompts != 2 || info.Lines != 3 {
		t.Errorf("info %+v", info)
	}
}

// TestReadStops: fn's error comes back as is and nothing more is given;
// a cancelled context stops Read with its error.
func TestReadStops(t *testing.T) {
	p := filepath.Join("testdata", "cli-2.1.328/live-three-turns.jsonl")
	stop := errors.New("enough")
	calls := 0
	_, err := Read(context.Background(), p, func(Item) error {
		calls++
		if calls == 2 {
			return stop
		}
		return nil
	})
	if err != stop || calls != 2 {
		t.Errorf("err %v after %d calls", err, calls)
	}
	ctx, cancel := context.WithCancel(context.Background())
	calls = 0
	_, err = Read(ctx, p, func(Item) error {
		calls++
		cancel()
		return nil
	})
	if !errors.Is(err, context.Canceled) || calls != 1 {
		t.Errorf("cancelled: %v after %d calls", err, calls)
	}
	cancel()
	if _, err := Read(ctx, p, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("done before: %v", err)
	}
}

func TestReadErrors(t *testing.T) {
	if _, err := Read(context.Background(), filepath.Join(t.TempDir(), "missing.jsonl"), nil); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	if _, err := Read(context.Background(), t.TempDir(), nil); err == nil {
		t.Error("a folder read")
	}
	items, info := readAll(t, writeFile(t, nil))
	if len(items) != 0 || info != (Info{}) {
		t.Errorf("empty: %v %+v", items, info)
	}
}

func TestReadFrom(t *testing.T) {
	b := fixture(t, "cli-2.1.328/api-error.jsonl")
	var items []Item
	info, err := ReadFrom(context.Background(), bytes.NewReader(b), int64(len(b)), func(it Item) error {
		items = append(items, it)
		return nil
	})
	if err != nil || info != readCases[3].info {
		t.Fatalf("%v %+v", err, info)
	}
	diffLines(t, describe(items), readCases[3].want)
	// Only the first size bytes: here, up to the first prompt's line.
	n := bytes.Index(b, []byte(`"message":{"role":"user","content":"hi"}`))
	n += bytes.IndexByte(b[n:], '\n') + 1
	items = nil
	ReadFrom(context.Background(), bytes.NewReader(b), int64(n), func(it Item) error {
		items = append(items, it)
		return nil
	})
	diffLines(t, describe(items), []string{"prompt: hi", "turn end: 0 uses, denials []"})
}

func TestItemTimes(t *testing.T) {
	items, _ := readAll(t, "testdata/cli-2.1.328/live-three-turns.jsonl")
	want := time.Date(2026, 12, 2, 0, 35, 11, 215e6, time.UTC)
	if !items[0].Time.Equal(want) {
		t.Errorf("first prompt at %v", items[0].Time)
	}
}

// TestTurnEndTime: a turn ends at the time of its last line, not at the
// next prompt's.
func TestTurnEndTime(t *testing.T) {
	items, _ := readAll(t, "testdata/v1.0-branch-edit.jsonl")
	var ends []time.Time
	for _, it := range items {
		if it.Kind == ItemTurnEnd {
			ends = append(ends, it.Time)
		}
	}
	want := []time.Time{time.Date(2025, 8, 20, 12, 1, 0, 0, time.UTC), time.Date(2025, 8, 20, 12, 6, 0, 0, time.UTC)}
	if len(ends) != 2 || !ends[0].Equal(want[0]) || !ends[1].Equal(want[1]) {
		t.Errorf("turn ends at %v, want %v", ends, want)
	}
}

// TestReadMemory: a 24 MB session is streamed, not held: the heap grows
// by a few of its lines (the biggest is 1 MB), not by the file.
func TestReadMemory(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("memory figures need a normal build and a full run")
	}
	p := filepath.Join(t.TempDir(), "big.jsonl")
	loadTemplates(t).genFile(t, p, genSpec{seed: 5, size: 24 << 20, output: 512 << 10, closed: true})
	m := heapmeter.Start(256<<20, 10)
	items := 0
	info, err := Read(context.Background(), p, func(Item) error { items++; return nil })
	peak, allocated := m.Finish()
	if err != nil || info.Prompts < 50 || items == 0 {
		t.Fatal(err, info)
	}
	t.Logf("24 MB file: heap peak +%d KB, %d MB allocated", peak>>10, allocated>>20)
	if peak > 8<<20 {
		t.Errorf("heap grew by %d MB reading a 24 MB file", peak>>20)
	}
}
