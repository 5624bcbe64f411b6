package ui

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/latch-app/latch/app"
)

func TestAskNotice(t *testing.T) {
	long := "npm test -- " + strings.Repeat("--filter=unit ", 20)
	for _, c := range []struct {
		name string
		q    app.Question
		want string
	}{
		{"bash", app.Question{Tool: "Bash", DisplayName: "Bash", Command: "npm test"}, "Bash wants to run `npm test`"},
		{"bash on one line, escaped", app.Question{Tool: "Bash", Command: "cd web &&\nnpm test\x1b[2J\u202e"},
			"Bash wants to run `cd web &&⏎npm test\\x1b[2J⟨U+202E⟩`"},
		{"bash clipped", app.Question{Tool: "Bash", Command: long},
			"Bash wants to run `" + string([]rune(long)[:noticeCommand-1]) + "…`"},
		{"bash without a command", app.Question{Tool: "Bash"}, "Bash wants to run"},
		{"write", app.Question{Tool: "Write", Path: "/home/me/project-x/notes.md", Writes: true},
			"Write wants to change `/home/me/project-x/notes.md`"},
		{"edit", app.Question{Tool: "Edit", Path: "src/main.go", Writes: true}, "Edit wants to change `src/main.go`"},
		{"read", app.Question{Tool: "Read", Path: "/etc/hosts"}, "Read wants to read `/etc/hosts`"},
		{"grep a folder", app.Question{Tool: "Grep", Path: "/srv/logs"}, "Grep wants to read `/srv/logs`"},
		{"grep here", app.Question{Tool: "Grep"}, "Grep wants to run"},
		{"path clipped at its start", app.Question{Tool: "Read", Path: "/" + strings.Repeat("deep/", 30) + "file.txt"},
			"Read wants to read `…" + strings.Repeat("deep/", 30)[150-(noticePath-1-len("file.txt")):] + "file.txt`"},
		{"other", app.Question{Tool: "WebFetch", Path: "ignored"}, "WebFetch wants to run"},
		{"display name, escaped", app.Question{Tool: "mcp__x__y", DisplayName: "Deploy\nnow"}, "Deploy⏎now wants to run"},
		{"no name", app.Question{}, "this tool wants to run"},
		{"AskUserQuestion", app.Question{Tool: "AskUserQuestion", Questions: []app.AskItem{{Question: "Which?"}}},
			"Claude has a question for you"},
	} {
		if got := askNotice(c.q); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// A huge command or path is looked at only where it is shown, and says
// that it goes on.
func TestAskNoticeHugeInput(t *testing.T) {
	huge := "echo " + strings.Repeat("x", 8<<20)
	got := askNotice(app.Question{Tool: "Bash", Command: huge})
	if want := "Bash wants to run `echo xxx"; !strings.HasPrefix(got, want) || !strings.HasSuffix(got, "…`") {
		t.Errorf("got %q", got)
	}
	if n := utf8.RuneCountInString(got); n > len("Bash wants to run ``")+noticeCommand {
		t.Errorf("%d runes", n)
	}
	// Spaces are counted, not shown, so the part looked at can be short
	// once visible: the ellipsis still says there is more.
	spaces := strings.Repeat(" ", 8<<20) + "rm -rf ~"
	if got := askNotice(app.Question{Tool: "Bash", Command: spaces}); !strings.HasSuffix(got, "spaces⟩…`") {
		t.Errorf("got %q", got)
	}
	got = askNotice(app.Question{Tool: "Read", Path: strings.Repeat("/d", 4<<20) + "/é.txt"})
	if !strings.HasPrefix(got, "Read wants to read `…") || !strings.HasSuffix(got, "/d/é.txt`") {
		t.Errorf("got %q", got)
	}
	if n := utf8.RuneCountInString(got); n > len("Read wants to read ``")+noticePath {
		t.Errorf("%d runes", n)
	}
}

func TestGrantsNoticeAndFolder(t *testing.T) {
	one := app.GrantRequest{Tools: []app.ToolGrant{{Rule: "Bash(npm test)"}}}
	if got := grantsNotice(one); got != "Claude was refused 1 permission" {
		t.Errorf("got %q", got)
	}
	three := app.GrantRequest{Tools: []app.ToolGrant{{Rule: "Bash(npm test)"}, {Rule: "WebFetch(domain:go.dev)"}},
		Folders: []app.FolderGrant{{Path: "/srv/data"}}}
	if got := grantsNotice(three); got != "Claude was refused 3 permissions" {
		t.Errorf("got %q", got)
	}
	for _, c := range []struct{ workdir, want string }{
		{"/home/me/project-x", "Waits in project-x"},
		{"/home/me/project-x/", "Waits in project-x"},
		{"", "Waits"},
		{"/", "Waits in /"},
		{"/home/me/odd\nname", "Waits in odd⏎name"},
		{"/home/me/" + strings.Repeat("n", 100), "Waits in " + strings.Repeat("n", noticeName-1) + "…"},
	} {
		if got := inFolder("Waits", c.workdir); got != c.want {
			t.Errorf("inFolder(%q) = %q, want %q", c.workdir, got, c.want)
		}
	}
}

// A notification server reads the body as markup: what would be a tag or
// an entity is escaped, so the command shows as written.
func TestNotificationBodyEscapesMarkup(t *testing.T) {
	if notificationBody("<") == "<" {
		t.Skip("notifications are plain text here")
	}
	h := newHarness(t)
	h.mw.foreground = false
	cmd := `cat <x> && echo <b>hi</b> "&amp;"`
	want := "Bash wants to run `cat &lt;x&gt; &amp;&amp; echo &lt;b&gt;hi&lt;/b&gt; \"&amp;amp;\"` in " + filepath.Base(h.mw.workdir)
	test.AssertNotificationSent(t, fyne.NewNotification("Latch", want), func() {
		ask(h, t.Context(), app.Question{Tool: "Bash", Command: cmd})
		h.q.waitOne(t)
	})
	press(h.c, fyne.KeyEscape)
}
