package grants

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// lockTimeout is how long a writer waits for another one to finish.
var lockTimeout = 30 * time.Second

const backupSuffix = ".latch-bak"

// resolveLinks follows path through symlinks (including a dangling last
// one) so that writes replace the real file and the link stays a link.
func resolveLinks(path string) (string, error) {
	for range 40 {
		if real, err := filepath.EvalSymlinks(path); err == nil {
			return real, nil
		}
		// A missing file or a dangling link: resolve the folder first, as
		// the kernel resolves a relative link from the real folder.
		if dir, err := filepath.EvalSymlinks(filepath.Dir(path)); err == nil {
			path = filepath.Join(dir, filepath.Base(path))
		}
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

// errRefused is wrapped by the error of a write Latch will not make: to a
// read-only settings file, or through a link that leads out of the project.
// Such an error names the file; nothing was written.
var errRefused = errors.New("settings file left as it is")

type refusal struct{ msg string }

func (r *refusal) Error() string { return r.msg }
func (r *refusal) Unwrap() error { return errRefused }

// editFile runs edit on the current content of path under a lock and writes
// the result atomically. edit gets nil for a missing file; returning the
// same bytes writes nothing. With backup, the previous content is kept in
// <target>.latch-bak. With root, a path that links out of that folder is
// refused. A file without the owner's write bit is never replaced: the
// bit is checked, not left to the kernel, which lets root write anyway.
func editFile(path string, backup bool, root string, edit func(old []byte) ([]byte, error)) error {
	if root != "" {
		if err := escape(root, path); err != nil {
			return err
		}
	}
	target, err := resolveLinks(path)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
		return err
	}
	unlock, err := lockFile(target+".lock", lockTimeout)
	if err != nil {
		return err
	}
	defer unlock()

	// A writer that ignores the lock (Claude Code itself, an editor) may
	// still slip in between reading and renaming; retry when the file moved.
	for range 5 {
		before, old, err := readWithInfo(target)
		if err != nil {
			return err
		}
		updated, err := edit(old)
		if err != nil {
			return err
		}
		if bytes.Equal(updated, old) {
			return nil
		}
		name := path
		if target != path {
			name = fmt.Sprintf("%s (%s)", path, target)
		}
		err = replace(name, target, before, old, updated, backup)
		if errors.Is(err, errMoved) {
			continue
		}
		if err != nil {
			return err
		}
		written, err := os.ReadFile(target)
		if err != nil {
			return fmt.Errorf("verify %s: %w", target, err)
		}
		if !bytes.Equal(written, updated) {
			return fmt.Errorf("verify %s: the file changed right after Latch wrote it", target)
		}
		return nil
	}
	return fmt.Errorf("%s keeps changing while Latch writes it; nothing saved", target)
}

var errMoved = errors.New("file changed during the edit")

// replace writes updated over target, which held old when it was read
// (before: its info then, nil for a missing file), keeping its mode: a
// file without the owner's write bit is refused (the bit is checked, not
// left to the kernel, which lets root write anyway); with backup, old is
// kept in <target>.latch-bak first; the synced temp file is renamed over
// target only when target did not change since it was read (errMoved
// otherwise, for the caller to read again). name is target as the person
// knows it, for the refusal.
func replace(name, target string, before fs.FileInfo, old, updated []byte, backup bool) error {
	mode := fs.FileMode(0o600)
	if before != nil {
		mode = before.Mode().Perm()
	}
	if before != nil && mode&0o200 == 0 {
		return &refusal{name + " is read-only; Latch leaves it as it is"}
	}
	if backup && old != nil {
		if err := writeAtomic(target+backupSuffix, old, mode, nil); err != nil {
			return fmt.Errorf("backup: %w", err)
		}
	}
	return writeAtomic(target, updated, mode, func() bool {
		now, _ := os.Stat(target)
		return sameFile(before, now)
	})
}

// escape refuses path, a file in root/.claude, when its folder or the file
// itself is a link that resolves outside root (a resolved folder).
func escape(root, path string) error {
	for _, p := range []string{filepath.Dir(path), path} {
		target, err := resolveLinks(p)
		if err != nil {
			return err
		}
		if target != root && !within(root, target) {
			return &refusal{fmt.Sprintf("%s is a symlink to %s, outside the project; Latch does not write through it", p, target)}
		}
	}
	return nil
}

func readWithInfo(path string) (fs.FileInfo, []byte, error) {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, fmt.Errorf("%s is not a regular file", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	if data == nil {
		data = []byte{}
	}
	return fi, data, nil
}

// sameFile reports that a file (or its absence) did not change.
func sameFile(a, b fs.FileInfo) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// writeAtomic writes data to a temp file next to path, syncs it and renames
// it over path. unchanged, when given, is asked right before the rename.
func writeAtomic(path string, data []byte, mode fs.FileMode, unchanged func() bool) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if unchanged != nil && !unchanged() {
		return errMoved
	}
	if err := os.Rename(name, path); err != nil {
		return err
	}
	ok = true
	if d, err := os.Open(dir); err == nil { // make the rename itself durable
		_ = d.Sync()
		d.Close()
	}
	return nil
}
