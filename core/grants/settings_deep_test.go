package grants

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// nested is v inside n arrays (or objects with the key "a").
func nested(n int, objects bool, v string) string {
	if objects {
		return strings.Repeat(`{"a":`, n) + v + strings.Repeat("}", n)
	}
	return strings.Repeat("[", n) + v + strings.Repeat("]", n)
}

// Deeply nested JSON is valid JSON: JSON.parse reads it, and so does Latch.
// encoding/json stops at 10,000 levels with a syntax error, which is why
// checkObject does not use it.
func TestDeepNestingIsValid(t *testing.T) {
	perms := `"permissions": {"allow": ["Bash(ls)"]}`
	tests := []struct {
		name, data string
	}{
		{"testdata: 20,000 arrays", readTestdata(t, "deep_20000.json")},
		{"20,000 objects before permissions", `{"y": ` + nested(20000, true, "null") + ", " + perms + "}"},
		{"permissions 10,001 levels down is not ours", `{"y": ` + nested(10001, false, `{`+perms+`}`) + ", " + perms + "}"},
		{"100,000 arrays after permissions", "{" + perms + `, "x": ` + nested(100000, false, `"s"`) + "}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if json.Valid([]byte(tt.data)) {
				t.Fatal("encoding/json reads this; the test needs deeper JSON")
			}
			path := writeSettings(t, tt.data)
			s := NewStore(path)
			p, err := s.Read()
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			if !slices.Equal(p.Allow, []string{"Bash(ls)"}) {
				t.Errorf("allow = %q", p.Allow)
			}
			dir := t.TempDir()
			if err := s.AddRules("WebSearch"); err != nil {
				t.Fatalf("AddRules: %v", err)
			}
			if err := s.AddDirs(false, dir); err != nil {
				t.Fatalf("AddDirs: %v", err)
			}
			p, err = s.Read()
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(p.Allow, []string{"Bash(ls)", "WebSearch"}) || !slices.Equal(p.AdditionalDirectories, []string{dir}) {
				t.Errorf("after edits %+v", p)
			}
			// Only the permissions object changed.
			after := readFile(t, path)
			was := honoured(rootObject([]byte(tt.data)), "permissions")
			now := honoured(rootObject(after), "permissions")
			if tt.data[:was.Index] != string(after[:now.Index]) || tt.data[was.Index+len(was.Raw):] != string(after[now.Index+len(now.Raw):]) {
				t.Error("bytes outside permissions changed")
			}
		})
	}
}

// Malformed deep JSON is reported where it breaks, not as too deep.
func TestDeepMalformedJSON(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"cut off", "{\n\"x\": " + strings.Repeat("[", 20000) + "\n", "settings.json:3:1: unexpected end of JSON input"},
		{"a stray character", "{\n\"x\": " + strings.Repeat("[", 15000) + "1 2" + strings.Repeat("]", 15000) + "}",
			"settings.json:2:15008: invalid character '2' after array element"},
		{"a missing bracket", "{\"x\": " + strings.Repeat("[", 12000) + strings.Repeat("]", 11999) + "}",
			"settings.json:1:24006: invalid character '}' after array element"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeSettings(t, tt.data)
			_, err := NewStore(path).Read()
			var se *SyntaxError
			if !errors.As(err, &se) || err.Error() != filepath.Join(filepath.Dir(path), tt.want) {
				t.Errorf("error %v, want %s", err, tt.want)
			}
			err = NewStore(path).AddRules("Bash")
			if !errors.As(err, &se) || err.Error() != filepath.Join(filepath.Dir(path), tt.want) {
				t.Errorf("AddRules error %v, want %s", err, tt.want)
			}
			equalBytes(t, "refused file", readFile(t, path), []byte(tt.data))
		})
	}
}

// checkObjectStd is the check checkObject replaced, with encoding/json; it
// is the reference for everything less than 10,000 levels deep.
func checkObjectStd(file string, data []byte) (err error, tooDeep bool) {
	body := trimBOM(data)
	skip := len(data) - len(body)
	var raw json.RawMessage
	if err := json.Unmarshal(body, &raw); err != nil {
		var se *json.SyntaxError
		if !errors.As(err, &se) {
			return &SyntaxError{file: file, line: 1, column: 1, msg: err.Error()}, false
		}
		if strings.HasSuffix(se.Error(), "exceeded max depth") {
			return nil, true
		}
		pos := int(se.Offset)
		if !strings.HasPrefix(se.Error(), "unexpected end") && pos > 0 {
			pos--
		}
		return syntaxErrorAt(file, data, skip+pos, se.Error()), false
	}
	start := skip + len(body) - len(strings.TrimLeft(string(body), " \t\r\n"))
	if data[start] != '{' {
		return syntaxErrorAt(file, data, start, "the top level is not a JSON object"), false
	}
	return nil, false
}

// sameCheck fails when checkObject and encoding/json disagree on data.
func sameCheck(t *testing.T, data []byte) {
	t.Helper()
	want, tooDeep := checkObjectStd("f.json", data)
	if tooDeep {
		return
	}
	got := checkObject("f.json", data)
	if (got == nil) != (want == nil) || got != nil && got.Error() != want.Error() {
		t.Fatalf("checkObject(%q)\n got %v\nwant %v", data, got, want)
	}
}

// checkObject says what encoding/json says, word for word and at the same
// line and column, for every prefix of every file in the corpus and for
// malformed text of every kind.
func TestCheckObjectMatchesEncodingJSON(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.json")
	for _, name := range files {
		if strings.Contains(name, "deep_") {
			continue
		}
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for i := range len(data) + 1 {
			sameCheck(t, data[:i])
		}
	}
	for _, s := range []string{
		"", " ", "\xef\xbb\xbf", "{", "}", "{}", " {} ", "{} {}", "{}x", "[]", "1", "null", `"s"`,
		`{"a"}`, `{"a" 1}`, `{"a":}`, `{"a":1,}`, `{,}`, `{"a":1 "b":2}`, `{1:2}`, `{'a':1}`,
		`{"a":[1,]}`, `{"a":[,1]}`, `{"a":[1 2]}`, `{"a":[}`, `{"a":]}`,
		`{"a":01}`, `{"a":-}`, `{"a":-x}`, `{"a":1.}`, `{"a":1.e5}`, `{"a":.5}`, `{"a":1e}`, `{"a":1e+}`, `{"a":1E-7}`,
		`{"a":-0.0e+00}`, `{"a":+1}`, `{"a":1.5`, `{"a":1.`, `{"a":1e`, `{"a":-`, `{"a":0`,
		`{"a":tru}`, `{"a":tru`, `{"a":fals}`, `{"a":nul}`, `{"a":nulll}`, `{"a":True}`, `{"a":t`,
		`{"a":"\x"}`, `{"a":"\u12"}`, `{"a":"\u12g4"}`, `{"a":"\u`, `{"a":"\`, `{"a":"abc`, "{\"a\":\"a\tb\"}",
		"{\"a\":\"\x00\"}", "{\"a\":\"\xff\xfe\"}", "{\"a\":\x00}", "{\"a\":\xc3\xa9}", `{"a":"\/\b\f\n\r\t\"\\"}`,
		"{\r\n\t\"a\" :\n[ ]\n}", "{\"a\":1}\n\n", "\xef\xbb\xbf{\"a\":1 }", "\xef\xbb\xbf\xef\xbb\xbf{}",
		`{"a":{"b":{"c":[1,{"d":}]}}}`, `{"a":"'"x}`, `{"a":1}'`, `{"a":1}"`,
	} {
		sameCheck(t, []byte(s))
	}
}

// FuzzCheckObject: checkObject agrees with encoding/json on every input
// encoding/json can read, and never fails for depth alone.
func FuzzCheckObject(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.json")
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil && len(data) < 4096 {
			f.Add(data)
		}
	}
	f.Add([]byte(`{"a":[1.5e-3,true,false,null,"\u00e9"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sameCheck(t, data)
		// Wrapped 10,001 levels deep, valid stays valid.
		if json.Valid(data) {
			deep := []byte(`{"x":` + nested(10001, false, string(data)) + "}")
			if err := checkObject("f.json", deep); err != nil {
				t.Fatalf("deep wrapping of %q: %v", data, err)
			}
		}
	})
}

// The reference itself knows a file too deep for it.
func TestCheckObjectStdTooDeep(t *testing.T) {
	if _, tooDeep := checkObjectStd("f.json", []byte(`{"x":`+nested(10001, false, "1")+"}")); !tooDeep {
		t.Error("not too deep for encoding/json")
	}
}
