//go:build e2e

// The folder chooser of the grant dialog, end to end (issue 15 item 2).
//
// TestE2EPortalChooser: the real xdg-desktop-portal, with its GTK backend,
// on a private session bus (XDG_CURRENT_DESKTOP=GNOME); the GTK chooser is
// driven by keyboard under Xvfb. TestE2EFallbackChooser: the same on a bus
// with no portal, where Latch's own chooser takes its place at once. In
// both, a read outside the project is refused after the turn, the grant
// dialog offers the file's folder, the person chooses its parent instead
// with Browse…, grants it for reading and writing, and that folder — not
// the one offered — reaches the project's settings file and lets the
// retried read run.
package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/latch-app/latch/internal/testsupport/fakeapi"
)

// chooserTitle is the title Latch gives the chooser of a folder to grant,
// the GTK dialog's window name.
const chooserTitle = "Choose a folder to grant to Claude"

func TestE2EPortalChooser(t *testing.T) {
	r := newChooserRig(t, true)
	r.openChooser("e2e_portal")

	// The portal was asked as Latch asks it: the chooser's title, modal to
	// Latch's window, opening at the folder offered.
	call := r.mon.wait(t, 30*time.Second, "the OpenFile call", isOpenFile)
	parent, title, start := openFileArgs(call)
	if title != chooserTitle {
		t.Errorf("OpenFile title %q, want %q", title, chooserTitle)
	}
	if xid, err := strconv.ParseUint(r.win, 10, 64); err != nil || parent != fmt.Sprintf("x11:%x", xid) {
		t.Errorf("OpenFile parent window %q, want x11:<Latch's window %s in hex>", parent, r.win)
	}
	if start != r.offered {
		t.Errorf("OpenFile current_folder %q, want the folder offered, %s", start, r.offered)
	}

	// The GTK chooser, by keyboard. The portal (1.16, Debian 12's) does
	// not pass current_folder on for OpenFile, so GTK opens on Recent,
	// where Choose is off and Enter does nothing: Alt+Home goes to the
	// home folder first. Ctrl+L opens the
	// location field. GTK completes a typed folder inline with its first
	// subfolder, selected ("shared/" becomes "shared/deep/"), and Enter
	// takes that completion: Delete drops it (the completion comes with
	// the keystroke that typed the "/", so it is there, or not at all,
	// when Delete arrives; deleting never completes). Enter then chooses
	// the folder typed: one Enter, as SELECT_FOLDER takes a folder path.
	gtk := r.waitWindow(chooserTitle, 60*time.Second)
	// There is no window manager: the chooser is at the screen's corner,
	// over Latch's window. Moved down and right (its foot off the screen),
	// the screenshot shows both, and Latch's note that it waits for it.
	r.xdo(10*time.Second, "windowmove", "--sync", gtk, "160", "480")
	r.xdo(10*time.Second, "windowfocus", "--sync", gtk)
	r.key("alt+Home")
	r.shot("e2e_portal_gtk_open")
	r.key("ctrl+l")
	r.typeText(r.chosen + "/")
	r.key("Delete")
	r.shot("e2e_portal_gtk_typed")
	r.key("Return")

	resp := r.mon.wait(t, 30*time.Second, "the portal's Response", func(m busMsg) bool {
		return m.kind == "signal" && strings.Contains(m.head, "member=Response") && wholeArgs(m)
	})
	if !strings.Contains(resp.body, "uint32 0") || !strings.Contains(resp.body, `"file://`+r.chosen+`"`) {
		t.Fatalf("the portal answered\n%s\nwant success with file://%s", resp.body, r.chosen)
	}
	r.waitWindowGone(chooserTitle, 30*time.Second)
	r.xdo(10*time.Second, "windowfocus", "--sync", r.win)
	r.grantChosen("e2e_portal")
}

func TestE2EFallbackChooser(t *testing.T) {
	r := newChooserRig(t, false)
	pressed := r.openChooser("e2e_fallback")

	// Latch asked the portal, the bus said at once that there is none, and
	// Latch's chooser took its place: no wait for a D-Bus timeout.
	call := r.mon.wait(t, 30*time.Second, "the OpenFile call", isOpenFile)
	if _, title, _ := openFileArgs(call); title != chooserTitle {
		t.Errorf("OpenFile title %q, want %q", title, chooserTitle)
	}
	fail := r.mon.wait(t, 30*time.Second, "the bus's answer to OpenFile", func(m busMsg) bool {
		return m.dest == call.sender && m.replyTo == call.serial
	})
	if fail.kind != "error" || !strings.Contains(fail.head, "ServiceUnknown") {
		t.Errorf("the bus answered OpenFile with %s, want the error ServiceUnknown", fail.head)
	}
	if d := fail.stamp - call.stamp; d > 0.5 {
		t.Errorf("the bus answered OpenFile after %.3f s", d)
	}
	if d := fail.seen.Sub(pressed); d > 3*time.Second {
		t.Errorf("the portal's failure came %v after Browse… was pressed; it must be at once", d)
	} else {
		t.Logf("no portal: known %v after Browse… was pressed", d.Round(time.Millisecond))
	}
	// Latch's chooser is up (the frame after the failure) with the folder
	// offered in its path field, selected: typing replaces it.
	r.settle()
	r.shot("e2e_fallback_chooser")
	r.typeText(r.chosen)
	r.settle()
	r.shot("e2e_fallback_chooser_typed")
	r.key("Return")
	r.settle()
	r.grantChosen("e2e_fallback")
}

// chooserRig is a desk (e2e_test.go) on its own Xvfb, large enough for the
// GTK chooser (about 1100x820), with its own session bus and a monitor on
// that bus.
type chooserRig struct {
	*desk
	bus     string // the session bus address Latch is given
	mon     *busMonitor
	chosen  string // <outside>/shared: the folder the person chooses
	offered string // <outside>/shared/deep: the folder of the file read, which the dialog offers
	data    string // <outside>/shared/deep/notes.txt
	secret  string // in data
}

func newChooserRig(t *testing.T, portal bool) *chooserRig {
	bin := os.Getenv("LATCH_BIN")
	if bin == "" {
		t.Fatal("LATCH_BIN is not set: run this through `make test-e2e`")
	}
	for _, tool := range []string{"Xvfb", "xdotool", "import", "dbus-daemon", "dbus-monitor"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s: %v (make deps installs it)", tool, err)
		}
	}
	claude := fakeapi.CLIPath(t)
	display := chooserXvfb(t)
	api, err := fakeapi.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(api.Close)
	d := &desk{t: t, display: display, bin: bin, claude: claude, api: api, home: t.TempDir(), xdg: t.TempDir()}
	d.work = filepath.Join(d.home, "project")
	os.MkdirAll(d.work, 0o755)
	cfg, _ := json.Marshal(map[string]any{"permission_prompts": "after_turn", "baseline_tools": false, "claude_command": claude})
	os.MkdirAll(filepath.Join(d.xdg, "latch"), 0o700)
	os.WriteFile(filepath.Join(d.xdg, "latch", "config.json"), cfg, 0o600)
	t.Cleanup(func() { fakeapi.TidyTemp(d.work) })

	// The folder read lies outside the project and outside os.TempDir(),
	// which Latch always adds (/tmp: Latch is not given TMPDIR).
	outside, err := os.MkdirTemp("/var/tmp", "latch-e2e-chooser-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(outside) })
	// As Latch shows and saves folders: links resolved.
	if outside, err = filepath.EvalSymlinks(outside); err != nil {
		t.Fatal(err)
	}
	r := &chooserRig{desk: d, chosen: filepath.Join(outside, "shared"), secret: "the secret is 5081"}
	r.offered = filepath.Join(r.chosen, "deep")
	r.data = filepath.Join(r.offered, "notes.txt")
	os.MkdirAll(r.offered, 0o755)
	os.WriteFile(r.data, []byte(r.secret+"\n"), 0o644)

	// The desktop session: what the portal and its backend inherit from
	// the bus. GSETTINGS_BACKEND=memory keeps GTK off dconf (it is not on
	// this bus); NO_AT_BRIDGE keeps it off the accessibility bus.
	runtime := t.TempDir()
	os.Chmod(runtime, 0o700)
	env := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + d.home, "DISPLAY=" + display, "LANG=C.UTF-8",
		"XDG_CURRENT_DESKTOP=GNOME", "XDG_RUNTIME_DIR=" + runtime, "GDK_BACKEND=x11",
		"GSETTINGS_BACKEND=memory", "NO_AT_BRIDGE=1",
	}
	r.bus = startChooserBus(t, env, portal)
	r.mon = startBusMonitor(t, r.bus)

	api.Handle(r.readNotes)
	r.startLatch()
	return r
}

// readNotes is the model: for each prompt it reads the notes, and answers
// in words what the read gave; once refused, it does not insist.
func (r *chooserRig) readNotes(req fakeapi.Request) (fakeapi.Reply, bool) {
	if tr, ok := req.LastToolResult(); ok {
		if tr.IsError {
			return fakeapi.Say(fakeapi.Text("I could not read your notes: permission was refused.")), true
		}
		return fakeapi.Say(fakeapi.Text("Your notes say: " + r.secret + ".")), true
	}
	return fakeapi.Say(fakeapi.Text("Reading your notes."), fakeapi.ToolUse("Read", map[string]string{"file_path": r.data})), true
}

// startLatch starts latch as desk.start does, with the rig's session bus.
func (r *chooserRig) startLatch() {
	d := r.desk
	d.t.Helper()
	d.bus = r.bus
	d.launch()
	d.win = r.waitWindow("Latch", 60*time.Second)
	d.xdo(10*time.Second, "windowfocus", "--sync", d.win)
	r.settle() // the first frame
}

// openChooser runs the turn whose read is refused, waits for the grant
// dialog and presses its Browse… (from the folder's checkbox, which has the
// keyboard: its path field, then Browse…). It returns when Enter was sent.
func (r *chooserRig) openChooser(shot string) time.Time {
	r.typeText("read my notes please")
	r.key("ctrl+Return")
	r.waitRequests(2) // the read, then the answer to its refusal
	// After the turn the CLI exits (its stdin is closed) and Latch asks.
	deadline := time.Now().Add(60 * time.Second)
	for len(processesIn(r.work)) > 0 {
		if time.Now().After(deadline) {
			r.shot("timeout")
			r.t.Fatalf("the CLI still runs after the turn: %v", processesIn(r.work))
		}
		time.Sleep(100 * time.Millisecond)
	}
	r.settle()
	r.shot(shot + "_grant_dialog")
	r.key("Tab")
	r.key("Tab")
	pressed := time.Now()
	r.key("Return")
	return pressed
}

// grantChosen finishes the grant by keyboard once the chooser answered:
// the keyboard is back on Browse…; Tab, Tab is "Read and write", Space
// picks it, Enter grants (the chosen folder's checkbox was ticked by the
// choice). The folder chosen, not the one offered, is then in the
// project's settings (the default scope) as a working folder, and the
// retried read gets the file.
func (r *chooserRig) grantChosen(shot string) {
	t := r.t
	r.settle()
	r.shot(shot + "_picked")
	r.key("Tab")
	r.key("Tab")
	r.key("space")
	r.shot(shot + "_before_grant")
	r.key("Return")

	project := filepath.Join(r.work, ".claude", "settings.local.json")
	user := filepath.Join(r.home, ".claude", "settings.json")
	deadline := time.Now().Add(60 * time.Second)
	for {
		dirs := append(additionalDirs(project), additionalDirs(user)...)
		if slices.Contains(dirs, r.chosen) {
			if slices.Contains(dirs, r.offered) {
				t.Errorf("the folder offered, %s, was granted too: %q", r.offered, dirs)
			}
			break
		}
		if time.Now().After(deadline) {
			r.shot("timeout")
			p, _ := os.ReadFile(project)
			u, _ := os.ReadFile(user)
			t.Fatalf("%s is not in additionalDirectories:\n%s: %s\n%s: %s", r.chosen, project, p, user, u)
		}
		time.Sleep(100 * time.Millisecond)
	}
	r.waitRequests(4) // the retry: the read again, then the answer to its result
	conv := r.api.Conversation()
	if tr, ok := conv[len(conv)-1].LastToolResult(); !ok || tr.IsError || !strings.Contains(tr.Text, r.secret) {
		t.Errorf("the retried read reported %+v, want the file's content", tr)
	}
	r.settle()
	r.shot(shot + "_granted")
	r.quit()
}

// additionalDirs reads permissions.additionalDirectories of a settings file.
func additionalDirs(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var s struct {
		Permissions struct {
			AdditionalDirectories []string `json:"additionalDirectories"`
		} `json:"permissions"`
	}
	json.Unmarshal(b, &s)
	return s.Permissions.AdditionalDirectories
}

// waitWindow waits for a visible window named exactly name and returns its
// id; on a timeout it names the windows there are.
func (r *chooserRig) waitWindow(name string, timeout time.Duration) string {
	r.t.Helper()
	// Asked again and again, not once with --sync: xdotool exits on the X
	// error a window closing under its walk raises (desk.window).
	var err error
	for deadline := time.Now().Add(timeout); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		var out string
		out, err = r.xdoErr(5*time.Second, "search", "--onlyvisible", "--name", "^"+name+"$")
		if f := strings.Fields(out); len(f) > 0 {
			return f[0]
		}
	}
	r.shot("timeout")
	r.t.Fatalf("no window %q within %v (%v); the windows are: %s", name, timeout, err, r.windowNames())
	return ""
}

// waitWindowGone waits until no visible window is named name.
func (r *chooserRig) waitWindowGone(name string, timeout time.Duration) {
	r.t.Helper()
	for deadline := time.Now().Add(timeout); ; {
		if out, _ := r.xdoErr(5*time.Second, "search", "--onlyvisible", "--name", "^"+name+"$"); strings.TrimSpace(out) == "" {
			return
		}
		if time.Now().After(deadline) {
			r.shot("timeout")
			r.t.Fatalf("the window %q is still there after %v", name, timeout)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (r *chooserRig) windowNames() string {
	out, _ := r.xdoErr(5*time.Second, "search", "--onlyvisible", "--name", ".")
	var names []string
	for _, id := range strings.Fields(out) {
		n, _ := r.xdoErr(5*time.Second, "getwindowname", id)
		names = append(names, fmt.Sprintf("%s %q", id, strings.TrimSpace(n)))
	}
	return strings.Join(names, ", ")
}

// xdoErr is desk.xdo that returns the error instead of failing.
func (r *chooserRig) xdoErr(timeout time.Duration, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "xdotool", args...)
	cmd.Env = append(os.Environ(), "DISPLAY="+r.display)
	out, err := cmd.Output()
	return string(out), err
}

// settle waits until Latch's window has kept its picture for three
// captures in a row (what the last key or event changed is drawn), up to
// 10 s. A blinking text cursor does not count: a few dozen pixels may
// differ.
func (r *chooserRig) settle() {
	var last []byte
	var diffs []int
	quiet := 0
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		time.Sleep(150 * time.Millisecond)
		cmd := exec.Command("import", "-window", r.win, "rgb:-")
		cmd.Env = append(os.Environ(), "DISPLAY="+r.display)
		img, err := cmd.Output()
		if err != nil {
			r.t.Logf("settle: %v", err)
			return
		}
		n := pixelsChanged(last, img)
		diffs = append(diffs, n)
		if n >= 0 && n <= 64 {
			quiet++
		} else {
			quiet = 0
		}
		if quiet == 2 {
			return
		}
		last = img
	}
	r.t.Logf("settle: Latch's window still changes after 10 s (pixels changed between captures: %v)", diffs)
}

// pixelsChanged counts the pixels (RGB triples) that differ between two
// captures of one window; -1 when they cannot be compared.
func pixelsChanged(a, b []byte) int {
	if len(a) != len(b) || len(a) == 0 {
		return -1
	}
	n := 0
	for i := 0; i+2 < len(a); i += 3 {
		if a[i] != b[i] || a[i+1] != b[i+1] || a[i+2] != b[i+2] {
			n++
		}
	}
	return n
}

// chooserXvfb starts an Xvfb of 1280x1024 on a display it picks itself
// (-displayfd: no race with other tests for a free number).
func chooserXvfb(t *testing.T) string {
	rd, wr, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x1024x24", "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{wr}
	if err := cmd.Start(); err != nil {
		t.Fatalf("Xvfb: %v (make deps installs it)", err)
	}
	wr.Close()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	num := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(rd).ReadString('\n')
		num <- strings.TrimSpace(line)
	}()
	select {
	case n := <-num:
		if _, err := strconv.Atoi(n); err != nil {
			t.Fatalf("Xvfb did not come up (it said display %q)", n)
		}
		return ":" + n
	case <-time.After(60 * time.Second):
		t.Fatal("Xvfb did not come up within 60 s")
	}
	return ""
}

// The D-Bus services the portal test's bus may start: the portal, its GTK
// backend, and the permission store the portal asks for. The document
// portal is left out (it mounts a FUSE file system, which a host app's
// folder choice does not use), and so is everything else.
var portalServices = []string{
	"org.freedesktop.portal.Desktop",
	"org.freedesktop.impl.portal.desktop.gtk",
	"org.freedesktop.impl.portal.PermissionStore",
}

// startChooserBus starts a private session bus (dbus-daemon, in a process
// group of its own) with env, and returns its address. With portal, the
// bus starts xdg-desktop-portal and xdg-desktop-portal-gtk on demand, as a
// desktop's session bus does, from the Exec lines of this machine's service
// files; without, it starts nothing, as on a desktop without a portal.
// Every process the bus started carries a marker in its environment;
// cleanup ends them, then the bus, and fails the test if any is left.
func startChooserBus(t *testing.T, env []string, portal bool) string {
	dir := t.TempDir()
	services := filepath.Join(dir, "services")
	os.MkdirAll(services, 0o755)
	if portal {
		for _, name := range portalServices {
			exe := serviceExec(t, name)
			unit := fmt.Sprintf("[D-BUS Service]\nName=%s\nExec=%s\n", name, exe)
			os.WriteFile(filepath.Join(services, name+".service"), []byte(unit), 0o644)
		}
	}
	conf := filepath.Join(dir, "bus.conf")
	os.WriteFile(conf, []byte(`<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=`+filepath.Join(dir, "bus")+`</listen>
  <auth>EXTERNAL</auth>
  <servicedir>`+services+`</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`), 0o644)

	marker := "LATCH_E2E_CHOOSER_BUS=" + dir
	rd, wr, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	cmd := exec.Command("dbus-daemon", "--config-file="+conf, "--nofork", "--nopidfile", "--print-address=3")
	cmd.Env = append(env, marker)
	cmd.Dir = dir
	cmd.ExtraFiles = []*os.File{wr}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	logf, _ := os.Create(filepath.Join(artifacts(t), strings.ReplaceAll(t.Name(), "/", "_")+"_bus.log"))
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatalf("dbus-daemon: %v (make deps installs it)", err)
	}
	wr.Close()
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		// The services first, while the bus is there to reap them, then
		// the bus; SIGKILL for whatever SIGTERM leaves.
		for _, daemon := range []bool{false, true} {
			for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
				pids := markedProcesses(marker, cmd.Process.Pid, daemon)
				if len(pids) == 0 {
					break
				}
				for _, pid := range pids {
					syscall.Kill(pid, sig)
				}
				for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline) && len(markedProcesses(marker, cmd.Process.Pid, daemon)) > 0; {
					time.Sleep(50 * time.Millisecond)
				}
			}
		}
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
		logf.Close()
		if left := markedProcesses(marker, 0, false); len(left) > 0 {
			t.Errorf("processes of the test's session still running: %v", left)
		}
	})
	addr := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(rd).ReadString('\n')
		addr <- strings.TrimSpace(line)
	}()
	select {
	case a := <-addr:
		if a == "" {
			t.Fatalf("dbus-daemon printed no address (see %s)", logf.Name())
		}
		return a
	case <-time.After(60 * time.Second):
		t.Fatalf("dbus-daemon gave no address within 60 s (see %s)", logf.Name())
	}
	return ""
}

// serviceExec is the Exec line of this machine's D-Bus service name.
func serviceExec(t *testing.T, name string) string {
	for _, dir := range []string{"/usr/share/dbus-1/services", "/usr/local/share/dbus-1/services"} {
		b, err := os.ReadFile(filepath.Join(dir, name+".service"))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if exe, ok := strings.CutPrefix(strings.TrimSpace(line), "Exec="); ok {
				return exe
			}
		}
	}
	t.Fatalf("no D-Bus service %s on this machine (make deps installs xdg-desktop-portal and xdg-desktop-portal-gtk)", name)
	return ""
}

// markedProcesses lists the processes whose environment holds marker: the
// bus (pid bus) when daemon, the others when not; every one when bus is 0.
func markedProcesses(marker string, bus int, daemon bool) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		environ, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil || !bytes.Contains(environ, []byte(marker+"\x00")) {
			continue
		}
		if stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil {
			if i := bytes.LastIndexByte(stat, ')'); i > 0 && bytes.HasPrefix(stat[i+1:], []byte(" Z")) {
				continue // a zombie: gone, only not reaped yet
			}
		}
		if bus == 0 || (pid == bus) == daemon {
			pids = append(pids, pid)
		}
	}
	return pids
}

// busMonitor records the messages of a bus that concern the portal's
// FileChooser: the calls, the Request signals, and every error.
type busMonitor struct {
	mu   sync.Mutex
	msgs []*busMsg
}

// busMsg is one message as dbus-monitor prints it.
type busMsg struct {
	kind    string    // "method call", "signal", "error", …
	head    string    // its first line
	body    string    // the lines after it
	sender  string    // sender=
	dest    string    // destination=
	serial  string    // serial=
	replyTo string    // reply_serial=
	stamp   float64   // time= (the monitor's clock, seconds)
	seen    time.Time // when the test read it
}

func startBusMonitor(t *testing.T, addr string) *busMonitor {
	cmd := exec.Command("dbus-monitor", "--address", addr,
		"type='method_call',interface='org.freedesktop.portal.FileChooser'",
		"type='signal',interface='org.freedesktop.portal.Request'",
		"type='error'")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatalf("dbus-monitor: %v", err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	m := &busMonitor{}
	go m.read(out)
	// A monitor gives up its own name when it becomes one: then it sees
	// what follows.
	m.wait(t, 30*time.Second, "dbus-monitor to start", func(b busMsg) bool {
		return strings.Contains(b.head, "member=NameLost")
	})
	return m
}

func (m *busMonitor) read(out io.Reader) {
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Text()
		m.mu.Lock()
		if line != "" && line[0] != ' ' {
			msg := &busMsg{head: line, seen: time.Now()}
			msg.kind, _, _ = strings.Cut(line, " time=")
			for _, f := range strings.Fields(line) {
				if v, ok := strings.CutPrefix(f, "time="); ok {
					msg.stamp, _ = strconv.ParseFloat(v, 64)
				}
				if k, v, ok := strings.Cut(f, "="); ok {
					switch k {
					case "sender":
						msg.sender = v
					case "destination":
						msg.dest = v
					case "serial":
						msg.serial = v
					case "reply_serial":
						msg.replyTo = v
					}
				}
			}
			m.msgs = append(m.msgs, msg)
		} else if n := len(m.msgs); n > 0 {
			m.msgs[n-1].body += line + "\n"
		}
		m.mu.Unlock()
	}
}

// wait returns the first message for which match holds (what is printed of
// the last one so far), or fails the test after timeout.
func (m *busMonitor) wait(t *testing.T, timeout time.Duration, what string, match func(busMsg) bool) busMsg {
	t.Helper()
	for deadline := time.Now().Add(timeout); ; {
		m.mu.Lock()
		for _, msg := range m.msgs {
			if match(*msg) {
				found := *msg
				m.mu.Unlock()
				return found
			}
		}
		m.mu.Unlock()
		if time.Now().After(deadline) {
			t.Fatalf("no %s on the bus within %v", what, timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// isOpenFile is a whole FileChooser.OpenFile call.
func isOpenFile(m busMsg) bool {
	return m.kind == "method call" && strings.Contains(m.head, "member=OpenFile") && wholeArgs(m)
}

// wholeArgs: the message, whose last argument is an array or a dictionary
// (OpenFile's options, Response's results), is read to its end.
func wholeArgs(m busMsg) bool {
	return strings.HasSuffix(m.body, "\n   ]\n")
}

// openFileArgs reads an OpenFile call's parent window, title and
// current_folder (without its closing NUL).
func openFileArgs(m busMsg) (parent, title, folder string) {
	lines := strings.Split(m.body, "\n")
	var strs []string
	for i, l := range lines {
		l = strings.TrimSpace(l)
		if s, ok := strings.CutPrefix(l, "string "); ok && len(strs) < 2 {
			strs = append(strs, unquote(s))
		}
		if l == `string "current_folder"` && i+1 < len(lines) {
			v := strings.TrimSpace(lines[i+1])
			if _, after, ok := strings.Cut(v, "array of bytes "); ok {
				folder = unquote(strings.TrimSuffix(after, ` + \0`))
			}
		}
	}
	if len(strs) == 2 {
		parent, title = strs[0], strs[1]
	}
	return parent, title, folder
}

func unquote(s string) string {
	return strings.TrimSuffix(strings.TrimPrefix(s, `"`), `"`)
}
