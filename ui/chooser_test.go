package ui

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver"
	"github.com/godbus/dbus/v5"
)

// nativeWin is a test window that says it is X11 window xid, as Fyne's
// GLFW windows do.
type nativeWin struct {
	fyne.Window
	xid uintptr
}

func (w nativeWin) RunNative(f func(any)) { f(driver.X11WindowContext{WindowHandle: w.xid}) }

func TestWindowHandle(t *testing.T) {
	h := newHarness(t)
	if got := windowHandle(nativeWin{h.mw.win, 0x3a00007}); got != "x11:3a00007" {
		t.Errorf("got %q", got)
	}
	if got := windowHandle(nativeWin{h.mw.win, 0}); got != "" {
		t.Errorf("a window not yet shown: got %q", got)
	}
	if got := windowHandle(h.mw.win); got != "" {
		t.Errorf("the test driver's window: got %q", got)
	}
}

func TestURIPath(t *testing.T) {
	for uri, want := range map[string]string{
		"file:///tmp/a%20b":          "/tmp/a b",
		"file:///tmp/c++":            "/tmp/c++",
		"file:///tmp/100%25":         "/tmp/100%",
		"file:///tmp/x/":             "/tmp/x",
		"file://localhost/tmp/x":     "/tmp/x",
		"file:///tmp/%E2%80%AEe%0Ax": "/tmp/\u202ee\nx",
	} {
		if got, err := uriPath(uri); err != nil || got != want {
			t.Errorf("uriPath(%q) = %q, %v; want %q", uri, got, err, want)
		}
	}
	for _, uri := range []string{"https://example.com/x", "file://host/tmp/x", "/tmp/x", "file:relative"} {
		if got, err := uriPath(uri); err == nil {
			t.Errorf("uriPath(%q) = %q, want an error", uri, got)
		}
	}
}

// portalCall is one OpenFile the stand-in for the portal was asked.
type portalCall struct {
	ask   folderAsk
	shown func(close func())
	reply chan portalReply
}

type portalReply struct {
	path string
	ok   bool
	err  error
}

// standInPortal replaces openPortal: each call goes to the test, which
// answers it.
func standInPortal(t *testing.T) chan portalCall {
	t.Helper()
	calls := make(chan portalCall, 4)
	old := openPortal
	t.Cleanup(func() { openPortal = old })
	openPortal = func(ask folderAsk, shown func(close func())) (string, bool, error) {
		c := portalCall{ask: ask, shown: shown, reply: make(chan portalReply, 1)}
		calls <- c
		r := <-c.reply
		return r.path, r.ok, r.err
	}
	return calls
}

func nextCall(t *testing.T, calls chan portalCall) portalCall {
	t.Helper()
	select {
	case c := <-calls:
		return c
	case <-time.After(5 * time.Second):
		t.Fatal("the portal was not asked")
		return portalCall{}
	}
}

// The portal is asked with the window that asked as parent, a title that
// says what the folder is for, and the folder in question.
func TestPortalIsAskedForTheFolderInQuestion(t *testing.T) {
	root := pickerTree(t)
	calls := standInPortal(t)
	h := newHarness(t)

	t.Run("Change folder", func(t *testing.T) {
		h.mw.pickFolder()
		c := nextCall(t, calls)
		if c.ask.title != workFolderTitle || c.ask.start != h.mw.workdir || c.ask.parent != "" {
			t.Errorf("asked %+v, want %q at %q", c.ask, workFolderTitle, h.mw.workdir)
		}
		c.reply <- portalReply{} // cancelled
		h.q.waitOne(t)
		if overlayUp(h.c) || h.mw.modals.active() || h.c.Focused() != h.mw.prompt {
			t.Errorf("after a cancel: overlay %v, prompt focused %v", overlayUp(h.c), h.c.Focused() == h.mw.prompt)
		}
	})

	t.Run("the grant dialog's Browse", func(t *testing.T) {
		res, d := openGrants(t, h, folderRequest(root, filepath.Join(root, "beta", "not-yet", "x")))
		h.c.Focus(d.browses[0])
		press(h.c, fyne.KeyReturn)
		c := nextCall(t, calls)
		if c.ask.title != grantFolderTitle || c.ask.start != filepath.Join(root, "beta") {
			t.Errorf("asked %+v, want %q at the nearest existing folder %q", c.ask, grantFolderTitle, filepath.Join(root, "beta"))
		}
		c.reply <- portalReply{path: filepath.Join(root, "alpha"), ok: true}
		h.q.waitOne(t)
		if d.folders[0].Text != filepath.Join(root, "alpha") || !d.folderChecks[0].Checked || h.mw.modals.top() != d.m {
			t.Errorf("folder %q, ticked %v, top dialog %T", d.folders[0].Text, d.folderChecks[0].Checked, h.mw.modals.top().owner)
		}
		press(h.c, fyne.KeyEscape)
		answer(t, res)
	})

	t.Run("the parent is the asking window's X11 id", func(t *testing.T) {
		st := &modalStack{win: nativeWin{h.mw.win, 0x4e0000a}}
		h.mw.askFolder(st, nil, grantFolderTitle, root, func(string) {})
		c := nextCall(t, calls)
		if c.ask.parent != "x11:4e0000a" {
			t.Errorf("parent %q", c.ask.parent)
		}
		c.reply <- portalReply{}
		h.q.waitOne(t)
		if st.active() {
			t.Error("a dialog is left on the stack")
		}
	})
}

// While the desktop's chooser is open, the dialog that asked waits under
// Latch's note, whose Esc closes the desktop's chooser and changes nothing.
func TestPortalChooserKeepsTheDialogWaiting(t *testing.T) {
	root := pickerTree(t)
	calls := standInPortal(t)
	h := newHarness(t)
	res, d := openGrants(t, h, folderRequest(root, filepath.Join(root, "beta")))
	h.c.Focus(d.browses[0])
	press(h.c, fyne.KeyReturn)
	c := nextCall(t, calls)
	closed := make(chan struct{})
	c.shown(func() { close(closed) })
	h.q.waitOne(t) // the chooser is up
	w, ok := h.mw.modals.top().owner.(*portalWait)
	if !ok || w.m.parent != d.m || len(h.c.Overlays().List()) != 2 {
		t.Fatalf("top dialog %T, %d overlays; want Latch's note over the grant dialog", h.mw.modals.top().owner, len(h.c.Overlays().List()))
	}
	if txt := labels(h.c.Overlays().Top()); !strings.Contains(txt, grantFolderTitle) || !strings.Contains(txt, "desktop's chooser") {
		t.Errorf("the note says\n%s", txt)
	}
	typeRunes(h.c, "14x") // the grant dialog's keys do nothing
	press(h.c, fyne.KeyTab)
	select {
	case got := <-res:
		t.Fatalf("the grant dialog answered while the chooser was open: %+v", got)
	case <-closed:
		t.Fatal("a key closed the chooser")
	default:
	}
	press(h.c, fyne.KeyEscape)
	select {
	case <-closed:
	default:
		t.Fatal("Esc did not close the desktop's chooser")
	}
	c.reply <- portalReply{} // the portal says: closed, nothing chosen
	h.q.waitOne(t)
	if h.mw.modals.top() != d.m || len(h.c.Overlays().List()) != 1 || d.folders[0].Text != filepath.Join(root, "beta") || d.folderChecks[0].Checked {
		t.Errorf("after Esc: top %T, %d overlays, folder %q, ticked %v", h.mw.modals.top().owner,
			len(h.c.Overlays().List()), d.folders[0].Text, d.folderChecks[0].Checked)
	}

	// The dialog going down while the chooser is open closes it too, and
	// what it answers later is dropped.
	press(h.c, fyne.KeyReturn)
	h.c.Focus(d.browses[0])
	press(h.c, fyne.KeyReturn)
	c = nextCall(t, calls)
	closed = make(chan struct{})
	c.shown(func() { close(closed) })
	h.q.waitOne(t)
	d.m.Hide()
	select {
	case <-closed:
	default:
		t.Fatal("the desktop's chooser outlived the dialog it was for")
	}
	c.reply <- portalReply{path: filepath.Join(root, "alpha"), ok: true}
	h.q.waitOne(t)
	if overlayUp(h.c) || d.folders[0].Text != filepath.Join(root, "beta") {
		t.Errorf("overlay %v, folder %q", overlayUp(h.c), d.folders[0].Text)
	}
}

// With no session bus, the portal fails at once and Latch's own chooser
// is up within 500 ms of Browse.
func TestNoSessionBusFallsBackFast(t *testing.T) {
	root := pickerTree(t)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+filepath.Join(t.TempDir(), "no-such-socket"))
	start := time.Now()
	_, _, err := portalFolder(folderAsk{title: grantFolderTitle, start: root}, nil)
	if err == nil || time.Since(start) > 500*time.Millisecond {
		t.Fatalf("portalFolder: %v after %v", err, time.Since(start))
	}

	h := newHarness(t)
	_, d := openGrants(t, h, folderRequest(root, filepath.Join(root, "beta")))
	h.c.Focus(d.browses[0])
	start = time.Now()
	press(h.c, fyne.KeyReturn)
	h.q.waitOne(t)
	took := time.Since(start)
	fp, ok := h.mw.modals.top().owner.(*folderPicker)
	if !ok || took > 500*time.Millisecond {
		t.Fatalf("after %v the top dialog is %T, want Latch's chooser within 500 ms", took, h.mw.modals.top().owner)
	}
	if h.c.Focused() != fp.path || fp.path.Text != filepath.Join(root, "beta")+"/" {
		t.Errorf("focus %T, field %q", h.c.Focused(), fp.path.Text)
	}
}

// testBus starts a session bus of the test's own (dbus-daemon) whose
// activatable services are services (name → command), and points
// DBUS_SESSION_BUS_ADDRESS at it.
func testBus(t *testing.T, services map[string]string) string {
	t.Helper()
	daemon, err := exec.LookPath("dbus-daemon")
	if err != nil {
		t.Skip("no dbus-daemon")
	}
	dir, err := os.MkdirTemp("", "latchbus") // short: a socket path has 108 bytes
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	svc := filepath.Join(dir, "services")
	if err := os.Mkdir(svc, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, cmd := range services {
		writeFile(t, filepath.Join(svc, name+".service"), "[D-BUS Service]\nName="+name+"\nExec="+cmd+"\n")
	}
	conf := filepath.Join(dir, "bus.conf")
	writeFile(t, conf, `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=`+filepath.Join(dir, "bus")+`</listen>
  <servicedir>`+svc+`</servicedir>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`)
	cmd := exec.Command(daemon, "--config-file="+conf, "--nofork", "--nopidfile", "--print-address=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon: %v", err)
	}
	addr = strings.TrimSpace(addr)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	return addr
}

// fakePortal owns the portal's name on a test bus; with a FileChooser it
// records each OpenFile and answers it with answer.
type fakePortal struct {
	conn   *dbus.Conn
	mu     sync.Mutex
	calls  []fakeOpen
	answer func(p *fakePortal, handle dbus.ObjectPath)
	closed chan dbus.ObjectPath
}

type fakeOpen struct {
	sender, parent, title string
	opts                  map[string]dbus.Variant
	handle                dbus.ObjectPath
}

type fakeChooser struct{ p *fakePortal }

func (f fakeChooser) OpenFile(sender dbus.Sender, parent, title string, opts map[string]dbus.Variant) (dbus.ObjectPath, *dbus.Error) {
	token, _ := opts["handle_token"].Value().(string)
	handle := portalRequestPath(string(sender), token)
	f.p.mu.Lock()
	f.p.calls = append(f.p.calls, fakeOpen{string(sender), parent, title, opts, handle})
	f.p.mu.Unlock()
	if err := f.p.conn.Export(fakeRequest{f.p, handle}, handle, portalRequest); err != nil {
		return "", dbus.MakeFailedError(err)
	}
	if f.p.answer != nil {
		go f.p.answer(f.p, handle)
	}
	return handle, nil
}

type fakeRequest struct {
	p      *fakePortal
	handle dbus.ObjectPath
}

func (r fakeRequest) Close() *dbus.Error {
	r.p.closed <- r.handle
	return nil
}

// respond sends the Response the chooser's end sends.
func (p *fakePortal) respond(handle dbus.ObjectPath, status uint32, uris ...string) {
	results := map[string]dbus.Variant{}
	if uris != nil {
		results["uris"] = dbus.MakeVariant(uris)
	}
	_ = p.conn.Emit(handle, portalResponse, status, results)
}

func newFakePortal(t *testing.T, addr string, fileChooser bool, answer func(*fakePortal, dbus.ObjectPath)) *fakePortal {
	t.Helper()
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	p := &fakePortal{conn: conn, answer: answer, closed: make(chan dbus.ObjectPath, 4)}
	if fileChooser {
		err = conn.Export(fakeChooser{p}, portalObjectPath, "org.freedesktop.portal.FileChooser")
	} else {
		// A portal whose backends offer no FileChooser exports others only.
		err = conn.Export(fakeSettings{}, portalObjectPath, "org.freedesktop.portal.Settings")
	}
	if err != nil {
		t.Fatal(err)
	}
	if r, err := conn.RequestName(portalBusName, dbus.NameFlagDoNotQueue); err != nil || r != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("RequestName: %v %v", r, err)
	}
	return p
}

type fakeSettings struct{}

func (fakeSettings) ReadAll([]string) (map[string]map[string]dbus.Variant, *dbus.Error) {
	return nil, nil
}

// Each way there is no chooser fails within milliseconds, and a portal that
// never starts within portalTimeout.
func TestPortalFailsFast(t *testing.T) {
	ask := folderAsk{title: grantFolderTitle, start: t.TempDir()}
	fails := func(t *testing.T, within time.Duration, want string) {
		t.Helper()
		start := time.Now()
		_, _, err := portalFolder(ask, func(func()) { t.Error("a chooser came up") })
		took := time.Since(start)
		if err == nil || took > within || !strings.Contains(err.Error(), want) {
			t.Errorf("after %v: %v; want an error saying %q within %v", took, err, want, within)
		}
	}
	t.Run("no session bus", func(t *testing.T) {
		t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+filepath.Join(t.TempDir(), "bus"))
		fails(t, 500*time.Millisecond, "no such file")
	})
	t.Run("no portal service", func(t *testing.T) {
		testBus(t, nil)
		fails(t, 500*time.Millisecond, "org.freedesktop.portal.Desktop")
	})
	t.Run("no FileChooser backend", func(t *testing.T) {
		newFakePortal(t, testBus(t, nil), false, nil)
		fails(t, 500*time.Millisecond, "FileChooser")
	})
	t.Run("a portal that does not start", func(t *testing.T) {
		old := portalTimeout
		t.Cleanup(func() { portalTimeout = old })
		portalTimeout = 300 * time.Millisecond
		testBus(t, map[string]string{portalBusName: "/bin/sleep 2"})
		fails(t, 1500*time.Millisecond, errPortalTimeout.Error())
	})
}

// Against a portal on a test bus: what Latch asks for, and each answer.
func TestPortalChooser(t *testing.T) {
	start := t.TempDir()
	ask := folderAsk{parent: "x11:3a00007", title: grantFolderTitle, start: start}

	t.Run("a folder chosen", func(t *testing.T) {
		p := newFakePortal(t, testBus(t, nil), true, func(p *fakePortal, h dbus.ObjectPath) {
			p.respond(h, 0, "file:///tmp/a%20b/c++")
		})
		var shown bool
		path, ok, err := portalFolder(ask, func(func()) { shown = true })
		if path != "/tmp/a b/c++" || !ok || err != nil || !shown {
			t.Fatalf("got %q %v %v (shown %v)", path, ok, err, shown)
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		if len(p.calls) != 1 {
			t.Fatalf("%d calls", len(p.calls))
		}
		c := p.calls[0]
		if c.parent != "x11:3a00007" || c.title != grantFolderTitle {
			t.Errorf("parent %q, title %q", c.parent, c.title)
		}
		folder, _ := c.opts["current_folder"].Value().([]byte)
		if string(folder) != start+"\x00" {
			t.Errorf("current_folder %q, want %q and a NUL", folder, start)
		}
		for _, k := range []string{"directory", "modal"} {
			if v, _ := c.opts[k].Value().(bool); !v {
				t.Errorf("%s is %v", k, c.opts[k])
			}
		}
		if v, _ := c.opts["multiple"].Value().(bool); v {
			t.Error("multiple is true")
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		for _, status := range []uint32{1, 2} {
			newFakePortal(t, testBus(t, nil), true, func(p *fakePortal, h dbus.ObjectPath) { p.respond(h, status) })
			if path, ok, err := portalFolder(ask, nil); ok || err != nil || path != "" {
				t.Errorf("status %d: got %q %v %v", status, path, ok, err)
			}
		}
	})
	t.Run("closed from Latch", func(t *testing.T) {
		p := newFakePortal(t, testBus(t, nil), true, nil)
		done := make(chan error, 1)
		go func() {
			_, ok, err := portalFolder(ask, func(close func()) { go close() })
			if ok {
				err = errors.New("ok after a close")
			}
			done <- err
		}()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("portalFolder still waits after close")
		}
		select {
		case h := <-p.closed:
			if !strings.HasPrefix(string(h), portalObjectPath+"/request/") {
				t.Errorf("closed %q", h)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("the portal's request was not closed")
		}
	})
	t.Run("the portal goes away", func(t *testing.T) {
		up := make(chan struct{})
		newFakePortal(t, testBus(t, nil), true, func(p *fakePortal, _ dbus.ObjectPath) {
			<-up // its chooser is up: it has answered OpenFile
			p.conn.Close()
		})
		if _, _, err := portalFolder(ask, func(func()) { close(up) }); !errors.Is(err, errPortalGone) {
			t.Errorf("got %v, want %v", err, errPortalGone)
		}
	})
	t.Run("no folder to start in", func(t *testing.T) {
		p := newFakePortal(t, testBus(t, nil), true, func(p *fakePortal, h dbus.ObjectPath) { p.respond(h, 1) })
		portalFolder(folderAsk{title: workFolderTitle}, nil)
		p.mu.Lock()
		defer p.mu.Unlock()
		if _, there := p.calls[0].opts["current_folder"]; there || p.calls[0].parent != "" {
			t.Errorf("opts %v, parent %q", p.calls[0].opts, p.calls[0].parent)
		}
	})
}
