// Package quietlocale keeps Fyne's package initialisation quiet under the
// C and POSIX locales, so `latch inspect`, `latch grants` and `latch
// version` write nothing to stderr but their own messages.
//
// Fyne's lang package (fyne.io/fyne/v2/lang, v2.7) loads its translations
// in its init function and matches them against the user's locales, which
// github.com/jeandeaual/go-locale reads from LC_ALL, LC_MESSAGES or LANG
// (the first that is set) or, when that is not exactly "C" or "POSIX",
// from LANGUAGE. A value such as C.UTF-8 or POSIX.UTF-8 reaches
// language.Parse as "C" or "POSIX", which fails, and Fyne logs three lines
// ("Fyne error:  Error parsing user locale C", its cause, its source line)
// before main runs. Plain C and POSIX are skipped by go-locale and log
// nothing.
//
// This package's init sets that one variable to plain "C" for the length of
// package initialisation; main calls Restore from its own init, before it
// can start any process, so the Claude Code CLI and every other child
// inherits the locale the person set. Fyne's result is the same either way:
// a locale it cannot parse and no locale both give its fallback, English.
//
// The order is the language's, not luck. The Go spec initialises packages
// one at a time, each time the first in import-path order whose imports are
// all initialised (https://go.dev/ref/spec#Package_initialization). This
// package imports only os. Fyne's lang package imports log, which imports
// os; when log is ready to be initialised, os is done, so this package is
// ready too, and its path (github.com/latch-app/…) sorts before "log": it
// is initialised before log, hence before lang. Package main imports
// everything, so its init, where Restore is called, runs after lang's.
// GODEBUG=inittrace=1 shows the order; a test in the main package runs the
// built binary under these locales.
package quietlocale

import "os"

// changed is what init changed: each variable's value before it.
var changed []setting

type setting struct {
	key, value string
}

func init() { quiet() }

// quiet sets the variable go-locale reads to plain C when its value names
// the C or POSIX locale in a form Fyne would log about.
func quiet() {
	for _, key := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		v := os.Getenv(key)
		if v == "" {
			continue
		}
		// Exactly C or POSIX is skipped by go-locale; with LANGUAGE set,
		// go-locale reads that instead of v.
		if v != "C" && v != "POSIX" && os.Getenv("LANGUAGE") == "" && noLocale(v) {
			if os.Setenv(key, "C") == nil {
				changed = append(changed, setting{key, v})
			}
		}
		return
	}
}

// Restore gives back the environment as the process received it.
func Restore() {
	for _, s := range changed {
		_ = os.Setenv(s.key, s.value)
	}
	changed = nil
}

// noLocale reports a locale value naming the C or POSIX locale with an
// encoding or territory added (C.UTF-8, C.utf8, POSIX.UTF-8), which go-locale
// passes on as the language "C" or "POSIX".
func noLocale(v string) bool {
	// go-locale drops the encoding, then splits language and territory at
	// "_" (a "-" counts as one).
	lang, _, _ := cut(v, '.')
	lang, _, _ = cut(lang, '_')
	lang, _, _ = cut(lang, '-')
	return lang == "C" || lang == "POSIX"
}

// cut is strings.Cut for a byte; this package imports only os, which its
// place in the initialisation order depends on.
func cut(s string, sep byte) (before, after string, found bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == sep {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}
