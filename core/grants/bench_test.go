package grants

import (
	"fmt"
	"os"
	"testing"
)

func BenchmarkAddStrings(b *testing.B) {
	data, err := os.ReadFile("testdata/hooks.json")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := addStrings("hooks.json", data, allowPath, []string{"Bash(go test:*)"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStoreAddRules is one full grant: lock, re-read, edit, backup,
// temp file, fsync, rename, verify.
func BenchmarkStoreAddRules(b *testing.B) {
	data, err := os.ReadFile("testdata/hooks.json")
	if err != nil {
		b.Fatal(err)
	}
	path := b.TempDir() + "/settings.json"
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	s := NewStore(path)
	i := 0
	for b.Loop() {
		i++
		if err := s.AddRules(fmt.Sprintf("Bash(task %d)", i)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStoreRead(b *testing.B) {
	data, err := os.ReadFile("testdata/hooks.json")
	if err != nil {
		b.Fatal(err)
	}
	path := b.TempDir() + "/settings.json"
	if err := os.WriteFile(path, data, 0o600); err != nil {
		b.Fatal(err)
	}
	s := NewStore(path)
	for b.Loop() {
		if _, err := s.Read(); err != nil {
			b.Fatal(err)
		}
	}
}
