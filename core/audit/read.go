package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
)

// Read returns every entry of the log at path and of its predecessor
// path.1, newest first: the order of the lines, reversed, since clocks
// jump. A torn or malformed line is skipped; a missing file is an empty log.
func Read(path string) ([]Entry, error) {
	return ReadFiltered(path, Filter{})
}

// ReadFiltered is Read keeping only the entries f matches.
func ReadFiltered(path string, f Filter) ([]Entry, error) {
	old, cur, err := openPair(path)
	if err != nil {
		return nil, err
	}
	defer closeFile(old)
	defer closeFile(cur)

	r := reader{br: bufio.NewReaderSize(nil, 64<<10), in: newInterner()}
	all := f == Filter{}
	var es []Entry
	if all {
		// Count first: growing a slice of 100k entries by append would
		// allocate several times its final size.
		n := 0
		for _, file := range []*os.File{old, cur} {
			c, err := r.countLines(file)
			if err != nil {
				return nil, err
			}
			n += c
		}
		es = make([]Entry, 0, n)
	}
	m := f.matcher()
	for _, file := range []*os.File{old, cur} {
		if es, err = r.decodeFile(file, es, all, &m); err != nil {
			return nil, err
		}
	}
	slices.Reverse(es)
	return es, nil
}

func closeFile(f *os.File) {
	if f != nil {
		f.Close()
	}
}

// openPair opens path.1 and path, either possibly nil when missing. Both
// are opened before reading, so a rotation during the read loses nothing;
// if one happened between the two opens, both name the same file: retry.
func openPair(path string) (old, cur *os.File, err error) {
	for range 3 {
		if cur, err = openIfExists(path); err != nil {
			return nil, nil, err
		}
		if old, err = openIfExists(path + ".1"); err != nil {
			closeFile(cur)
			return nil, nil, err
		}
		if cur == nil || old == nil || !sameFile(cur, old) {
			return old, cur, nil
		}
		closeFile(cur)
		closeFile(old)
	}
	return nil, nil, errors.New("audit: the log kept rotating while being read")
}

func openIfExists(path string) (*os.File, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return f, err
}

func sameFile(a, b *os.File) bool {
	sa, err := a.Stat()
	if err != nil {
		return false
	}
	sb, err := b.Stat()
	return err == nil && os.SameFile(sa, sb)
}

// fastPath is false only to benchmark encoding/json alone.
var fastPath = true

type reader struct {
	br      *bufio.Reader
	long    []byte // a line longer than br's buffer, gathered
	scratch []byte // for counting lines
	in      *interner
	dec     decoder
}

func (r *reader) countLines(f *os.File) (int, error) {
	if f == nil {
		return 0, nil
	}
	if r.scratch == nil {
		r.scratch = make([]byte, 64<<10)
	}
	n := 0
	for {
		k, err := f.Read(r.scratch)
		n += bytes.Count(r.scratch[:k], []byte{'\n'})
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
	}
	// A last line without '\n' is one more.
	_, err := f.Seek(0, io.SeekStart)
	return n + 1, err
}

// decodeFile appends the entries of f, in file order, that m matches.
func (r *reader) decodeFile(f *os.File, es []Entry, all bool, m *matcher) ([]Entry, error) {
	if f == nil {
		return es, nil
	}
	r.br.Reset(f)
	var e Entry
	for {
		line, err := r.br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// Lines of any length are fine: gather this one whole.
			r.long = append(r.long[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = r.br.ReadSlice('\n')
				r.long = append(r.long, line...)
			}
			line = r.long
		}
		if len(line) > 0 {
			if all {
				// Decode in place: no copy of a 300-byte Entry per line.
				es = append(es, Entry{})
				if !r.decode(line, &es[len(es)-1]) {
					es = es[:len(es)-1]
				}
			} else if e = (Entry{}); r.decode(line, &e) && m.match(&e) {
				es = append(es, e)
			}
		}
		if err == io.EOF {
			return es, nil
		}
		if err != nil {
			return es, err
		}
	}
}

// decode reads one line into e, which must be zero. A line that is not a
// whole JSON object with a kind is not an entry: it is skipped.
func (r *reader) decode(line []byte, e *Entry) bool {
	line = bytes.TrimSpace(line)
	if len(line) == 0 || line[0] != '{' {
		return false
	}
	if !fastPath || !r.dec.entry(line, e, r.in) {
		// The fast path takes only what it is sure of; encoding/json has
		// the last word on everything else.
		*e = Entry{}
		if json.Unmarshal(line, e) != nil {
			return false
		}
	}
	return e.Kind != ""
}
