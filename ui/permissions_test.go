package ui

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"github.com/latch-app/latch/app"
)

// fakeInspector records what the Permissions window and the mode selector
// ask of a session.
type fakeInspector struct {
	mu        sync.Mutex
	view      app.PermissionView
	viewErr   error
	reads     int
	verdict   app.Verdict
	tested    [][2]string
	removed   []app.PermissionRule
	removedF  []app.PermissionFolder
	removeErr error
	trusts    int
	modes     []app.Mode
	setModes  []string
	setErr    error
	reported  string // what SetMode reports; "" = the mode asked for
}

func (f *fakeInspector) Permissions(ctx context.Context) (app.PermissionView, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reads++
	return f.view, f.viewErr
}

func (f *fakeInspector) TestCall(ctx context.Context, tool, input string) (app.Verdict, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tested = append(f.tested, [2]string{tool, input})
	return f.verdict, nil
}

func (f *fakeInspector) RemoveRule(r app.PermissionRule) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.removed = append(f.removed, r)
	return f.removeErr
}

func (f *fakeInspector) RemoveFolder(d app.PermissionFolder) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.removedF = append(f.removedF, d)
	return f.removeErr
}

func (f *fakeInspector) Modes() []app.Mode {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.modes
}

func (f *fakeInspector) SetMode(ctx context.Context, mode string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.setModes = append(f.setModes, mode)
	if f.setErr != nil {
		return "", f.setErr
	}
	if f.reported != "" {
		return f.reported, nil
	}
	return mode, nil
}

func (f *fakeInspector) TrustFolder(ctx context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.trusts++
	return nil
}

func (f *fakeInspector) snapshot() fakeInspector {
	f.mu.Lock()
	defer f.mu.Unlock()
	return fakeInspector{reads: f.reads, tested: slices.Clone(f.tested), removed: slices.Clone(f.removed),
		removedF: slices.Clone(f.removedF), trusts: f.trusts, setModes: slices.Clone(f.setModes)}
}

// inspRunner is a session that is also an Inspector and can grant from
// the audit log, as *app.Session is.
type inspRunner struct {
	*fakeRunner
	*fakeInspector
	rmu     sync.Mutex
	retried []app.AuditEntry
}

func (r *inspRunner) GrantAndRetry(e app.AuditEntry) error {
	r.rmu.Lock()
	defer r.rmu.Unlock()
	r.retried = append(r.retried, e)
	return nil
}

func (r *inspRunner) retriedCopy() []app.AuditEntry {
	r.rmu.Lock()
	defer r.rmu.Unlock()
	return slices.Clone(r.retried)
}

var (
	_ app.Inspector = (*inspRunner)(nil)
	_ Runner        = (*inspRunner)(nil)
	_ retrier       = (*inspRunner)(nil)
)

// newInspRunner makes the window's session one that answers with fi.
func newInspRunner(h *harness, fi *fakeInspector) *inspRunner {
	r := &inspRunner{fakeRunner: h.r, fakeInspector: fi}
	h.mw.mu.Lock()
	h.mw.runner = r
	h.mw.mu.Unlock()
	h.mw.surf.show(r.ID())
	return r
}

// testView is a folder's permissions with every kind of layer.
func testView(dir string) app.PermissionView {
	return app.PermissionView{Workdir: dir, Mode: "default", TrustFile: "/home/ada/.claude.json", Origin: app.OriginCLI,
		Differences: []string{"the allow rule Bash(make:*) in your user settings is not in force in the running Claude Code"},
		Layers: []app.PermissionLayer{
			{Source: "policySettings", Title: "Managed policy", File: "/etc/claude-code/managed-settings.json",
				State: app.FileMissing, ReadOnly: "managed by your administrator"},
			{Source: "userSettings", Title: "User settings", File: "/home/ada/.claude/settings.json", State: app.FileMalformed,
				Error: "/home/ada/.claude/settings.json:3:17: invalid character ']' looking for beginning of value",
				Line:  3, Column: 17, ReadOnly: "the file is malformed"},
			{Source: "projectSettings", Title: "Project settings (shared)", File: dir + "/.claude/settings.json", State: app.FileOK, Editable: true,
				Rules: []app.PermissionRule{{Behavior: app.BehaviorAllow, Rule: "Bash(npm test:*)", Source: "projectSettings",
					Reading: "runs npm test with any arguments", Ignored: "the workspace is not trusted", Editable: true}}},
			{Source: "localSettings", Title: "Local project settings", File: dir + "/.claude/settings.local.json", State: app.FileOK, Editable: true,
				Rules: []app.PermissionRule{
					{Behavior: app.BehaviorAllow, Rule: "Read(//srv/**)", Source: "localSettings", File: dir + "/.claude/settings.local.json",
						Reading: "reads anything under /srv", CLIReading: "Read files in /srv/**", Editable: true},
					{Behavior: app.BehaviorAsk, Rule: "Bash(git push:*)", Source: "localSettings", File: dir + "/.claude/settings.local.json", Editable: true},
					{Behavior: app.BehaviorDeny, Rule: "Bash(rm -rf:*)", Source: "localSettings", File: dir + "/.claude/settings.local.json", Editable: true},
				},
				Folders: []app.PermissionFolder{{Path: "/srv/data", Source: "localSettings", File: dir + "/.claude/settings.local.json", Editable: true}}},
			{Source: "cliArg", Title: "Latch's flags", State: app.FileOK, ReadOnly: "set on Claude Code's command line by Latch",
				Rules:   []app.PermissionRule{{Behavior: app.BehaviorAllow, Rule: "Bash", Source: "cliArg"}},
				Folders: []app.PermissionFolder{{Path: "/tmp", Source: "cliArg"}}},
		}}
}

// openPerms opens the Permissions window with fi as the session's
// inspector and waits for its first read.
func openPerms(t *testing.T, h *harness, fi *fakeInspector) *permsWindow {
	t.Helper()
	newInspRunner(h, fi)
	h.mw.showPermissions()
	p := h.mw.perms
	if p == nil {
		t.Fatal("no Permissions window")
	}
	t.Cleanup(p.Dismiss)
	h.q.waitOne(t)
	return p
}

// section is the part of the window that shows the layer titled title.
func section(t *testing.T, p *permsWindow, title string) fyne.CanvasObject {
	t.Helper()
	for _, o := range p.layers.Objects {
		if txt := allText(o); len(txt) > 0 && txt[0] == title {
			return o
		}
	}
	t.Fatalf("no section %q", title)
	return nil
}

// buttons lists the buttons under o labelled label.
func buttons(o fyne.CanvasObject, label string) []*kButton {
	var out []*kButton
	visit(o, func(o fyne.CanvasObject) {
		switch b := o.(type) {
		case *kButton:
			if b.Text == label {
				out = append(out, b)
			}
		case *seenButton:
			if b.Text == label {
				out = append(out, &b.kButton)
			}
		}
	})
	return out
}

// removeFor is the Remove button of the row that shows value.
func removeFor(t *testing.T, p *permsWindow, value string) *kButton {
	t.Helper()
	var found *kButton
	visit(p.layers, func(o fyne.CanvasObject) {
		c, ok := o.(*fyne.Container)
		if !ok || found != nil || len(c.Objects) != 2 {
			return
		}
		// a row: the value's column and the Remove button's
		if txt := allText(c.Objects[0]); len(txt) > 0 && txt[0] == value {
			if bs := buttons(c.Objects[1], "Remove"); len(bs) == 1 {
				found = bs[0]
			}
		}
	})
	if found == nil {
		t.Fatalf("no Remove button for %q", value)
	}
	return found
}

func contains(texts []string, want string) bool {
	return slices.ContainsFunc(texts, func(s string) bool { return strings.Contains(s, want) })
}

func TestPermissionsWindowShowsEveryLayer(t *testing.T) {
	h := newHarness(t)
	fi := &fakeInspector{view: testView(h.mw.workdir)}
	p := openPerms(t, h, fi)
	texts := allText(p.win.Content())
	for _, want := range []string{
		h.mw.workdir, "Manual (default)", "Not trusted: Claude Code ignores this project's shared allow rules",
		"Rules from the running Claude Code.",
		"Managed policy", "no file",
		"User settings", "Malformed:", "settings.json:3:17: invalid character",
		"Project settings (shared)", "Bash(npm test:*)", "ignored: the workspace is not trusted",
		"Local project settings", "Allow (1)", "Ask (1)", "Deny (1)", "Read(//srv/**)", "reads anything under /srv",
		"Claude Code reads it as: Read files in /srv/**", "Bash(git push:*)", "Bash(rm -rf:*)", "Folders (1)", "/srv/data",
		"Latch's flags", "Read-only: set on Claude Code's command line by Latch",
		"Claude Code and the settings files disagree:", "Bash(make:*) in your user settings is not in force",
	} {
		if !contains(texts, want) {
			t.Errorf("the window does not show %q", want)
		}
	}
	// The malformed file's place can be copied, to open it in an editor.
	var cp *kButton
	visit(section(t, p, "User settings"), func(o fyne.CanvasObject) {
		if b, ok := o.(*kButton); ok && b.Text == "Copy" {
			cp = b
		}
	})
	if cp == nil {
		t.Fatal("no Copy for the malformed file's line and column")
	}
	cp.OnTapped()
	if got := h.mw.app.Clipboard().Content(); !strings.HasPrefix(got, "/home/ada/.claude/settings.json:3:17: invalid character") {
		t.Errorf("copied %q", got)
	}
	if !p.trustBtn.Visible() {
		t.Error("no Trust button for an untrusted folder")
	}
	// Read-only layers have no Remove; editable rules and folders have one each.
	for _, ro := range []string{"Latch's flags", "Managed policy", "User settings"} {
		if n := len(buttons(section(t, p, ro), "Remove")); n != 0 {
			t.Errorf("%s: %d Remove buttons", ro, n)
		}
	}
	if n := len(buttons(section(t, p, "Local project settings"), "Remove")); n != 4 {
		t.Errorf("local settings: %d Remove buttons, want 4", n)
	}

	// A view read from the files, in bypass mode, of a trusted folder.
	v := testView(h.mw.workdir)
	v.Origin, v.Mode, v.Trusted = app.OriginFiles, "bypassPermissions", true
	fi.mu.Lock()
	fi.view = v
	fi.mu.Unlock()
	p.reloadBtn.OnTapped()
	h.q.waitOne(t)
	texts = allText(p.win.Content())
	for _, want := range []string{"Rules read from the files", "Trusted in Claude Code", "Bypass"} {
		if !contains(texts, want) {
			t.Errorf("the window does not show %q", want)
		}
	}
	if p.modeLbl.Importance != widget.DangerImportance {
		t.Error("bypass is not shown red")
	}
	if p.trustBtn.Visible() {
		t.Error("Trust button for a trusted folder")
	}
}

func TestPermissionsLoadFailureInWords(t *testing.T) {
	h := newHarness(t)
	fi := &fakeInspector{viewErr: errors.New("Claude Code did not answer within 5 s")}
	p := openPerms(t, h, fi)
	if !p.msg.Visible() || !strings.Contains(p.msg.Text, "did not answer within 5 s") {
		t.Errorf("error shown %v %q", p.msg.Visible(), p.msg.Text)
	}
}

func TestPermissionsRemoveAsksThenRemoves(t *testing.T) {
	h := newHarness(t)
	fi := &fakeInspector{view: testView(h.mw.workdir)}
	p := openPerms(t, h, fi)
	c := p.win.Canvas()

	removeFor(t, p, "Bash(git push:*)").OnTapped()
	if !overlayUp(c) || p.modals.top() == nil {
		t.Fatal("Remove did not ask")
	}
	if !contains(allText(p.win.Canvas().Overlays().Top()), "Bash(git push:*)") {
		t.Error("the question does not name the rule")
	}
	// Esc goes back without removing anything.
	press(c, fyne.KeyEscape)
	if p.modals.active() || len(fi.snapshot().removed) != 0 {
		t.Fatal("Esc removed the rule or left the question up")
	}
	if h.mw.perms == nil {
		t.Fatal("Esc in the question closed the window")
	}

	removeFor(t, p, "Bash(git push:*)").OnTapped()
	buttons(p.win.Canvas().Overlays().Top(), "Remove")[0].OnTapped()
	h.q.waitOne(t) // removed; reading again
	h.q.waitOne(t) // read
	got := fi.snapshot()
	if len(got.removed) != 1 || got.removed[0].Rule != "Bash(git push:*)" || got.removed[0].Behavior != app.BehaviorAsk {
		t.Fatalf("removed %+v", got.removed)
	}
	if got.reads != 2 {
		t.Errorf("%d reads, want 2 (the window reloads after a remove)", got.reads)
	}

	// A folder, and a failure shown in words.
	fi.mu.Lock()
	fi.removeErr = errors.New("the file is read-only")
	fi.mu.Unlock()
	removeFor(t, p, "/srv/data").OnTapped()
	buttons(p.win.Canvas().Overlays().Top(), "Remove")[0].OnTapped()
	h.q.waitOne(t)
	h.q.waitOne(t)
	if got := fi.snapshot(); len(got.removedF) != 1 || got.removedF[0].Path != "/srv/data" {
		t.Fatalf("removed folders %+v", got.removedF)
	}
	if !p.msg.Visible() || !strings.Contains(p.msg.Text, "the file is read-only") {
		t.Errorf("failure shown as %q", p.msg.Text)
	}
}

func TestPermissionsTrustAsksOnce(t *testing.T) {
	h := newHarness(t)
	fi := &fakeInspector{view: testView(h.mw.workdir)}
	p := openPerms(t, h, fi)
	p.trustBtn.OnTapped()
	if !p.modals.active() {
		t.Fatal("Trust did not ask")
	}
	dlg := p.win.Canvas().Overlays().Top()
	if !contains(allText(dlg), "shared settings") || !contains(allText(dlg), "hooks and MCP servers") {
		t.Errorf("the question does not say what trusting means: %q", allText(dlg))
	}
	if fi.snapshot().trusts != 0 {
		t.Fatal("trusted before the answer")
	}
	buttons(dlg, "Trust this folder")[0].OnTapped()
	v := testView(h.mw.workdir)
	v.Trusted = true
	fi.mu.Lock()
	fi.view = v
	fi.mu.Unlock()
	h.q.waitOne(t) // trusted; reading again
	h.q.waitOne(t)
	if got := fi.snapshot(); got.trusts != 1 || got.reads != 2 {
		t.Errorf("trusted %d times, %d reads", got.trusts, got.reads)
	}
	if p.trustBtn.Visible() || p.trustLbl.Text != "Trusted in Claude Code" {
		t.Errorf("after trusting: %q, button %v", p.trustLbl.Text, p.trustBtn.Visible())
	}
}

func TestPermissionsTesterByKeyboard(t *testing.T) {
	h := newHarness(t)
	v := testView(h.mw.workdir)
	deciding := v.Layers[3].Rules[2]
	deciding.CLIReading = "Bash commands starting with rm -rf"
	fi := &fakeInspector{view: v, verdict: app.Verdict{Behavior: app.BehaviorDeny, Rule: &deciding,
		Why: "denied by Bash(rm -rf:*) in " + deciding.File}}
	p := openPerms(t, h, fi)
	c := p.win.Canvas()
	if c.Focused() != p.tester.tool {
		t.Fatalf("focus on %T, want the tool field", c.Focused())
	}
	typeRunes(c, "Bash")
	for i := 0; i < 5 && c.Focused() != p.tester.input; i++ {
		press(c, fyne.KeyTab)
	}
	if c.Focused() != p.tester.input {
		t.Fatal("Tab does not reach the input field")
	}
	typeRunes(c, "rm -rf x")
	press(c, fyne.KeyReturn)
	h.q.waitOne(t)
	if got := fi.snapshot().tested; len(got) != 1 || got[0] != [2]string{"Bash", "rm -rf x"} {
		t.Fatalf("tested %q", got)
	}
	tr := p.tester
	if tr.verdict.Text != "Deny" || tr.verdict.Importance != widget.DangerImportance {
		t.Errorf("verdict %q (%v)", tr.verdict.Text, tr.verdict.Importance)
	}
	texts := allText(tr.box)
	for _, want := range []string{"Latch's reading of Claude Code's rules", "denied by Bash(rm -rf:*)", "Bash(rm -rf:*)",
		"Local project settings", deciding.File, "Claude Code reads this rule as: Bash commands starting with rm -rf"} {
		if !contains(texts, want) {
			t.Errorf("the tester does not show %q", want)
		}
	}
	// Shift+Enter is a new line, not a test.
	p.tester.input.KeyDown(&fyne.KeyEvent{Name: "LeftShift"})
	press(c, fyne.KeyReturn)
	p.tester.input.KeyUp(&fyne.KeyEvent{Name: "LeftShift"})
	if p.tester.input.Text != "rm -rf x\n" || len(fi.snapshot().tested) != 1 {
		t.Errorf("Shift+Enter: input %q, %d tests", p.tester.input.Text, len(fi.snapshot().tested))
	}
}

// Tab reaches every control, Remove buttons far down included, and Esc
// closes the window from anywhere.
func TestPermissionsKeyboard(t *testing.T) {
	h := newHarness(t)
	v := testView(h.mw.workdir)
	for i := 0; i < 150; i++ { // hundreds of rules and folders
		v.Layers[3].Rules = append(v.Layers[3].Rules, app.PermissionRule{Behavior: app.BehaviorAllow,
			Rule: "Bash(tool" + strings.Repeat("x", i%7) + ":*)", Source: "localSettings", Editable: true})
	}
	fi := &fakeInspector{view: v}
	p := openPerms(t, h, fi)
	c := p.win.Canvas()
	want := map[fyne.Focusable]bool{p.tester.tool: true, p.tester.input: true, p.tester.testBtn: true,
		p.tester.pickBtn: true, p.trustBtn: true, p.reloadBtn: true}
	removes := 0
	visit(p.layers, func(o fyne.CanvasObject) {
		if b, ok := o.(*seenButton); ok {
			want[b] = true
			removes++
		}
	})
	if removes != 155 {
		t.Fatalf("%d Remove buttons, want 155", removes)
	}
	var deepest float32
	for i := 0; i < 250 && len(want) > 0; i++ {
		press(c, fyne.KeyTab)
		delete(want, c.Focused())
		deepest = max(deepest, p.scroll.Offset.Y)
	}
	if deepest < 1000 {
		t.Errorf("Tab through hundreds of rules scrolled only %v px down", deepest)
	}
	if len(want) > 0 {
		t.Errorf("%d controls never got the focus with Tab", len(want))
	}
	shiftTab(c)
	if c.Focused() == nil {
		t.Error("Shift+Tab lost the focus")
	}
	c.Focus(p.tester.input)
	press(c, fyne.KeyEscape)
	if h.mw.perms != nil {
		t.Error("Esc did not close the window")
	}
}

// Untrusted text — rules, readings, files — shows escaped and whole, and
// a huge rule does not widen the window.
func TestPermissionsEscapesRules(t *testing.T) {
	h := newHarness(t)
	v := testView(h.mw.workdir)
	huge := "Bash(" + strings.Repeat("echo pwned; ", 900) + ")"
	v.Layers[3].Rules = append(v.Layers[3].Rules,
		app.PermissionRule{Behavior: app.BehaviorAllow, Rule: "Bash(ls\u202e:*)\x1b[2J\r", Source: "localSettings",
			Reading: "lists\u200b files", CLIReading: "ls \u2066hidden\u2069", Editable: true},
		app.PermissionRule{Behavior: app.BehaviorAllow, Rule: huge, Source: "localSettings", Editable: true})
	v.Layers[1].Error = "/home/ada/.claude/settings.json:3:17: bad \u202e char"
	fi := &fakeInspector{view: v}
	p := openPerms(t, h, fi)
	texts := strings.Join(allText(p.win.Content()), "\n")
	for _, want := range []string{"Bash(ls⟨U+202E⟩:*)", "\\r", "lists⟨U+200B⟩ files", "ls ⟨U+2066⟩hidden⟨U+2069⟩", "bad ⟨U+202E⟩ char"} {
		if !strings.Contains(texts, want) {
			t.Errorf("not shown escaped: %q", want)
		}
	}
	if strings.ContainsAny(texts, "\u202e\u200b\u2066\x1b\r") {
		t.Error("an invisible or control character is shown as is")
	}
	if !strings.Contains(strings.ReplaceAll(texts, "\n", ""), strings.Repeat("echo pwned; ", 900)) {
		t.Error("the 10 KB rule is not shown whole")
	}
	if w := p.win.Content().MinSize().Width; w > 820 {
		t.Errorf("the window needs %v px", w)
	}
}

func TestPermissionsPickACall(t *testing.T) {
	h := newHarness(t)
	fi := &fakeInspector{view: testView(h.mw.workdir)}
	p := openPerms(t, h, fi)
	s := h.mw.surf
	for i, cmd := range []string{"ls", "npm test", "rm -rf build"} {
		id := string(rune('a' + i))
		s.Show(app.Event{Session: h.r.id, Kind: app.EvToolCall, Tool: &app.ToolCall{ID: id, Name: "Bash", Summary: cmd}})
		s.Show(app.Event{Session: h.r.id, Kind: app.EvToolUpdate, Tool: &app.ToolCall{ID: id, Input: `{"command": "` + cmd + `"}`}})
	}
	s.flush()
	if len(h.mw.recent) != 3 || h.mw.recent[2].Name != "Bash" || h.mw.recent[2].Input != `{"command": "rm -rf build"}` {
		t.Fatalf("recent calls %+v", h.mw.recent)
	}
	p.tester.pickBtn.OnTapped()
	m := p.modals.top()
	if m == nil {
		t.Fatal("no list of calls")
	}
	first := buttons(p.win.Canvas().Overlays().Top(), "Bash  ·  rm -rf build") // newest first
	if len(first) != 1 || p.win.Canvas().Focused() != first[0] {
		t.Fatalf("the newest call is not first: %q", allText(p.win.Canvas().Overlays().Top()))
	}
	press(p.win.Canvas(), fyne.KeySpace)
	if p.modals.active() {
		t.Error("the list stayed up")
	}
	if p.tester.tool.Text != "Bash" || p.tester.input.Text != `{"command": "rm -rf build"}` {
		t.Errorf("tester holds %q %q", p.tester.tool.Text, p.tester.input.Text)
	}
	if p.win.Canvas().Focused() != p.tester.testBtn {
		t.Errorf("focus on %T, want Test", p.win.Canvas().Focused())
	}
	press(p.win.Canvas(), fyne.KeySpace)
	h.q.waitOne(t)
	if got := fi.snapshot().tested; len(got) != 1 || got[0] != [2]string{"Bash", `{"command": "rm -rf build"}`} {
		t.Errorf("tested %q", got)
	}

	// Only the last 50 are kept.
	for i := 0; i < 80; i++ {
		s.Show(app.Event{Session: h.r.id, Kind: app.EvToolCall, Tool: &app.ToolCall{ID: "n" + strings.Repeat("x", i), Name: "Read"}})
	}
	s.flush()
	if len(h.mw.recent) != recentMax {
		t.Errorf("%d recent calls kept", len(h.mw.recent))
	}
}

// menuItem is the main window's menu item with shortcut s, found as the
// desktop driver finds it when the keys are pressed.
func menuItem(t *testing.T, h *harness, s fyne.Shortcut) *fyne.MenuItem {
	t.Helper()
	for _, m := range h.mw.win.MainMenu().Items {
		for _, it := range m.Items {
			if it.Shortcut != nil && it.Shortcut.ShortcutName() == s.ShortcutName() {
				return it
			}
		}
	}
	t.Fatalf("no menu item for %s", s.ShortcutName())
	return nil
}

func TestPermissionsShortcut(t *testing.T) {
	h := newHarness(t)
	fi := &fakeInspector{view: testView(h.mw.workdir)}
	newInspRunner(h, fi)
	it := menuItem(t, h, ctrlShift(fyne.KeyP))
	if it.Label != "Permissions…" {
		t.Errorf("Ctrl+Shift+P is %q", it.Label)
	}
	it.Action()
	if h.mw.perms == nil {
		t.Fatal("Ctrl+Shift+P opened nothing")
	}
	t.Cleanup(h.mw.perms.Dismiss)
	if !contains(allText(h.mw.perms.win.Content()), "Loading…") {
		t.Error("no Loading… before the view arrives")
	}
	h.q.waitOne(t)
	if contains(allText(h.mw.perms.win.Content()), "Loading…") {
		t.Error("still Loading…")
	}
}

func ctrlShift(k fyne.KeyName) fyne.Shortcut {
	return &desktop.CustomShortcut{KeyName: k, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}
}
