package main

import (
	"io"

	"github.com/latch-app/latch/core/grants/grantscli"
	"github.com/latch-app/latch/core/stream/inspect"
)

func runInspect(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return inspect.Run(args, stdin, stdout, stderr)
}

func runGrants(args []string, stdout, stderr io.Writer) int {
	return grantscli.Run(args, stdout, stderr)
}
