package grants

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tidwall/gjson"
)

// This file edits JSON text in place. gjson locates values with their byte
// offsets; edits splice the text at those offsets, so no other byte moves.
//
// A key may appear twice in one object. Claude Code reads settings with
// JSON.parse, where the last occurrence wins, so Latch reads and edits the
// last one (honoured) and leaves the others as they are. gjson's Get, and
// sjson, would pick the first.

// style is how a file lays out its JSON, so inserted text looks hand-written.
type style struct {
	nl    string // "\n" or "\r\n"
	unit  string // one level of indentation
	colon string // between a key and its value
	hasNL bool   // the document spans several lines
}

func detectStyle(data []byte, root gjson.Result) style {
	st := style{nl: "\n", unit: "  ", colon: ": "}
	if bytes.Contains(data, []byte("\r\n")) {
		st.nl = "\r\n"
	}
	st.hasNL = bytes.IndexByte(bytes.TrimSpace(data), '\n') >= 0
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		rest := bytes.TrimLeft(line, " \t")
		if len(rest) < len(line) && len(bytes.TrimSpace(rest)) > 0 {
			st.unit = string(line[:len(line)-len(rest)])
			break
		}
	}
	root.ForEach(func(k, v gjson.Result) bool {
		if c := data[k.Index+len(k.Raw) : v.Index]; bytes.IndexByte(c, '\n') < 0 {
			st.colon = string(c)
		}
		return false
	})
	return st
}

// sep separates items on one line, matching the spacing after colons.
func (st style) sep() string {
	if strings.HasSuffix(st.colon, " ") {
		return ", "
	}
	return ","
}

// array formats a string array whose first bracket sits on a line indented
// by ind.
func (st style) array(items []string, ind string, inline bool) string {
	if len(items) == 0 {
		return "[]"
	}
	q := make([]string, len(items))
	for i, it := range items {
		q[i] = quote(it)
	}
	if inline {
		return "[" + strings.Join(q, st.sep()) + "]"
	}
	inner := st.nl + ind + st.unit
	return "[" + inner + strings.Join(q, ","+inner) + st.nl + ind + "]"
}

// nest wraps leaf in new objects, one per key (outermost first).
func (st style) nest(keys []string, leaf func(ind string, inline bool) string, ind string, inline bool) string {
	if len(keys) == 0 {
		return leaf(ind, inline)
	}
	inner := st.nest(keys[1:], leaf, ind+st.unit, inline)
	if inline {
		return "{" + quote(keys[0]) + st.colon + inner + "}"
	}
	return "{" + st.nl + ind + st.unit + quote(keys[0]) + st.colon + inner + st.nl + ind + "}"
}

// quote encodes s as a JSON string, leaving <, > and & readable.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return strings.TrimSuffix(b.String(), "\n")
}

// newDocument is what an edit starts from when the file is missing or blank.
func newDocument() []byte { return []byte("{}\n") }

// rootObject returns the top-level object of validated data.
func rootObject(data []byte) gjson.Result {
	s := string(data)
	start := strings.IndexByte(s, '{')
	end := strings.LastIndexByte(s, '}') + 1
	return gjson.Result{Type: gjson.JSON, Raw: s[start:end], Index: start}
}

// lineIndent is the leading whitespace of the line that holds pos.
func lineIndent(data []byte, pos int) string {
	ls := bytes.LastIndexByte(data[:pos], '\n') + 1
	le := ls
	for le < len(data) && (data[le] == ' ' || data[le] == '\t') {
		le++
	}
	return string(data[ls:le])
}

// trailingSpace is the whitespace that ends b.
func trailingSpace(b []byte) []byte {
	return b[len(bytes.TrimRight(b, " \t\r\n")):]
}

func splice(data []byte, start, end int, ins string) []byte {
	out := make([]byte, 0, len(data)-(end-start)+len(ins))
	out = append(out, data[:start]...)
	out = append(out, ins...)
	return append(out, data[end:]...)
}

// insertMember adds "key": value as the last member of obj, indented like
// its siblings. value gets the indentation of the key's line and whether it
// must stay on one line.
func insertMember(data []byte, obj gjson.Result, isRoot bool, st style, key string, value func(ind string, inline bool) string) []byte {
	var lastKey, lastEnd = -1, -1
	obj.ForEach(func(k, v gjson.Result) bool {
		lastKey, lastEnd = k.Index, v.Index+len(v.Raw)
		return true
	})
	open := obj.Index
	if lastKey >= 0 {
		ws := trailingSpace(data[:lastKey])
		if i := bytes.LastIndexByte(ws, '\n'); i >= 0 {
			ind := string(ws[i+1:])
			return splice(data, lastEnd, lastEnd, ","+st.nl+ind+quote(key)+st.colon+value(ind, false))
		}
		return splice(data, lastEnd, lastEnd, ","+string(ws)+quote(key)+st.colon+value("", true))
	}
	if !isRoot && !st.hasNL {
		return splice(data, open+1, open+1, quote(key)+st.colon+value("", true))
	}
	base := lineIndent(data, open)
	ind := base + st.unit
	ins := st.nl + ind + quote(key) + st.colon + value(ind, false)
	if bytes.IndexByte(data[open+1:open+len(obj.Raw)-1], '\n') < 0 {
		ins += st.nl + base
	}
	return splice(data, open+1, open+1, ins)
}

// replaceValue swaps the existing value cur for raw; path names it in
// messages.
func replaceValue(data []byte, path []string, cur gjson.Result, raw string) ([]byte, error) {
	start, end := cur.Index, cur.Index+len(cur.Raw)
	if start < 0 || end > len(data) || string(data[start:end]) != cur.Raw {
		return nil, fmt.Errorf("refusing an edit of %s at a position that does not hold it", strings.Join(path, "."))
	}
	return splice(data, start, end, raw), nil
}

// honoured is the value of the last member named key in obj (compared
// unescaped), the one JSON.parse keeps; it does not exist when obj has no
// such member.
func honoured(obj gjson.Result, key string) gjson.Result {
	var v gjson.Result
	if obj.IsObject() {
		obj.ForEach(func(k, val gjson.Result) bool {
			if k.String() == key {
				v = val
			}
			return true
		})
	}
	return v
}

// located is the result of walking path in a document.
type located struct {
	root, parent gjson.Result
	depth        int // index into path of the first key that is missing or null
	cur          gjson.Result
	found        bool // the whole path exists and is not null
}

func locate(file string, data []byte, path []string, leafKind string) (located, error) {
	root := rootObject(data)
	l := located{root: root, parent: root}
	for i, key := range path {
		cur := honoured(l.parent, key)
		l.depth, l.cur = i, cur
		if !cur.Exists() || cur.Type == gjson.Null {
			return l, nil
		}
		last := i == len(path)-1
		if (!last && !cur.IsObject()) || (last && leafKind == "array" && !cur.IsArray()) {
			want := "an object"
			if last {
				want = "an array"
			}
			return l, syntaxErrorAt(file, data, cur.Index,
				fmt.Sprintf("%s is %s, want %s", strings.Join(path[:i+1], "."), kindOf(cur), want))
		}
		if !last {
			l.parent = cur
		}
	}
	l.found = true
	return l, nil
}

func kindOf(r gjson.Result) string {
	switch {
	case r.IsObject():
		return "an object"
	case r.IsArray():
		return "an array"
	case r.Type == gjson.String:
		return "a string"
	case r.Type == gjson.Number:
		return "a number"
	case r.Type == gjson.True, r.Type == gjson.False:
		return "a boolean"
	}
	return "null"
}

// setAt replaces or creates the value at path; value formats it for the
// indentation it lands at.
func setAt(data []byte, l located, path []string, st style, value func(ind string, inline bool) string) ([]byte, error) {
	rest := path[l.depth+1:]
	nested := func(ind string, inline bool) string { return st.nest(rest, value, ind, inline) }
	if l.cur.Exists() { // null, or a leaf being replaced
		inline := bytes.IndexByte([]byte(l.parent.Raw), '\n') < 0
		return replaceValue(data, path[:l.depth+1], l.cur, nested(lineIndent(data, l.cur.Index), inline))
	}
	isRoot := l.parent.Index == l.root.Index
	return insertMember(data, l.parent, isRoot, st, path[l.depth], nested), nil
}

// addStrings appends the items not yet present to the string array at path,
// creating the array (and the objects above it) when missing.
func addStrings(file string, data []byte, path []string, items []string) ([]byte, error) {
	out, added, filled, err := addStringsAs(file, data, path, items, false)
	if err == nil && filled {
		if orig := undoAdd(file, out, path, added); orig != nil && !bytes.Equal(orig, data) {
			// The person's empty array or object sits where Latch would
			// create one; laid out like a new one, a revoke would take it
			// away instead of giving back their "[]" or "{}".
			out, _, _, err = addStringsAs(file, data, path, items, true)
		}
	}
	return out, err
}

// addStringsAs does the work of addStrings and returns the items it added.
// filled reports that it filled an existing empty array, or an existing
// empty object below the top level; oneLine then writes what goes into it
// on one line.
func addStringsAs(file string, data []byte, path []string, items []string, oneLine bool) (out []byte, added []string, filled bool, err error) {
	if blank(data) {
		data = newDocument()
	}
	if err := checkObject(file, data); err != nil {
		return nil, nil, false, err
	}
	l, err := locate(file, data, path, "array")
	if err != nil {
		return nil, nil, false, err
	}
	st := detectStyle(data, l.root)
	var elems []gjson.Result
	if l.found {
		l.cur.ForEach(func(_, v gjson.Result) bool { elems = append(elems, v); return true })
	}
	have := map[string]bool{}
	for _, e := range elems {
		if e.Type == gjson.String {
			have[e.String()] = true
		}
	}
	for _, it := range items {
		if !have[it] {
			have[it] = true
			added = append(added, it)
		}
	}
	if len(added) == 0 {
		return data, nil, false, nil
	}
	array := func(ind string, inline bool) string { return st.array(added, ind, inline) }
	switch {
	case l.found && len(elems) == 0:
		filled = true
		if oneLine {
			out, err = replaceValue(data, path, l.cur, array("", true))
			return out, added, filled, err
		}
	case !l.cur.Exists() && l.parent.Index != l.root.Index && memberCount(l.parent) == 0:
		filled = true
		if oneLine {
			out, err = replaceValue(data, path[:l.depth], l.parent, st.nest(path[l.depth:], array, "", true))
			return out, added, filled, err
		}
	}
	if len(elems) == 0 {
		out, err = setAt(data, l, path, st, array)
		return out, added, filled, err
	}
	// Append after the last element, separated the way the last two are,
	// or as the first one is from "[", or as the file spaces a list.
	arr := l.cur
	last := elems[len(elems)-1]
	lastEnd := last.Index + len(last.Raw)
	sep := "," + string(data[arr.Index+1:elems[0].Index])
	if sep == "," {
		sep = st.sep()
	}
	if n := len(elems); n >= 2 {
		sep = string(data[elems[n-2].Index+len(elems[n-2].Raw) : last.Index])
	}
	var b strings.Builder
	b.Write(data[arr.Index:lastEnd])
	for _, it := range added {
		b.WriteString(sep + quote(it))
	}
	b.Write(data[lastEnd : arr.Index+len(arr.Raw)])
	out, err = replaceValue(data, path, arr, b.String())
	return out, added, false, err
}

// undoAdd returns the file that adding items to the array at path would
// have turned into data, when that file lacks the array's key, or the
// object above it when the object holds nothing else; nil when there is
// none. A removal that empties an array gives back that file, so that
// revoking what Latch added restores the bytes from before the add.
//
// The file alone cannot always tell what the add started from, so ties go
// to the likelier file: no key rather than an empty one (addStrings avoids
// most of these ties; see there), "{}" rather than "{\n}", and "{}\n"
// rather than a blank file, which is not JSON. A candidate is kept only
// when adding the items to it gives back data byte for byte, so a key that
// occurs twice, a layout Latch does not write, or an escaped entry is never
// dropped: its array becomes "[]".
func undoAdd(file string, data []byte, path []string, items []string) []byte {
	objs := []gjson.Result{rootObject(data)} // objs[d] holds path[d]
	for _, key := range path {
		objs = append(objs, honoured(objs[len(objs)-1], key))
	}
	for d := range path {
		// Dropping path[d] loses nothing but the array when each object
		// below it holds that one member.
		sole := true
		for _, o := range objs[d+1 : len(path)] {
			sole = sole && memberCount(o) == 1
		}
		if !sole {
			continue
		}
		for _, cand := range memberDeletions(data, objs[d], path[d]) {
			for _, oneLine := range []bool{false, true} {
				out, _, filled, err := addStringsAs(file, cand, path, items, oneLine)
				if err == nil && bytes.Equal(out, data) {
					return cand
				}
				if !filled {
					break
				}
			}
		}
	}
	return nil
}

// memberDeletions returns data without the member named key, when that is
// the last member of obj, in each way insertMember could have added it:
// after a comma, or as the only member with or without the line break that
// insertMember puts before the closing brace.
func memberDeletions(data []byte, obj gjson.Result, key string) [][]byte {
	var prevEnd, valEnd = -1, -1
	var lastKey string
	obj.ForEach(func(k, v gjson.Result) bool {
		prevEnd, valEnd, lastKey = valEnd, v.Index+len(v.Raw), k.String()
		return true
	})
	if valEnd < 0 || lastKey != key {
		return nil
	}
	cut := func(start, end int) []byte { return splice(data, start, end, "") }
	if prevEnd >= 0 {
		return [][]byte{cut(prevEnd, valEnd)}
	}
	open := obj.Index
	var out [][]byte
	base := lineIndent(data, open)
	for _, nl := range []string{"\r\n", "\n"} {
		if bytes.HasPrefix(data[valEnd:], []byte(nl+base)) {
			out = append(out, cut(open+1, valEnd+len(nl+base)))
			break
		}
	}
	return append(out, cut(open+1, valEnd))
}

func memberCount(obj gjson.Result) int {
	n := 0
	obj.ForEach(func(_, _ gjson.Result) bool { n++; return true })
	return n
}

// removeStrings drops the string elements of the array at path that match.
// A missing array is nothing to remove.
func removeStrings(file string, data []byte, path []string, match func(string) bool) ([]byte, error) {
	if blank(data) {
		return data, nil
	}
	if err := checkObject(file, data); err != nil {
		return nil, err
	}
	l, err := locate(file, data, path, "array")
	if err != nil || !l.found {
		return data, err
	}
	var elems []gjson.Result
	l.cur.ForEach(func(_, v gjson.Result) bool { elems = append(elems, v); return true })
	var keep []int
	for i, e := range elems {
		if e.Type != gjson.String || !match(e.String()) {
			keep = append(keep, i)
		}
	}
	if len(keep) == len(elems) {
		return data, nil
	}
	if len(keep) == 0 {
		removed := make([]string, len(elems))
		for i, e := range elems {
			removed[i] = e.String()
		}
		if orig := undoAdd(file, data, path, removed); orig != nil {
			return orig, nil
		}
		return replaceValue(data, path, l.cur, "[]")
	}
	end := func(i int) int { return elems[i].Index + len(elems[i].Raw) }
	arr := l.cur
	var b strings.Builder
	b.Write(data[arr.Index:elems[0].Index])
	for j, i := range keep {
		if j > 0 {
			prev := keep[j-1] // separators are taken from where the kept element stood
			b.Write(data[end(prev):elems[prev+1].Index])
		}
		b.Write(data[elems[i].Index:end(i)])
	}
	b.Write(data[end(len(elems)-1) : arr.Index+len(arr.Raw)])
	return replaceValue(data, path, arr, b.String())
}

// stringsAt reads the string elements of the honoured array named key in
// obj, a value of validated data.
func stringsAt(obj gjson.Result, key string) []string {
	out := []string{}
	v := honoured(obj, key)
	if v.IsArray() {
		v.ForEach(func(_, e gjson.Result) bool {
			if e.Type == gjson.String {
				out = append(out, e.String())
			}
			return true
		})
	}
	return out
}
