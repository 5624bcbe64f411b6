package main

import (
	"fmt"
	"io"
)

func runInspect(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "latch inspect: not built yet")
	return 1
}

func runGrants(args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "latch grants: not built yet")
	return 1
}
