package grants

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/tidwall/gjson"
)

// onlyEdited checks that after differs from before in one contiguous
// region, and that region lies inside the value at path (the edited array,
// or a null it replaced) or is a pure insertion.
func onlyEdited(before, after []byte, path []string) error {
	if bytes.Equal(before, after) {
		return nil
	}
	if !json.Valid(trimBOM(after)) {
		return fmt.Errorf("result is not valid JSON:\n%s", after)
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
	obj := rootObject(before)
	for _, key := range path {
		obj = obj.Get(key)
		if !obj.Exists() {
			return fmt.Errorf("bytes %d..%d changed although %v did not exist", start, end, path)
		}
		if obj.Type == gjson.Null {
			break
		}
	}
	if start < obj.Index || end > obj.Index+len(obj.Raw) {
		return fmt.Errorf("bytes %d..%d changed, outside %v at %d..%d:\nbefore %q\nafter  %q",
			start, end, path, obj.Index, obj.Index+len(obj.Raw), before, after)
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
