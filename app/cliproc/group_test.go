package cliproc

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"testing"
	"time"

	"github.com/latch-app/latch/core/stream"
)

// The test binary is its own child process: CLIPROC_CHILD says what to do.
func TestMain(m *testing.M) {
	switch os.Getenv("CLIPROC_CHILD") {
	case "flood":
		// Like a CLI on its way out: once stdin closes, it prints far more
		// than the event buffer holds, then exits.
		io.Copy(io.Discard, os.Stdin)
		for i := range 20000 {
			fmt.Printf(`{"type":"system","subtype":"status","n":%d}`+"\n", i)
		}
		os.Exit(0)
	case "answer":
		// Answers every control_request with its subtype, except "slow",
		// which it never answers; exits when stdin closes.
		sc := bufio.NewScanner(os.Stdin)
		for sc.Scan() {
			var req struct {
				ID  string `json:"request_id"`
				Req struct {
					Subtype string `json:"subtype"`
				} `json:"request"`
			}
			if json.Unmarshal(sc.Bytes(), &req) != nil || req.Req.Subtype == "slow" {
				continue
			}
			fmt.Printf(`{"type":"system","subtype":"status","before":%q}`+"\n", req.ID)
			fmt.Printf(`{"type":"control_response","response":{"subtype":"success","request_id":%q,"response":{"mode":%q}}}`+"\n", req.ID, req.Req.Subtype)
		}
		os.Exit(0)
	case "hang":
		time.Sleep(time.Hour)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func startChild(t *testing.T, g *Group, mode string) *Proc {
	t.Helper()
	env := append(os.Environ(), "CLIPROC_CHILD="+mode)
	p, err := g.Start([]string{os.Args[0]}, t.TempDir(), env, stream.Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func waitDone(t *testing.T, p *Proc, within time.Duration, what string) {
	t.Helper()
	select {
	case <-p.Done():
	case <-time.After(within):
		t.Fatalf("%s: process %d not reaped and drained within %v", what, p.Serial, within)
	}
}

// A retired process that floods stdout on its way out is drained by nobody
// but its reader, so it finishes, exits on its own (no kill: its exit says
// so) and is reaped.
func TestRetiredProcessIsDrainedAndReaped(t *testing.T) {
	var g Group
	p := startChild(t, &g, "flood")
	g.Retire(p, 10*time.Second)
	waitDone(t, p, 8*time.Second, "retired")
	if p.ExitMsg() != "exit code 0" {
		t.Errorf("it ended with %q, want a clean exit after printing everything", p.ExitMsg())
	}
	if n := g.Running(); n != 0 {
		t.Errorf("the group still holds %d processes", n)
	}
}

// Close stops every process of the group, within its budget, and no process
// starts after it.
func TestCloseStopsEveryProcess(t *testing.T) {
	var g Group
	a, b := startChild(t, &g, "hang"), startChild(t, &g, "hang")
	if a.Serial != 1 || b.Serial != 2 {
		t.Errorf("serials %d, %d; want 1, 2", a.Serial, b.Serial)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	start := time.Now()
	g.Close(ctx, 100*time.Millisecond)
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("Close took %v", d)
	}
	waitDone(t, a, time.Second, "closed")
	waitDone(t, b, time.Second, "closed")
	if _, err := g.Start([]string{os.Args[0]}, t.TempDir(), nil, stream.Options{}, nil); !errors.Is(err, ErrClosed) {
		t.Errorf("Start after Close: %v, want ErrClosed", err)
	}
}
