package grants

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tidwall/gjson"
)

// rawElems lists the raw bytes of each element of the array at path.
func rawElems(data []byte, path []string) []string {
	if blank(data) {
		return []string{}
	}
	v := rootObject(data)
	for _, k := range path {
		v = v.Get(k)
	}
	out := []string{}
	if !v.IsArray() {
		return out
	}
	v.ForEach(func(_, e gjson.Result) bool { out = append(out, e.Raw); return true })
	return out
}

// FuzzEdit: after any edit, everything outside the edited array is
// byte-identical, the result is valid JSON, and the array holds exactly the
// old elements (byte for byte) plus or minus the item.
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
	f.Fuzz(func(t *testing.T, data []byte, item string, op uint8) {
		path := [][]string{allowPath, dirsPath}[op/2%2]
		remove := op%2 == 1
		var out []byte
		var err error
		if remove {
			out, err = removeStrings("f.json", data, path, func(s string) bool { return s == item })
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
		var want []string
		if remove {
			want = slices.DeleteFunc(slices.Clone(before), func(raw string) bool {
				return gjson.Parse(raw).Type == gjson.String && gjson.Parse(raw).String() == item
			})
		} else {
			want = slices.Clone(before)
			present := slices.ContainsFunc(before, func(raw string) bool {
				return gjson.Parse(raw).Type == gjson.String && gjson.Parse(raw).String() == item
			})
			if !present {
				want = append(want, quote(item))
			}
		}
		if !slices.Equal(after, want) && !(len(after) == 0 && len(want) == 0) {
			t.Fatalf("elements %q, want %q\nin  %q\nout %q", after, want, data, out)
		}
	})
}
