package grants

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrNeedsForce is returned (wrapped) by CheckDir for "/" and the home
// folder itself: granting those opens nearly everything, so the caller has
// to ask again and pass force.
var ErrNeedsForce = errors.New("granting this folder opens nearly everything; it needs force")

// CheckDir returns dir cleaned when it is an absolute path to an existing
// folder.
func CheckDir(dir string, force bool) (string, error) {
	if dir == "" {
		return "", errors.New("no folder given")
	}
	if !filepath.IsAbs(dir) {
		return "", fmt.Errorf("%s: folder grants need an absolute path", dir)
	}
	clean := filepath.Clean(dir)
	fi, err := os.Stat(clean)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("%s: no such folder", clean)
		}
		return "", err
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("%s: not a folder", clean)
	}
	if !force && broad(clean) {
		return "", fmt.Errorf("%s: %w", clean, ErrNeedsForce)
	}
	return clean, nil
}

// broad reports the root of a file system or the home folder itself.
func broad(clean string) bool {
	if filepath.Dir(clean) == clean {
		return true
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return false
	}
	if filepath.Clean(home) == clean {
		return true
	}
	a, errA := os.Stat(home)
	b, errB := os.Stat(clean)
	return errA == nil && errB == nil && os.SameFile(a, b)
}
