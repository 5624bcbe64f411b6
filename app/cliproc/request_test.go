package cliproc

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/latch-app/latch/core/stream"
)

func ask(p *Proc, ctx context.Context, id, subtype string) (*stream.ControlResponse, error) {
	line := fmt.Sprintf(`{"type":"control_request","request_id":%q,"request":{"subtype":%q}}`+"\n", id, subtype)
	return p.Request(ctx, id, []byte(line))
}

// Answers reach the requester even when nobody reads the events (between
// turns), they never show up among the events, and the other lines still do.
func TestRequestIsAnsweredWithoutAnEventReader(t *testing.T) {
	var g Group
	defer g.Close(context.Background(), 5*time.Second)
	p := startChild(t, &g, "answer")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i, sub := range []string{"get_settings", "set_permission_mode", "list_permission_rules"} {
		r, err := ask(p, ctx, fmt.Sprintf("q%d", i), sub)
		if err != nil {
			t.Fatal(err)
		}
		if got := stream.DecodeMode(r.Body); got != sub || r.RequestID != fmt.Sprintf("q%d", i) {
			t.Errorf("answer %d: %q %+v", i, got, r)
		}
	}
	p.CloseStdin()
	var statuses, responses int
	for ev := range p.Events() {
		switch ev.Kind {
		case stream.KindStatus:
			statuses++
		case stream.KindControlResponse:
			responses++
		}
	}
	if statuses != 3 || responses != 0 {
		t.Errorf("events: %d status lines (want 3), %d answers (want 0: they went to the requests)", statuses, responses)
	}
}

// A request the CLI never answers ends with the process, or with its context.
func TestRequestEndsWithTheProcessOrItsContext(t *testing.T) {
	var g Group
	defer g.Close(context.Background(), 5*time.Second)
	p := startChild(t, &g, "answer")
	go func() {
		for range p.Events() {
		}
	}()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := ask(p, ctx, "s1", "slow")
		errc <- err
	}()
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled request: %v", err)
	}
	go func() {
		_, err := ask(p, context.Background(), "s2", "slow")
		errc <- err
	}()
	// Whether the request is written before stdin closes or not, it
	// fails: ErrEnded, or the write's error.
	p.CloseStdin()
	select {
	case err := <-errc:
		if err == nil {
			t.Error("an unanswered request succeeded")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a request outlived its process")
	}
	<-p.Done()
	if _, err := ask(p, context.Background(), "s3", "get_settings"); !errors.Is(err, ErrEnded) {
		t.Errorf("request to an ended process: %v", err)
	}
}
