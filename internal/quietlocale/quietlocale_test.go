package quietlocale

import (
	"os"
	"testing"
)

func TestNoLocale(t *testing.T) {
	for v, want := range map[string]bool{
		"C.UTF-8": true, "C.utf8": true, "POSIX.UTF-8": true, "C_X": true, "C": true, "POSIX": true,
		"en_US.UTF-8": false, "de-DE": false, "Cy": false, "": false,
	} {
		if got := noLocale(v); got != want {
			t.Errorf("noLocale(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestQuietAndRestore(t *testing.T) {
	tests := []struct {
		name                           string
		lcAll, lcMessages, lang, langs string
		wantKey, wantDuring            string // the variable set during init and its value
	}{
		{"LANG=C.UTF-8", "", "", "C.UTF-8", "", "LANG", "C"},
		{"LC_ALL wins", "POSIX.UTF-8", "", "en_US.UTF-8", "", "LC_ALL", "C"},
		{"LC_MESSAGES before LANG", "", "C.utf8", "de_DE.UTF-8", "", "LC_MESSAGES", "C"},
		{"a real locale is left alone", "", "", "en_US.UTF-8", "", "LANG", "en_US.UTF-8"},
		{"plain C is left alone", "", "", "C", "", "LANG", "C"},
		{"LC_ALL=en wins over LANG=C.UTF-8", "en_GB.UTF-8", "", "C.UTF-8", "", "LANG", "C.UTF-8"},
		{"LANGUAGE is read instead", "", "", "C.UTF-8", "fr", "LANG", "C.UTF-8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env := map[string]string{"LC_ALL": tc.lcAll, "LC_MESSAGES": tc.lcMessages, "LANG": tc.lang, "LANGUAGE": tc.langs}
			for k, v := range env {
				t.Setenv(k, v)
			}
			quiet()
			if got := os.Getenv(tc.wantKey); got != tc.wantDuring {
				t.Errorf("during init %s=%q, want %q", tc.wantKey, got, tc.wantDuring)
			}
			Restore()
			for k, v := range env {
				if got := os.Getenv(k); got != v {
					t.Errorf("after Restore %s=%q, want %q", k, got, v)
				}
			}
		})
	}
}
