//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/latch-app/latch/internal/testsupport/fakeapi"
)

// Sessions as a person meets them, by keyboard: two prompts, Latch closed
// and started again, the session found in the history (Ctrl+B), opened
// and continued with the real CLI (--resume), a second tab (Ctrl+N) and
// closed again (Ctrl+W), and the transcript searched (Ctrl+F). What the
// window shows is read back from the screen.
func TestE2ESessions(t *testing.T) {
	bin := os.Getenv("LATCH_BIN")
	if bin == "" {
		t.Fatal("LATCH_BIN is not set: run this through `make test-e2e`")
	}
	api, err := fakeapi.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(api.Close)
	d := &desk{t: t, display: startXvfb(t), bin: bin, claude: fakeapi.CLIPath(t), api: api, home: t.TempDir(), xdg: t.TempDir()}
	d.work = filepath.Join(d.home, "project")
	os.MkdirAll(d.work, 0o755)
	os.MkdirAll(filepath.Join(d.xdg, "latch"), 0o700)
	cfg, _ := json.Marshal(map[string]any{"claude_command": d.claude, "permission_prompts": "live", "baseline_tools": false})
	os.WriteFile(filepath.Join(d.xdg, "latch", "config.json"), cfg, 0o600)
	t.Cleanup(func() { fakeapi.TidyTemp(d.work) })

	d.api.Push(fakeapi.Say(fakeapi.Text("Apples are red.")), fakeapi.Say(fakeapi.Text("Pears are green.")))
	d.start()
	d.typeText("tell me about apples")
	d.key("ctrl+Return")
	d.waitRequests(1)
	time.Sleep(1500 * time.Millisecond)
	d.typeText("and pears")
	d.key("ctrl+Return")
	d.waitRequests(2)
	time.Sleep(1500 * time.Millisecond)
	first := d.api.Conversation()[0].Header.Get("x-claude-code-session-id")
	d.quit()

	// A new Latch: an empty transcript, and the session in the history.
	d.start()
	d.key("ctrl+b")
	time.Sleep(2 * time.Second)
	d.shot("e2e_sessions_history")
	screen := strings.ToLower(menuOCR(t, d))
	for _, want := range []string{"tell me about apples", "2 prompts"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the history does not show %q; the screen reads:\n%s", want, screen)
		}
	}
	d.key("Return") // the newest session, which has the keyboard's cursor
	time.Sleep(2 * time.Second)
	d.shot("e2e_sessions_opened")
	screen = strings.ToLower(menuOCR(t, d))
	for _, want := range []string{"apples are red", "pears are green", "earlier turn"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the opened session does not show %q; the screen reads:\n%s", want, screen)
		}
	}

	// Continue it: the CLI takes --resume and the model gets everything.
	d.api.Push(fakeapi.Say(fakeapi.Text("Plums are purple.")))
	d.typeText("now plums")
	d.key("ctrl+Return")
	d.waitRequests(3)
	conv := d.api.Conversation()
	last := conv[len(conv)-1]
	if sid := last.Header.Get("x-claude-code-session-id"); sid != first || !last.Contains("tell me about apples") || !last.Contains("Pears are green.") {
		t.Errorf("the continued turn ran in session %q (want %q) or lacks the earlier turns", sid, first)
	}
	time.Sleep(1500 * time.Millisecond)

	// Find, then a second tab, then back. The find bar's count is a
	// caption OCR cannot read reliably; what it reads is "No matches" for
	// words the transcript does not hold, and the history filtered by the
	// same words.
	d.key("ctrl+f")
	d.typeText("purple")
	time.Sleep(500 * time.Millisecond)
	d.shot("e2e_sessions_find")
	d.key("ctrl+a")
	d.typeText("zebra")
	time.Sleep(time.Second)
	d.shot("e2e_sessions_find_none")
	screen = strings.ReplaceAll(strings.ToLower(menuOCR(t, d)), " ", "")
	for _, want := range []string{"nomatches", "nosessionmatches"} {
		if !strings.Contains(screen, want) {
			t.Errorf("find does not show %q for zebra; the screen reads:\n%s", want, screen)
		}
	}
	d.key("Escape")
	d.key("ctrl+n")
	time.Sleep(time.Second)
	d.shot("e2e_sessions_tabs")
	screen = strings.ToLower(menuOCR(t, d))
	if strings.Contains(screen, "plums are purple") {
		t.Errorf("the new tab shows the other session's transcript:\n%s", screen)
	}
	if !strings.Contains(screen, "tell me about apples") { // the first tab's label: OCR reads its "·" as anything
		t.Errorf("the first tab's label is not on the screen:\n%s", screen)
	}
	d.key("ctrl+w")
	time.Sleep(time.Second)
	if screen = strings.ToLower(menuOCR(t, d)); !strings.Contains(screen, "plums are purple") {
		t.Errorf("closing the new tab did not show the session again:\n%s", screen)
	}
	d.quit()
}
