package ui

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/latch-app/latch/app"
)

// writeSessionFile writes a Claude Code session file of about size bytes:
// turns of a prompt, a markdown answer, a Bash call and its 8 KB output,
// chained by uuid as the CLI writes them.
func writeSessionFile(tb testing.TB, path string, size int) (turns int) {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	answer := strings.Repeat("Here is what I found in **cart.go**: the total is computed twice.\n\n- one\n- two\n\n", 20)
	output := strings.Repeat("ok  \tshop/cart\t0.004s\n", 380)
	parent, n, written := "", 0, 0
	line := func(m map[string]any) {
		uuid := fmt.Sprintf("00000000-0000-4000-8000-%012d", n)
		n++
		m["uuid"], m["sessionId"], m["version"], m["cwd"] = uuid, "bench", "2.1.328", "/w"
		m["timestamp"] = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC).Add(time.Duration(n) * time.Second).Format(time.RFC3339Nano)
		if parent != "" {
			m["parentUuid"] = parent
		} else {
			m["parentUuid"] = nil
		}
		parent = uuid
		b, _ := json.Marshal(m)
		w.Write(b)
		w.WriteByte('\n')
		written += len(b) + 1
	}
	for written < size {
		turns++
		id := fmt.Sprintf("toolu_%d", turns)
		line(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": fmt.Sprintf("prompt %d: look at the cart", turns)}, "turnPosition": map[string]any{"promptIndex": 0, "turnIndex": turns}})
		line(map[string]any{"type": "assistant", "message": map[string]any{"id": fmt.Sprintf("msg_%da", turns), "role": "assistant", "model": "claude-test", "content": []any{map[string]any{"type": "text", "text": answer}}}})
		line(map[string]any{"type": "assistant", "message": map[string]any{"id": fmt.Sprintf("msg_%db", turns), "role": "assistant", "model": "claude-test", "content": []any{map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{"command": "go test ./..."}}}}})
		line(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": output, "is_error": false}}}})
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	return turns
}

// BenchmarkOpen50MBSession opens a 50 MB session file in a tab as the
// window does: the session reads it (app.Session.Continue) while the tab's
// frames apply what arrived, at most frameEvents a frame. It reports the
// longest frame (what the person could feel) and the frames it took.
func BenchmarkOpen50MBSession(b *testing.B) {
	path := filepath.Join(b.TempDir(), "bench.jsonl")
	turns := writeSessionFile(b, path, 50<<20)
	fi, _ := os.Stat(path)
	h := newHarness(b)
	var worst time.Duration
	frames := 0
	for b.Loop() {
		t := h.mw.newTab(h.mw.workdir)
		h.mw.addTab(t)
		sess := app.NewSession(app.Config{Workdir: h.mw.workdir, Command: []string{"false"}}, t.surf)
		t.surf.show(sess.ID())
		done := make(chan error, 1)
		go func() { done <- sess.Continue(context.Background(), "bench", path) }()
		finished := false
		for {
			start := time.Now()
			batch := t.surf.takeUpTo(frameEvents)
			h.mw.applyTo(t, batch)
			if d := time.Since(start); len(batch) > 0 {
				worst = max(worst, d)
				frames++
			}
			if finished && len(batch) == 0 {
				break
			}
			select {
			case err := <-done:
				if err != nil {
					b.Fatal(err)
				}
				finished = true
			default:
				if len(batch) == 0 {
					time.Sleep(time.Millisecond)
				}
			}
		}
		if n := countKind(t.tr, rowUser); n != turns {
			b.Fatalf("%d prompts shown, want %d", n, turns)
		}
		sess.Close()
		h.mw.closeTab(t)
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "max-frame-ms")
	b.ReportMetric(float64(frames)/float64(b.N), "frames/op")
	b.ReportMetric(float64(fi.Size())/(1<<20), "MB")
}

func countKind(tr *transcript, k rowKind) int {
	n := 0
	for _, e := range tr.entries {
		if e.kind == k {
			n++
		}
	}
	return n
}
