package grants

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// snapshot is every file under dir with its content, links as "-> target".
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			out[p] = "-> " + l
		case fi.Mode().IsRegular():
			out[p] = string(readFile(t, p)) + " " + fi.Mode().Perm().String()
		default:
			out[p] = "dir"
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameSnapshot(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %s changed: %q, was %q", what, k, got[k], v)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: %s appeared", what, k)
		}
	}
}

func TestProjectStoreStaysInTheProject(t *testing.T) {
	hooks := string(readFile(t, filepath.Join("testdata", "hooks.json")))
	tests := []struct {
		name  string
		setup func(t *testing.T, project, outside string) // outside holds settings.json
		// link and target of the refusal, relative to project and outside;
		// "" when the project file may be written.
		link, target string
	}{
		{name: "a plain project", setup: func(*testing.T, string, string) {}},
		{name: ".claude links out of the project", setup: func(t *testing.T, project, outside string) {
			symlink(t, outside, filepath.Join(project, ".claude"))
		}, link: ".claude", target: "."},
		{name: "settings.local.json links out of the project", setup: func(t *testing.T, project, outside string) {
			mkdirs(t, filepath.Join(project, ".claude"))
			symlink(t, filepath.Join(outside, "settings.json"), filepath.Join(project, ".claude", "settings.local.json"))
		}, link: ".claude/settings.local.json", target: "settings.json"},
		{name: "a relative link out of the project", setup: func(t *testing.T, project, outside string) {
			rel, err := filepath.Rel(project, outside)
			if err != nil {
				t.Fatal(err)
			}
			symlink(t, rel, filepath.Join(project, ".claude"))
		}, link: ".claude", target: "."},
		{name: "a dangling link out of the project", setup: func(t *testing.T, project, outside string) {
			symlink(t, filepath.Join(outside, "not-yet"), filepath.Join(project, ".claude"))
		}, link: ".claude", target: "not-yet"},
		{name: "a link inside the project", setup: func(t *testing.T, project, _ string) {
			mkdirs(t, filepath.Join(project, "dotfiles"))
			symlink(t, "dotfiles", filepath.Join(project, ".claude"))
		}},
		{name: "a file linked within the project", setup: func(t *testing.T, project, _ string) {
			mkdirs(t, filepath.Join(project, ".claude"))
			symlink(t, "../shared.json", filepath.Join(project, ".claude", "settings.local.json"))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			project, outside := t.TempDir(), t.TempDir()
			if err := os.WriteFile(filepath.Join(outside, "settings.json"), []byte(hooks), 0o600); err != nil {
				t.Fatal(err)
			}
			tt.setup(t, project, outside)
			before := snapshot(t, outside)
			s, err := ProjectStore(project)
			if tt.link == "" {
				if err != nil {
					t.Fatal(err)
				}
				if err := s.AddRules("Bash(make:*)"); err != nil {
					t.Fatal(err)
				}
				if p, err := NewStore(ProjectSettingsPath(project)).Read(); err != nil || len(p.Allow) != 1 {
					t.Errorf("not saved in the project: %+v %v", p, err)
				}
				sameSnapshot(t, "outside", snapshot(t, outside), before)
				return
			}
			want := filepath.Join(project, tt.link) + " is a symlink to " + filepath.Join(outside, tt.target) +
				", outside the project; Latch does not write through it"
			if err == nil || err.Error() != want || !errors.Is(err, errRefused) || s != nil {
				t.Fatalf("ProjectStore = %v, %v\nwant the error %q", s, err, want)
			}
			// A store made before the link appeared refuses all the same.
			late := &Store{Path: ProjectSettingsPath(project), root: project}
			for _, write := range []func() error{
				func() error { return late.AddRules("Bash") },
				func() error { return late.RemoveRules("Bash(npm run lint)") },
				func() error { return late.AddDirs(false, project) },
				func() error { return late.RemoveDirs("/srv") },
			} {
				if err := write(); err == nil || err.Error() != want {
					t.Errorf("write through the link: %v, want %q", err, want)
				}
			}
			sameSnapshot(t, "outside", snapshot(t, outside), before)
		})
	}
}

func TestReadOnlySettingsAreLeftAlone(t *testing.T) {
	tests := []struct {
		name  string
		mode  os.FileMode
		write func(s *Store, dir string) error
	}{
		{"allow, r--r--r--", 0o444, func(s *Store, _ string) error { return s.AddRules("WebSearch") }},
		{"revoke, r--------", 0o400, func(s *Store, _ string) error { return s.RemoveRules("Bash(npm run lint)") }},
		{"add a folder, r-xr-xr-x", 0o555, func(s *Store, dir string) error { return s.AddDirs(false, dir) }},
		{"group may write, the owner not", 0o464, func(s *Store, _ string) error { return s.AddRules("WebSearch") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, before := copyTestdata(t, "hooks.json")
			if err := os.Chmod(path, tt.mode); err != nil {
				t.Fatal(err)
			}
			err := tt.write(NewStore(path), t.TempDir())
			want := path + " is read-only; Latch leaves it as it is"
			if err == nil || err.Error() != want || !errors.Is(err, errRefused) {
				t.Fatalf("error %v, want %q", err, want)
			}
			equalBytes(t, "read-only file", readFile(t, path), before)
			if fi, _ := os.Stat(path); fi.Mode().Perm() != tt.mode {
				t.Errorf("mode %v, want %v", fi.Mode().Perm(), tt.mode)
			}
			if _, err := os.Stat(path + backupSuffix); !errors.Is(err, os.ErrNotExist) {
				t.Error("a backup was written")
			}
			noLeftovers(t, path)
		})
	}

	t.Run("through a link, both are named", func(t *testing.T) {
		target, before := copyTestdata(t, "hooks.json")
		if err := os.Chmod(target, 0o444); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(t.TempDir(), "settings.json")
		symlink(t, target, link)
		err := NewStore(link).AddRules("WebSearch")
		if err == nil || err.Error() != link+" ("+target+") is read-only; Latch leaves it as it is" {
			t.Errorf("error %v", err)
		}
		equalBytes(t, "read-only target", readFile(t, target), before)
	})

	t.Run("nothing to change is no error", func(t *testing.T) {
		path, before := copyTestdata(t, "hooks.json")
		if err := os.Chmod(path, 0o444); err != nil {
			t.Fatal(err)
		}
		if err := NewStore(path).AddRules("Bash(npm run lint)"); err != nil {
			t.Errorf("a rule already there: %v", err)
		}
		equalBytes(t, "read-only file", readFile(t, path), before)
	})

	t.Run("Latch's config too", func(t *testing.T) {
		path := useConfigHome(t)
		mkdirs(t, filepath.Dir(path))
		if err := os.WriteFile(path, []byte(`{"claude_command": "claude"}`), 0o444); err != nil {
			t.Fatal(err)
		}
		if err := UpdateConfigAt(path, func(c *Config) { c.PhraseDetection = true }); err == nil || !strings.HasSuffix(err.Error(), "is read-only; Latch leaves it as it is") {
			t.Errorf("UpdateConfigAt: %v", err)
		}
		if got := string(readFile(t, path)); got != `{"claude_command": "claude"}` {
			t.Errorf("config changed: %s", got)
		}
	})
}
