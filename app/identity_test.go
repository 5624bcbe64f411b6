package app_test

import (
	"context"
	"strings"
	"testing"

	"github.com/latch-app/latch/app"
	"github.com/latch-app/latch/internal/testsupport/fakecli"
)

// Every event, question and grant request carries the Session it came from,
// and every event the CLI process it came from: 1, 2, … in start order, 0
// for what the session says itself.
func TestEventsCarryTheirSessionAndProcess(t *testing.T) {
	first := strings.Join([]string{initLine, `wait "user"`, bashUse, bashAsk, `wait "control_response"`, resultLine, "waiteof"}, "\n")
	second := strings.Join([]string{`wait "user"`, initLine, resultLine, "waiteof"}, "\n")
	r := newRig(t, app.Config{}, first, second)
	r.surf.OnAsk(func(context.Context, app.Question) app.Decision { return app.Decision{Action: app.AllowOnce} })
	other := app.NewSession(app.Config{Workdir: t.TempDir()}, r.surf)
	defer other.Close()
	id := r.session.ID()
	if id == "" || id == other.ID() {
		t.Fatalf("session IDs %q and %q: want two different ones", id, other.ID())
	}

	r.send("one")
	r.surf.WaitIdle(t, 1)
	// New flags retire the live process: the next turn runs on a second one.
	r.session.Reconfigure(app.Config{Command: []string{fakecli.Path(t)}, AllowedTools: []string{"Bash"}})
	r.send("two")
	evs := r.surf.WaitIdle(t, 2)

	turnEnds := 0
	for _, ev := range evs {
		if ev.Session != id {
			t.Errorf("event %v carries session %q, want %q", ev.Kind, ev.Session, id)
		}
		switch ev.Kind {
		case app.EvToolCall, app.EvToolResult:
			if ev.Proc != 1 {
				t.Errorf("the first turn's tool call %v came from process %d, want 1", ev.Kind, ev.Proc)
			}
		case app.EvTurnEnd:
			turnEnds++
			if ev.Proc != turnEnds {
				t.Errorf("turn %d ended on process %d", turnEnds, ev.Proc)
			}
		case app.EvPrompt:
			if ev.Proc != 0 {
				t.Errorf("the prompt %q is Latch's own, not process %d's", ev.Text, ev.Proc)
			}
		}
	}
	if turnEnds != 2 {
		t.Fatalf("%d turn ends:\n%s", turnEnds, dump(evs))
	}
	qs := r.surf.Questions()
	if len(qs) != 1 || qs[0].Session != id {
		t.Errorf("questions %+v: want one, from session %q", qs, id)
	}
}
