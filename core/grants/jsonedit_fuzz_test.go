package grants

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// rawElems lists the raw bytes of each element of the honoured array at
// path.
func rawElems(data []byte, path []string) []string {
	if blank(data) {
		return []string{}
	}
	v := rootObject(data)
	for _, k := range path {
		v = honoured(v, k)
	}
	out := []string{}
	if !v.IsArray() {
		return out
	}
	v.ForEach(func(_, e gjson.Result) bool { out = append(out, e.Raw); return true })
	return out
}

// parsed is data as JSON.parse reads it, decoded by encoding/json (whose
// maps also keep the last of duplicate keys), split into the array at path
// and the rest; an absent, null or emptied array or permissions object is
// left out of the rest, as they all mean nothing is granted. ok is false
// when encoding/json cannot read data (past 10,000 levels).
func parsed(data []byte, path []string) (rest map[string]any, leaf []any, ok bool) {
	rest = map[string]any{}
	if blank(data) {
		return rest, nil, true
	}
	dec := json.NewDecoder(bytes.NewReader(trimBOM(data)))
	dec.UseNumber()
	if dec.Decode(&rest) != nil {
		return nil, nil, false
	}
	perms, isObj := rest[path[0]].(map[string]any)
	if !isObj {
		if rest[path[0]] == nil {
			delete(rest, path[0])
		}
		return rest, nil, true
	}
	v, has := perms[path[1]]
	leaf, isArray := v.([]any)
	if has && (v == nil || isArray) {
		delete(perms, path[1])
	}
	if len(perms) == 0 {
		delete(rest, path[0])
	}
	return rest, leaf, true
}

// decodedString is s as JSON.parse reads it back from quote(s).
func decodedString(s string) any {
	var v any
	_ = json.Unmarshal([]byte(quote(s)), &v)
	return v
}

// FuzzEdit: after any edit, everything outside the edited array is
// byte-identical, the result is valid JSON, the array holds exactly the old
// elements (byte for byte) plus or minus the item, and JSON.parse reads
// the same file apart from the item. An add followed by a removal of the
// same item reads as the original, and is the original byte for byte when
// the item went into an array with elements or a new member after others.
func FuzzEdit(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.json")
	for i, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, "Bash(npm run test:*)", uint8(i))
		f.Add(data, "Read(~/.zshrc)", uint8(i+1))
	}
	f.Add([]byte(`{"permissions":{"allow":["a","b","a"]}}`), "a", uint8(1))
	f.Add([]byte(`{"permissions":{"allow":["a"]},"permissions":{"allow":["b"],"allow":[]}}`), "b", uint8(0))
	f.Add([]byte(`{"permissions":{}}`), "b", uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, item string, op uint8) {
		path := [][]string{allowPath, dirsPath}[op/2%2]
		remove := op%2 == 1
		match := func(s string) bool { return s == item }
		var out []byte
		var err error
		if remove {
			out, err = removeStrings("f.json", data, path, match)
		} else {
			out, err = addStrings("f.json", data, path, []string{item})
		}
		valid := blank(data) || checkObject("f.json", data) == nil
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error that is not a SyntaxError: %v", err)
			}
			if valid {
				// a valid file is refused only for a wrong type on the path
				l, lerr := locate("f.json", data, path, "array")
				if lerr == nil {
					t.Fatalf("valid file refused: %v (located %+v)", err, l)
				}
			}
			return
		}
		if !valid {
			t.Fatalf("malformed input accepted: %q", data)
		}
		if err := onlyEdited(data, out, path); err != nil {
			t.Fatal(err)
		}
		if !(blank(data) && blank(out)) && checkObject("f.json", out) != nil {
			t.Fatalf("result is not a valid object: %q", out)
		}
		before := rawElems(data, path)
		after := rawElems(out, path)
		isItem := func(raw string) bool {
			return gjson.Parse(raw).Type == gjson.String && gjson.Parse(raw).String() == item
		}
		var want []string
		if remove {
			want = slices.DeleteFunc(slices.Clone(before), isItem)
		} else {
			want = slices.Clone(before)
			if !slices.ContainsFunc(before, isItem) {
				want = append(want, quote(item))
			}
		}
		if !slices.Equal(after, want) && !(len(after) == 0 && len(want) == 0) {
			t.Fatalf("elements %q, want %q\nin  %q\nout %q", after, want, data, out)
		}

		if !utf8.ValidString(item) {
			return // quote writes U+FFFD for the invalid bytes
		}
		// JSON.parse reads the same file, apart from the item.
		restIn, leafIn, ok := parsed(data, path)
		if !ok {
			return
		}
		restOut, leafOut, ok := parsed(out, path)
		if !ok {
			t.Fatalf("encoding/json reads the input but not the output %q", out)
		}
		if !reflect.DeepEqual(restIn, restOut) {
			t.Fatalf("the rest changed:\nin  %q\nout %q", data, out)
		}
		isDecodedItem := func(v any) bool { return reflect.DeepEqual(v, decodedString(item)) }
		wantLeaf := slices.DeleteFunc(slices.Clone(leafIn), isDecodedItem)
		if !remove {
			wantLeaf = leafIn
			if !slices.ContainsFunc(leafIn, isDecodedItem) {
				wantLeaf = append(slices.Clone(leafIn), decodedString(item))
			}
		}
		if !reflect.DeepEqual(leafOut, wantLeaf) && len(leafOut)+len(wantLeaf) > 0 {
			t.Fatalf("JSON.parse reads %v, want %v\nin  %q\nout %q", leafOut, wantLeaf, data, out)
		}

		if remove || bytes.Equal(out, data) {
			return
		}
		// Revoking what was just added.
		back, err := removeStrings("f.json", out, path, match)
		if err != nil {
			t.Fatalf("removal after an add: %v", err)
		}
		restBack, leafBack, _ := parsed(back, path)
		if !reflect.DeepEqual(restBack, restIn) || !reflect.DeepEqual(leafBack, leafIn) && len(leafBack)+len(leafIn) > 0 {
			t.Fatalf("add then remove reads differently:\nin   %q\nback %q", data, back)
		}
		if blank(data) {
			return
		}
		l, _ := locate("f.json", data, path, "array")
		appended := l.found && len(before) > 0
		newMember := !l.cur.Exists() && memberCount(l.parent) > 0
		if (appended || newMember) && !bytes.Equal(back, data) {
			t.Fatalf("add then remove is not the original:\nin   %q\nout  %q\nback %q", data, out, back)
		}
	})
}
