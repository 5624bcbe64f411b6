//go:build e2e

// End-to-end test of Latch's desktop notifications: a real notification
// server (dunst) on a private D-Bus session bus, every Notify call on that
// bus seen with dbus-monitor, and the built latch binary in a real X window
// under Xvfb, focused and unfocused with xdotool. Fyne sends a notification
// on Linux as org.freedesktop.Notifications.Notify on the session bus
// (fyne.io/fyne/v2/app/app_xdg.go, SendNotification), so the bus sees
// exactly what the person would.
package e2e

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/latch-app/latch/internal/testsupport/fakeapi"
)

func TestE2ENotifications(t *testing.T) {
	bin := os.Getenv("LATCH_BIN")
	if bin == "" {
		t.Fatal("LATCH_BIN is not set: run this through `make test-e2e`")
	}
	claude := fakeapi.CLIPath(t)
	for _, tool := range []string{"dbus-daemon", "dbus-monitor", "dbus-send", "dunst", "dunstctl", "xmessage"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s: %v (make deps installs it: APT_NOTIFY in the Makefile)", tool, err)
		}
	}
	display := startXvfb(t)
	bus := startNotifyBus(t, display)

	// Another X client to give the keyboard to: with no window manager
	// under Xvfb, nothing else would take Latch's focus.
	other := startOtherWindow(t, display)

	api, err := fakeapi.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(api.Close)
	question, finish := newHold(), newHold()
	t.Cleanup(func() { question.open(); finish.open() }) // never leave a request hanging
	api.Handle(func(r fakeapi.Request) (fakeapi.Reply, bool) {
		prompt := r.LastUserText()
		switch {
		case strings.Contains(prompt, "run the tests"):
			if tr, ok := r.LastToolResult(); ok {
				if tr.IsError {
					return fakeapi.Say(fakeapi.Text("The tests did not run: permission was refused.")), true
				}
				return fakeapi.Say(fakeapi.Text("The tests ran.")), true
			}
			question.wait() // until Latch is in the background
			return fakeapi.Say(fakeapi.Text("Running the tests."), fakeapi.Bash("npm test")), true
		case strings.Contains(prompt, "summarize"):
			finish.wait() // until Latch is in the background
			return fakeapi.Say(fakeapi.Text("All done.")), true
		}
		return fakeapi.Say(fakeapi.Text("Hello.")), true
	})

	d := &desk{t: t, display: display, bin: bin, claude: claude, api: api, home: t.TempDir(), xdg: t.TempDir()}
	d.work = filepath.Join(d.home, "project")
	if err := os.MkdirAll(d.work, 0o755); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(d.xdg, "latch"), 0o700)
	cfg := fmt.Sprintf(`{"claude_command": %q, "permission_prompts": "live", "baseline_tools": false}`, claude)
	if err := os.WriteFile(filepath.Join(d.xdg, "latch", "config.json"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fakeapi.TidyTemp(d.work) })
	d.bus = bus.addr
	d.start()
	if f := d.xFocus(); f != d.win {
		t.Fatalf("the X focus is on %s, not on Latch (%s)", f, d.win)
	}

	// (a) In front: a finished turn is not announced.
	d.typeText("say hello")
	d.key("ctrl+Return")
	d.waitRequests(1)

	// (b) A question shown while Latch is in the background is announced
	// once, saying what waits. The prompt goes while Latch is in front;
	// Claude's reply is held until Latch is not.
	d.typeText("run the tests")
	d.sendUntilHeld(question, "the prompt that asks to run the tests")
	if n := bus.notes(); len(n) != 0 {
		t.Fatalf("notifications while Latch was in front: %v", n)
	}
	d.shot("e2e_notify_a_focused")
	d.unfocusTo(other)
	question.open()
	got := bus.waitNotes(t, 1, 90*time.Second)
	bus.waitShown(t, 1)
	shotPainted(d, "e2e_notify_b_question")
	if want := "Bash wants to run `npm test`"; len(got) != 1 || !strings.Contains(got[0].body, want) {
		t.Fatalf("notifications for the question asked in the background: %v, want one whose body says %q", got, want)
	}

	// Answered in front (3: deny), its turn ends without a notification.
	d.xdo(10*time.Second, "windowfocus", "--sync", d.win)
	d.key("3")
	d.waitRequests(3) // the tool call, then the answer after the denial

	// (c) A turn that ends while Latch is in the background is announced
	// once.
	d.typeText("summarize")
	d.sendUntilHeld(finish, "the last prompt")
	if n := bus.notes(); len(n) != 1 {
		t.Fatalf("notifications after the question was answered in front: %v, want the question's only", n)
	}
	d.unfocusTo(other)
	finish.open()
	got = bus.waitNotes(t, 2, 90*time.Second)
	bus.waitShown(t, 2)
	shotPainted(d, "e2e_notify_c_finished")
	if got[1].body != "The turn finished." {
		t.Errorf("notification for the turn that ended in the background: %v, want one saying %q", got[1], "The turn finished.")
	}

	// Nothing more comes: Latch is gone, and the monitor has printed all
	// the bus carried before its marker.
	d.xdo(10*time.Second, "windowfocus", "--sync", d.win)
	d.quit()
	got = bus.flush(t)
	for i, n := range got {
		t.Logf("Notify %d: %s", i+1, n)
		if n.app != "app.latch.Latch" || n.summary != "Latch" {
			t.Errorf("Notify %d came from %q titled %q, want app.latch.Latch's titled Latch", i+1, n.app, n.summary)
		}
	}
	if len(got) != 2 {
		t.Errorf("%d Notify calls in all, want 2 (the question, the finished turn)", len(got))
	}
	bus.waitShown(t, len(got))
}

// shotPainted takes a screenshot once Latch has painted what it just
// did. The notification is sent as the question is shown and before the
// window's next frame is drawn; nothing outside tells when that frame is,
// and the picture is for people, so it waits a moment.
func shotPainted(d *desk, name string) {
	time.Sleep(time.Second)
	d.shot(name)
}

// hold keeps one scripted API reply back until the test lets it go.
type hold struct {
	arrived, released chan struct{}
	arrive, release   sync.Once
}

func newHold() *hold { return &hold{arrived: make(chan struct{}), released: make(chan struct{})} }

// wait runs in the fake API's handler: it says the request came and waits.
func (h *hold) wait() {
	h.arrive.Do(func() { close(h.arrived) })
	<-h.released
}

func (h *hold) open() { h.release.Do(func() { close(h.released) }) }

// sendUntilHeld presses Ctrl+Enter until the prompt typed reaches the fake API
// (h's request arrives). A Ctrl+Enter while the last turn is still ending
// is ignored and leaves the prompt in the box; one after it was sent finds
// the box empty and does nothing.
func (d *desk) sendUntilHeld(h *hold, what string) {
	d.t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		d.key("ctrl+Return")
		select {
		case <-h.arrived:
			return
		case <-time.After(5 * time.Second):
		}
		if time.Now().After(deadline) {
			d.shot("timeout")
			d.t.Fatalf("%s never reached the fake API", what)
		}
	}
}

// xFocus is the X window with the keyboard focus.
func (d *desk) xFocus() string {
	return strings.TrimSpace(d.xdo(10*time.Second, "getwindowfocus"))
}

// unfocusTo gives the keyboard to the window other. Latch's window loses
// the X focus and Fyne calls the app lifecycle's OnExitedForeground when
// it handles that event, in its next pass over the X events; nothing
// outside Latch shows when that was, so the test leaves it a moment before
// letting Claude go on.
func (d *desk) unfocusTo(other string) {
	d.t.Helper()
	d.xdo(10*time.Second, "windowfocus", "--sync", other)
	if f := d.xFocus(); f == d.win {
		d.t.Fatalf("Latch (%s) still has the X focus", d.win)
	}
	time.Sleep(500 * time.Millisecond)
}

// startOtherWindow shows a small xmessage window away from Latch's and
// returns its X window id.
func startOtherWindow(t *testing.T, display string) string {
	t.Helper()
	const title = "latch-e2e-other-window"
	cmd := exec.Command("xmessage", "-title", title, "-geometry", "+1000+800", "Another window has the focus.")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "DISPLAY=" + display}
	startKilled(t, cmd)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	search := exec.CommandContext(ctx, "xdotool", "search", "--sync", "--onlyvisible", "--name", "^"+title+"$")
	search.Env = cmd.Env
	out, err := search.Output()
	if err != nil || len(strings.Fields(string(out))) == 0 {
		t.Fatalf("the other window did not show: %v", err)
	}
	return strings.Fields(string(out))[0]
}

// startKilled starts cmd and kills it when the test ends.
func startKilled(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: %v", cmd.Path, err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
}

// notifyBus is a private D-Bus session bus with dunst serving
// org.freedesktop.Notifications on it and dbus-monitor printing every
// Notify call it carries.
type notifyBus struct {
	addr string
	env  []string // for dbus-send and dunstctl

	mu      sync.Mutex
	seen    []notice
	marks   map[string]bool
	changed chan struct{} // closed and replaced whenever seen or marks grow
	markSeq int
}

// notice is one org.freedesktop.Notifications.Notify call.
type notice struct {
	sender, app, summary, body string
}

func (n notice) String() string {
	return fmt.Sprintf("{from %s app %q summary %q body %q}", n.sender, n.app, n.summary, n.body)
}

// The bus: a session bus on a socket of its own, with no service files, so
// nothing is started on demand and the test knows every process on it.
const notifyBusConfig = `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=%s</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`

// The marker: a signal of the test's own that dbus-monitor also prints.
// Once a marker sent after something is printed, that thing was printed.
const markerInterface = "app.latch.e2e.Marker"

func startNotifyBus(t *testing.T, display string) *notifyBus {
	t.Helper()
	dir, err := os.MkdirTemp("", "latch-bus-") // short: a socket path has at most 107 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	conf := filepath.Join(dir, "bus.conf")
	if err := os.WriteFile(conf, []byte(fmt.Sprintf(notifyBusConfig, filepath.Join(dir, "bus"))), 0o600); err != nil {
		t.Fatal(err)
	}
	path := "PATH=" + os.Getenv("PATH")

	daemon := exec.Command("dbus-daemon", "--config-file="+conf, "--nofork", "--print-address")
	daemon.Env = []string{path}
	daemon.Stderr = logFile(t, "dbus-daemon")
	out, err := daemon.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	startKilled(t, daemon)
	addrc := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		addrc <- strings.TrimSpace(line)
		io.Copy(io.Discard, out)
	}()
	b := &notifyBus{marks: map[string]bool{}, changed: make(chan struct{})}
	select {
	case b.addr = <-addrc:
	case <-time.After(30 * time.Second):
		t.Fatal("dbus-daemon printed no address")
	}
	if b.addr == "" {
		t.Fatal("dbus-daemon exited without an address (see its log in artifacts/)")
	}
	b.env = []string{path, "DBUS_SESSION_BUS_ADDRESS=" + b.addr}
	t.Logf("private session bus: %s", b.addr)

	monitor := exec.Command("dbus-monitor", "--address", b.addr,
		"type='method_call',interface='org.freedesktop.Notifications',member='Notify'",
		"type='signal',interface='"+markerInterface+"'")
	monitor.Env = []string{path}
	monitor.Stderr = logFile(t, "dbus-monitor.err")
	mout, err := monitor.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	raw := logFile(t, "dbus-monitor")
	startKilled(t, monitor)
	go b.read(io.TeeReader(mout, raw))
	// The monitor is in place once a marker comes back through it.
	if !b.waitMark(t, 30*time.Second) {
		t.Fatal("dbus-monitor printed none of the markers sent")
	}

	home := t.TempDir()
	rc := filepath.Join(home, "dunstrc")
	// Notifications stay up, so a screenshot shows every one.
	if err := os.WriteFile(rc, []byte("[global]\n    timeout = 0\n    notification_limit = 0\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dunst := exec.Command("dunst", "-config", rc)
	dunst.Env = append([]string{"DISPLAY=" + display, "HOME=" + home, "XDG_CONFIG_HOME=" + home, "LANG=en_US.UTF-8"}, b.env...)
	lf := logFile(t, "dunst")
	dunst.Stdout, dunst.Stderr = lf, lf
	startKilled(t, dunst)
	deadline := time.Now().Add(30 * time.Second)
	for {
		info, err := b.send("--print-reply", "--dest=org.freedesktop.Notifications", "/org/freedesktop/Notifications",
			"org.freedesktop.Notifications.GetServerInformation")
		if err == nil && strings.Contains(info, `"dunst"`) {
			t.Logf("notification server: %s", strings.Join(strings.Fields(info), " "))
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("dunst does not serve org.freedesktop.Notifications: %v %s", err, info)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return b
}

func logFile(t *testing.T, name string) *os.File {
	f, err := os.Create(filepath.Join(artifacts(t), t.Name()+"_"+name+".log"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// send runs dbus-send on the bus.
func (b *notifyBus) send(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "dbus-send", append([]string{"--bus=" + b.addr}, args...)...)
	cmd.Env = b.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// dbus-monitor's print format: a message is a line at column 0 (its type,
// sender, path, interface, member), then its arguments, indented by three
// spaces per level. A string is `string "…"`, printed as it is, so one
// with a newline goes on over the next lines. Latch's notification texts
// are one line each, but the reader copes.
var (
	monitorField = regexp.MustCompile(`(?:^|[ ;])(sender|interface|member)=([^ ;]*)`)
	topLevelArg  = regexp.MustCompile(`^   [a-z_0-9]+( |$)`)
)

// read parses dbus-monitor's output until it ends.
func (b *notifyBus) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	var head map[string]string
	var args []string // top-level arguments, each with its continuation lines
	done := func() {
		if head == nil {
			return
		}
		b.record(head, args)
		head, args = nil, nil
	}
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line != "" && line[0] != ' ':
			done()
			head = map[string]string{}
			for _, m := range monitorField.FindAllStringSubmatch(line, -1) {
				head[m[1]] = m[2]
			}
		case head == nil:
		case topLevelArg.MatchString(line):
			args = append(args, strings.TrimPrefix(line, "   "))
		case len(args) > 0:
			args[len(args)-1] += "\n" + line
		}
		// Both messages the test waits for are complete at their last
		// argument; the next message may be long in coming.
		if head != nil && (head["member"] == "Notify" && len(args) == 8 || head["interface"] == markerInterface && len(args) == 1) {
			done()
		}
	}
	done()
}

// strArg is the value of a `string "…"` argument.
func strArg(arg string) (string, bool) {
	if !strings.HasPrefix(arg, `string "`) || !strings.HasSuffix(arg, `"`) || len(arg) < len(`string ""`) {
		return "", false
	}
	return arg[len(`string "`) : len(arg)-1], true
}

func (b *notifyBus) record(head map[string]string, args []string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case head["interface"] == "org.freedesktop.Notifications" && head["member"] == "Notify":
		// Notify(app_name s, replaces_id u, app_icon s, summary s, body s, actions as, hints a{sv}, timeout i)
		var strs []string
		for _, a := range args {
			if s, ok := strArg(a); ok {
				strs = append(strs, s)
			}
		}
		n := notice{sender: head["sender"]}
		if len(strs) >= 4 {
			n.app, n.summary, n.body = strs[0], strs[2], strs[3]
		} else {
			n.body = "(unreadable: " + strings.Join(args, " | ") + ")"
		}
		b.seen = append(b.seen, n)
	case head["interface"] == markerInterface && len(args) == 1:
		if s, ok := strArg(args[0]); ok {
			b.marks[s] = true
		}
	default:
		return
	}
	close(b.changed)
	b.changed = make(chan struct{})
}

func (b *notifyBus) notes() []notice {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]notice(nil), b.seen...)
}

// waitFor waits until cond holds (under b.mu) or timeout passes.
func (b *notifyBus) waitFor(timeout time.Duration, cond func() bool) bool {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		b.mu.Lock()
		ok, ch := cond(), b.changed
		b.mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-ch:
		case <-deadline.C:
			return false
		}
	}
}

// waitNotes waits for n Notify calls and returns them all.
func (b *notifyBus) waitNotes(t *testing.T, n int, timeout time.Duration) []notice {
	t.Helper()
	if !b.waitFor(timeout, func() bool { return len(b.seen) >= n }) {
		t.Fatalf("%d Notify calls within %s, want %d: %v", len(b.notes()), timeout, n, b.notes())
	}
	return b.notes()
}

// waitMark sends markers until one comes back through dbus-monitor, and
// reports whether one did within timeout.
func (b *notifyBus) waitMark(t *testing.T, timeout time.Duration) bool {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var sent []string
	for time.Now().Before(deadline) {
		b.mu.Lock()
		b.markSeq++
		id := "mark-" + strconv.Itoa(b.markSeq)
		b.mu.Unlock()
		if out, err := b.send("--type=signal", "/app/latch/e2e", markerInterface+".Flush", "string:"+id); err != nil {
			t.Logf("dbus-send marker: %v %s", err, out)
		}
		sent = append(sent, id)
		if b.waitFor(500*time.Millisecond, func() bool {
			for _, s := range sent {
				if b.marks[s] {
					return true
				}
			}
			return false
		}) {
			return true
		}
	}
	return false
}

// flush returns every Notify call the bus carried until now.
func (b *notifyBus) flush(t *testing.T) []notice {
	t.Helper()
	if !b.waitMark(t, 30*time.Second) {
		t.Fatal("dbus-monitor stopped printing")
	}
	return b.notes()
}

// waitShown waits until dunst shows want notifications (none goes away:
// they have no timeout) and none waits or has gone to its history.
func (b *notifyBus) waitShown(t *testing.T, want int) {
	t.Helper()
	var out []byte
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		cmd := exec.CommandContext(ctx, "dunstctl", "count")
		cmd.Env = b.env
		var err error
		out, err = cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("dunstctl count: %v %s", err, out)
		}
		counts := map[string]int{}
		for _, line := range strings.Split(string(out), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok {
				counts[strings.TrimSpace(k)], _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		if counts["Currently displayed"] == want && counts["Waiting"] == 0 && counts["History"] == 0 {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Errorf("dunst does not show %d notifications:\n%s", want, out)
}
