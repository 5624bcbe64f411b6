package main

import (
	"io"

	"github.com/latch-app/latch/app"
	"github.com/latch-app/latch/core/grants/grantscli"
	"github.com/latch-app/latch/core/stream/inspect"
)

func runInspect(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return inspect.Run(args, stdin, stdout, stderr)
}

// runGrants runs `latch grants`; the layered view and the tester see
// Latch's own flags as a session in that folder would start with them.
func runGrants(args []string, stdout, stderr io.Writer) int {
	settings := app.LoadSettings()
	return grantscli.RunWith(args, stdout, stderr, grantscli.Options{ViewInput: settings.ViewInput})
}
