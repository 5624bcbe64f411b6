package fakeapi

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// CLIPath is the real claude CLI the tests run, from $LATCH_CLAUDE (the
// Makefile installs the pinned version and sets it). Without it the test is
// skipped, or fails when LATCH_REQUIRE_CLI=1 so CI cannot pass by skipping.
func CLIPath(tb testing.TB) string {
	tb.Helper()
	p := os.Getenv("LATCH_CLAUDE")
	if p == "" {
		if os.Getenv("LATCH_REQUIRE_CLI") == "1" {
			tb.Fatal("LATCH_REQUIRE_CLI=1 but LATCH_CLAUDE is empty: the claude CLI was not installed")
		}
		tb.Skip("LATCH_CLAUDE not set: skipping a test against the real claude CLI")
	}
	if _, err := os.Stat(p); err != nil {
		tb.Fatalf("LATCH_CLAUDE=%s: %v", p, err)
	}
	return p
}

var nonSlug = regexp.MustCompile(`[^A-Za-z0-9]`)

// TidyTemp removes what the CLI left in the system temp dir for a run in
// cwd ($TMPDIR/claude-<uid>/<cwd slug>, docs/protocol.md §1.6); call it when
// the run is over.
func TidyTemp(cwd string) {
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("claude-%d", os.Getuid()), nonSlug.ReplaceAllString(cwd, "-"))
	_ = os.RemoveAll(dir)
}
