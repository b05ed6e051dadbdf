package relink_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docPages are the pages a user reads: every relative link in them must
// lead somewhere.
func docPages(t *testing.T) []string {
	t.Helper()
	pages := []string{"README.md", "CHANGELOG.md", "lab/README.md"}
	more, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append(pages, more...)
}

var (
	mdLink   = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	fence    = regexp.MustCompile("(?s)```.*?```")
	heading  = regexp.MustCompile(`^#+\s+(.*)$`)
	notAnchr = regexp.MustCompile(`[^\p{L}\p{N}_\- ]`)
)

// anchors returns the fragments GitHub gives the headings of a Markdown
// file: lowercased, punctuation dropped, spaces made hyphens.
func anchors(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if m := heading.FindStringSubmatch(sc.Text()); m != nil {
			a := notAnchr.ReplaceAllString(strings.ToLower(strings.TrimSpace(m[1])), "")
			out[strings.ReplaceAll(a, " ", "-")] = true
		}
	}
	return out
}

// TestDocsLinks checks that every relative link of the README, the
// CHANGELOG, lab/README.md and docs/ names a file or directory of the
// repository, and a heading of it when the link has a fragment.
func TestDocsLinks(t *testing.T) {
	for _, page := range docPages(t) {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		text := fence.ReplaceAllString(string(b), "")
		for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
			link := m[1]
			if strings.Contains(link, "://") || strings.HasPrefix(link, "mailto:") {
				continue
			}
			path, frag, _ := strings.Cut(link, "#")
			target := page
			if path != "" {
				target = filepath.Join(filepath.Dir(page), path)
			}
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s: link %s: %v", page, link, err)
				continue
			}
			if frag != "" && strings.HasSuffix(target, ".md") && !anchors(t, target)[frag] {
				t.Errorf("%s: link %s: %s has no heading #%s", page, link, target, frag)
			}
		}
	}
}

// TestREADMEShort checks what issue 26 asks of the README: under 300
// lines, opening with the two commands (the main job and the tests).
func TestREADMEShort(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) >= 300 {
		t.Errorf("README.md has %d lines, want under 300", len(lines))
	}
	head := strings.Join(lines[:min(len(lines), 6)], "\n")
	for _, cmd := range []string{"bash lab/scripts/experiment.sh", "bash scripts/test.sh"} {
		if !strings.Contains(head, cmd) {
			t.Errorf("README.md's first lines lack %q:\n%s", cmd, head)
		}
	}
}

// TestREADMELibrary checks that the README's Go lines are
// examples/store's, in their order, so that they compile and run (its
// TestRun) as the README shows them.
func TestREADMELibrary(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "```go\n")
	block, _, _ = strings.Cut(block, "```")
	if !ok || strings.TrimSpace(block) == "" {
		t.Fatal("README.md has no Go block")
	}
	prog, err := os.ReadFile("examples/store/main.go")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(prog), "\n")
	i := 0
	for _, want := range strings.Split(block, "\n") {
		want = strings.TrimSpace(want)
		if want == "" {
			continue
		}
		for i < len(lines) && strings.TrimSpace(lines[i]) != want {
			i++
		}
		if i == len(lines) {
			t.Errorf("README.md's Go line %q is not in examples/store/main.go (after the lines before it)", want)
			return
		}
		i++
	}
}
