//go:build e2e

// The app-menu launch (issue 15 item 4): Latch installed by `make install`
// into a fresh home and started the way a desktop starts a menu entry —
// gtk-launch on the entry's id, no terminal, the working folder HOME, a
// session bus — shows its window titled Latch with the installed icon and
// asks for a folder, as it does on a first run.
package e2e

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestE2EAppMenuLaunch launches the installed entry twice: on a session bus
// with this machine's D-Bus services (the desktop's own folder chooser, the
// xdg-desktop-portal one, answers when it is installed), and on a bus with
// no services at all (a desktop without a portal: Latch's own chooser, in
// its window).
func TestE2EAppMenuLaunch(t *testing.T) {
	bin := os.Getenv("LATCH_BIN")
	if bin == "" {
		t.Fatal("LATCH_BIN is not set: run this through `make test-e2e`")
	}
	for _, tool := range []string{"make", "gtk-launch", "dbus-daemon", "dbus-send", "xprop", "tesseract", "convert", "import"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s: %v (make deps installs it)", tool, err)
		}
	}
	t.Run("SessionServices", func(t *testing.T) { menuLaunch(t, bin, true) })
	t.Run("NoPortal", func(t *testing.T) { menuLaunch(t, bin, false) })
}

func menuLaunch(t *testing.T, bin string, services bool) {
	display := menuXvfb(t)
	d := &desk{t: t, display: display}
	home := t.TempDir()
	local := filepath.Join(home, ".local")
	data := filepath.Join(local, "share")
	installed := filepath.Join(local, "bin", "latch")
	shot := "e2e_menu_" + map[bool]string{true: "session_services", false: "no_portal"}[services]

	// make install, as a person runs it: HOME and XDG_DATA_HOME are the
	// fresh home's; the binary is the one under test, not a new build.
	install := exec.Command("make", "--no-print-directory", "install", "PREFIX="+local, "INSTALL_BIN="+bin)
	install.Dir = ".." // the project's Makefile
	install.Env = append(menuBaseEnv(), "HOME="+home, "XDG_DATA_HOME="+data)
	if out, err := menuRun(install, 5*time.Minute); err != nil {
		t.Fatalf("make install: %v\n%s", err, out)
	} else {
		t.Logf("make install:\n%s", out)
	}
	entryPath := filepath.Join(data, "applications", "app.latch.Latch.desktop")
	entry := menuDesktopEntry(t, entryPath)
	if want := installed + " %f"; entry["Exec"] != want {
		t.Errorf("installed Exec=%q, want %q", entry["Exec"], want)
	}
	if entry["Terminal"] != "false" {
		t.Errorf("installed Terminal=%q, want false", entry["Terminal"])
	}
	iconPath := filepath.Join(data, "icons", "hicolor", "512x512", "apps", entry["Icon"]+".png")
	for _, p := range []string{installed, iconPath, filepath.Join(data, "metainfo", "app.latch.Latch.metainfo.xml")} {
		if _, err := os.Stat(p); err != nil {
			t.Fatalf("after make install: %v", err)
		}
	}

	// The desktop session: no terminal, no config yet (so no last folder),
	// the install's data dir as XDG_DATA_HOME, a session bus of its own. A
	// marker in the environment finds every process started from it.
	marker := fmt.Sprintf("LATCH_E2E_MENU=%016x", rand.Uint64())
	run := filepath.Join(home, ".run")
	os.Mkdir(run, 0o700)
	path := os.Getenv("PATH")
	if c := os.Getenv("LATCH_CLAUDE"); c != "" {
		path = filepath.Dir(c) + ":" + path // Claude Code is installed: no "not found" notice
	}
	env := []string{
		"PATH=" + path, "HOME=" + home, "USER=" + os.Getenv("USER"), "LOGNAME=" + os.Getenv("LOGNAME"),
		"LANG=" + menuLang(), "DISPLAY=" + display,
		"XDG_DATA_HOME=" + data, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_RUNTIME_DIR=" + run, marker,
	}
	// The session's log: what the bus, its services, gtk-launch and so
	// Latch write to stdout and stderr.
	logPath := filepath.Join(artifacts(t), shot+".log")
	logf, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	launchedAt := 0 // the log's length when the Latch under test was launched
	t.Cleanup(func() {
		logf.Close()
		// After menuKillAll (cleanups run last first): what Latch wrote
		// until it was ended.
		b, _ := os.ReadFile(logPath)
		if b = b[min(launchedAt, len(b)):]; bytes.Contains(b, []byte("panic:")) || bytes.Contains(b, []byte("fatal error:")) {
			t.Errorf("Latch crashed; its output (%s):\n%s", logPath, b)
		}
	})
	t.Cleanup(func() { menuKillAll(t, marker, home) })
	env = append(env, "DBUS_SESSION_BUS_ADDRESS="+menuBus(t, env, home, services, logf))

	start := func() {
		launch := exec.Command("gtk-launch", "app.latch.Latch")
		launch.Dir = home
		launch.Env = env
		launch.Stdout, launch.Stderr = logf, logf // the session's log; stdin is /dev/null
		launch.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		// gtk-launch starts the entry and exits: Latch is not its child.
		if _, err := menuRun(launch, 60*time.Second); err != nil {
			t.Fatalf("gtk-launch app.latch.Latch: %v (its output: %s)", err, logPath)
		}
	}
	start()
	win := d.windowOf(60*time.Second, "Latch", func() bool {
		// The X server now and then refuses a connection on a busy
		// machine; Latch, unable to open the display, is launched again.
		b, _ := os.ReadFile(logPath)
		if !bytes.Contains(b[min(launchedAt, len(b)):], []byte(displayRefused)) {
			return false
		}
		t.Logf("the X server refused Latch's connection; launching it again")
		launchedAt = len(b)
		start()
		return true
	})
	if name := strings.TrimSpace(d.xdo(5*time.Second, "getwindowname", win)); name != "Latch" {
		t.Errorf("window title %q, want Latch", name)
	}

	// The window is the installed Latch, started as the entry says, with no
	// terminal and in HOME.
	pid, err := strconv.Atoi(strings.TrimSpace(d.xdo(5*time.Second, "getwindowpid", win)))
	if err != nil {
		t.Fatalf("the window's _NET_WM_PID: %v", err)
	}
	proc := fmt.Sprintf("/proc/%d", pid)
	if exe, _ := os.Readlink(proc + "/exe"); exe != installed {
		t.Errorf("the window's process runs %q, want the installed %q", exe, installed)
	}
	if cmdline, _ := os.ReadFile(proc + "/cmdline"); string(cmdline) != installed+"\x00" {
		t.Errorf("the window's process was started as %q, want %q alone (Exec's %%f with no file)", cmdline, installed)
	}
	if cwd, _ := os.Readlink(proc + "/cwd"); cwd != home {
		t.Errorf("Latch's working folder is %q, want HOME %q", cwd, home)
	}
	if environ, _ := os.ReadFile(proc + "/environ"); !bytes.Contains(environ, []byte(marker+"\x00")) {
		t.Error("the window's process was not started from this test's gtk-launch")
	}
	stat, _ := os.ReadFile(proc + "/stat")
	if f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:])); len(f) < 5 || f[4] != "0" {
		t.Errorf("Latch has a controlling terminal (tty_nr %v)", f)
	}
	for fd := 0; fd <= 2; fd++ {
		target, _ := os.Readlink(fmt.Sprintf("%s/fd/%d", proc, fd))
		if strings.HasPrefix(target, "/dev/pts/") || strings.HasPrefix(target, "/dev/tty") || target == "/dev/console" {
			t.Errorf("Latch's fd %d is the terminal %s", fd, target)
		}
		t.Logf("Latch's fd %d: %s", fd, target)
	}

	// The desktop finds the entry for the window by its class, and takes
	// the entry's icon; the window's own icon is the installed one, pixel
	// for pixel (Latch sets it from the copy in its binary).
	class := menuXprop(t, display, win, "WM_CLASS")
	if want := `"` + entry["StartupWMClass"] + `"`; entry["StartupWMClass"] == "" || !strings.Contains(class, want) {
		t.Errorf("%s does not name the entry's StartupWMClass=%s", strings.TrimSpace(class), entry["StartupWMClass"])
	} else {
		t.Logf("%s, the entry's StartupWMClass=%s", strings.TrimSpace(class), entry["StartupWMClass"])
	}
	menuCheckIcon(t, display, win, iconPath)

	// The first-run question: a folder chooser. Where the bus can start a
	// portal with a backend, the desktop's: a window of its own, of a
	// process of this session other than Latch. Else Latch's own, in its
	// window, read by OCR.
	portal := menuPortal(t, env)
	t.Logf("the bus can start a portal with a backend: %v", portal)
	deadline := time.Now().Add(90 * time.Second)
	for {
		if chooser, name, owner := menuChooserWindow(display, marker, pid); chooser != "" {
			if !portal {
				t.Errorf("a chooser window %q of %s on a bus with no portal", name, owner)
			}
			t.Logf("the folder question: the desktop's chooser %q, window %s of %s", name, chooser, owner)
			// There is no window manager: move the chooser off Latch's
			// folder bar for the screenshot.
			menuXdo(display, "windowsize", chooser, "760", "520")
			menuXdo(display, "windowmove", chooser, "500", "360")
			break
		}
		text := ""
		if !portal {
			text = menuOCR(t, d)
			if m := menuFolderQuestion.FindString(text); m != "" {
				t.Logf("the folder question: %q in Latch's window (OCR)", m)
				break
			}
		}
		if time.Now().After(deadline) {
			d.shot(shot)
			if portal {
				t.Fatalf("no folder chooser window of the portal within 90 s")
			}
			t.Fatalf("no folder question within 90 s; the screen shows:\n%s", text)
		}
		time.Sleep(time.Second)
	}
	time.Sleep(500 * time.Millisecond)
	d.shot(shot)
}

// menuXvfb starts an X server for one subtest. Other tests on this machine
// start theirs at the low numbers (startXvfb's 90–119, -displayfd's 0
// upwards); this one takes a random number from 300 to 999, another when
// that one's server does not come up, and ends it with SIGTERM at cleanup,
// so the server removes its socket and lock.
func menuXvfb(t *testing.T) string {
	for range 20 {
		n := 300 + rand.IntN(700)
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X%d-lock", n)); err == nil {
			continue
		}
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X11-unix/X%d", n)); err == nil {
			continue
		}
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		// With a display number, -displayfd says when the server listens.
		cmd := exec.Command("Xvfb", fmt.Sprintf(":%d", n), "-displayfd", "3", "-screen", "0", "1280x900x24", "-nolisten", "tcp")
		cmd.ExtraFiles = []*os.File{w}
		if xlog, err := os.Create(filepath.Join(artifacts(t), fmt.Sprintf("xvfb-%d.log", n))); err == nil {
			cmd.Stdout, cmd.Stderr = xlog, xlog // what the server says, should it go away
			t.Cleanup(func() { xlog.Close() })
		}
		err = cmd.Start()
		w.Close()
		if err != nil {
			r.Close()
			t.Fatalf("Xvfb: %v (make deps installs it)", err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		ready := make(chan string, 1)
		go func() {
			line, _ := bufio.NewReader(r).ReadString('\n')
			ready <- strings.TrimSpace(line)
		}()
		var got string
		select {
		case got = <-ready:
		case <-time.After(60 * time.Second):
		}
		r.Close()
		if got != strconv.Itoa(n) {
			cmd.Process.Kill()
			<-exited
			continue // taken meanwhile, or the server failed: another number
		}
		t.Cleanup(func() {
			cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-exited:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				<-exited
			}
		})
		display := fmt.Sprintf(":%d", n)
		// Ready is when a client gets in: on a busy machine Latch, started
		// right after -displayfd said the number, at times could not.
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			probe := exec.Command("xwininfo", "-root")
			probe.Env = []string{"DISPLAY=" + display}
			if probe.Run() == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("Xvfb %s takes no client", display)
			}
		}
		return display
	}
	t.Fatal("no X server came up on 20 display numbers")
	return ""
}

// menuPortal says whether the session bus can start xdg-desktop-portal and
// a backend for it (org.freedesktop.impl.portal.desktop.*), which shows the
// desktop's folder chooser.
func menuPortal(t *testing.T, env []string) bool {
	cmd := exec.Command("dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus",
		"/org/freedesktop/DBus", "org.freedesktop.DBus.ListActivatableNames")
	cmd.Env = env
	out, err := menuRun(cmd, 30*time.Second)
	if err != nil {
		t.Fatalf("dbus-send ListActivatableNames: %v %s", err, out)
	}
	return strings.Contains(out, `"org.freedesktop.portal.Desktop"`) &&
		strings.Contains(out, `"org.freedesktop.impl.portal.desktop.`)
}

// menuFolderQuestion is how a folder chooser names itself: "Choose the working
// folder" (Latch's), "Choose a folder", "Open Folder" (Fyne's).
var menuFolderQuestion = regexp.MustCompile(`(?i)\b(choose|open|select)( the| a)?( working)? folder\b`)

// menuChooserWindow finds a visible window, other than Latch's, of a
// process of this session, named as a folder chooser.
func menuChooserWindow(display, marker string, latch int) (win, name, owner string) {
	out, _ := menuXdo(display, "search", "--onlyvisible", "--name", ".")
	for _, w := range strings.Fields(out) {
		n, _ := menuXdo(display, "getwindowname", w)
		p, _ := menuXdo(display, "getwindowpid", w)
		pid, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || pid == latch || !menuFolderQuestion.MatchString(n) {
			continue
		}
		environ, _ := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
		if bytes.Contains(environ, []byte(marker+"\x00")) {
			return w, strings.TrimSpace(n), fmt.Sprintf("%s (pid %d)", bytes.TrimSpace(comm), pid)
		}
	}
	return "", "", ""
}

// menuBaseEnv is the test's environment without what would leak into the
// fresh home: the XDG dirs, and the flags of a make that runs this test.
func menuBaseEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "XDG_") || k == "HOME" || k == "MAKEFLAGS" || k == "MFLAGS" || k == "MAKELEVEL" {
			continue
		}
		env = append(env, kv)
	}
	return env
}

func menuLang() string {
	if l := os.Getenv("LANG"); l != "" {
		return l
	}
	return "C.UTF-8"
}

// menuRun runs cmd to its end within timeout and returns its output (or
// what it wrote to its own Stdout/Stderr).
func menuRun(cmd *exec.Cmd, timeout time.Duration) (string, error) {
	var buf bytes.Buffer
	if cmd.Stdout == nil {
		cmd.Stdout, cmd.Stderr = &buf, &buf
	}
	if err := cmd.Start(); err != nil {
		return "", err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return buf.String(), err
	case <-time.After(timeout):
		cmd.Process.Kill()
		<-done
		return buf.String(), fmt.Errorf("still running after %v", timeout)
	}
}

// menuBus starts the session's D-Bus daemon and returns its address. With
// services it is the standard session bus, which starts this machine's
// D-Bus services on demand; without, a bus that can start none.
func menuBus(t *testing.T, env []string, home string, services bool, log *os.File) string {
	args := []string{"--session"}
	if !services {
		conf := filepath.Join(home, ".run", "bus.conf")
		os.WriteFile(conf, []byte(`<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`), 0o600)
		args = []string{"--config-file=" + conf}
	}
	bus := exec.Command("dbus-daemon", append(args, "--nofork", "--nopidfile", "--print-address")...)
	bus.Env = env
	bus.Dir = home
	bus.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	stdout, err := bus.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	bus.Stderr = log
	if err := bus.Start(); err != nil {
		t.Fatalf("dbus-daemon: %v", err)
	}
	go bus.Wait() // menuKillAll ends it, last
	addr := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		addr <- strings.TrimSpace(line)
		// Keep the pipe read so the daemon never blocks on it.
		var sink [512]byte
		for {
			if _, err := stdout.Read(sink[:]); err != nil {
				return
			}
		}
	}()
	select {
	case a := <-addr:
		if a == "" {
			t.Fatalf("dbus-daemon printed no address (its output: %s)", log.Name())
		}
		return a
	case <-time.After(30 * time.Second):
		t.Fatalf("dbus-daemon gave no address within 30 s (its output: %s)", log.Name())
	}
	return ""
}

// menuKillAll ends every process started in the session (the environment
// marker finds them: Latch, the D-Bus services the bus started, whatever
// they started), the bus daemons last, as a session ends; waits for them to
// go; and unmounts what they left mounted under home (the document
// portal's FUSE mount).
func menuKillAll(t *testing.T, marker, home string) {
	find := func(daemons bool) []int {
		var pids []int
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil || pid == os.Getpid() {
				continue
			}
			environ, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
			comm, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "comm"))
			if err == nil && bytes.Contains(environ, []byte(marker+"\x00")) &&
				(string(bytes.TrimSpace(comm)) == "dbus-daemon") == daemons {
				pids = append(pids, pid)
			}
		}
		return pids
	}
	for _, daemons := range []bool{false, true} {
		for i, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
			pids := find(daemons)
			if len(pids) == 0 {
				break
			}
			if i == 0 {
				t.Logf("cleanup: ending %v", pids)
			}
			for _, pid := range pids {
				syscall.Kill(pid, sig)
			}
			for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline) && len(find(daemons)) > 0; {
				time.Sleep(100 * time.Millisecond)
			}
		}
		if left := find(daemons); len(left) > 0 {
			t.Errorf("cleanup: processes of the session still running: %v", left)
		}
	}
	mounts, _ := os.ReadFile("/proc/self/mountinfo")
	for _, line := range strings.Split(string(mounts), "\n") {
		if f := strings.Fields(line); len(f) > 4 && strings.HasPrefix(f[4], home+"/") {
			out, err := exec.Command("fusermount3", "-u", "-z", f[4]).CombinedOutput()
			t.Logf("cleanup: unmounting %s: %v %s", f[4], err, out)
		}
	}
}

// menuDesktopEntry reads the keys of a .desktop file's [Desktop Entry].
func menuDesktopEntry(t *testing.T, path string) map[string]string {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the installed entry: %v", err)
	}
	keys := map[string]string{}
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			in = line == "[Desktop Entry]"
			continue
		}
		if k, v, ok := strings.Cut(line, "="); in && ok {
			keys[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return keys
}

// menuXdo runs xdotool on the display; unlike desk.xdo, finding nothing is
// not a failure.
func menuXdo(display string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "xdotool", args...)
	cmd.Env = append(os.Environ(), "DISPLAY="+display)
	out, err := cmd.Output()
	return string(out), err
}

func menuXprop(t *testing.T, display, win string, args ...string) string {
	t.Helper()
	cmd := exec.Command("xprop", append([]string{"-id", win}, args...)...)
	cmd.Env = append(os.Environ(), "DISPLAY="+display)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("xprop %v: %v", args, err)
	}
	return string(out)
}

// menuCheckIcon compares the window's _NET_WM_ICON with the installed PNG:
// the same size and the same ARGB pixels.
func menuCheckIcon(t *testing.T, display, win, iconPath string) {
	t.Helper()
	out := menuXprop(t, display, win, "-len", "67108864", "-notype", "-f", "_NET_WM_ICON", "32c", "_NET_WM_ICON")
	_, list, ok := strings.Cut(out, "=")
	if !ok {
		t.Errorf("the window has no _NET_WM_ICON: %s", out)
		return
	}
	var vals []uint32
	for _, s := range strings.Split(list, ",") {
		v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 32)
		if err != nil {
			t.Errorf("_NET_WM_ICON: %v", err)
			return
		}
		vals = append(vals, uint32(v))
	}
	f, err := os.Open(iconPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", iconPath, err)
	}
	b := img.Bounds()
	if len(vals) < 2 || int(vals[0]) != b.Dx() || int(vals[1]) != b.Dy() || len(vals) < 2+b.Dx()*b.Dy() {
		t.Errorf("_NET_WM_ICON is %v×%v (%d values); the installed icon %s is %d×%d",
			vals[0], vals[1], len(vals), iconPath, b.Dx(), b.Dy())
		return
	}
	diff := 0
	for y := 0; y < b.Dy(); y++ {
		for x := 0; x < b.Dx(); x++ {
			c := color.NRGBAModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA)
			want := uint32(c.A)<<24 | uint32(c.R)<<16 | uint32(c.G)<<8 | uint32(c.B)
			if vals[2+y*b.Dx()+x] != want {
				diff++
			}
		}
	}
	if diff > 0 {
		t.Errorf("_NET_WM_ICON differs from the installed icon %s in %d of %d pixels", iconPath, diff, b.Dx()*b.Dy())
	} else {
		t.Logf("_NET_WM_ICON is the installed icon %s (%d×%d), pixel for pixel", iconPath, b.Dx(), b.Dy())
	}
	if extra := len(vals) - 2 - b.Dx()*b.Dy(); extra != 0 {
		t.Logf("_NET_WM_ICON holds %d more values after the first icon", extra)
	}
}

var menuSpaces = regexp.MustCompile(`[ \t]+`)

// menuOCR reads the screen's text: a screenshot, grey, enlarged, once as it
// is and once inverted, so light text on a dark theme is read as well.
func menuOCR(t *testing.T, d *desk) string {
	dir, err := os.MkdirTemp("", "latch-ocr-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	raw := filepath.Join(dir, "screen.png")
	for try := 1; ; try++ {
		shot := exec.Command("import", "-window", "root", raw)
		shot.Env = append(os.Environ(), "DISPLAY="+d.display)
		out, err := shot.CombinedOutput()
		if err == nil {
			break
		}
		if try < 3 { // the X server now and then refuses a connection
			time.Sleep(100 * time.Millisecond)
			continue
		}
		t.Logf("screenshot for OCR: %v %s", err, out)
		return ""
	}
	var text strings.Builder
	for i, extra := range [][]string{nil, {"-negate"}} {
		prep := filepath.Join(dir, fmt.Sprintf("ocr%d.png", i))
		args := append([]string{raw, "-colorspace", "Gray", "-resize", "200%"}, extra...)
		if out, err := exec.Command("convert", append(args, prep)...).CombinedOutput(); err != nil {
			t.Logf("convert: %v %s", err, out)
			continue
		}
		out, err := exec.Command("tesseract", prep, "stdout").Output()
		if err != nil {
			t.Logf("tesseract: %v", err)
			continue
		}
		text.WriteString(menuSpaces.ReplaceAllString(string(out), " "))
	}
	return text.String()
}
