package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The layering rules of docs/ARCHITECTURE.md, checked on the import graph
// `go list` reports:
//
//   - core/... depends on neither Fyne (fyne.io/...) nor app nor ui, even
//     through another package;
//   - app/... depends on neither Fyne nor ui;
//   - ui/... imports from this module only app, assets and ui/... (core
//     reaches the window through app);
//   - internal/testsupport/... is imported only by tests: no other
//     package's code depends on it.
//
// TestLayeringRules checks the checker on made-up graphs, so a rule that
// stops catching what it should fails too; TestLayering checks this tree.

// listedPackage is what `go list -json` says of one package.
type listedPackage struct {
	ImportPath   string
	Imports      []string // of its non-test files
	Deps         []string // every package its non-test files need, transitively
	TestImports  []string
	XTestImports []string
	Error        *struct{ Err string }
}

// layeringViolations returns one line per broken rule, in package order.
func layeringViolations(module string, pkgs []listedPackage) []string {
	rel := func(path string) (string, bool) {
		if path == module {
			return ".", true
		}
		r, ok := strings.CutPrefix(path, module+"/")
		return r, ok
	}
	under := func(path, dir string) bool {
		r, ok := rel(path)
		return ok && (r == dir || strings.HasPrefix(r, dir+"/"))
	}
	fyne := func(path string) bool { return path == "fyne.io" || strings.HasPrefix(path, "fyne.io/") }
	short := func(path string) string {
		if r, ok := rel(path); ok {
			return r
		}
		return path
	}
	var out []string
	for _, p := range pkgs {
		if _, ours := rel(p.ImportPath); !ours {
			continue
		}
		name := short(p.ImportPath)
		bad := func(format string, args ...any) {
			out = append(out, name+": "+fmt.Sprintf(format, args...))
		}
		for _, d := range p.Deps {
			switch {
			case under(p.ImportPath, "core") && fyne(d):
				bad("core depends on Fyne (%s)", d)
			case under(p.ImportPath, "core") && (under(d, "app") || under(d, "ui")):
				bad("core depends on %s", short(d))
			case under(p.ImportPath, "app") && fyne(d):
				bad("app depends on Fyne (%s)", d)
			case under(p.ImportPath, "app") && under(d, "ui"):
				bad("app depends on %s", short(d))
			case under(d, "internal/testsupport") && !under(p.ImportPath, "internal/testsupport"):
				bad("non-test code depends on %s, which only tests may import", short(d))
			}
		}
		if under(p.ImportPath, "ui") {
			for _, d := range p.Imports {
				if _, ours := rel(d); ours && short(d) != "app" && short(d) != "assets" && !under(d, "ui") {
					bad("ui imports %s; from this module it imports only app and assets", short(d))
				}
			}
		}
	}
	return out
}

// goList lists the module's packages for one platform (cgo on, as in a
// real build, so the cgo files count).
func goList(t *testing.T, goos string) (module string, pkgs []listedPackage) {
	t.Helper()
	env := append(os.Environ(), "GOOS="+goos, "CGO_ENABLED=1")
	mod := exec.Command("go", "list", "-m")
	mod.Env = env
	out, err := mod.Output()
	if err != nil {
		t.Fatalf("go list -m: %v", err)
	}
	module = strings.TrimSpace(string(out))
	cmd := exec.Command("go", "list", "-e", "-json=ImportPath,Imports,Deps,TestImports,XTestImports,Error", "./...")
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err = cmd.Output()
	if err != nil {
		t.Fatalf("GOOS=%s go list: %v\n%s", goos, err, stderr.String())
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	return module, pkgs
}

func TestLayering(t *testing.T) {
	for _, goos := range []string{"linux", "darwin", "windows"} {
		module, pkgs := goList(t, goos)
		if len(pkgs) < 5 || !slices.ContainsFunc(pkgs, func(p listedPackage) bool { return p.ImportPath == module+"/core/stream" }) {
			t.Fatalf("GOOS=%s: go list found %d packages and no core/stream; the check would check nothing", goos, len(pkgs))
		}
		for _, p := range pkgs {
			if p.Error != nil {
				t.Errorf("GOOS=%s: %s cannot be checked: %s", goos, p.ImportPath, p.Error.Err)
			}
		}
		for _, v := range layeringViolations(module, pkgs) {
			t.Errorf("GOOS=%s: %s", goos, v)
		}
	}
}

func TestLayeringRules(t *testing.T) {
	const m = "example.com/m"
	pkg := func(path string, imports, deps []string, tests ...string) listedPackage {
		return listedPackage{ImportPath: m + path, Imports: imports, Deps: deps, TestImports: tests}
	}
	good := []listedPackage{
		pkg("", []string{m + "/app", m + "/ui", m + "/core/grants"}, []string{"fyne.io/fyne/v2", m + "/app", m + "/ui", m + "/core/grants"}),
		pkg("/core/stream", []string{"os"}, []string{"os"}, m+"/internal/testsupport/heap"),
		pkg("/core/grants", []string{m + "/core/stream"}, []string{m + "/core/stream", "os"}),
		pkg("/app", []string{m + "/core/stream"}, []string{m + "/core/stream"}, m+"/internal/testsupport/fakeapi"),
		pkg("/app/proc", nil, nil),
		pkg("/ui", []string{m + "/app", m + "/assets", m + "/ui/vlist", "fyne.io/fyne/v2"}, []string{m + "/app", m + "/core/stream", m + "/assets", "fyne.io/fyne/v2"}, m+"/core/grants"),
		pkg("/internal/testsupport/fakeapi", []string{m + "/internal/testsupport/sse"}, []string{m + "/internal/testsupport/sse", m + "/core/stream"}),
		pkg("/uitools", []string{"fyne.io/fyne/v2"}, []string{"fyne.io/fyne/v2"}),     // a sibling named like ui
		pkg("/coreutil", []string{m + "/ui"}, []string{m + "/ui", "fyne.io/fyne/v2"}), // a sibling named like core
		{ImportPath: "fyne.io/fyne/v2", Deps: []string{m + "/ui"}},                    // not ours: not checked
	}
	if v := layeringViolations(m, good); len(v) != 0 {
		t.Errorf("a graph that keeps the rules: %q, want none", v)
	}
	tests := []struct {
		name string
		pkg  listedPackage
		want string
	}{
		{"core imports Fyne", pkg("/core/grants", []string{"fyne.io/fyne/v2"}, []string{"fyne.io/fyne/v2"}), "core/grants: core depends on Fyne (fyne.io/fyne/v2)"},
		{"core reaches Fyne through a library", pkg("/core/stream/inspect", []string{"example.org/lib"}, []string{"example.org/lib", "fyne.io/fyne/v2/lang"}), "core/stream/inspect: core depends on Fyne (fyne.io/fyne/v2/lang)"},
		{"core imports app", pkg("/core/stream", []string{m + "/app"}, []string{m + "/app"}), "core/stream: core depends on app"},
		{"core reaches ui", pkg("/core/grants", []string{m + "/core/x"}, []string{m + "/core/x", m + "/ui/widgets"}), "core/grants: core depends on ui/widgets"},
		{"app imports Fyne", pkg("/app", []string{"fyne.io/fyne/v2/widget"}, []string{"fyne.io/fyne/v2/widget"}), "app: app depends on Fyne (fyne.io/fyne/v2/widget)"},
		{"an app subpackage imports ui", pkg("/app/proc", []string{m + "/ui"}, []string{m + "/ui"}), "app/proc: app depends on ui"},
		{"ui imports core", pkg("/ui", []string{m + "/core/grants"}, []string{m + "/core/grants"}), "ui: ui imports core/grants; from this module it imports only app and assets"},
		{"a ui subpackage imports an app subpackage", pkg("/ui/prefs", []string{m + "/app/proc"}, []string{m + "/app/proc"}), "ui/prefs: ui imports app/proc"},
		{"ui imports the main package", pkg("/ui", []string{m}, []string{m}), "ui: ui imports .;"},
		{"app code imports test support", pkg("/app", []string{m + "/internal/testsupport/fakeapi"}, []string{m + "/internal/testsupport/fakeapi"}), "app: non-test code depends on internal/testsupport/fakeapi"},
		{"the command reaches test support", pkg("", []string{m + "/app"}, []string{m + "/app", m + "/internal/testsupport"}), ".: non-test code depends on internal/testsupport,"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			graph := append(slices.Clone(good), tc.pkg)
			v := layeringViolations(m, graph)
			if len(v) != 1 || !strings.Contains(v[0], tc.want) {
				t.Errorf("violations %q, want one holding %q", v, tc.want)
			}
		})
	}
}
