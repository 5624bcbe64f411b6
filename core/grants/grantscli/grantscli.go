// Package grantscli implements `latch grants`: list and edit the permission
// grants in Claude Code's user settings or a project's settings.local.json.
package grantscli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/latch-app/latch/core/grants"
)

const usage = `usage: latch grants [--project DIR] list [--json] [--effective] | allow RULE... | revoke RULE... | add-dir [--force] DIR... | remove-dir DIR... | test TOOL INPUT`

const help = usage + `

Edits permissions in ~/.claude/settings.json ($CLAUDE_CONFIG_DIR/settings.json
when set), or with --project DIR in DIR/.claude/settings.local.json.

  list [--json]            show allow, deny, ask rules and additional folders
  list --effective [--json] [--project DIR]
                           show every rule and folder that applies in DIR (default:
                           the current folder), layer by layer: managed policy, user,
                           project (shared and local) settings; and whether Claude
                           Code trusts DIR, without which it ignores the allow rules
                           of DIR/.claude/settings.json
  allow RULE...            add rules such as Bash or "Bash(npm run test:*)"
  revoke RULE...           remove rules
  add-dir [--force] DIR... grant absolute folders, saved with links resolved; /, the
                           home folder and what contains it, and sensitive folders
                           (~/.ssh, ~/.aws, /etc, …) need --force
  remove-dir DIR...        remove folder grants
  test TOOL INPUT [--project DIR]
                           say whether the settings allow, ask or deny a call in DIR
                           (default: the current folder); INPUT is the tool's JSON
                           input, or a bare command (Bash), file path (Read, Edit,
                           Write), folder or pattern (Glob, Grep) or URL (WebFetch)

Exit status: 0 ok, 1 error (nothing changed), 2 bad usage;
test: 0 allow, 3 ask, 4 deny.
`

// errUsage marks a command line that does not parse.
var errUsage = errors.New("bad usage")

// exitStatus is a result told by the exit status alone, once its output
// is printed: test's verdict.
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// Exit statuses of test.
const (
	exitAllow = exitStatus(0)
	exitAsk   = exitStatus(3)
	exitDeny  = exitStatus(4)
)

// Options are what the caller knows beyond the files.
type Options struct {
	// ViewInput gives what `list --effective` and `test` read for a
	// folder: Latch's own flags (the baseline, Preferences' tools and
	// folders) besides the files. Nil reads the files alone.
	ViewInput func(dir string) grants.ViewInput
}

// RunWith executes `latch grants` with args (after the word "grants") and
// returns the exit status.
func RunWith(args []string, stdout, stderr io.Writer, opt Options) int {
	err := run(args, stdout, opt)
	var status exitStatus
	switch {
	case err == nil:
		return 0
	case errors.As(err, &status):
		return int(status)
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, help)
		return 0
	case errors.Is(err, errUsage):
		if msg := strings.TrimSuffix(err.Error(), ": "+errUsage.Error()); msg != errUsage.Error() {
			fmt.Fprintln(stderr, "latch grants:", msg)
		}
		fmt.Fprintln(stderr, usage)
		return 2
	default:
		fmt.Fprintln(stderr, "latch grants:", err)
		return 1
	}
}

func usageErr(format string, a ...any) error {
	return fmt.Errorf(format+": %w", append(a, errUsage)...)
}

func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // Run prints the one usage line itself
	return fs
}

func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageErr("%v", err)
	}
	return nil
}

func run(args []string, stdout io.Writer, opt Options) error {
	top := newFlags("grants")
	project := top.String("project", "", "act on DIR/.claude/settings.local.json")
	if err := parse(top, args); err != nil {
		return err
	}
	if top.NArg() == 0 {
		return errUsage
	}
	cmd, rest := top.Arg(0), top.Args()[1:]

	sub := newFlags(cmd)
	asJSON, force, effective, subProject := new(bool), new(bool), new(bool), new(string)
	interleaved := false // flags may follow the operands
	switch cmd {
	case "list":
		sub.BoolVar(asJSON, "json", false, "print JSON")
		sub.BoolVar(effective, "effective", false, "show every layer that applies")
		sub.StringVar(subProject, "project", "", "the project folder")
		interleaved = true
	case "test":
		sub.StringVar(subProject, "project", "", "the project folder")
		interleaved = true
	case "add-dir":
		sub.BoolVar(force, "force", false, "allow broad and sensitive folders")
	case "allow", "revoke", "remove-dir":
	case "help":
		return flag.ErrHelp
	default:
		return usageErr("unknown subcommand %q", cmd)
	}
	var operands []string
	var err error
	if interleaved {
		operands, err = parseInterleaved(sub, rest)
	} else if err = parse(sub, rest); err == nil {
		operands = sub.Args()
	}
	if err != nil {
		return err
	}
	if *subProject != "" {
		if *project != "" && *project != *subProject {
			return usageErr("--project given twice")
		}
		*project = *subProject
	}
	if cmd == "list" && len(operands) > 0 {
		return usageErr("list takes no arguments")
	}
	if cmd == "test" && len(operands) != 2 {
		return usageErr("test needs TOOL and INPUT")
	}
	if cmd == "list" && *effective || cmd == "test" {
		dir, err := projectDir(*project)
		if err != nil {
			return err
		}
		in := grants.ViewInput{Workdir: dir}
		if opt.ViewInput != nil {
			in = opt.ViewInput(dir)
		}
		v := grants.ComputeView(in)
		if cmd == "test" {
			return test(stdout, v, operands[0], operands[1])
		}
		return listEffective(stdout, v, *asJSON)
	}
	if cmd != "list" && len(operands) == 0 {
		return usageErr("%s needs at least one argument", cmd)
	}

	store, err := openStore(*project, cmd != "list")
	if err != nil {
		return err
	}
	path := store.Path
	switch cmd {
	case "list":
		return list(stdout, store, *asJSON)
	case "allow":
		err = store.AddRules(operands...)
	case "revoke":
		err = store.RemoveRules(operands...)
	case "add-dir":
		// Say what is saved: the folders as resolved, not as typed.
		for i, d := range operands {
			real, e := grants.CheckDir(d, *force)
			if e != nil {
				if errors.Is(e, grants.ErrNeedsForce) {
					e = fmt.Errorf("%w: add --force if you mean it", e)
				}
				return e
			}
			operands[i] = real
		}
		err = store.AddDirs(*force, operands...)
	case "remove-dir":
		err = store.RemoveDirs(operands...)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %s %s\n", path, cmd, strings.Join(operands, " "))
	return nil
}

// parseInterleaved parses fs's flags wherever they stand among the
// operands, as in "test Bash 'rm -rf x' --project DIR"; after "--" all is
// operands.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var operands []string
	for {
		if err := parse(fs, args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return operands, nil
		}
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(operands, rest...), nil
		}
		operands, args = append(operands, rest[0]), rest[1:]
	}
}

// openStore picks the user settings, or the project's local settings when
// project is set (an existing folder; it is not created). A store to write
// refuses a project file that links out of the project; listing it is fine.
func openStore(project string, write bool) (*grants.Store, error) {
	if project == "" {
		path, err := grants.UserSettingsPath()
		if err != nil {
			return nil, err
		}
		return grants.NewStore(path), nil
	}
	abs, err := projectDir(project)
	if err != nil {
		return nil, err
	}
	if !write {
		return grants.NewStore(grants.ProjectSettingsPath(abs)), nil
	}
	return grants.ProjectStore(abs)
}

// projectDir is the absolute form of project, an existing folder; the
// current folder when project is "".
func projectDir(project string) (string, error) {
	if project == "" {
		return os.Getwd()
	}
	abs, err := filepath.Abs(project)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("--project: %w", err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("--project %s: not a folder", abs)
	}
	return abs, nil
}

type listing struct {
	File                  string   `json:"file"`
	Allow                 []string `json:"allow"`
	Deny                  []string `json:"deny"`
	Ask                   []string `json:"ask"`
	AdditionalDirectories []string `json:"additionalDirectories"`
}

func list(w io.Writer, store *grants.Store, asJSON bool) error {
	p, err := store.Read()
	if err != nil {
		return err
	}
	l := listing{File: store.Path, Allow: nonNil(p.Allow), Deny: nonNil(p.Deny), Ask: nonNil(p.Ask),
		AdditionalDirectories: nonNil(p.AdditionalDirectories)}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		return enc.Encode(l)
	}
	fmt.Fprintln(w, l.File)
	section := func(name string, items []string) {
		if len(items) == 0 {
			fmt.Fprintf(w, "%s: (none)\n", name)
			return
		}
		fmt.Fprintf(w, "%s:\n", name)
		for _, it := range items {
			fmt.Fprintf(w, "  %s\n", it)
		}
	}
	section("allow", l.Allow)
	section("deny", l.Deny)
	section("ask", l.Ask)
	section("additionalDirectories", l.AdditionalDirectories)
	if p.DefaultMode != "" {
		fmt.Fprintf(w, "defaultMode: %s\n", p.DefaultMode)
	}
	return nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// listEffective prints v: a header, then each layer with its file, its
// state, why Latch cannot edit it, its rules with their readings, and its
// folders.
func listEffective(w io.Writer, v grants.View, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
	trusted := "yes"
	if !v.Trusted {
		trusted = "no: Claude Code ignores the allow rules of .claude/settings.json here"
	}
	if v.TrustFile != "" {
		trusted += " (recorded in " + v.TrustFile + ")"
	}
	fmt.Fprintf(w, "Folder:  %s\nMode:    %s\nTrusted: %s\n", v.Workdir, v.Mode, trusted)
	for _, l := range v.Layers {
		fmt.Fprintln(w)
		head := l.Title
		if l.File != "" {
			head += ": " + l.File
		}
		switch {
		case l.Error != "":
			head += " (" + l.State + ": " + l.Error + ")"
		case l.File != "":
			head += " (" + l.State + ")"
		}
		fmt.Fprintln(w, head)
		if !l.Editable && l.ReadOnly != "" {
			fmt.Fprintf(w, "  read-only: %s\n", l.ReadOnly)
		}
		for _, r := range l.Rules {
			line := fmt.Sprintf("  %-5s  %s  — %s", r.Behavior, r.Rule, r.Reading)
			if r.Ignored != "" {
				line += " (ignored: " + r.Ignored + ")"
			}
			fmt.Fprintln(w, line)
		}
		for _, f := range l.Folders {
			fmt.Fprintf(w, "  folder %s\n", f.Path)
		}
		if len(l.Rules) == 0 && len(l.Folders) == 0 {
			fmt.Fprintln(w, "  (nothing)")
		}
	}
	return nil
}

// test prints what v decides for a call of tool with input, and returns
// the verdict as an exit status.
func test(w io.Writer, v grants.View, tool, input string) error {
	verdict := v.Test(tool, grants.CallInput(tool, input))
	fmt.Fprintln(w, verdict.Behavior)
	if r := verdict.Rule; r != nil {
		fmt.Fprintf(w, "rule: %s  — %s\n", r.Rule, r.Reading)
		from := sourceTitle(v, r.Source)
		if r.File != "" {
			from += ", " + r.File
		}
		fmt.Fprintf(w, "from: %s\n", from)
	} else {
		fmt.Fprintln(w, "rule: (none)")
	}
	fmt.Fprintf(w, "why:  %s\n", verdict.Why)
	switch verdict.Behavior {
	case grants.Allow:
		return exitAllow
	case grants.Deny:
		return exitDeny
	}
	return exitAsk
}

// sourceTitle is the title of v's layer for source.
func sourceTitle(v grants.View, source string) string {
	for _, l := range v.Layers {
		if l.Source == source {
			return l.Title
		}
	}
	return source
}
