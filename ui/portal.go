package ui

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver"
	"github.com/godbus/dbus/v5"
)

// The desktop's own folder chooser, through xdg-desktop-portal's FileChooser
// (flatpak.github.io/xdg-desktop-portal/docs/doc-org.freedesktop.portal.FileChooser.html).
// Latch speaks to it on a private D-Bus connection of its own so that every
// step before the chooser is up is bounded and a missing piece fails at
// once: no session bus (the socket is not there: connect fails), no portal
// (the bus answers ServiceUnknown), no FileChooser backend (the portal
// answers UnknownMethod/UnknownInterface), and anything that hangs (a portal
// that does not start) ends at portalTimeout. The connection is Latch's
// alone, so no other signal can be taken for the answer, and closing it also
// tells the portal that nobody waits for its chooser any more.

const (
	portalBusName       = "org.freedesktop.portal.Desktop"
	portalObjectPath    = "/org/freedesktop/portal/desktop"
	portalOpenFile      = "org.freedesktop.portal.FileChooser.OpenFile"
	portalRequest       = "org.freedesktop.portal.Request"
	portalResponse      = portalRequest + ".Response"
	portalClose         = portalRequest + ".Close"
	busNameOwnerChanged = "org.freedesktop.DBus.NameOwnerChanged"
)

// portalTimeout bounds everything before the portal's chooser is up:
// connecting, the portal's start when the bus has to start it, and the
// reply to OpenFile (which the portal sends as soon as it has asked its
// backend to show the chooser). What the person then takes is not bounded.
var portalTimeout = 5 * time.Second

// errPortalTimeout: the portal did not answer within portalTimeout.
var errPortalTimeout = errors.New("the desktop portal did not answer in time")

// errPortalGone: the portal left the bus while its chooser was open.
var errPortalGone = errors.New("the desktop portal went away")

// folderAsk is one request for a folder.
type folderAsk struct {
	parent string // the window the chooser is modal to ("x11:<hex xid>"), or ""
	title  string
	start  string // an existing folder to open in, or ""
}

// portalTokens makes each request's handle_token unique in this process.
var portalTokens atomic.Uint64

// portalFolder asks xdg-desktop-portal for one folder and waits for the
// person's answer. shown is called (on this goroutine) once the portal's
// chooser is up, with a function, safe to call from any goroutine and more
// than once, that takes that chooser down: portalFolder then returns with
// ok false and no error. ok is false, with no error, when the person
// cancelled. An error means no chooser was shown (or the portal broke while
// it was); it comes at once when there is no bus, portal or backend.
func portalFolder(ask folderAsk, shown func(close func())) (path string, ok bool, err error) {
	// No autolaunch: without a session bus there is no portal to start.
	conn, err := dbus.SessionBusPrivateNoAutoStartup()
	if err != nil {
		return "", false, err
	}
	defer conn.Close()
	// Closing the connection unblocks whatever waits on it.
	timer := time.AfterFunc(portalTimeout, func() { conn.Close() })
	handle, signals, err := portalOpen(conn, ask)
	if !timer.Stop() { // too late: the timer closed the connection
		return "", false, errPortalTimeout
	}
	if err != nil {
		return "", false, err
	}

	stop := make(chan struct{})
	var once sync.Once
	if shown != nil {
		shown(func() { once.Do(func() { close(stop) }) })
	}
	for {
		select {
		case <-stop:
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			conn.Object(portalBusName, handle).CallWithContext(ctx, portalClose, 0)
			cancel()
			return "", false, nil
		case s, open := <-signals:
			if !open {
				return "", false, errPortalGone // the connection broke
			}
			switch {
			case s.Name == busNameOwnerChanged && len(s.Body) == 3 && s.Body[0] == portalBusName && s.Body[2] == "":
				return "", false, errPortalGone
			case s.Name == portalResponse && s.Path == handle:
				return portalAnswer(s.Body)
			}
		}
	}
}

// portalOpen connects conn, listens for the answer and the portal's
// departure, and asks for the chooser: it returns the request's handle and
// the signals to wait on.
func portalOpen(conn *dbus.Conn, ask folderAsk) (dbus.ObjectPath, chan *dbus.Signal, error) {
	if err := conn.Auth(nil); err != nil {
		return "", nil, err
	}
	if err := conn.Hello(); err != nil {
		return "", nil, err
	}
	names := conn.Names()
	if len(names) == 0 {
		return "", nil, errors.New("no name on the session bus")
	}
	// The portal answers on a path made of this connection's name and the
	// token; listening there before asking means the answer cannot be
	// missed, however fast it comes.
	token := fmt.Sprintf("latch%d", portalTokens.Add(1))
	want := portalRequestPath(names[0], token)
	signals := make(chan *dbus.Signal, 8)
	conn.Signal(signals)
	if err := conn.AddMatchSignal(dbus.WithMatchObjectPath(want),
		dbus.WithMatchInterface(portalRequest), dbus.WithMatchMember("Response")); err != nil {
		return "", nil, err
	}
	if err := conn.AddMatchSignal(dbus.WithMatchSender("org.freedesktop.DBus"),
		dbus.WithMatchInterface("org.freedesktop.DBus"), dbus.WithMatchMember("NameOwnerChanged"),
		dbus.WithMatchArg(0, portalBusName)); err != nil {
		return "", nil, err
	}
	opts := map[string]dbus.Variant{
		"handle_token": dbus.MakeVariant(token),
		"accept_label": dbus.MakeVariant("Choose"),
		"modal":        dbus.MakeVariant(true),
		"multiple":     dbus.MakeVariant(false),
		"directory":    dbus.MakeVariant(true),
	}
	if ask.start != "" {
		// A byte string ending in NUL, as the portal reads file names.
		opts["current_folder"] = dbus.MakeVariant(append([]byte(ask.start), 0))
	}
	var handle dbus.ObjectPath
	call := conn.Object(portalBusName, portalObjectPath).Call(portalOpenFile, 0, ask.parent, ask.title, opts)
	if err := call.Store(&handle); err != nil {
		return "", nil, err
	}
	if handle != want {
		// A portal older than handle_token (before 0.9) picks its own path.
		if err := conn.AddMatchSignal(dbus.WithMatchObjectPath(handle),
			dbus.WithMatchInterface(portalRequest), dbus.WithMatchMember("Response")); err != nil {
			return "", nil, err
		}
	}
	return handle, signals, nil
}

// portalRequestPath is where the portal puts a request of the connection
// named sender made with token.
func portalRequestPath(sender, token string) dbus.ObjectPath {
	s := []byte(sender)
	if len(s) > 0 && s[0] == ':' {
		s = s[1:]
	}
	for i, c := range s {
		if c == '.' {
			s[i] = '_'
		}
	}
	return dbus.ObjectPath(portalObjectPath + "/request/" + string(s) + "/" + token)
}

// portalAnswer reads a Request's Response: 0 is a choice, 1 a cancel, 2
// "ended some other way" (the chooser's window was closed), which is no
// choice either.
func portalAnswer(body []any) (string, bool, error) {
	if len(body) != 2 {
		return "", false, fmt.Errorf("the desktop portal answered %d values, not 2", len(body))
	}
	status, _ := body[0].(uint32)
	if status != 0 {
		return "", false, nil
	}
	results, _ := body[1].(map[string]dbus.Variant)
	uris, _ := results["uris"].Value().([]string)
	if len(uris) == 0 {
		return "", false, nil
	}
	p, err := uriPath(uris[0])
	if err != nil {
		return "", false, err
	}
	return p, true, nil
}

// uriPath turns the file:// URI the portal answers with into a path,
// unescaped once ("%25" is "%", "+" stays "+").
func uriPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("the desktop portal answered %q: %w", uri, err)
	}
	if u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") || !filepath.IsAbs(u.Path) {
		return "", fmt.Errorf("the desktop portal answered %q, which is not a local folder", uri)
	}
	return filepath.Clean(u.Path), nil
}

// windowHandle is how the portal names w: "x11:<xid in hex>" on X11 (the
// only kind Fyne's default build makes, XWayland included). It is "" when
// there is none to give: the test driver, a window not yet shown, or a
// native Wayland build, whose surface would have to be exported through
// xdg-foreign, which Fyne's GLFW does not offer; the chooser is then not
// tied to Latch's window.
func windowHandle(w fyne.Window) string {
	nw, ok := w.(driver.NativeWindow)
	if !ok {
		return ""
	}
	var h string
	nw.RunNative(func(ctx any) {
		var xid uintptr
		switch c := ctx.(type) {
		case driver.X11WindowContext:
			xid = c.WindowHandle
		case *driver.X11WindowContext:
			xid = c.WindowHandle
		}
		if xid != 0 {
			h = fmt.Sprintf("x11:%x", xid)
		}
	})
	return h
}
