package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/latch-app/latch/app"
)

// manyRefused is a grant request with n tools and folders, two tools to a
// folder, each with a reason and an example as the real ones have.
func manyRefused(t *testing.T, n int) app.GrantRequest {
	t.Helper()
	r := app.GrantRequest{Round: 1, Workdir: t.TempDir()}
	base := t.TempDir()
	for i := range n {
		if i%3 == 2 {
			dir := filepath.Join(base, fmt.Sprintf("folder-%02d", i))
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			r.Folders = append(r.Folders, app.FolderGrant{Path: dir, Tool: "Read", Reason: "outside the working folder",
				Example: filepath.Join(dir, "notes.txt")})
			continue
		}
		tool := fmt.Sprintf("mcp__server__tool_%02d", i)
		r.Tools = append(r.Tools, app.ToolGrant{Rule: tool, Tool: tool, Reason: "blocked: permission channel closed",
			Example: fmt.Sprintf("call number %d", i)})
	}
	return r
}

// bounds is o's rectangle in its window.
func bounds(o fyne.CanvasObject) (fyne.Position, fyne.Position) {
	p := fyne.CurrentApp().Driver().AbsolutePositionForObject(o)
	return p, p.Add(fyne.NewPos(o.Size().Width, o.Size().Height))
}

// inside reports that o lies within the rectangle from tl to br, and is
// laid out at all (an object never placed sits at 0,0 with no size).
func inside(o fyne.CanvasObject, tl, br fyne.Position) bool {
	a, b := bounds(o)
	return o.Visible() && o.Size().Height > 0 && o.Size().Width > 0 &&
		a.X >= tl.X && a.Y >= tl.Y && b.X <= br.X && b.Y <= br.Y
}

func TestGrantDialogFitsTheWindow(t *testing.T) {
	for _, size := range []fyne.Size{{Width: 980, Height: 720}, {Width: 1280, Height: 1000}} {
		for _, n := range []int{8, 30} {
			t.Run(fmt.Sprintf("%d refused at %vx%v", n, size.Width, size.Height), func(t *testing.T) {
				h := newHarness(t)
				h.mw.win.Resize(size)
				_, d := openGrants(t, h, manyRefused(t, n))
				win := fyne.NewPos(size.Width, size.Height)
				for _, o := range []fyne.CanvasObject{d.grant, d.later, d.scope.items[0], d.scope.items[1], d.scope.items[2]} {
					if !inside(o, fyne.Position{}, win) {
						a, b := bounds(o)
						t.Errorf("%T %v..%v is not within the %vx%v window", o, a, b, size.Width, size.Height)
					}
				}
				// The list shows what fits and scrolls for the rest.
				top, bottom := bounds(d.list)
				if !inside(d.list, fyne.Position{}, win) {
					t.Errorf("the list %v..%v is not within the window", top, bottom)
				}
				if n == 30 && d.list.Content.MinSize().Height <= d.list.Size().Height {
					t.Error("30 calls fit without scrolling: the test does not test scrolling")
				}
				if d.list.Size().Height < size.Height/3 {
					t.Errorf("the list is %v high in a %v high window", d.list.Size().Height, size.Height)
				}
				if !inside(d.toolChecks[0], top, bottom) {
					t.Error("the first checkbox is not shown")
				}
				// A word shown below the list does not push the buttons out.
				press(h.c, fyne.KeyReturn)
				if !d.hint.Visible() || !inside(d.hint, fyne.Position{}, win) || !inside(d.grant, fyne.Position{}, win) {
					t.Error("the hint or the buttons are out of the window")
				}
			})
		}
	}
}

func TestGrantDialogTabScrollsTheFocusIntoView(t *testing.T) {
	h := newHarness(t)
	h.mw.win.Resize(fyne.NewSize(980, 720))
	r := manyRefused(t, 30)
	_, d := openGrants(t, h, r)
	// The Tab order is the reading order: check, rule, …, check, folder,
	// Browse, …, the scope, Not now, Grant and retry.
	var want []fyne.Focusable
	for i := range d.toolChecks {
		want = append(want, d.toolChecks[i], d.rules[i])
	}
	for i := range d.folderChecks {
		want = append(want, d.folderChecks[i], d.folders[i], d.browses[i])
		for _, c := range d.access[i].items {
			want = append(want, c)
		}
	}
	inList := len(want)
	for _, c := range d.scope.items {
		want = append(want, c)
	}
	want = append(want, d.later, d.grant)
	scrolled := false
	for i, w := range want {
		if h.c.Focused() != w {
			t.Fatalf("tab stop %d is %T, want %T", i, h.c.Focused(), w)
		}
		if i < inList {
			top, bottom := bounds(d.list)
			if !inside(w.(fyne.CanvasObject), top, bottom) {
				a, b := bounds(w.(fyne.CanvasObject))
				t.Errorf("tab stop %d (%T) at %v..%v is outside the list's view %v..%v", i, w, a, b, top, bottom)
			}
			scrolled = scrolled || d.list.Offset.Y > 0
		}
		press(h.c, fyne.KeyTab)
	}
	if !scrolled {
		t.Error("the list never scrolled")
	}
	// And back up with Shift+Tab.
	h.c.Focus(d.toolChecks[len(d.toolChecks)-1])
	for i := len(d.toolChecks) - 1; i >= 0; i-- {
		top, bottom := bounds(d.list)
		if h.c.Focused() != d.toolChecks[i] || !inside(d.toolChecks[i], top, bottom) {
			t.Fatalf("Shift+Tab to checkbox %d: focus %T, in view %v", i, h.c.Focused(), inside(d.toolChecks[i], top, bottom))
		}
		shiftTab(h.c)
		shiftTab(h.c)
	}
	if d.list.Offset.Y != 0 {
		t.Errorf("back at the first checkbox, the list is still scrolled by %v", d.list.Offset.Y)
	}
}

func TestGrantDialogKeysWithALongList(t *testing.T) {
	h := newHarness(t)
	h.mw.win.Resize(fyne.NewSize(980, 720))
	r := manyRefused(t, 30)
	res, d := openGrants(t, h, r)
	last := len(d.toolChecks) - 1
	h.c.Focus(d.toolChecks[last])
	press(h.c, fyne.KeySpace) // ticks the last tool, far down the list
	if !d.toolChecks[last].Checked {
		t.Fatal("Space did not tick the focused checkbox")
	}
	h.c.Focus(d.folderChecks[0])
	press(h.c, fyne.KeySpace)
	press(h.c, fyne.KeyReturn)
	got := answer(t, res)
	if got.Action != app.Grant || !sameStrings(got.Rules, []string{r.Tools[last].Rule}) ||
		!sameStrings(got.Folders, []string{r.Folders[0].Path}) {
		t.Errorf("got %+v", got)
	}

	res, _ = openGrants(t, h, r)
	press(h.c, fyne.KeyEscape)
	if got := answer(t, res); got.Action != app.NotNow {
		t.Errorf("Esc: %+v", got)
	}
}
