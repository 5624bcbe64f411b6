package grants

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func mkdirs(t *testing.T, dirs ...string) {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// climb is the suggestion: a long path inside project that climbs
// back out to the absolute path to.
func climb(project, to string) string {
	long := filepath.Join(project, "docs", strings.Repeat("a", 120))
	ups := strings.Count(long, string(filepath.Separator))
	return long + "/" + strings.Repeat("../", ups) + strings.TrimPrefix(to, "/")
}

func TestResolveDir(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	project := filepath.Join(root, "project")
	real := filepath.Join(root, "real")
	mkdirs(t, filepath.Join(home, ".ssh"), filepath.Join(project, "docs"), filepath.Join(real, "sub"))
	symlink(t, real, filepath.Join(project, "link"))
	symlink(t, "../real/sub", filepath.Join(project, "rel"))
	symlink(t, "/", filepath.Join(project, "slash"))
	symlink(t, filepath.Join(root, "later"), filepath.Join(project, "dangling"))
	symlink(t, "loop", filepath.Join(project, "loop"))
	t.Chdir(project)

	tests := []struct {
		name, dir, base, want string
	}{
		{"clean absolute", project, "", project},
		{"dot, dot-dot and double slashes", project + "//docs/./x/..//", "", filepath.Join(project, "docs")},
		{"relative to base", "docs", project, filepath.Join(project, "docs")},
		{"relative base", "docs", ".", filepath.Join(project, "docs")},
		{"relative to the cwd", "docs/../link", "", real},
		{"absolute ignores base", real, home, real},
		{"link", filepath.Join(project, "link"), "", real},
		{"relative link", filepath.Join(project, "rel"), "", filepath.Join(real, "sub")},
		{"link to /", filepath.Join(project, "slash"), "", "/"},
		{"missing below a link", filepath.Join(project, "link", "new", "deeper"), "", filepath.Join(real, "new", "deeper")},
		{"dangling link followed", filepath.Join(project, "dangling", "x"), "", filepath.Join(root, "later", "x")},
		{"missing below a file", filepath.Join(project, "docs", "x"), "", filepath.Join(project, "docs", "x")},
		{"link loop kept as written", filepath.Join(project, "loop"), "", filepath.Join(project, "loop")},
		{"the issue's climb", climb(project, filepath.Join(home, ".ssh")), "", filepath.Join(home, ".ssh")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ResolveDir(tt.dir, tt.base)
			if err != nil || got != tt.want {
				t.Errorf("ResolveDir(%q, %q) = %q, %v; want %q", tt.dir, tt.base, got, err, tt.want)
			}
		})
	}
	if got, err := ResolveDir("", project); err == nil {
		t.Errorf("ResolveDir(\"\") = %q, want an error", got)
	}
}

func TestBroad(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home", "me")
	mkdirs(t, filepath.Join(home, "project"), filepath.Join(home, ".ssh", "keys"), filepath.Join(root, "elsewhere"))
	linkedHome := filepath.Join(root, "linked")
	symlink(t, home, linkedHome)
	tmp := t.TempDir()

	tests := []struct {
		name, home, tmpdir, dir, want string
	}{
		{"root", home, tmp, "/", "the root of the file system"},
		{"home", home, tmp, home, "your home folder"},
		{"parent of home", home, tmp, filepath.Dir(home), "a folder that contains your home folder"},
		{"ancestor of home", home, tmp, root, "a folder that contains your home folder"},
		{"ssh", home, tmp, filepath.Join(home, ".ssh"), "your SSH keys (~/.ssh)"},
		{"inside ssh", home, tmp, filepath.Join(home, ".ssh", "keys"), "part of your SSH keys (~/.ssh)"},
		{"gnupg", home, tmp, filepath.Join(home, ".gnupg"), "your GnuPG keys (~/.gnupg)"},
		{"aws", home, tmp, filepath.Join(home, ".aws"), "your AWS credentials (~/.aws)"},
		{"config", home, tmp, filepath.Join(home, ".config"), "your app settings (~/.config)"},
		{"inside config", home, tmp, filepath.Join(home, ".config", "gh"), "part of your app settings (~/.config)"},
		{"kube", home, tmp, filepath.Join(home, ".kube"), "your Kubernetes credentials (~/.kube)"},
		{"docker", home, tmp, filepath.Join(home, ".docker"), "your Docker credentials (~/.docker)"},
		{"etc", home, tmp, "/etc", "system configuration (/etc)"},
		{"inside etc", home, tmp, "/etc/ssh", "part of system configuration (/etc)"},
		{"root's home", home, tmp, "/root", "the root user's home folder (/root)"},
		{"var", home, tmp, "/var", "system data (/var)"},
		{"inside var", home, tmp, "/var/lib/db", "part of system data (/var)"},
		{"usr", home, tmp, "/usr", "system programs (/usr)"},
		{"inside usr", home, tmp, "/usr/local/bin", "part of system programs (/usr)"},
		{"a project in home", home, tmp, filepath.Join(home, "project"), ""},
		{"a sibling of home", home, tmp, filepath.Join(root, "elsewhere"), ""},
		{"name that starts like .ssh", home, tmp, filepath.Join(home, ".sshx"), ""},
		{"name that starts like /etc", home, tmp, "/etcetera", ""},
		{"the temp folder", home, tmp, tmp, ""},
		{"home through a link", linkedHome, tmp, home, "your home folder"},
		{"ssh through a linked home", linkedHome, tmp, filepath.Join(home, ".ssh"), "your SSH keys (~/.ssh)"},
		{"no home folder", "", tmp, filepath.Join(root, "home"), ""},
		{"root's home is the home", "/root", tmp, "/root", "your home folder"},
		{"work in root's home", "/root", tmp, "/root/src/project", ""},
		{"ssh in root's home", "/root", tmp, "/root/.ssh", "your SSH keys (~/.ssh)"},
		{"a home under /var", "/var/lib/builder", tmp, "/var/lib/builder/work", ""},
		{"beside a home under /var", "/var/lib/builder", tmp, "/var/log", "part of system data (/var)"},
		{"above a home under /var", "/var/lib/builder", tmp, "/var/lib", "a folder that contains your home folder"},
		{"temp folder under /var", home, "/var/tmp", "/var/tmp/build", ""},
		{"beside a temp folder under /var", home, "/var/tmp", "/var/cache", "part of system data (/var)"},
		{"/var/tmp is a temp folder whatever TMPDIR says", home, tmp, "/var/tmp/build", ""},
		{"temp folder is /", home, "/", "/etc/ssh", "part of system configuration (/etc)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("HOME", tt.home)
			t.Setenv("TMPDIR", tt.tmpdir)
			if got := Broad(tt.dir); got != tt.want {
				t.Errorf("Broad(%q) with HOME=%q = %q, want %q", tt.dir, tt.home, got, tt.want)
			}
		})
	}
}

func TestCheckDirResolvesAndAsksForBroadFolders(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	project := filepath.Join(root, "project")
	mkdirs(t, filepath.Join(home, ".ssh"), filepath.Join(project, "docs"), filepath.Join(root, "data"))
	t.Setenv("HOME", home)
	symlink(t, "/", filepath.Join(project, "slash"))
	symlink(t, filepath.Join(home, ".ssh"), filepath.Join(project, "keys"))
	symlink(t, filepath.Join(root, "data"), filepath.Join(project, "data"))

	tests := []struct {
		name, dir string
		want      string // the resolved folder, given back with force
		why       string // the reason without force; "" when none is needed
	}{
		{"link to /", filepath.Join(project, "slash"), "/", "the root of the file system"},
		{"link to ~/.ssh", filepath.Join(project, "keys"), filepath.Join(home, ".ssh"), "your SSH keys (~/.ssh)"},
		{"the issue's climb", climb(project, filepath.Join(home, ".ssh")), filepath.Join(home, ".ssh"), "your SSH keys (~/.ssh)"},
		{"home with a trailing slash", home + "/", home, "your home folder"},
		{"plain link", filepath.Join(project, "data"), filepath.Join(root, "data"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CheckDir(tt.dir, false)
			if tt.why == "" {
				if err != nil || got != tt.want {
					t.Fatalf("CheckDir(%q, false) = %q, %v; want %q", tt.dir, got, err, tt.want)
				}
			} else {
				want := tt.want + " is " + tt.why + "; "
				if !errors.Is(err, ErrNeedsForce) || !strings.HasPrefix(err.Error(), want) {
					t.Fatalf("CheckDir(%q, false) = %q, %v; want ErrNeedsForce starting %q", tt.dir, got, err, want)
				}
			}
			if got, err := CheckDir(tt.dir, true); err != nil || got != tt.want {
				t.Errorf("CheckDir(%q, true) = %q, %v; want %q", tt.dir, got, err, tt.want)
			}
		})
	}
	if _, err := CheckDir("project/docs", true); err == nil || !strings.Contains(err.Error(), "absolute path") {
		t.Errorf("a relative folder: %v", err)
	}
}

func TestStoreSavesResolvedFolders(t *testing.T) {
	root := t.TempDir()
	real := filepath.Join(root, "real")
	link := filepath.Join(root, "link")
	mkdirs(t, real)
	symlink(t, real, link)

	tests := []struct {
		name    string
		content string   // the file before; $LINK and $REAL substituted
		op      string   // add-dir or remove-dir
		args    []string // $LINK and $REAL substituted
		want    []string // additionalDirectories afterwards
	}{
		{"a link is saved resolved", `{}`, "add-dir", []string{"$LINK/"}, []string{"$REAL"}},
		{"the issue's climb is saved resolved", `{}`, "add-dir", []string{climb(root, "$REAL")}, []string{"$REAL"}},
		{"a folder saved through a link is not added again", `{"permissions": {"additionalDirectories": ["$LINK"]}}`,
			"add-dir", []string{"$REAL"}, []string{"$LINK"}},
		{"an entry written as a link is removed by its target", `{"permissions": {"additionalDirectories": ["$LINK/", "/srv"]}}`,
			"remove-dir", []string{"$REAL"}, []string{"/srv"}},
		{"a resolved entry is removed by a link to it", `{"permissions": {"additionalDirectories": ["$REAL"]}}`,
			"remove-dir", []string{"$LINK"}, []string{}},
		{"an entry is removed as written", `{"permissions": {"additionalDirectories": ["$LINK//"]}}`,
			"remove-dir", []string{"$LINK"}, []string{}},
	}
	sub := strings.NewReplacer("$LINK", link, "$REAL", real)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "settings.json")
			if err := os.WriteFile(path, []byte(sub.Replace(tt.content)), 0o600); err != nil {
				t.Fatal(err)
			}
			args := make([]string, len(tt.args))
			for i, a := range tt.args {
				args[i] = sub.Replace(a)
			}
			s := NewStore(path)
			var err error
			if tt.op == "add-dir" {
				err = s.AddDirs(false, args...)
			} else {
				err = s.RemoveDirs(args...)
			}
			if err != nil {
				t.Fatal(err)
			}
			p, err := s.Read()
			if err != nil {
				t.Fatal(err)
			}
			want := make([]string, len(tt.want))
			for i, w := range tt.want {
				want[i] = sub.Replace(w)
			}
			if !slices.Equal(p.AdditionalDirectories, want) {
				t.Errorf("additionalDirectories = %q, want %q", p.AdditionalDirectories, want)
			}
		})
	}
}
