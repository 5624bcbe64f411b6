package stream

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/latch-app/latch/internal/heapmeter"
)

// testGOGC is the GOGC of the tests' measured steps.
const testGOGC = 10

// hugeTextChunk is 78 bytes of JSON string, 75 of text: prose with the
// escapes real answers have (a newline, quotes).
const (
	hugeTextChunk     = `Lorem ipsum dolor sit amet, \"consectetur\" adipiscing elit, sed do eiusmod.\n`
	hugeTextUnescaped = "Lorem ipsum dolor sit amet, \"consectetur\" adipiscing elit, sed do eiusmod.\n"
)

// hugeLine returns a reader of one assistant line whose text block is about
// size bytes, then a result line, made as it is read so the line's bytes are
// the decoder's own; and the text's length.
func hugeLine(size int) (io.Reader, int) {
	repeat := size / len(hugeTextUnescaped)
	g := &genReader{parts: [][]byte{
		[]byte(`{"type":"assistant","message":{"id":"m","type":"message","role":"assistant","content":[{"type":"text","text":"`),
		[]byte(hugeTextChunk),
		[]byte(`"}]},"session_id":"s"}` + "\n" + `{"type":"result","subtype":"success","is_error":false,"session_id":"s"}` + "\n"),
	}, repeat: repeat}
	return g, repeat * len(hugeTextUnescaped)
}

// decodeHuge decodes r and returns the first assistant block's text and its
// line; the decoder is dropped, as app drops each event once shown.
func decodeHuge(t testing.TB, r io.Reader) (text string, line int) {
	d := NewDecoder(r, Options{})
	for {
		ev, err := d.Next()
		if err == io.EOF {
			if d.MalformedLines() != 0 {
				t.Fatal("malformed lines")
			}
			return text, line
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind == KindAssistant && text == "" {
			text, line = ev.Block.Text, ev.Line
		}
	}
}

var strSeeds = []string{
	`""`, `"plain"`, `"a\nb"`, `"\"q\" \\ \/ \b\f\n\r\t"`, `"\u00e9\u4e2d"`, `"é—中"`,
	`"\ud83d\ude00"`, `"\ud83d"`, `"\ude00"`, `"\ud83d\u0041"`, `"\ud83dx"`, `"\u0000"`,
	`"\\\\\""`, `"end\\"`, `123`, `null`, `true`, `{"a":"b"}`, `["x"]`,
}

// str, which unescapes the big text blocks, gives what gjson's Str gives.
func FuzzStr(f *testing.F) {
	for _, s := range strSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if !gjson.Valid(raw) {
			return
		}
		if got, want := str(strings.Trim(raw, " \t\r\n")), gjson.Parse(raw).Str; got != want {
			t.Errorf("str(%q) = %q, gjson %q", raw, got, want)
		}
	})
}

// eachMember, which walks a content block without unescaping its text,
// finds the members gjson's ForEach finds.
func FuzzEachMember(f *testing.F) {
	for _, s := range []string{
		`{}`, `{ }`, `{"a":1}`, ` { "a" : 1 , "b":"x\"y\\", "c":{"d":[1,2,{"e":"}]"}]}, "t\u0065xt":"k", "n":null, "f":-1.5e3, "arr":[ ] } `,
		`{"type":"text","text":"a\nb"}`, `{"type":"tool_use","id":"t","name":"Bash","input":{"command":"ls \"x\""}}`,
		`{"a":{"b":{"c":[[],{}]}},"z":"\\"}`, `{"":""}`, `{"a":true,"b":false}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, obj string) {
		if !gjson.Valid(obj) || !gjson.Parse(obj).IsObject() {
			return
		}
		var got, want []string
		eachMember(obj, func(k, v string) { got = append(got, k+"\x00"+v) })
		gjson.Parse(obj).ForEach(func(k, v gjson.Result) bool {
			want = append(want, k.Str+"\x00"+v.Raw)
			return true
		})
		if strings.Join(got, "\x01") != strings.Join(want, "\x01") {
			t.Errorf("eachMember(%q) = %q, gjson %q", obj, got, want)
		}
	})
}

// Every content block of the real CLI's assistant lines decodes as gjson
// reads it.
func TestContentBlocksReadAsGjson(t *testing.T) {
	dir := fixturesDir(t)
	n := 0
	filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || (e.Name() != "stdout.ndjson" && e.Name() != "stdout.ndjson.gz") {
			return nil
		}
		name, _ := filepath.Rel(dir, filepath.Dir(p))
		for _, line := range strings.Split(string(fixtureStdout(t, name)), "\n") {
			if gjson.Get(line, "type").Str != "assistant" {
				continue
			}
			gjson.Get(line, "message.content").ForEach(func(_, c gjson.Result) bool {
				n++
				eachMember(c.Raw, func(k, v string) {
					if want := c.Get(gjson.Escape(k)); v != want.Raw || str(v) != want.Str {
						t.Errorf("%s: member %q: %.40q, gjson %.40q", name, k, v, want.Raw)
					}
				})
				return true
			})
		}
		return nil
	})
	if n == 0 {
		t.Fatal("no assistant content blocks in the fixtures")
	}
}

// What the decoder keeps of a huge line is what it needs: not the line,
// which a small substring (the message id in the decoder's state or of a
// block, a tool id in the registry) would keep whole.
func TestHugeLineIsNotKept(t *testing.T) {
	const size = 16 << 20
	repeat := size / len(hugeTextUnescaped)
	t.Run("text", func(t *testing.T) {
		r, _ := hugeLine(size)
		m := heapmeter.Start(0, testGOGC)
		d := NewDecoder(r, Options{})
		var events []Event
		for {
			ev, err := d.Next()
			if err != nil {
				break
			}
			// The text is the window's; only what else is kept counts here.
			if ev.Block != nil {
				ev.Block.Text = ""
			}
			events = append(events, ev)
		}
		m.Finish()
		if kept := m.Retained(); kept > size/10 {
			t.Errorf("with the text gone, the decoder and its events keep %d MB", kept>>20)
		}
		runtime.KeepAlive(d)
		runtime.KeepAlive(events)
	})
	t.Run("tool input", func(t *testing.T) {
		r := &genReader{parts: [][]byte{
			[]byte(`{"type":"assistant","message":{"id":"m","content":[{"type":"tool_use","id":"toolu_1","name":"Write","input":{"file_path":"/x","content":"`),
			[]byte(hugeTextChunk),
			[]byte(`"}}]},"session_id":"s"}` + "\n"),
		}, repeat: repeat}
		m := heapmeter.Start(0, testGOGC)
		d := NewDecoder(r, Options{})
		for {
			if _, err := d.Next(); err != nil {
				break
			}
		}
		m.Finish()
		tu, ok := d.tool("toolu_1")
		input := len(tu.Input)
		if !ok || tu.Name != "Write" || input < size {
			t.Fatalf("registered %+v with %d bytes of input", ok, input)
		}
		// The registry keeps the input (1x), not the line besides.
		if kept := m.Retained(); kept > uint64(input)*11/10 {
			t.Errorf("the registry keeps %d MB for an input of %d MB", kept>>20, input>>20)
		}
		runtime.KeepAlive(d)
	})
}
