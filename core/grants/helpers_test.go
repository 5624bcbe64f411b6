package grants

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tidwall/gjson"
)

// onlyEdited checks that after differs from before in one contiguous
// region, and that region lies inside the honoured value at path (the
// edited array, or a null it replaced), is a pure insertion, or, when the
// edit dropped a key on path, lies inside the object that held it.
func onlyEdited(before, after []byte, path []string) error {
	if bytes.Equal(before, after) {
		return nil
	}
	if checkObject("after", after) != nil {
		return fmt.Errorf("result is not a valid JSON object:\n%s", after)
	}
	n := min(len(before), len(after))
	p := 0
	for p < n && before[p] == after[p] {
		p++
	}
	s := 0
	for s < n-p && before[len(before)-1-s] == after[len(after)-1-s] {
		s++
	}
	start, end := p, len(before)-s // the replaced region of before
	if start == end {
		return nil
	}
	if blank(before) {
		return nil // a blank file is replaced by a new document
	}
	// held is the value of before that holds the region: the array at
	// path, or the object that held the first key on path that after lacks.
	held := rootObject(before)
	later := rootObject(after)
	for _, key := range path {
		if later.Exists() && !honoured(later, key).Exists() {
			break // after dropped key from held
		}
		held, later = honoured(held, key), honoured(later, key)
		if !held.Exists() {
			return fmt.Errorf("bytes %d..%d changed although %v did not exist", start, end, path)
		}
		if held.Type == gjson.Null {
			break
		}
	}
	if start < held.Index || end > held.Index+len(held.Raw) {
		return fmt.Errorf("bytes %d..%d changed, outside %v at %d..%d:\nbefore %q\nafter  %q",
			start, end, path, held.Index, held.Index+len(held.Raw), before, after)
	}
	return nil
}

// copyTestdata puts testdata/name into a fresh folder as settings.json.
func copyTestdata(t *testing.T, name string) (string, []byte) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path, data
}

// writeSettings puts data into a fresh folder as settings.json.
func writeSettings(t *testing.T, data string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// noLeftovers fails when a temp file was left next to path.
func noLeftovers(t *testing.T, path string) {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*.tmp-*"))
	if len(m) > 0 {
		t.Errorf("temp files left behind: %v", m)
	}
}

func equalBytes(t *testing.T, what string, got, want []byte) {
	t.Helper()
	if !bytes.Equal(got, want) {
		t.Errorf("%s:\n got %q\nwant %q", what, got, want)
	}
}

// checkEdit checks the file at path after an edit: with want "" it is
// before, byte for byte, and no backup was written; otherwise it is want
// and the backup holds before.
func checkEdit(t *testing.T, path string, before []byte, want string) {
	t.Helper()
	after := readFile(t, path)
	if want == "" {
		equalBytes(t, "file", after, before)
		if _, err := os.Stat(path + backupSuffix); !errors.Is(err, os.ErrNotExist) {
			t.Error("an edit that changed nothing wrote a backup")
		}
		return
	}
	equalBytes(t, "file", after, []byte(want))
	equalBytes(t, "backup", readFile(t, path+backupSuffix), before)
}
