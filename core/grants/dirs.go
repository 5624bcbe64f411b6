package grants

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrNeedsForce is returned (wrapped, after the reason) by CheckDir for a
// folder Broad names: the caller has to ask a second time and pass force.
var ErrNeedsForce = errors.New("granting it needs a second confirmation")

// ResolveDir makes dir absolute (relative to base when base != "", else the
// process cwd), cleans it, and resolves symlinks. For a path that does not
// exist yet, the longest existing ancestor is resolved and the rest
// appended. It fails only for "" (or when the cwd is unknown).
//
// The path is cleaned before links are followed, as the CLI does with the
// folders it is given: the resolved path is the one shown, saved and
// passed on, so what the person sees is what is granted.
func ResolveDir(dir, base string) (string, error) {
	if dir == "" {
		return "", errors.New("no folder given")
	}
	if !filepath.IsAbs(dir) && base != "" {
		dir = filepath.Join(base, dir)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return resolveExisting(abs), nil
}

// resolveExisting follows the links of a clean absolute path as far as the
// path exists, dangling links included, so a link to a folder that does not
// exist yet is judged by where it points.
func resolveExisting(p string) string {
	for range 40 {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
		// Find the longest ancestor that resolves.
		anc, rest := p, ""
		var real string
		for {
			if filepath.Dir(anc) == anc {
				real = anc
				break
			}
			anc, rest = filepath.Dir(anc), filepath.Join(filepath.Base(anc), rest)
			if r, err := filepath.EvalSymlinks(anc); err == nil {
				real = r
				break
			}
		}
		first, after, _ := strings.Cut(rest, string(filepath.Separator))
		next := filepath.Join(real, first)
		fi, err := os.Lstat(next)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return filepath.Join(real, rest)
		}
		link, err := os.Readlink(next)
		if err != nil {
			return filepath.Join(real, rest)
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(real, link)
		}
		p = filepath.Join(link, after)
	}
	return p // a link loop: keep the clean path
}

// CheckDir returns the resolved form of dir (see ResolveDir) when dir is an
// absolute path to an existing folder. Without force, a folder that Broad
// names is refused with ErrNeedsForce and the reason.
func CheckDir(dir string, force bool) (string, error) {
	if dir == "" {
		return "", errors.New("no folder given")
	}
	if !filepath.IsAbs(dir) {
		return "", fmt.Errorf("%s: folder grants need an absolute path", dir)
	}
	real, err := ResolveDir(dir, "")
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(real)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("%s: no such folder", real)
		}
		return "", err
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s: not a folder", real)
	}
	if why := Broad(real); why != "" && !force {
		return "", fmt.Errorf("%s is %s; %w", real, why, ErrNeedsForce)
	}
	return real, nil
}

// A sensitive folder: granting it, or anything inside it, asks twice.
type sensitive struct {
	path, why string
	inHome    bool // path is relative to the home folder
}

var sensitiveDirs = []sensitive{
	{".ssh", "your SSH keys (~/.ssh)", true},
	{".gnupg", "your GnuPG keys (~/.gnupg)", true},
	{".aws", "your AWS credentials (~/.aws)", true},
	{".config", "your app settings (~/.config)", true},
	{".kube", "your Kubernetes credentials (~/.kube)", true},
	{".docker", "your Docker credentials (~/.docker)", true},
	{"/etc", "system configuration (/etc)", false},
	{"/root", "the root user's home folder (/root)", false},
	{"/var", "system data (/var)", false},
	{"/usr", "system programs (/usr)", false},
}

// Broad says why granting the already-resolved folder dir needs a second
// question, or "" when it needs none: the root of a file system, the home
// folder and its ancestors, and the sensitive folders and what is inside
// them. Folders are compared both as written and resolved, so a home or
// /etc reached through a link (macOS's /private/etc) counts too.
func Broad(dir string) string {
	if dir == "" {
		return ""
	}
	dir = filepath.Clean(dir)
	if filepath.Dir(dir) == dir {
		return "the root of the file system"
	}
	homes := homeForms()
	for _, h := range homes {
		if dir == h {
			return "your home folder"
		}
	}
	if len(homes) > 0 {
		a, errA := os.Stat(homes[0])
		b, errB := os.Stat(dir)
		if errA == nil && errB == nil && os.SameFile(a, b) {
			return "your home folder" // the same folder by another path (a bind mount)
		}
	}
	for _, h := range homes {
		if within(dir, h) {
			return "a folder that contains your home folder"
		}
	}
	// The temp folders hold nothing of the system's: a folder inside one
	// does not ask twice even where it lies under /var (macOS, /var/tmp).
	tmp := append(forms(os.TempDir()), forms("/var/tmp")...)
	for _, s := range sensitiveDirs {
		var paths []string
		if s.inHome {
			for _, h := range homes {
				paths = append(paths, filepath.Join(h, s.path))
			}
		} else {
			paths = forms(s.path)
		}
		for _, p := range paths {
			if dir == p {
				return s.why
			}
			if !within(p, dir) {
				continue
			}
			// A home under /root or /var holds the person's own work;
			// only its own sensitive folders ask twice.
			if !s.inHome && (insideAny(dir, homes, p) || insideAny(dir, tmp, p)) {
				continue
			}
			return "part of " + s.why
		}
	}
	return ""
}

// insideAny reports that dir is one of the folders in list, or inside one,
// where that folder itself is outer or lies inside it.
func insideAny(dir string, list []string, outer string) bool {
	for _, f := range list {
		if (f == outer || within(outer, f)) && (dir == f || within(f, dir)) {
			return true
		}
	}
	return false
}

// homeForms is the home folder cleaned and resolved, without duplicates;
// empty when there is no home folder.
func homeForms() []string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" || !filepath.IsAbs(home) {
		return nil
	}
	return forms(home)
}

// forms is the absolute path p cleaned, then resolved when that differs.
func forms(p string) []string {
	clean := filepath.Clean(p)
	real, err := ResolveDir(clean, "")
	if err != nil || real == clean {
		return []string{clean}
	}
	return []string{clean, real}
}

// within reports that p lies strictly inside the folder dir (both clean).
func within(dir, p string) bool {
	if dir == p {
		return false
	}
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
