package grants

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestSymlinkStaysSymlink(t *testing.T) {
	src, before := copyTestdata(t, "hooks.json")
	dotfiles := filepath.Join(t.TempDir(), "dotfiles")
	if err := os.Mkdir(dotfiles, 0o700); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dotfiles, "claude-settings.json")
	if err := os.Rename(src, target); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "settings.json")
	if err := os.Symlink("../"+filepath.Base(filepath.Dir(dotfiles))+"/dotfiles/claude-settings.json", link); err != nil {
		t.Fatal(err)
	}
	if err := NewStore(link).AddRules("WebSearch"); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("settings.json is no longer a symlink: %v %v", fi.Mode(), err)
	}
	p, _ := NewStore(target).Read()
	if !slices.Contains(p.Allow, "WebSearch") {
		t.Errorf("target not updated: %q", p.Allow)
	}
	equalBytes(t, "backup next to the target", readFile(t, target+backupSuffix), before)
	noLeftovers(t, target)
}

// TestSymlinkedFolderRelativeLink: ~/.claude links to a dotfiles folder
// whose settings.json is a relative link that climbs out of it, dangling
// until the first grant creates the target.
func TestSymlinkedFolderRelativeLink(t *testing.T) {
	root := t.TempDir()
	real := filepath.Join(root, "dotfiles", "claude")
	if err := os.MkdirAll(real, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "home"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, filepath.Join(root, "home", ".claude")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../shared/settings.json", filepath.Join(real, "settings.json")); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "home", ".claude", "settings.json")
	if err := NewStore(link).AddRules("Bash"); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(root, "dotfiles", "shared", "settings.json")
	if p, err := NewStore(target).Read(); err != nil || !slices.Equal(p.Allow, []string{"Bash"}) {
		t.Fatalf("target %s: %+v %v", target, p, err)
	}
	if fi, err := os.Lstat(filepath.Join(real, "settings.json")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link replaced: %v", err)
	}
	if p, err := NewStore(link).Read(); err != nil || !slices.Equal(p.Allow, []string{"Bash"}) {
		t.Errorf("through the link: %+v %v", p, err)
	}
}

func TestModeKeptAndNewFileModes(t *testing.T) {
	path, _ := copyTestdata(t, "hooks.json")
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := NewStore(path).AddRules("WebSearch"); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", fi.Mode().Perm())
	}

	fresh := filepath.Join(t.TempDir(), "new", ".claude", "settings.local.json")
	if err := NewStore(fresh).AddRules("Bash"); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(fresh); fi.Mode().Perm() != 0o600 {
		t.Errorf("new file mode %v, want 0600", fi.Mode().Perm())
	}
	if fi, _ := os.Stat(filepath.Dir(fresh)); fi.Mode().Perm() != 0o700 {
		t.Errorf("new folder mode %v, want 0700", fi.Mode().Perm())
	}
	if _, err := os.Stat(fresh + backupSuffix); !os.IsNotExist(err) {
		t.Errorf("backup written for a file that did not exist")
	}
}

func TestSecondWriterWaitsForLock(t *testing.T) {
	path, _ := copyTestdata(t, "hooks.json")
	unlock, err := lockFile(path+".lock", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- NewStore(path).AddRules("WebSearch") }()
	select {
	case err := <-done:
		t.Fatalf("writer did not wait for the lock (err %v)", err)
	case <-time.After(300 * time.Millisecond):
	}
	if p, _ := NewStore(path).Read(); slices.Contains(p.Allow, "WebSearch") {
		t.Fatal("written while the lock was held")
	}
	unlock()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if p, _ := NewStore(path).Read(); !slices.Contains(p.Allow, "WebSearch") {
		t.Error("grant missing after the lock was released")
	}
}

func TestLockTimesOut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	unlock, err := lockFile(path+".lock", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	old := lockTimeout
	lockTimeout = 50 * time.Millisecond
	defer func() { lockTimeout = old }()
	if err := NewStore(path).AddRules("Bash"); err == nil {
		t.Fatal("no error while another writer holds the lock forever")
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Error("file written without the lock")
	}
}

const helperEnv = "LATCH_GRANTS_HELPER_SETTINGS"

// TestHelperProcess is the second process of TestConcurrentWriters.
func TestHelperProcess(t *testing.T) {
	path := os.Getenv(helperEnv)
	if path == "" {
		t.Skip("only run as a helper process")
	}
	s := NewStore(path)
	for i := range 20 {
		if err := s.AddRules(fmt.Sprintf("Bash(process %d)", i)); err != nil {
			t.Fatal(err)
		}
	}
}

func TestConcurrentWriters(t *testing.T) {
	path, _ := copyTestdata(t, "hooks.json")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"="+path)
	out := make(chan error, 1)
	go func() {
		b, err := cmd.CombinedOutput()
		if err != nil {
			err = fmt.Errorf("%v: %s", err, b)
		}
		out <- err
	}()

	ctx, stop := context.WithCancel(context.Background())
	var reads, bad atomic.Int64
	var readers sync.WaitGroup
	readers.Add(1)
	go func() { // a reader must never see a half-written file
		defer readers.Done()
		for ctx.Err() == nil {
			data, err := os.ReadFile(path)
			if err != nil || !json.Valid(data) {
				bad.Add(1)
			}
			reads.Add(1)
		}
	}()

	const goroutines, each = 4, 10
	var wg sync.WaitGroup
	errs := make(chan error, goroutines*each+1)
	for g := range goroutines {
		wg.Go(func() {
			s := NewStore(path)
			for i := range each {
				if i%2 == 0 {
					errs <- s.AddRules(fmt.Sprintf("Bash(goroutine %d-%d)", g, i))
				} else {
					dir := t.TempDir()
					errs <- s.AddDirs(false, dir)
				}
			}
		})
	}
	wg.Wait()
	errs <- <-out
	stop()
	readers.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if bad.Load() > 0 {
		t.Errorf("%d of %d reads saw a missing or invalid file", bad.Load(), reads.Load())
	}
	p, err := NewStore(path).Read()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"Bash(npm run lint)", "Bash(npm run test:*)", "Read(~/.zshrc)"}
	for i := range 20 {
		want = append(want, fmt.Sprintf("Bash(process %d)", i))
	}
	for g := range goroutines {
		for i := 0; i < each; i += 2 {
			want = append(want, fmt.Sprintf("Bash(goroutine %d-%d)", g, i))
		}
	}
	for _, w := range want {
		if !slices.Contains(p.Allow, w) {
			t.Errorf("lost grant %q", w)
		}
	}
	if len(p.Allow) != len(want) {
		t.Errorf("%d rules, want %d: %q", len(p.Allow), len(want), p.Allow)
	}
	if n := goroutines * each / 2; len(p.AdditionalDirectories) != n {
		t.Errorf("%d folders, want %d", len(p.AdditionalDirectories), n)
	}
	noLeftovers(t, path)
}

func TestWatch(t *testing.T) {
	path, _ := copyTestdata(t, "hooks.json")
	ctx, cancel := context.WithCancel(context.Background())
	calls := make(chan struct{}, 10)
	NewStore(path).Watch(ctx, 10*time.Millisecond, func() { calls <- struct{}{} })
	if err := NewStore(path).AddRules("WebSearch"); err != nil {
		t.Fatal(err)
	}
	select {
	case <-calls:
	case <-time.After(5 * time.Second):
		t.Fatal("change not reported")
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	select {
	case <-calls:
	case <-time.After(5 * time.Second):
		t.Fatal("removal not reported")
	}
	cancel()
	time.Sleep(50 * time.Millisecond) // let the poller see ctx.Done
	for len(calls) > 0 {
		<-calls
	}
	if err := os.WriteFile(path, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	if len(calls) > 0 {
		t.Error("changed called after ctx was done")
	}
}
