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

const usage = `usage: latch grants [--project DIR] list [--json] | allow RULE... | revoke RULE... | add-dir [--force] DIR... | remove-dir DIR...`

const help = usage + `

Edits permissions in ~/.claude/settings.json ($CLAUDE_CONFIG_DIR/settings.json
when set), or with --project DIR in DIR/.claude/settings.local.json.

  list [--json]            show allow, deny, ask rules and additional folders
  allow RULE...            add rules such as Bash or "Bash(npm run test:*)"
  revoke RULE...           remove rules
  add-dir [--force] DIR... grant absolute folders, saved with links resolved; /, the
                           home folder and what contains it, and sensitive folders
                           (~/.ssh, ~/.aws, /etc, …) need --force
  remove-dir DIR...        remove folder grants

Exit status: 0 ok, 1 error (nothing changed), 2 bad usage.
`

// errUsage marks a command line that does not parse.
var errUsage = errors.New("bad usage")

// Run executes `latch grants` with args (after the word "grants") and
// returns the exit status.
func Run(args []string, stdout, stderr io.Writer) int {
	err := run(args, stdout)
	switch {
	case err == nil:
		return 0
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

func run(args []string, stdout io.Writer) error {
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
	asJSON, force := new(bool), new(bool)
	switch cmd {
	case "list":
		sub.BoolVar(asJSON, "json", false, "print JSON")
	case "add-dir":
		sub.BoolVar(force, "force", false, "allow broad and sensitive folders")
	case "allow", "revoke", "remove-dir":
	case "help":
		return flag.ErrHelp
	default:
		return usageErr("unknown subcommand %q", cmd)
	}
	if err := parse(sub, rest); err != nil {
		return err
	}
	operands := sub.Args()
	if cmd == "list" && len(operands) > 0 {
		return usageErr("list takes no arguments")
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
	abs, err := filepath.Abs(project)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("--project: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("--project %s: not a folder", abs)
	}
	if !write {
		return grants.NewStore(grants.ProjectSettingsPath(abs)), nil
	}
	return grants.ProjectStore(abs)
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
