package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/adrg/xdg"
)

func TestDefaultPath(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, env, want string
		reload          bool
	}{
		{"set, xdg reloaded", dir, filepath.Join(dir, "latch", "audit.jsonl"), true},
		{"set, xdg not reloaded", dir, filepath.Join(dir, "latch", "audit.jsonl"), false},
		{"relative is ignored", "rel/state", filepath.Join(xdg.StateHome, "latch", "audit.jsonl"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Cleanup(xdg.Reload) // runs after t.Setenv restored the variable
			t.Setenv("XDG_STATE_HOME", tt.env)
			if tt.reload {
				xdg.Reload()
			}
			got, err := DefaultPath()
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("DefaultPath() = %q, want %q", got, tt.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "latch")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("DefaultPath created its folder (stat: %v)", err)
	}
}

// TestRoundTrip writes hostile strings from the model and reads them back:
// each entry stays one line of valid JSON and comes back as written.
func TestRoundTrip(t *testing.T) {
	zone := time.FixedZone("CET", 3600)
	tests := []struct {
		name string
		in   Entry
		want Entry // zero: same as in
	}{
		{name: "every field", in: Entry{
			Time: baseTime, Kind: KindGrant, Session: "s1", Folder: "/w", Tool: "Bash", ToolUseID: "toolu_1",
			Input: "ls", Path: "/p", Decision: AnswerAlways, Scope: "user", Message: "m", Class: "c",
			Decider: ByPerson, Rule: "Bash(ls:*)", Source: "src", File: "/w/.claude/settings.json",
			Rules: []string{"A", "B"}, Folders: []string{"/x"}, Mode: "plan",
		}},
		{name: "newline", in: Entry{Time: baseTime, Kind: KindAsk, Input: "echo a\necho b\r\n"}},
		{name: "line and paragraph separators", in: Entry{Time: baseTime, Kind: KindAsk, Input: "a\u2028b\u2029c"}},
		{name: "control characters", in: Entry{Time: baseTime, Kind: KindAsk, Input: "\x00\x01\x1b[31m\x7f\t"}},
		{name: "quotes and html", in: Entry{Time: baseTime, Kind: KindAsk, Input: `echo "</script>" 2>&1 | grep '\n'`}},
		{name: "non-ASCII", in: Entry{Time: baseTime, Kind: KindAsk, Path: "/home/zoë/日本/🎉"}},
		{name: "invalid UTF-8 is replaced",
			in:   Entry{Time: baseTime, Kind: KindAsk, Input: "a\xffb\xc3", Rules: []string{"\xfe"}},
			want: Entry{Time: baseTime, Kind: KindAsk, Input: "a\uFFFDb\uFFFD", Rules: []string{"\uFFFD"}}},
		{name: "time is stored in UTC",
			in:   Entry{Time: time.Date(2026, 1, 2, 3, 4, 5, 6, zone), Kind: KindMode},
			want: Entry{Time: time.Date(2026, 1, 2, 2, 4, 5, 6, time.UTC), Kind: KindMode}},
		{name: "long input", in: Entry{Time: baseTime, Kind: KindAsk, Input: strings.Repeat("x\"", 1<<20)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tempLog(t)
			l := Open(path, func(err error) { t.Errorf("onError: %v", err) })
			l.Append(tt.in)
			mustClose(t, l)

			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if n := bytes.Count(data, []byte{'\n'}); n != 1 || data[len(data)-1] != '\n' {
				t.Fatalf("file has %d newlines, want exactly one at the end", n)
			}
			if !json.Valid(data) || !utf8.Valid(data) || bytes.ContainsAny(data[:len(data)-1], "\r\u2028\u2029") {
				t.Fatalf("line is not clean one-line JSON: %q", data)
			}
			want := tt.want
			if want.Kind == "" {
				want = tt.in
			}
			es := mustRead(t, path)
			if len(es) != 1 {
				t.Fatalf("read %d entries, want 1", len(es))
			}
			if !es[0].Time.Equal(want.Time) || es[0].Time.Location() != time.UTC {
				t.Errorf("time = %v, want %v in UTC", es[0].Time, want.Time)
			}
			es[0].Time, want.Time = time.Time{}, time.Time{}
			if !reflect.DeepEqual(es[0], want) {
				t.Errorf("read back\n%+v\nwant\n%+v", es[0], want)
			}
		})
	}
}

func TestAppendStampsTime(t *testing.T) {
	path := tempLog(t)
	l := Open(path, nil)
	before := time.Now()
	l.Append(Entry{Kind: KindTrust})
	mustClose(t, l)
	after := time.Now()
	es := mustRead(t, path)
	if len(es) != 1 || es[0].Time.Before(before.Round(0)) || es[0].Time.After(after.Round(0)) || es[0].Time.Location() != time.UTC {
		t.Fatalf("stamped %v, want a UTC time in [%v, %v]", es, before, after)
	}
}

// TestRotation: a write that would take the file past maxSize first moves it
// to .1, replacing an older one, so at most one old file is kept and the
// newest entries survive, newest first across both files.
func TestRotation(t *testing.T) {
	line, _ := encode(numbered(0))
	size := int64(len(line))
	tests := []struct {
		n       int
		want    []string
		wantOld bool
	}{
		{n: 3, want: seqIDs(2, 0)},
		{n: 4, want: seqIDs(3, 0)},
		{n: 5, want: seqIDs(4, 0), wantOld: true},
		{n: 6, want: seqIDs(5, 0), wantOld: true},
		{n: 20, want: seqIDs(19, 12), wantOld: true},
		{n: 21, want: seqIDs(20, 16), wantOld: true},
	}
	for _, tt := range tests {
		for _, batched := range []bool{false, true} {
			t.Run(fmt.Sprintf("%d entries batched %v", tt.n, batched), func(t *testing.T) {
				useMaxSize(t, 4*size+size/2) // four lines a file
				path := tempLog(t)
				var l *Log
				if batched {
					// Hold the writer until everything is queued, so it
					// all goes out in one batch that rotation must split.
					release := make(chan struct{})
					var once sync.Once
					l = open(path, nil, func() { once.Do(func() { <-release }) })
					for i := range tt.n {
						l.Append(numbered(i))
					}
					close(release)
				} else {
					l = Open(path, nil)
					for i := range tt.n {
						l.Append(numbered(i))
					}
				}
				mustClose(t, l)

				if got := ids(mustRead(t, path)); !reflect.DeepEqual(got, tt.want) {
					t.Errorf("read %v, want %v", got, tt.want)
				}
				if _, err := os.Stat(path + ".1"); (err == nil) != tt.wantOld {
					t.Errorf("old file exists: %v, want %v", err == nil, tt.wantOld)
				}
				matches, _ := filepath.Glob(path + "*")
				for _, m := range matches {
					if m != path && m != path+".1" {
						t.Errorf("unexpected file %s", m)
					}
					if s := fileSize(t, m); s > maxSize {
						t.Errorf("%s is %d bytes, past %d", m, s, maxSize)
					}
				}
			})
		}
	}
}

// numbered is an entry whose line has the same length for i < 10000.
func numbered(i int) Entry {
	return Entry{Time: baseTime, Kind: KindAllowed, Tool: "Bash", ToolUseID: fmt.Sprintf("id-%04d", i), Input: "make"}
}

func TestPermissions(t *testing.T) {
	t.Run("created 0600 in a 0700 folder", func(t *testing.T) {
		path := tempLog(t)
		l := Open(path, nil)
		l.Append(numbered(0))
		mustClose(t, l)
		assertMode(t, path, 0o600)
		assertMode(t, filepath.Dir(path), 0o700|os.ModeDir)
	})
	t.Run("existing 0644 file tightened", func(t *testing.T) {
		path := tempLog(t)
		old, _ := encode(numbered(0))
		mustWriteFile(t, path, string(old))
		if err := os.Chmod(path, 0o644); err != nil {
			t.Fatal(err)
		}
		l := Open(path, nil)
		l.Append(numbered(1))
		mustClose(t, l)
		assertMode(t, path, 0o600)
		if got := ids(mustRead(t, path)); !reflect.DeepEqual(got, seqIDs(1, 0)) {
			t.Errorf("read %v, want the old entry kept", got)
		}
	})
}

func assertMode(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Mode() & (os.ModePerm | os.ModeDir); got != want {
		t.Errorf("%s has mode %v, want %v", path, got, want)
	}
}

// TestWriteErrors: many failing writes call onError once; the log keeps
// trying, and when the path becomes writable it writes again and records
// how many entries were lost.
func TestWriteErrors(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "latch")
	mustWriteFile(t, blocker, "not a folder")
	path := filepath.Join(blocker, "audit.jsonl")

	var calls atomic.Int32
	attempts, proceed, released := make(chan struct{}), make(chan struct{}), make(chan struct{})
	l := open(path, func(error) { calls.Add(1) }, func() {
		select {
		case attempts <- struct{}{}:
			<-proceed
		case <-released: // after the recovery, writes go on unheld
		}
	})
	const failing = 25
	for i := range failing {
		l.Append(numbered(i))
		<-attempts // one write per entry, so each one fails on its own
		proceed <- struct{}{}
	}
	l.Append(numbered(failing))
	// The writer is sequential: the next write's start means the last
	// failing write has ended, so the folder can come back now.
	<-attempts
	if err := os.Remove(blocker); err != nil {
		t.Fatal(err)
	}
	close(released)
	proceed <- struct{}{}
	mustClose(t, l)

	if n := calls.Load(); n != 1 {
		t.Errorf("onError called %d times, want 1", n)
	}
	es := mustRead(t, path)
	if len(es) != 2 || es[1].ToolUseID != fmt.Sprintf("id-%04d", failing) {
		t.Fatalf("read %+v, want the entry written after recovery and a gap", es)
	}
	if es[0].Kind != KindDropped || !strings.HasPrefix(es[0].Message, fmt.Sprintf("%d entries were dropped: the log could not write them: ", failing)) {
		t.Errorf("gap entry %+v, want %d lost", es[0], failing)
	}
}

// TestCloseReportsLoss: entries never written make Close fail.
func TestCloseReportsLoss(t *testing.T) {
	path := filepath.Join(t.TempDir(), "file", "audit.jsonl")
	mustWriteFile(t, filepath.Dir(path), "")
	var calls atomic.Int32
	l := Open(path, func(error) { calls.Add(1) })
	l.Append(numbered(0))
	l.Append(numbered(1))
	err := l.Close()
	if err == nil || !strings.Contains(err.Error(), "2 entries were lost") {
		t.Errorf("Close = %v, want 2 entries lost", err)
	}
	if err2 := l.Close(); err2 != err {
		t.Errorf("second Close = %v, want %v", err2, err)
	}
	if calls.Load() != 1 {
		t.Errorf("onError called %d times, want 1", calls.Load())
	}
}

// TestAppendNeverBlocks holds the writer on its first write, appends far
// more than the queue holds, and requires every Append to return; once the
// writer is released, the surplus is recorded as one dropped entry after
// the queued ones.
func TestAppendNeverBlocks(t *testing.T) {
	path := tempLog(t)
	entered, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	l := open(path, nil, func() {
		once.Do(func() {
			close(entered)
			<-release
		})
	})
	l.Append(numbered(0))
	<-entered // the writer holds entry 0 and is stuck

	const extra = 10000
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range queueSize + extra {
			l.Append(numbered(1 + i))
		}
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second): // a watchdog, not an ordering
		t.Fatal("Append blocked while the writer was stuck")
	}
	close(release)
	mustClose(t, l)

	es := mustRead(t, path)
	if len(es) != 1+queueSize+1 {
		t.Fatalf("read %d entries, want %d", len(es), 1+queueSize+1)
	}
	if want := fmt.Sprintf("%d entries were dropped: the log could not keep up", extra); es[0].Kind != KindDropped || es[0].Message != want {
		t.Errorf("newest entry %+v, want %q", es[0], want)
	}
	if got := ids(es[1:]); !reflect.DeepEqual(got, seqIDs(queueSize, 0)) {
		t.Errorf("kept %v … %v, want id-%04d … id-0000", got[0], got[len(got)-1], queueSize)
	}
}

// TestConcurrentAppend: many goroutines, every entry once, each one's in
// its order (run with -race).
func TestConcurrentAppend(t *testing.T) {
	const writers, each = 8, 500 // fewer than the queue holds: nothing drops
	path := tempLog(t)
	l := Open(path, func(err error) { t.Errorf("onError: %v", err) })
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				l.Append(Entry{Kind: KindAllowed, Session: fmt.Sprint(w), ToolUseID: fmt.Sprintf("%d/%04d", w, i)})
			}
		})
	}
	wg.Wait()
	mustClose(t, l)

	es := mustRead(t, path)
	if len(es) != writers*each {
		t.Fatalf("read %d entries, want %d", len(es), writers*each)
	}
	next := make(map[string]int) // newest first: each writer counts down
	for _, e := range es {
		i, ok := next[e.Session]
		if !ok {
			i = each - 1
		}
		if want := fmt.Sprintf("%s/%04d", e.Session, i); e.ToolUseID != want {
			t.Fatalf("got %s, want %s", e.ToolUseID, want)
		}
		next[e.Session] = i - 1
	}
}

func TestCloseIdempotentAndAppendAfterClose(t *testing.T) {
	path := tempLog(t)
	l := Open(path, nil)
	l.Append(numbered(0))
	mustClose(t, l)
	mustClose(t, l)
	l.Append(numbered(1)) // dropped silently, no panic
	if got := ids(mustRead(t, path)); !reflect.DeepEqual(got, seqIDs(0, 0)) {
		t.Errorf("read %v, want only the entry before Close", got)
	}
}

// TestAppendAfterTornTail: a crash left half a line; the next entry must
// start a line of its own rather than be glued to it and lost.
func TestAppendAfterTornTail(t *testing.T) {
	path := tempLog(t)
	whole, _ := encode(numbered(0))
	torn, _ := encode(numbered(1))
	mustWriteFile(t, path, string(whole), string(torn[:len(torn)/2]))
	l := Open(path, nil)
	l.Append(numbered(2))
	mustClose(t, l)
	if got := ids(mustRead(t, path)); !reflect.DeepEqual(got, []string{"id-0002", "id-0000"}) {
		t.Errorf("read %v, want id-0002 id-0000", got)
	}
}

// TestFollowsExternalRotation: when the file is moved away under the log
// (another Latch rotated it), the log writes to a new file at its path.
func TestFollowsExternalRotation(t *testing.T) {
	path := tempLog(t)
	attempts := make(chan struct{}, 10)
	l := open(path, nil, func() { attempts <- struct{}{} })
	l.Append(numbered(0))
	<-attempts
	l.Append(numbered(1)) // the first write is done once this one starts
	<-attempts
	l.Append(numbered(2))
	<-attempts
	if err := os.Rename(path, path+".1"); err != nil {
		t.Fatal(err)
	}
	l.Append(numbered(3))
	mustClose(t, l)
	if got := ids(mustRead(t, path)); !reflect.DeepEqual(got, seqIDs(3, 0)) {
		t.Errorf("read %v, want id-0003 … id-0000", got)
	}
	data, _ := os.ReadFile(path)
	if bytes.Count(data, []byte{'\n'}) != 1 {
		t.Errorf("new file has %q, want only entry 3", data)
	}
}
