package relink_test

import (
	"bufio"
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// A wing of the repository's layout (issue 26). A package may import the
// packages of its own wing and of lower ones, never of a higher one, so
// that each wing builds and is understood without those above it: a user
// of the library gets no provider, and a user of a provider no tool.
type wing int

const (
	library   wing = iota // the root package, canon, filter, backlink, lexsig, score, repair, and internal/
	providers             // provider/...
	tool                  // cmd/... (the tool and what only it uses) and examples/...
)

var wingNames = [...]string{library: "library", providers: "providers", tool: "tool"}

// module is the module path of the repository's root.
const module = "github.com/linkrot/relink"

// wingOf returns the wing of the package at import path p, or false for a
// package of another module or one the layout does not place.
func wingOf(p string) (wing, bool) {
	if p == module {
		return library, true
	}
	rel, ok := strings.CutPrefix(p, module+"/")
	if !ok {
		return 0, false
	}
	top, _, _ := strings.Cut(rel, "/")
	switch top {
	case "canon", "filter", "backlink", "lexsig", "score", "repair", "internal":
		return library, true
	case "provider":
		return providers, true
	case "cmd", "examples":
		return tool, true
	}
	return 0, false
}

// TestLayoutWings checks every package of the module with go list: what it
// imports, directly or through others, and what its tests import, is in
// its own wing or a lower one. It also pins the boundary that made
// provider/corpus: provider/postgres builds no SQLite driver.
func TestLayoutWings(t *testing.T) {
	out, err := exec.Command("go", "list", "-f",
		`{{.ImportPath}}	{{join .Deps " "}}	{{join .TestImports " "}} {{join .XTestImports " "}}`,
		"./...").Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	n := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) != 3 {
			t.Fatalf("go list line %q: want 3 tab-separated fields", sc.Text())
		}
		pkg := fields[0]
		w, ok := wingOf(pkg)
		if !ok {
			t.Errorf("%s is in no wing: place it under the library's packages, internal/, provider/, cmd/ or examples/ (or add its place to wingOf)", pkg)
			continue
		}
		n++
		check := func(deps, how string) {
			for _, d := range strings.Fields(deps) {
				if dw, ok := wingOf(d); ok && dw > w {
					t.Errorf("%s (%s) %s %s (%s): a lower wing must not depend on a higher one; move what both need down (as provider/corpus holds what both stores share)",
						pkg, wingNames[w], how, d, wingNames[dw])
				}
			}
		}
		check(fields[1], "imports, directly or not,")
		check(fields[2], "has tests that import")
		if pkg == module+"/provider/postgres" && strings.Contains(fields[1], "sqlite") {
			t.Errorf("provider/postgres depends on an SQLite package: a PostgreSQL user would build the SQLite driver (%s)", fields[1])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 40 {
		t.Fatalf("go list named %d packages in wings, want the module's (over 40)", n)
	}
}

// TestWingOf pins where the layout puts a few packages, and that a package
// of another module (the lab's, a dependency's) is in none.
func TestWingOf(t *testing.T) {
	cases := []struct {
		pkg  string
		want wing
		ok   bool
	}{
		{module, library, true},
		{module + "/canon", library, true},
		{module + "/repair/review", library, true},
		{module + "/internal/words", library, true},
		{module + "/provider/corpus", providers, true},
		{module + "/provider/internal/ingest", providers, true},
		{module + "/cmd/relink/internal/progress", tool, true},
		{module + "/examples/store", tool, true},
		{module + "/lab/eval", 0, false},
		{module + "/canonical", 0, false},
		{"modernc.org/sqlite", 0, false},
	}
	for _, tc := range cases {
		got, ok := wingOf(tc.pkg)
		if got != tc.want || ok != tc.ok {
			t.Errorf("wingOf(%q) = %v, %v; want %v, %v", tc.pkg, got, ok, tc.want, tc.ok)
		}
	}
}
