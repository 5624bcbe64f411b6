package sessions

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/tidwall/gjson"
)

// node is one line of the conversation's tree (a line with a uuid, or any
// message line of a file without uuids), as the first pass indexes it: where
// to read it again, and how it is linked.
type node struct {
	off          int64
	n            int
	lineNo       int
	uuid, parent string // parent: parentUuid, else logicalParentUuid
	ts           int64
	typ, flags   uint8
}

// index is what the first pass learned of a file.
type index struct {
	nodes       []node
	info        Info
	first, last time.Time // the first and last timestamps of any line
	summary     string    // the last summary line's text
}

// Read streams the transcript of one session file to fn — the branch that
// ends at the newest leaf, in order — and stops early when ctx is done
// (returning ctx.Err()) or fn returns an error (returned as is). The file
// is read up to its size when Read began, twice: once to index its lines,
// once to decode the lines of the branch, so it is never held whole.
// Malformed lines, a torn last line among them, are counted and skipped.
func Read(ctx context.Context, path string, fn func(Item) error) (Info, error) {
	f, err := os.Open(path)
	if err != nil {
		return Info{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Info{}, err
	}
	if !fi.Mode().IsRegular() {
		return Info{}, fmt.Errorf("%s is not a regular file", path)
	}
	info, _, _, err := read(ctx, f, fi.Size(), fn)
	return info, err
}

// ReadFrom is Read of the first size bytes of r, for a session file that
// is not on disk as such (a decompressed copy, a buffer).
func ReadFrom(ctx context.Context, r io.ReaderAt, size int64, fn func(Item) error) (Info, error) {
	info, _, _, err := read(ctx, r, size, fn)
	return info, err
}

// read is Read; it also returns the index and the transcriber, which
// hold what the lister needs.
func read(ctx context.Context, r io.ReaderAt, size int64, fn func(Item) error) (Info, *index, *transcriber, error) {
	ix, err := scanIndex(ctx, r, size)
	if err != nil {
		return Info{}, nil, nil, err
	}
	info := ix.info
	chosen, _ := choosePath(ix.nodes, -1)
	t := newTranscriber(fn)
	for _, i := range chosen {
		if err := ctx.Err(); err != nil {
			return info, ix, t, err
		}
		n := &ix.nodes[i]
		// A fresh buffer per line: the events keep substrings of it.
		buf := make([]byte, n.n)
		if m, err := r.ReadAt(buf, n.off); m < n.n {
			if err == nil || errors.Is(err, io.EOF) {
				err = errors.New("the file got shorter while it was read")
			}
			return info, ix, t, err
		}
		if err := t.line(view(trimCR(buf)), n.lineNo); err != nil {
			return info, ix, t, err
		}
	}
	if err := t.finish(); err != nil {
		return info, ix, t, err
	}
	info.Model, info.Prompts = t.model, t.prompts
	return info, ix, t, nil
}

// scanIndex is the first pass: every line is read once, checked, and its
// top-level members looked at; only the links of message lines are kept.
func scanIndex(ctx context.Context, r io.ReaderAt, size int64) (*index, error) {
	ix := &index{}
	sc := newLineScanner(r, size)
	lineNo := 0
	var sid, cwd, ver, branch string
	for {
		b, off, n, err := sc.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		lineNo++
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s := view(b)
		if strings.TrimSpace(s) == "" {
			continue
		}
		ix.info.Lines++
		if !gjson.Valid(s) || s[skipSpace(s, 0)] != '{' {
			ix.info.Malformed++
			continue
		}
		h := parseHeader(s)
		if h.hasTS {
			t := time.Unix(0, h.ts)
			if ix.first.IsZero() {
				ix.first = t
			}
			ix.last = t
		}
		// Compared before cloning: most lines repeat the same values.
		if h.sessionID != "" && h.sessionID != sid {
			sid = strings.Clone(h.sessionID)
		}
		if h.cwd != "" && h.cwd != cwd {
			cwd = strings.Clone(h.cwd)
		}
		if h.version != "" && h.version != ver {
			ver = strings.Clone(h.version)
		}
		if h.gitBranch != "" && h.gitBranch != branch {
			branch = strings.Clone(h.gitBranch)
		}
		if h.typ == tSummary {
			ix.summary = strings.Clone(h.summary)
			continue
		}
		if h.uuid == "" && (h.typ == tOther || h.typ == tAttachment) {
			continue // queue-operation, last-prompt, api-request, …: not part of the conversation
		}
		ix.nodes = append(ix.nodes, node{
			off: off, n: n, lineNo: lineNo,
			uuid: strings.Clone(h.uuid), parent: strings.Clone(h.parent),
			ts: h.ts, typ: uint8(h.typ), flags: uint8(h.flags),
		})
	}
	ix.info.SessionID, ix.info.Cwd, ix.info.Version, ix.info.GitBranch = sid, cwd, ver, branch
	return ix, nil
}

// choosePath picks the branch to show: it ends at the newest leaf (by
// timestamp; the later line when equal) of the main chain and goes up
// through the parents. Subagent lines (isSidechain) are kept when their own
// chain starts on that branch or nowhere. With root >= 0, the branch must
// reach nodes[root] (and stops there), else ok is false. It returns the
// indexes of the lines to show, in file order, which is the chain's order.
func choosePath(nodes []node, root int) (chosen []int, ok bool) {
	byID := make(map[string]int, len(nodes))
	for i := range nodes {
		if u := nodes[i].uuid; u != "" {
			if _, dup := byID[u]; !dup {
				byID[u] = i // a line written twice is shown once
			}
		}
	}
	if len(byID) == 0 { // no uuids at all: every message line, in order
		for i := range nodes {
			if i >= root {
				chosen = append(chosen, i)
			}
		}
		return chosen, true
	}
	side := func(i int) bool { return nodes[i].flags&fSidechain != 0 }
	hasChild := make(map[string]bool, len(nodes))
	for i := range nodes {
		if nodes[i].uuid != "" && !side(i) && nodes[i].parent != "" {
			hasChild[nodes[i].parent] = true
		}
	}
	leaf := -1
	for i := range nodes {
		u := nodes[i].uuid
		if u == "" || side(i) || hasChild[u] || byID[u] != i {
			continue
		}
		if leaf < 0 || nodes[i].ts >= nodes[leaf].ts {
			leaf = i
		}
	}
	onPath := make([]bool, len(nodes))
	reached := root < 0
	for cur := leaf; cur >= 0 && !onPath[cur]; {
		onPath[cur] = true
		if cur == root {
			reached = true
			break
		}
		p, found := byID[nodes[cur].parent]
		if !found {
			break
		}
		cur = p
	}
	if !reached {
		return nil, false
	}
	inc := make([]bool, len(nodes))
	for i := range nodes {
		switch {
		case onPath[i]:
			inc[i] = true
		case side(i) && nodes[i].uuid != "":
			p, found := byID[nodes[i].parent]
			switch {
			case !found || p > i:
				inc[i] = root < 0 || i > root
			case side(p):
				inc[i] = inc[p]
			default:
				inc[i] = onPath[p]
			}
		}
		if inc[i] {
			chosen = append(chosen, i)
		}
	}
	return chosen, true
}
