package stream

import "testing"

func TestClassify(t *testing.T) {
	const none Class = ""
	cases := []struct {
		text       string
		isErr      bool
		permDenied bool
		userDenied bool
		want       Class
	}{
		{"Tool permission request failed: AbortError: Stream closed", true, false, false, StreamClosed},
		{"Tool permission request failed: Error: Stream closed", true, false, false, StreamClosed},
		{"Tool permission request failed: AbortError: Tool permission stream closed before response received", true, false, false, StreamClosed},
		{"Stream closed", true, false, false, StreamClosed},
		{"STREAM CLOSED", true, false, false, StreamClosed},
		{"Stream closed", false, false, false, StreamClosed},         // exact form without is_error
		{"line 3: stream closed by peer", false, false, false, none}, // a successful read that mentions it
		{"Stream closed", true, false, true, StreamClosed},           // beats a host deny
		{"The user doesn't want to proceed with this tool use. The tool use was rejected", true, false, false, Interrupted},
		{"The user doesn't want to proceed with this tool use.", true, false, true, Interrupted}, // deny + interrupt:true
		{"[Request interrupted by user for tool use]", true, false, false, Interrupted},
		{"The user said no.", true, false, true, UserDenied},
		{"needs approval, says the host", true, false, true, UserDenied}, // host text is free: trust the answer
		{"Tool permission request failed: Error: host failed", true, false, false, HostError},
		{"The canUseTool callback returned an invalid permission result. Expected {behavior: 'allow'}", true, false, false, HostError},
		{"touch in '/p/made-by-bash.txt' needs approval. The path is inside", true, true, false, NotGranted},
		{"Output redirection to '/p/echo-out.txt' needs approval.", true, false, false, NotGranted},
		{"Claude requested permissions to read from /o/data.txt, but you haven't granted it yet.", true, true, false, NotGranted},
		{"Permission for this tool use was denied. It requires approval, and this session has no approval surface", true, true, false, NotGranted},
		{"Permission to use Bash has been denied because Claude Code is running in don't ask mode.", true, true, false, NotGranted},
		{"This command requires approval", true, false, false, NotGranted},
		{"touch in '/p/x' was blocked. For security, Claude Code may only create or modify files in the allowed working directories for this session: '/p'.", true, false, false, NotGranted},
		{"Permission to use Bash with command touch made-by-bash.txt has been denied.", true, true, false, DenyRule},
		{"permission to use Read has been denied.", true, false, false, DenyRule},
		{"some other refusal text", true, true, false, NotGranted}, // a permission_denied event named it
		{"<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>", true, false, false, none},
		{"<tool_use_error>Error: No such tool available: Read.</tool_use_error>", true, false, false, none},
		{"Exit code 1\nls: cannot access 'x'", true, false, false, none},
		{"The user doesn't want to take this action right now. STOP what you are doing", true, false, false, none},
		{"needs approval", false, false, false, none}, // success output is never a denial
	}
	for _, c := range cases {
		got, ok := classify(c.text, c.isErr, c.permDenied, c.userDenied)
		if got != c.want || ok != (c.want != none) {
			t.Errorf("classify(%.60q, err=%v, pd=%v, ud=%v) = %q %v, want %q", c.text, c.isErr, c.permDenied, c.userDenied, got, ok, c.want)
		}
	}
}

func TestGrantDir(t *testing.T) {
	cwd := "/home/dev/proj"
	add := []string{"/home/dev/extra", "/data/"}
	cases := []struct {
		tool, input, want string
	}{
		{"Read", `{"file_path":"/home/dev/other/data.txt"}`, "/home/dev/other"},
		{"Write", `{"file_path":"/tmp/direct.txt","content":"x"}`, "/tmp"},
		{"Edit", `{"file_path":"/home/dev/proj/inside.txt"}`, ""},
		{"Edit", `{"file_path":"/home/dev/proj/sub/../../other/a.go"}`, "/home/dev/other"},
		{"Read", `{"file_path":"/home/dev/project2/a.txt"}`, "/home/dev/project2"}, // a sibling with a common prefix is outside
		{"Read", `{"file_path":"/home/dev/extra/a.txt"}`, ""},
		{"Read", `{"file_path":"/data/x/y.txt"}`, ""},
		{"Read", `{"file_path":"sub/a.txt"}`, ""},
		{"Read", `{"file_path":"../other/a.txt"}`, "/home/dev/other"},
		{"NotebookEdit", `{"notebook_path":"/srv/far/n.ipynb"}`, "/srv/far"},
		{"Glob", `{"pattern":"*.go","path":"/srv/far/src/"}`, "/srv/far/src"},
		{"Grep", `{"pattern":"x","path":"/home/dev/proj"}`, ""},
		{"LS", `{"path":"/srv//far"}`, "/srv/far"},
		{"Glob", `{"pattern":"*.go"}`, ""},
		{"Bash", `{"command":"touch /srv/far/x","path":"/srv/far"}`, ""},
		{"Read", `not json`, ""},
		{"Read", ``, ""},
	}
	for _, c := range cases {
		if got := grantDir(c.tool, []byte(c.input), cwd, add); got != c.want {
			t.Errorf("grantDir(%s, %s) = %q, want %q", c.tool, c.input, got, c.want)
		}
	}
	// Without an init nothing is known to be inside: absolute paths count.
	if got := grantDir("Read", []byte(`{"file_path":"/a/b.txt"}`), "", nil); got != "/a" {
		t.Errorf("no cwd: %q", got)
	}
	if got := grantDir("Read", []byte(`{"file_path":"b.txt"}`), "", nil); got != "" {
		t.Errorf("no cwd, relative: %q", got)
	}
}

func TestTouchedPath(t *testing.T) {
	cases := []struct {
		input, path string
		file        bool
	}{
		{`{"file_path":"/a/b.txt","content":"x"}`, "/a/b.txt", true},
		{`{"notebook_path":"n.ipynb"}`, "n.ipynb", true},
		{`{"pattern":"*.go","path":"/srv/src"}`, "/srv/src", false},
		{`{"path":"/p","file_path":"/f"}`, "/f", true},                // a file wins over a folder
		{`{"notebook_path":"/n","file_path":"/f"}`, "/f", true},       // file_path wins over notebook_path
		{`{"file_path":"/first","file_path":"/last"}`, "/last", true}, // the last duplicate, as JSON.parse
		{`{"File_Path":"/other","file_path":"/f"}`, "/f", true},       // keys match exactly
		{`{"file_path":"/f","File_Path":"/other"}`, "/f", true},
		{"{\"file\\u005fpath\":\"/a\\u00e9\"}", "/aé", true},        // escapes undone, in keys too
		{`{"file_path":7,"path":"/p"}`, "/p", false},                // only strings name a path
		{`{"file_path":"/f","file_path":null}`, "", false},          // the last one is not a string
		{` {"nested":{"file_path":"/n"},"path":"/p"}`, "/p", false}, // top-level keys only
		{`{"command":"touch /x"}`, "", false},
		{`{"file_path":"/f"`, "", false}, // not JSON
		{`["file_path","/f"]`, "", false},
		{``, "", false},
	}
	for _, c := range cases {
		if p, file := TouchedPath([]byte(c.input)); p != c.path || file != c.file {
			t.Errorf("TouchedPath(%s) = %q, %v; want %q, %v", c.input, p, file, c.path, c.file)
		}
	}
}

func TestPhraseDenial(t *testing.T) {
	cwd := "/home/dev/proj"
	cases := []struct {
		text      string
		ok        bool
		tool, dir string
	}{
		{"I need permission to run Bash here.", true, "Bash", ""},
		{"I don't have access to /srv/data/report.csv, please grant it.", true, "", "/srv/data"},
		{"The folder `/srv/data` is restricted; I could not Read it.", true, "Read", "/srv/data"},
		{"You haven't granted Write access to /home/dev/proj/a.txt.", true, "Write", ""}, // inside cwd: no folder
		{"I NEED PERMISSION to use WebFetch.", true, "WebFetch", ""},
		{"Permission to use the tool was denied.", false, "", ""}, // nothing to grant
		{"All done, the file was read and written.", false, "", ""},
		{"Bashful readers need permission", false, "", ""}, // no whole-word tool name
	}
	for _, c := range cases {
		dn, ok := phraseDenial(c.text, cwd, nil)
		if ok != c.ok || dn.Tool != c.tool || dn.Dir != c.dir {
			t.Errorf("phraseDenial(%q) = %+v %v, want tool %q dir %q %v", c.text, dn, ok, c.tool, c.dir, c.ok)
		}
		if ok && dn.Class != Phrase {
			t.Errorf("%q: %+v", c.text, dn)
		}
	}
}
