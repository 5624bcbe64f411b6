//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/latch-app/latch/internal/testsupport/fakeapi"
)

type desk struct {
	t       *testing.T
	display string
	bin     string
	claude  string
	api     *fakeapi.Server
	home    string
	work    string
	xdg     string
	cmd     *exec.Cmd
	win     string
	bus     string // the session bus latch is given; "" = none
	logPath string // latch's output
}

func TestE2E(t *testing.T) {
	bin := os.Getenv("LATCH_BIN")
	if bin == "" {
		t.Fatal("LATCH_BIN is not set: run this through `make test-e2e`")
	}
	claude := fakeapi.CLIPath(t)
	display := startXvfb(t)
	newDesk := func(t *testing.T, cfg map[string]any) *desk {
		api, err := fakeapi.Start()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(api.Close)
		d := &desk{t: t, display: display, bin: bin, claude: claude, api: api, home: t.TempDir(), xdg: t.TempDir()}
		d.work = filepath.Join(d.home, "project")
		os.MkdirAll(d.work, 0o755)
		cfg["claude_command"] = claude
		b, _ := json.Marshal(cfg)
		os.MkdirAll(filepath.Join(d.xdg, "latch"), 0o700)
		os.WriteFile(filepath.Join(d.xdg, "latch", "config.json"), b, 0o600)
		t.Cleanup(func() { fakeapi.TidyTemp(d.work) })
		return d
	}

	t.Run("Smoke", func(t *testing.T) {
		d := newDesk(t, map[string]any{})
		d.start()
		d.shot("e2e_smoke")
		d.quit()
	})

	t.Run("LivePromptAnsweredByKeyboard", func(t *testing.T) {
		d := newDesk(t, map[string]any{"permission_prompts": "live", "baseline_tools": false})
		d.api.Handle(toolThenDone(fakeapi.Bash("touch made-live.txt")))
		d.start()
		d.typeText("create a file please")
		d.key("ctrl+Return")
		d.waitRequests(1)
		time.Sleep(2 * time.Second) // the dialog takes keys within 1 s of the question
		d.shot("e2e_live_dialog")
		d.key("1") // Allow once
		d.waitFile(filepath.Join(d.work, "made-live.txt"))
		d.waitRequests(2)
		time.Sleep(1500 * time.Millisecond)
		d.shot("e2e_live_done")
		d.quit()
	})

	t.Run("AfterTurnGrantByKeyboard", func(t *testing.T) {
		d := newDesk(t, map[string]any{"permission_prompts": "after_turn", "baseline_tools": false})
		d.api.Handle(toolThenDone(fakeapi.Bash("touch made-after.txt")))
		d.start()
		d.typeText("create a file please")
		d.key("ctrl+Return")
		d.waitRequests(2) // the tool call, then the answer after the stream-closed denial
		time.Sleep(2500 * time.Millisecond)
		d.shot("e2e_grant_dialog")
		d.key("space")  // tick the first checkbox (Bash(touch made-after.txt))
		d.key("Return") // Grant and retry
		d.waitFile(filepath.Join(d.work, "made-after.txt"))
		// This project is the default scope.
		settings, err := os.ReadFile(filepath.Join(d.work, ".claude", "settings.local.json"))
		if err != nil || !strings.Contains(string(settings), `"Bash(touch made-after.txt)"`) {
			t.Errorf("settings.local.json after the grant: %s (%v)", settings, err)
		}
		last := d.api.Conversation()
		if !last[len(last)-1].Contains("Retry the tool calls that failed.") {
			t.Error("the resumed turn did not carry Latch's retry message")
		}
		time.Sleep(1500 * time.Millisecond)
		d.shot("e2e_after_grant")
		d.quit()
	})
	// Always allow for this project by keyboard, revoke the rule in
	// Preferences by keyboard, and the same call asks again.
	t.Run("LiveAlwaysThenRevokeInPreferences", func(t *testing.T) {
		d := newDesk(t, map[string]any{"permission_prompts": "live", "baseline_tools": false})
		d.api.Handle(toolThenDone(fakeapi.Bash("touch made-always.txt")))
		d.start()
		d.typeText("create a file please")
		d.key("ctrl+Return")
		d.waitRequests(1)
		time.Sleep(2 * time.Second)
		d.key("2") // Always allow, kept for this project (the default)
		d.waitFile(filepath.Join(d.work, "made-always.txt"))
		d.waitRequests(2)
		project := filepath.Join(d.work, ".claude", "settings.local.json")
		if b, err := os.ReadFile(project); err != nil || !strings.Contains(string(b), `"Bash(touch made-always.txt)"`) {
			t.Fatalf("project settings after Always: %s (%v)", b, err)
		}
		time.Sleep(time.Second)
		d.key("ctrl+comma")
		prefs := d.window(20*time.Second, "Latch Preferences")
		d.xdo(5*time.Second, "windowfocus", "--sync", prefs)
		time.Sleep(800 * time.Millisecond)
		// From the command field back to Close, Add folder, Add rule, the
		// rule field, and the project rule's Remove button.
		for range 5 {
			d.key("shift+Tab")
		}
		d.shot("e2e_prefs_revoke")
		d.key("space")
		deadline := time.Now().Add(10 * time.Second)
		for {
			b, _ := os.ReadFile(project)
			if !strings.Contains(string(b), "made-always") {
				break
			}
			if time.Now().After(deadline) {
				d.shot("timeout")
				t.Fatalf("the rule was not removed in Preferences: %s", b)
			}
			time.Sleep(100 * time.Millisecond)
		}
		d.key("Escape")
		d.xdo(5*time.Second, "windowfocus", "--sync", d.win)
		time.Sleep(time.Second)
		d.typeText("again please")
		d.key("ctrl+Return")
		d.waitRequests(3)
		time.Sleep(3 * time.Second)
		if n := len(d.api.Conversation()); n != 3 {
			t.Fatalf("%d conversation requests: the call ran without asking after the revoke", n)
		}
		d.shot("e2e_asks_again")
		d.key("1")
		d.waitRequests(4)
		d.quit()
	})
}

// The permissions window and the permission history, as a person opens
// them: by keyboard, over a folder with user and project rules, after a
// live question was answered. What they show is read back from the screen.
func TestE2EPermissions(t *testing.T) {
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
	os.MkdirAll(filepath.Join(d.work, ".claude"), 0o755)
	os.MkdirAll(filepath.Join(d.home, ".claude"), 0o755)
	os.MkdirAll(filepath.Join(d.xdg, "latch"), 0o700)
	cfg, _ := json.Marshal(map[string]any{"claude_command": d.claude, "permission_prompts": "live", "baseline_tools": false})
	os.WriteFile(filepath.Join(d.xdg, "latch", "config.json"), cfg, 0o600)
	os.WriteFile(filepath.Join(d.home, ".claude", "settings.json"), []byte(`{"permissions":{"allow":["Bash(npm test:*)"],"deny":["Bash(rm -rf:*)"]}}`), 0o644)
	os.WriteFile(filepath.Join(d.work, ".claude", "settings.json"), []byte(`{"permissions":{"allow":["Bash(make:*)"]}}`), 0o644)
	t.Cleanup(func() { fakeapi.TidyTemp(d.work) })

	d.api.Handle(toolThenDone(fakeapi.Bash("touch made-live.txt")))
	d.start()
	d.typeText("create a file please")
	d.key("ctrl+Return")
	d.waitRequests(1)
	time.Sleep(2 * time.Second)
	d.key("1") // Allow once
	d.waitFile(filepath.Join(d.work, "made-live.txt"))
	d.waitRequests(2)
	time.Sleep(time.Second)

	d.key("ctrl+shift+p")
	perms := d.window(20*time.Second, "Latch Permissions")
	d.xdo(5*time.Second, "windowfocus", "--sync", perms)
	time.Sleep(1500 * time.Millisecond) // the view is asked of the running CLI
	d.shot("e2e_permissions")
	screen := strings.ToLower(menuOCR(t, d))
	for _, want := range []string{"user settings", "npm test", "not trusted"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the Permissions window does not show %q; the screen reads:\n%s", want, screen)
		}
	}
	d.key("Escape")
	d.xdo(5*time.Second, "windowfocus", "--sync", d.win)
	time.Sleep(500 * time.Millisecond)

	d.key("ctrl+shift+h")
	hist := d.window(20*time.Second, "Latch Permission History")
	d.xdo(5*time.Second, "windowfocus", "--sync", hist)
	time.Sleep(1500 * time.Millisecond)
	d.shot("e2e_history")
	screen = strings.ToLower(menuOCR(t, d))
	for _, want := range []string{"touch made-live.txt", "answer"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the history does not show %q; the screen reads:\n%s", want, screen)
		}
	}
	d.key("Escape")
	d.quit()

	// The log itself: the question, the answer and the call that ran.
	b, err := os.ReadFile(filepath.Join(d.home, ".local", "state", "latch", "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"kind":"ask"`, `"kind":"answer","session"`, `"decision":"once"`, `"kind":"allowed"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("audit.jsonl lacks %s:\n%s", want, b)
		}
	}
	if fi, err := os.Stat(filepath.Join(d.home, ".local", "state", "latch", "audit.jsonl")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("audit.jsonl mode: %v %v", fi, err)
	}
}

// toolThenDone calls the tool for each user message and answers its
// result in words, as a model does: once refused, it does not insist.
func toolThenDone(tool fakeapi.Block) fakeapi.Rule {
	return func(r fakeapi.Request) (fakeapi.Reply, bool) {
		if tr, ok := r.LastToolResult(); ok {
			if tr.IsError {
				return fakeapi.Say(fakeapi.Text("I could not create the file: permission was refused.")), true
			}
			return fakeapi.Say(fakeapi.Text("Done: the file is there.")), true
		}
		return fakeapi.Say(fakeapi.Text("Creating the file."), tool), true
	}
}

func startXvfb(t *testing.T) string {
	for n := 90; n < 120; n++ {
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X11-unix/X%d", n)); err == nil {
			continue
		}
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X%d-lock", n)); err == nil {
			continue
		}
		display := fmt.Sprintf(":%d", n)
		cmd := exec.Command("Xvfb", display, "-screen", "0", "1280x900x24", "-nolisten", "tcp")
		if err := cmd.Start(); err != nil {
			t.Fatalf("Xvfb: %v (make deps installs it)", err)
		}
		// SIGTERM, so Xvfb removes its lock and socket and the display
		// number is free for the next run.
		t.Cleanup(func() { cmd.Process.Signal(syscall.SIGTERM); cmd.Wait() })
		for i := 0; i < 100; i++ {
			if _, err := os.Stat(fmt.Sprintf("/tmp/.X11-unix/X%d", n)); err == nil {
				return display
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("Xvfb %s did not come up", display)
	}
	t.Fatal("no free X display")
	return ""
}

func (d *desk) env() []string {
	// Without a bus of the test's own, none: with dbus-x11 installed, a
	// program without one autolaunches a bus on the display, which starts
	// portals and a FUSE mount that outlive the test.
	bus := d.bus
	if bus == "" {
		bus = "disabled:"
	}
	return append(fakeapi.CLIEnv(d.api.URL(), d.home),
		"DISPLAY="+d.display, "XDG_CONFIG_HOME="+d.xdg, "LANG=en_US.UTF-8",
		"DBUS_SESSION_BUS_ADDRESS="+bus)
}

// start launches latch and waits for its window to show and take the keyboard.
func (d *desk) start() {
	d.t.Helper()
	d.launch()
	d.win = d.windowOf(60*time.Second, "Latch", func() bool {
		// The X server now and then refuses a connection (one in hundreds
		// on a busy machine): Latch could not open the display, which is
		// not what is tested. It is started again.
		b, _ := os.ReadFile(d.logPath)
		if !bytes.Contains(b, []byte(displayRefused)) {
			return false
		}
		d.t.Logf("the X server refused Latch's connection; starting it again")
		d.cmd.Process.Kill()
		d.cmd.Wait()
		d.launch()
		return true
	})
	d.xdo(10*time.Second, "windowfocus", "--sync", d.win)
	time.Sleep(800 * time.Millisecond) // first frame
}

// launch starts latch on the work folder, its output in artifacts/; it is
// killed at cleanup if it is still running.
func (d *desk) launch() {
	d.t.Helper()
	d.cmd = exec.Command(d.bin, d.work)
	d.cmd.Env = d.env()
	d.logPath = filepath.Join(artifacts(d.t), strings.ReplaceAll(d.t.Name(), "/", "_")+".log")
	logf, _ := os.Create(d.logPath)
	d.cmd.Stdout, d.cmd.Stderr = logf, logf
	if err := d.cmd.Start(); err != nil {
		d.t.Fatal(err)
	}
	d.t.Cleanup(func() {
		if d.cmd.ProcessState == nil {
			d.cmd.Process.Kill()
			d.cmd.Wait()
		}
		logf.Close()
	})
}

func (d *desk) xdo(timeout time.Duration, args ...string) string {
	d.t.Helper()
	d.t.Logf("xdotool %s", strings.Join(args, " "))
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	for try := 1; ; try++ {
		cmd := exec.CommandContext(ctx, "xdotool", args...)
		cmd.Env = append(os.Environ(), "DISPLAY="+d.display)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err == nil {
			return string(out)
		}
		// A connection the X server refused did nothing: ask again.
		if try < 4 && strings.Contains(stderr.String(), "open display") && ctx.Err() == nil {
			time.Sleep(100 * time.Millisecond)
			continue
		}
		d.t.Fatalf("xdotool %v: %v %s", args, err, stderr.String())
	}
}

// displayRefused is what Latch (GLFW) writes when it cannot connect to the
// X server.
const displayRefused = "Failed to open display"

// window waits for a visible window named exactly name and returns its
// id. It asks xdotool again every 200 ms rather than once with --sync:
// xdotool exits on an X error, and windows that come and go while it
// walks the tree (a portal's chooser opening) raise BadWindow.
func (d *desk) window(timeout time.Duration, name string) string {
	d.t.Helper()
	return d.windowOf(timeout, name, nil)
}

// windowOf is window, calling again (when not nil) between tries: when it
// reports that it started the window's program again, the wait starts over.
func (d *desk) windowOf(timeout time.Duration, name string, again func() bool) string {
	d.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if again != nil && again() {
			deadline = time.Now().Add(timeout)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		cmd := exec.CommandContext(ctx, "xdotool", "search", "--onlyvisible", "--name", "^"+name+"$")
		cmd.Env = append(os.Environ(), "DISPLAY="+d.display)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		cancel()
		if ids := strings.Fields(string(out)); len(ids) > 0 {
			return ids[0]
		}
		if time.Now().After(deadline) {
			d.shot("timeout")
			tree := exec.Command("xwininfo", "-root", "-tree")
			tree.Env = cmd.Env
			windows, _ := tree.CombinedOutput()
			d.t.Fatalf("no window %q on %s within %v (xdotool: %v %s); the windows are:\n%s", name, d.display, timeout, err, stderr.String(), windows)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func (d *desk) typeText(s string) {
	d.xdo(30*time.Second, "type", "--delay", "30", s)
}

func (d *desk) key(k string) {
	d.xdo(10*time.Second, "key", "--clearmodifiers", k)
	time.Sleep(150 * time.Millisecond)
}

func (d *desk) waitRequests(n int) {
	d.t.Helper()
	conv := func(rs []fakeapi.Request) int {
		c := 0
		for _, r := range rs {
			if r.Conversation {
				c++
			}
		}
		return c
	}
	if !d.api.Wait(60*time.Second, func(rs []fakeapi.Request) bool { return conv(rs) >= n }) {
		d.shot("timeout")
		d.t.Fatalf("the fake API got %d conversation requests, want %d", len(d.api.Conversation()), n)
	}
}

func (d *desk) waitFile(path string) {
	d.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(path); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	d.shot("timeout")
	d.t.Fatalf("%s was not created", path)
}

// quit closes the window the way a person does and checks that Latch and
// every claude process it started are gone.
func (d *desk) quit() {
	d.t.Helper()
	d.key("ctrl+q")
	done := make(chan error, 1)
	go func() { done <- d.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			d.t.Errorf("latch exited with %v", err)
		}
	case <-time.After(15 * time.Second):
		d.t.Fatal("latch did not exit after Ctrl+Q")
	}
	if pids := processesIn(d.work); len(pids) > 0 {
		d.t.Errorf("processes left running in the working folder after quit: %v", pids)
	}
}

// processesIn lists processes whose cwd is dir.
func processesIn(dir string) []string {
	var out []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd")); err == nil && cwd == dir {
			cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
			out = append(out, e.Name()+" "+strings.ReplaceAll(string(cmdline), "\x00", " "))
		}
	}
	return out
}

func artifacts(t *testing.T) string {
	dir := os.Getenv("LATCH_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("..", "build", "artifacts")
	}
	os.MkdirAll(dir, 0o755)
	return dir
}

func (d *desk) shot(name string) {
	path := filepath.Join(artifacts(d.t), name+".png")
	cmd := exec.Command("import", "-window", "root", path)
	cmd.Env = append(os.Environ(), "DISPLAY="+d.display)
	if out, err := cmd.CombinedOutput(); err != nil {
		d.t.Logf("screenshot %s: %v %s", name, err, out)
		return
	}
	d.t.Logf("screenshot: %s", path)
}
