package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/latch-app/latch/internal/testsupport/fakecli"
)

// quietSurface shows nothing and answers nothing (surfacetest imports app).
type quietSurface struct{}

func (quietSurface) Show(Event)                                       {}
func (quietSurface) Ask(context.Context, Question) Decision           { return Decision{} }
func (quietSurface) AskGrants(context.Context, GrantRequest) Decision { return Decision{} }

// A CLI that never answers the trust attestation, or dies at once, does
// not leave the person waiting: after the request's time limit Latch
// records the trust itself, and the process is gone.
func TestTrustFolderWhenTheCLIHangsOrDies(t *testing.T) {
	old := requestWait
	requestWait = 300 * time.Millisecond
	t.Cleanup(func() { requestWait = old })
	for _, script := range []string{"waiteof", "exit 1"} {
		t.Run(script, func(t *testing.T) {
			home, rec, work := t.TempDir(), t.TempDir(), t.TempDir()
			env := append([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}, fakecli.Env(t, rec, script)...)
			s := NewSession(Config{Workdir: work, Command: []string{fakecli.Path(t)}, Env: env,
				UserSettings: filepath.Join(home, ".claude", "settings.json")}, quietSurface{})
			defer s.Close()
			start := time.Now()
			if err := s.TrustFolder(context.Background()); err != nil {
				t.Fatal(err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("TrustFolder took %v", d)
			}
			b, err := os.ReadFile(filepath.Join(home, ".claude.json"))
			if err != nil || !strings.Contains(string(b), "hasTrustDialogAccepted") {
				t.Errorf("~/.claude.json: %v %s", err, b)
			}
			if _, err := os.Stat(filepath.Join(rec, "stdin.1")); err != nil {
				t.Errorf("the CLI was not asked first: %v", err)
			}
		})
	}
}
