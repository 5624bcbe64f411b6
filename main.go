// Command latch is a desktop app for working with Claude Code in which no
// tool call is ever lost silently to a permission check.
//
//	latch [DIR]                 open the window on DIR (default: the last folder)
//	latch inspect [--json] FILE  explain a saved CLI transcript, turn by turn
//	latch grants ...            list and edit saved grants
//	latch version | help
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/latch-app/latch/internal/quietlocale"
)

// version is set by the Makefile from FyneApp.toml.
var version = "0.1.0"

const usage = `usage: latch [DIR]
       latch inspect [--json] FILE|-
       latch grants [--project DIR] list [--json] | allow RULE... | revoke RULE... | add-dir DIR... | remove-dir DIR...
       latch version
       latch help

Latch runs the Claude Code CLI and shows its work; every tool call a permission
check stops is shown, with a way to grant it and retry.

  DIR        the working folder to open (default: the last one used)
  inspect    read a saved stream-json transcript (CLI stdout; .gz too; - for stdin)
             and print each turn's denials with their class and the folder to grant
  grants     user settings (~/.claude/settings.json) or, with --project DIR,
             DIR/.claude/settings.local.json
`

// init runs after every package main imports, Fyne's included (the Go spec
// initialises package main last): the locale quietlocale changed for Fyne's
// initialisation is given back before anything can start the CLI.
func init() {
	quietlocale.Restore()
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr, openWindow))
}

// run dispatches the command line. Subcommands never open a window, so they
// work without a display; window is called only to open one.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer, window func(dir string) int) int {
	if len(args) == 0 {
		return window("")
	}
	switch args[0] {
	case "inspect":
		return runInspect(args[1:], stdin, stdout, stderr)
	case "grants":
		return runGrants(args[1:], stdout, stderr)
	case "version", "--version":
		fmt.Fprintf(stdout, "Latch %s\n", version)
		return 0
	case "help", "--help", "-h":
		fmt.Fprint(stdout, usage)
		return 0
	}
	if len(args) == 1 && !isFlag(args[0]) {
		if fi, err := os.Stat(args[0]); err == nil && fi.IsDir() {
			dir, err := filepath.Abs(args[0])
			if err != nil {
				fmt.Fprintf(stderr, "latch: %v\n", err)
				return 1
			}
			return window(dir)
		}
		fmt.Fprintf(stderr, "latch: %s is not a folder or a command\n", args[0])
	} else if isFlag(args[0]) {
		fmt.Fprintf(stderr, "latch: unknown flag %s\n", args[0])
	}
	fmt.Fprint(stderr, usage)
	return 2
}

func isFlag(s string) bool { return len(s) > 1 && s[0] == '-' }
