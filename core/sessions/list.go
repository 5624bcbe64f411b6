package sessions

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/tidwall/gjson"
)

// Lister lists the sessions of a folder. It keeps what it read and, on the
// next List, reads again only files whose size or mtime changed; a file
// that only grew is read on from its tail. Safe for concurrent use.
type Lister struct {
	mu   sync.Mutex
	dirs map[string]map[string]*entry // folder → file name → what was read
}

// entry is one file as the Lister last read it.
type entry struct {
	size  int64
	mtime time.Time
	sum   Summary
	head  *head // what the head read found; nil when the file was read whole
	// failed: the file could not be read (it is listed by name): try again
	// next time even if it did not change.
	failed bool
}

// head is what a bounded read of a file's beginning gives: enough for a
// 2.1.x file, whose prompts carry turnPosition.
type head struct {
	fingerprint string // the file's first bytes: an appended file keeps them
	started     time.Time
	firstPrompt string
}

// Read sizes: the head and the tail are read in chunks that grow fourfold
// up to these limits; past them the file is read whole.
const (
	headFirst, headMax = 16 << 10, 1 << 20
	tailFirst          = 64 << 10
	fingerprintLen     = 256
)

// NewLister returns a Lister with nothing read yet.
func NewLister() *Lister {
	return &Lister{dirs: map[string]map[string]*entry{}}
}

// List returns the sessions in dir (the *.jsonl files directly in it, but
// a subagent's agent-*.jsonl), newest Updated first. A missing dir is an
// empty list and no error. A file that cannot be read is listed with its
// name, size and mtime only.
func (l *Lister) List(dir string) ([]Summary, error) {
	des, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		l.mu.Lock()
		delete(l.dirs, dir)
		l.mu.Unlock()
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	type job struct {
		name string
		fi   fs.FileInfo
		prev *entry
		out  *entry
	}
	var jobs []*job
	l.mu.Lock()
	cached := l.dirs[dir]
	l.mu.Unlock()
	for _, de := range des {
		name := de.Name()
		if !strings.HasSuffix(name, ".jsonl") || strings.HasPrefix(name, "agent-") || de.IsDir() {
			continue
		}
		var fi fs.FileInfo
		if de.Type()&fs.ModeSymlink != 0 {
			fi, err = os.Stat(filepath.Join(dir, name))
		} else {
			fi, err = de.Info()
		}
		if err != nil || !fi.Mode().IsRegular() {
			continue // gone since ReadDir, or not a file
		}
		// A folder's map is replaced whole, never changed: read unlocked.
		j := &job{name: name, fi: fi, prev: cached[name]}
		if p := j.prev; p != nil && !p.failed && p.size == fi.Size() && p.mtime.Equal(fi.ModTime()) {
			j.out = p
		}
		jobs = append(jobs, j)
	}
	var todo []*job
	for _, j := range jobs {
		if j.out == nil {
			todo = append(todo, j)
		}
	}
	workers := min(runtime.GOMAXPROCS(0), len(todo))
	var wg sync.WaitGroup
	next := make(chan *job)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var scratch []byte // one buffer per worker for the head and tail reads
			for j := range next {
				j.out = summarize(filepath.Join(dir, j.name), j.fi, j.prev, &scratch)
			}
		}()
	}
	for _, j := range todo {
		next <- j
	}
	close(next)
	wg.Wait()

	fresh := make(map[string]*entry, len(jobs))
	out := make([]Summary, 0, len(jobs))
	for _, j := range jobs {
		fresh[j.name] = j.out
		out = append(out, j.out.sum)
	}
	l.mu.Lock()
	l.dirs[dir] = fresh // files gone since are forgotten
	l.mu.Unlock()
	sort.Slice(out, func(a, b int) bool {
		if !out[a].Updated.Equal(out[b].Updated) {
			return out[a].Updated.After(out[b].Updated)
		}
		return out[a].ID < out[b].ID
	})
	return out, nil
}

// summarize reads one file: its head and tail when they are enough (2.1.x
// files), else all of it. prev is what was read of it before, if anything.
func summarize(path string, fi fs.FileInfo, prev *entry, scratch *[]byte) *entry {
	e := &entry{size: fi.Size(), mtime: fi.ModTime()}
	e.sum = Summary{
		ID: strings.TrimSuffix(filepath.Base(path), ".jsonl"), Path: path,
		Size: fi.Size(), Updated: fi.ModTime(),
	}
	f, err := os.Open(path)
	if err != nil {
		e.failed = true
		return e
	}
	defer f.Close()
	size := e.size
	var hd *head
	if prev != nil && prev.head != nil && size > prev.size && sameStart(f, prev.head.fingerprint) {
		hd = prev.head // appended: the beginning is what it was
	} else {
		hd = readHead(f, size, scratch)
	}
	if hd != nil {
		if tl := readTail(f, size, scratch); tl != nil {
			e.head = hd
			s := &e.sum
			s.Started, s.Prompts, s.Unresolved = hd.started, tl.prompts, tl.unresolved
			s.Cwd, s.GitBranch, s.Version = tl.cwd, tl.gitBranch, tl.version
			s.Title = oneLine(hd.firstPrompt, titleMax)
			if tl.summary != "" {
				s.Title = oneLine(tl.summary, titleMax)
			}
			if !tl.last.IsZero() {
				s.Updated = tl.last
			}
			return e
		}
	}
	summarizeAll(f, e)
	return e
}

// summarizeAll fills e's summary from a whole read of f.
func summarizeAll(f io.ReaderAt, e *entry) {
	info, ix, t, err := read(context.Background(), f, e.size, nil)
	if err != nil {
		e.failed = true
		return
	}
	s := &e.sum
	s.Started, s.Prompts, s.Unresolved = ix.first, t.prompts, t.unresolved()
	s.Cwd, s.GitBranch, s.Version = info.Cwd, info.GitBranch, info.Version
	s.Title = oneLine(t.firstPrompt, titleMax)
	if ix.summary != "" {
		s.Title = oneLine(ix.summary, titleMax)
	}
	if !ix.last.IsZero() {
		s.Updated = ix.last
	}
}

func sameStart(r io.ReaderAt, fp string) bool {
	b := make([]byte, len(fp))
	n, _ := r.ReadAt(b, 0)
	return n == len(fp) && string(b) == fp
}

// readHead finds the first timestamp and the first prompt in the file's
// beginning. It returns nil, for a whole read, when the prompt is not
// there, has no turnPosition (the file is older than 2.1), or a summary
// line comes first (old files, whose summaries can be anywhere). scratch
// is a buffer to reuse.
func readHead(r io.ReaderAt, size int64, scratch *[]byte) *head {
	for lim := int64(headFirst); ; lim *= 4 {
		n := min(lim, size)
		buf := grow(scratch, int(n))
		if m, _ := r.ReadAt(buf, 0); int64(m) < n {
			return nil
		}
		hd := &head{fingerprint: string(buf[:min(n, fingerprintLen)])}
		rest := buf
		for len(rest) > 0 {
			i := bytes.IndexByte(rest, '\n')
			if i < 0 && n < size {
				break // cut by the limit: read more
			}
			var b []byte
			if i < 0 {
				b, rest = rest, nil
			} else {
				b, rest = rest[:i], rest[i+1:]
			}
			s := view(trimCR(b))
			if !validObject(s) {
				continue
			}
			h := parseHeader(s)
			if h.hasTS && hd.started.IsZero() {
				hd.started = time.Unix(0, h.ts)
			}
			switch {
			case h.typ == tSummary:
				return nil
			case h.typ == tUser && h.flags&fSidechain == 0:
				kind, text := classifyUser(&h)
				if kind != uPrompt {
					continue
				}
				if h.flags&fTurnPosition == 0 {
					return nil
				}
				hd.firstPrompt = strings.Clone(text)
				return hd
			}
		}
		if n == size || lim >= headMax {
			return nil
		}
	}
}

// grow returns (*scratch)[:n], making it bigger when it must be.
func grow(scratch *[]byte, n int) []byte {
	if cap(*scratch) < n {
		*scratch = make([]byte, n)
	}
	return (*scratch)[:n]
}

// tail is what the end of a 2.1.x file gives.
type tail struct {
	prompts, unresolved     int
	last                    time.Time
	cwd, gitBranch, version string
	summary                 string
}

// tailLine is one line of a tail read.
type tailLine struct {
	s   string
	off int64
	n   int
}

// readTail reads the file backwards in growing chunks until it holds the
// last prompt, and decodes the last turn from there, as Read would. It
// returns nil, for a whole read, when there is no prompt with turnPosition
// or the newest branch does not go through it. scratch is a buffer to
// reuse: nothing of it is kept.
func readTail(r io.ReaderAt, size int64, scratch *[]byte) *tail {
	var lines []tailLine
	for lim := int64(tailFirst); ; lim *= 4 {
		off := max(0, size-lim)
		buf := grow(scratch, int(size-off))
		if m, _ := r.ReadAt(buf, off); m < len(buf) {
			return nil
		}
		data := buf
		if off > 0 { // the first line is cut
			i := bytes.IndexByte(data, '\n')
			if i < 0 {
				continue
			}
			data, off = data[i+1:], off+int64(i+1)
		}
		lines = lines[:0]
		for pos := 0; pos < len(data); {
			end := len(data)
			if i := bytes.IndexByte(data[pos:], '\n'); i >= 0 {
				end = pos + i
			}
			lines = append(lines, tailLine{view(trimCR(data[pos:end])), off + int64(pos), end - pos})
			pos = end + 1
		}
		from, turnIndex := lastPrompt(lines)
		switch {
		case from == -2: // the last prompt has no turnPosition
			return nil
		case from == -1 && off == 0:
			return nil
		case from == -1:
			continue
		}
		return lastTurn(lines, from, turnIndex)
	}
}

// lastPrompt finds the last prompt among lines: its index and turnIndex;
// -1 when there is none, -2 when it has no turnPosition.
func lastPrompt(lines []tailLine) (int, int) {
	for j := len(lines) - 1; j >= 0; j-- {
		s := lines[j].s
		if !strings.Contains(s, `"user"`) {
			continue
		}
		// The header first, which is cheap; the whole line is checked only
		// for the prompt.
		h := parseHeader(s)
		if h.typ != tUser || h.flags&fSidechain != 0 {
			continue
		}
		if kind, _ := classifyUser(&h); kind != uPrompt || !validObject(s) {
			continue
		}
		if h.flags&fTurnPosition == 0 {
			return -2, 0
		}
		return j, h.turnIndex
	}
	return -1, 0
}

// lastTurn decodes lines[from:], from the last prompt to the end.
func lastTurn(lines []tailLine, from, turnIndex int) *tail {
	tl := &tail{prompts: turnIndex}
	var summary string
	for _, l := range lines[:from] {
		if strings.Contains(l.s, `"summary"`) {
			if h := parseHeader(l.s); h.typ == tSummary && validObject(l.s) {
				summary = h.summary
			}
		}
	}
	var nodes []node
	for j := from; j < len(lines); j++ {
		l := lines[j]
		if !validObject(l.s) {
			continue
		}
		h := parseHeader(l.s)
		if h.hasTS {
			tl.last = time.Unix(0, h.ts)
		}
		if h.cwd != "" {
			tl.cwd = h.cwd
		}
		if h.gitBranch != "" {
			tl.gitBranch = h.gitBranch
		}
		if h.version != "" {
			tl.version = h.version
		}
		if h.typ == tSummary {
			summary = h.summary
			continue
		}
		if h.uuid == "" && (h.typ == tOther || h.typ == tAttachment) {
			continue
		}
		nodes = append(nodes, node{off: l.off, n: l.n, lineNo: j, uuid: h.uuid, parent: h.parent, ts: h.ts, typ: uint8(h.typ), flags: uint8(h.flags)})
	}
	chosen, ok := choosePath(nodes, 0)
	if !ok {
		return nil
	}
	t := newTranscriber(nil)
	t.quick = true
	for _, i := range chosen {
		if err := t.line(lines[nodes[i].lineNo].s, nodes[i].lineNo); err != nil {
			return nil
		}
	}
	if t.finish() != nil {
		return nil
	}
	tl.unresolved = t.unresolved()
	// Copies: the strings are views of the scratch buffer.
	tl.cwd, tl.gitBranch, tl.version = strings.Clone(tl.cwd), strings.Clone(tl.gitBranch), strings.Clone(tl.version)
	tl.summary = strings.Clone(summary)
	return tl
}

// validObject reports whether s is one JSON object.
func validObject(s string) bool {
	i := skipSpace(s, 0)
	return i < len(s) && s[i] == '{' && gjson.Valid(s)
}
