package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/latch-app/latch/core/stream"
	"github.com/latch-app/latch/core/textdiff"
)

// maxDiffRead is the largest file Latch reads to show what a call changes
// in it; a larger one is not read, and the diff is of the call's own text.
const maxDiffRead = 4 << 20

// headLines is how many first lines of a new file a card shows.
const headLines = 20

// maxHeadLine caps one line of FileDiff.Head; the dialog shows the content
// whole.
const maxHeadLine = 1000

// DiffHunk, DiffLine and DiffOp are a diff's hunks as the card shows them.
type (
	DiffHunk = textdiff.Hunk
	DiffLine = textdiff.Line
	DiffOp   = textdiff.Op
)

// The ops of a DiffLine.
const (
	DiffEqual  = textdiff.Equal  // context: in the file before and after
	DiffDelete = textdiff.Delete // removed (DiffLine.Old is its line number)
	DiffInsert = textdiff.Insert // added (DiffLine.New is its line number)
)

// diffs are the cached FileDiffs of a session's calls, by tool_use_id: made
// when the call's input is complete, before it runs, and taken by its
// result. Guarded by Session.mu.
type diffs map[string]*FileDiff

// maxCachedDiffs bounds the calls whose result never came (a process that
// died): past it the cache starts over.
const maxCachedDiffs = 512

// fileEdit is one replacement of an Edit or MultiEdit.
type fileEdit struct {
	Old        string `json:"old_string"`
	New        string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all"`
}

// fileDiff is what an Edit, MultiEdit or Write call would change, nil for
// any other tool or an input without a path. The file is read (at most
// once, when it is a regular file of at most maxDiffRead bytes) to number
// the lines as in the file and show its lines around the change; workdir
// resolves a relative path.
func fileDiff(name string, input json.RawMessage, workdir string) *FileDiff {
	return computeDiff(name, input, workdir, true).fd
}

// computed is a FileDiff and the hunks of its whole change, which the
// dialog shows (a new file's every line, which the FileDiff leaves out).
type computed struct {
	fd   *FileDiff
	full []textdiff.Hunk
}

// changesFile tells the tools whose change a FileDiff shows.
func changesFile(name string) bool {
	return name == "Edit" || name == "MultiEdit" || name == "Write"
}

func computeDiff(name string, input json.RawMessage, workdir string, read bool) computed {
	if !changesFile(name) {
		return computed{}
	}
	path, file := stream.TouchedPath(input)
	if !file || path == "" {
		return computed{}
	}
	var in struct {
		Content    *string    `json:"content"`
		Old        string     `json:"old_string"`
		New        string     `json:"new_string"`
		ReplaceAll bool       `json:"replace_all"`
		Edits      []fileEdit `json:"edits"`
	}
	_ = json.Unmarshal(input, &in) // partial or odd input: show what parsed
	var edits []fileEdit
	switch name {
	case "Edit":
		edits = []fileEdit{{Old: in.Old, New: in.New, ReplaceAll: in.ReplaceAll}}
	case "MultiEdit":
		edits = in.Edits
	}

	var f fileRead
	if read {
		f = readForDiff(path, workdir)
	}
	fd := &FileDiff{Path: path}
	if name == "Write" {
		content := ""
		if in.Content != nil {
			content = *in.Content
		}
		fd.Size = len(content)
		if f.ok {
			full := textdiff.Diff(f.content, content)
			fd.Hunks = full
			fd.Added, fd.Removed = textdiff.Stats(full)
			fd.Summary = changeWords(path, fd, "")
			if len(full) == 0 {
				fd.Summary = path + ": no change"
			}
			return computed{fd, full}
		}
		full := textdiff.Diff("", content)
		fd.Added = lineCount(content)
		fd.Head = head(content)
		fd.New = f.missing
		switch {
		case f.missing:
			fd.Summary = fmt.Sprintf("new file %s, %s, %s", path, sizeWords(len(content)), plural(fd.Added, "line"))
		case f.why != "":
			fd.Summary = fmt.Sprintf("%s: %s, %s written (%s; what it replaces is not shown)", path, sizeWords(len(content)), plural(fd.Added, "line"), f.why)
		default:
			fd.Summary = fmt.Sprintf("%s: %s, %s written", path, sizeWords(len(content)), plural(fd.Added, "line"))
		}
		return computed{fd, full}
	}

	if len(edits) == 0 {
		return computed{}
	}
	// An Edit with no old text makes a new file.
	if name == "Edit" && edits[0].Old == "" && f.missing {
		content := edits[0].New
		fd.New, fd.Size, fd.Added, fd.Head = true, len(content), lineCount(content), head(content)
		fd.Summary = fmt.Sprintf("new file %s, %s, %s", path, sizeWords(len(content)), plural(fd.Added, "line"))
		return computed{fd, textdiff.Diff("", content)}
	}
	if f.ok {
		if after, ok := applyEdits(f.content, edits); ok {
			full := textdiff.Diff(f.content, after)
			fd.Hunks = full
			fd.Added, fd.Removed = textdiff.Stats(full)
			fd.Summary = changeWords(path, fd, "")
			return computed{fd, full}
		}
		f.why = "the old text is not in the file now"
		if len(edits) > 1 {
			f.why = "an edit's old text is not in the file now"
		}
	}
	// The call's own text, each edit numbered from 1.
	var full []textdiff.Hunk
	for _, e := range edits {
		full = append(full, textdiff.Diff(e.Old, e.New)...)
	}
	fd.Hunks = full
	fd.Added, fd.Removed = textdiff.Stats(full)
	note := "lines numbered from 1"
	if f.why != "" {
		note = f.why + "; " + note
	}
	fd.Summary = changeWords(path, fd, note)
	return computed{fd, full}
}

// applyEdits is content after the edits, in order, as the tools make them:
// each old text replaced once (or everywhere with replace_all). A file
// with CRLF line ends matches an old text written with "\n". ok is false
// when an old text is not found.
func applyEdits(content string, edits []fileEdit) (string, bool) {
	for _, e := range edits {
		if e.Old == "" {
			// Only an empty file takes an edit with no old text.
			if content != "" {
				return "", false
			}
			content = e.New
			continue
		}
		old, nw := e.Old, e.New
		if !strings.Contains(content, old) && strings.Contains(content, "\r\n") && !strings.Contains(old, "\r\n") {
			old = strings.ReplaceAll(old, "\n", "\r\n")
			nw = strings.ReplaceAll(nw, "\n", "\r\n")
		}
		if !strings.Contains(content, old) {
			return "", false
		}
		if e.ReplaceAll {
			content = strings.ReplaceAll(content, old, nw)
		} else {
			content = strings.Replace(content, old, nw, 1)
		}
	}
	return content, true
}

// fileRead is the file a call changes, as read before it runs.
type fileRead struct {
	content string
	ok      bool   // content is the whole file
	missing bool   // there is no file (the call creates it)
	why     string // why it was not read, in words
}

// readForDiff reads the file at path (relative to workdir), when it is a
// regular file of at most maxDiffRead bytes: a folder, a device, a FIFO or
// a larger file is never opened past its stat, and a FIFO swapped in after
// the stat does not block the open.
func readForDiff(path, workdir string) fileRead {
	if !filepath.IsAbs(path) {
		if workdir == "" {
			return fileRead{why: "the path is relative"}
		}
		path = filepath.Join(workdir, path)
	}
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fileRead{missing: true, why: "there is no file there"}
	case err != nil:
		return fileRead{why: "the file cannot be read"}
	case st.IsDir():
		return fileRead{why: "the path is a folder"}
	case !st.Mode().IsRegular():
		return fileRead{why: "the path is not a regular file"}
	case st.Size() > maxDiffRead:
		return fileRead{why: "the file is over 4 MB, not read"}
	}
	fh, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return fileRead{why: "the file cannot be read"}
	}
	defer fh.Close()
	if st, err := fh.Stat(); err != nil || !st.Mode().IsRegular() {
		return fileRead{why: "the path is not a regular file"}
	}
	b, err := io.ReadAll(io.LimitReader(fh, maxDiffRead+1))
	switch {
	case err != nil:
		return fileRead{why: "the file cannot be read"}
	case len(b) > maxDiffRead:
		return fileRead{why: "the file is over 4 MB, not read"}
	}
	return fileRead{content: string(b), ok: true}
}

// changeWords is the one-line summary of a change: "path: +3 −1", and why
// the lines are not the file's when they are not.
func changeWords(path string, fd *FileDiff, note string) string {
	s := fmt.Sprintf("%s: +%d −%d", path, fd.Added, fd.Removed)
	if note != "" {
		s += " (" + note + ")"
	}
	return s
}

func lineCount(s string) int {
	if s == "" {
		return 0
	}
	return strings.Count(strings.TrimSuffix(s, "\n"), "\n") + 1
}

// head is the first headLines lines of s, each cut at maxHeadLine
// characters.
func head(s string) []string {
	var out []string
	for s != "" && len(out) < headLines {
		line, rest, _ := strings.Cut(s, "\n")
		out = append(out, ellipsis(line, maxHeadLine))
		s = rest
	}
	return out
}

// sizeWords is a byte count the way a person reads it.
func sizeWords(n int) string {
	switch {
	case n < 1000:
		return plural(n, "byte")
	case n < 1000*1000:
		return fmt.Sprintf("%.1f KB", float64(n)/1000)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1000*1000))
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// toolDiff is the FileDiff of call id, made once when its input is
// complete (before it runs) and kept for its result.
func (s *Session) toolDiff(id, name string, input json.RawMessage) *FileDiff {
	if !changesFile(name) {
		return nil
	}
	s.mu.Lock()
	fd, done := s.diffs[id]
	s.mu.Unlock()
	if done {
		return fd
	}
	fd = fileDiff(name, input, s.workdir)
	s.mu.Lock()
	if s.diffs == nil || len(s.diffs) >= maxCachedDiffs {
		s.diffs = diffs{}
	}
	s.diffs[id] = fd
	s.mu.Unlock()
	return fd
}

// resultDiff is the FileDiff for call id's result: the one made before it
// ran, else one of the call's own text (the file has changed by now).
func (s *Session) resultDiff(id, name string, input json.RawMessage) *FileDiff {
	if !changesFile(name) {
		return nil
	}
	s.mu.Lock()
	fd, done := s.diffs[id]
	delete(s.diffs, id)
	s.mu.Unlock()
	if done {
		return fd
	}
	return computeDiff(name, input, "", false).fd
}
