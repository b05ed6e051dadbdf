package repair

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// writeDiffTests pin the output of writeDiff, which was checked byte for
// byte against GNU diffutils' diff -u on random edits (equal line counts,
// CRLF, missing final newlines) while it was written.
var writeDiffTests = []struct {
	name, a, b, want string
}{
	{"equal", "a\nb\n", "a\nb\n", ""},
	{"one line in the middle", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n",
		"--- a/f\n+++ b/f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"},
	{"first and last line", "1\n2\n", "one\ntwo\n",
		"--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n-1\n-2\n+one\n+two\n"},
	{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "one\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\ntwelve\n",
		"--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n-1\n+one\n 2\n 3\n 4\n@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+twelve\n"},
	{"changes six lines apart share a hunk", "1\n2\n3\n4\n5\n6\n7\n8\n", "one\n2\n3\n4\n5\n6\n7\neight\n",
		"--- a/f\n+++ b/f\n@@ -1,8 +1,8 @@\n-1\n+one\n 2\n 3\n 4\n 5\n 6\n 7\n-8\n+eight\n"},
	{"no newline at the end", "a\nb", "a\nc",
		"--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"},
	{"newline added at the end", "a\nb", "a\nb\n",
		"--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n"},
	{"CRLF kept", "a\r\nb\r\n", "a\r\nB\r\n",
		"--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+B\r\n"},
	{"lines added", "a\nz\n", "a\nb\nc\nz\n",
		"--- a/f\n+++ b/f\n@@ -1,2 +1,4 @@\n a\n+b\n+c\n z\n"},
	{"from empty", "", "a\n",
		"--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+a\n"},
	{"to empty", "a\nb\n", "",
		"--- a/f\n+++ b/f\n@@ -1,2 +0,0 @@\n-a\n-b\n"},
}

func TestWriteDiff(t *testing.T) {
	for _, tt := range writeDiffTests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := writeDiff(&buf, "f", []byte(tt.a), []byte(tt.b)); err != nil {
				t.Fatal(err)
			}
			if buf.String() != tt.want {
				t.Errorf("writeDiff(%q, %q) =\n%s\nwant\n%s", tt.a, tt.b, buf.String(), tt.want)
			}
			if got, err := applyDiff([]byte(tt.a), buf.Bytes()); err != nil || string(got) != tt.b {
				t.Errorf("applying the diff of %q to it gives %q, %v; want %q", tt.a, got, err, tt.b)
			}
		})
	}
}

// applyDiff applies a unified diff of one file to a, checking every
// context and removed line: a test's independent reading of the format.
func applyDiff(a, diff []byte) ([]byte, error) {
	if len(diff) == 0 {
		return a, nil
	}
	src := diffLines(a)
	lines := diffLines(diff)
	if len(lines) < 2 || !bytes.HasPrefix(lines[0], []byte("--- ")) || !bytes.HasPrefix(lines[1], []byte("+++ ")) {
		return nil, fmt.Errorf("no file header")
	}
	var out [][]byte
	next := 0 // next line of src to copy
	for i := 2; i < len(lines); {
		h := string(lines[i])
		var os, oc, ns, nc int
		if _, err := parseHunk(h, &os, &oc, &ns, &nc); err != nil {
			return nil, fmt.Errorf("line %d: %v", i+1, err)
		}
		start := os - 1
		if oc == 0 {
			start = os
		}
		if start < next || start > len(src) {
			return nil, fmt.Errorf("hunk %q out of order", h)
		}
		out = append(out, src[next:start]...)
		next = start
		i++
		for i < len(lines) && !bytes.HasPrefix(lines[i], []byte("@@")) {
			l := lines[i]
			body := append([]byte(nil), l[1:]...)
			if i+1 < len(lines) && bytes.HasPrefix(lines[i+1], []byte(`\ No newline`)) {
				body = bytes.TrimSuffix(body, []byte("\n"))
				i++
			}
			switch l[0] {
			case ' ', '-':
				if next >= len(src) || !bytes.Equal(src[next], body) {
					return nil, fmt.Errorf("line %d does not match: %q", i+1, body)
				}
				if l[0] == ' ' {
					out = append(out, body)
				}
				next++
			case '+':
				out = append(out, body)
			default:
				return nil, fmt.Errorf("line %d: %q", i+1, l)
			}
			i++
		}
	}
	out = append(out, src[next:]...)
	return bytes.Join(out, nil), nil
}

func parseHunk(h string, os, oc, ns, nc *int) (int, error) {
	f := strings.Fields(h)
	if len(f) < 4 || f[0] != "@@" || f[3] != "@@" {
		return 0, fmt.Errorf("bad hunk header %q", h)
	}
	rng := func(s string, start, count *int) error {
		a, b, ok := strings.Cut(s[1:], ",")
		var err error
		if *start, err = strconv.Atoi(a); err != nil {
			return err
		}
		*count = 1
		if ok {
			*count, err = strconv.Atoi(b)
		}
		return err
	}
	if err := rng(f[1], os, oc); err != nil {
		return 0, err
	}
	return 0, rng(f[2], ns, nc)
}

func TestDiffName(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"a/docs/my page.md", "a/docs/my page.md"},
		{"a/docs/café.md", "a/docs/café.md"},
		{"a/tab\there.md", `"a/tab\there.md"`},
		{"a/new\nline.md", `"a/new\nline.md"`},
		{`a/q"uote\.md`, `"a/q\"uote\\.md"`},
		{"a/bell\a.md", `"a/bell\007.md"`},
	} {
		if got := diffName(tt.in); got != tt.want {
			t.Errorf("diffName(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func FuzzWriteDiff(f *testing.F) {
	for _, tt := range writeDiffTests {
		f.Add(tt.a, tt.b)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		var buf bytes.Buffer
		if err := writeDiff(&buf, "f", []byte(a), []byte(b)); err != nil {
			t.Fatal(err)
		}
		got, err := applyDiff([]byte(a), buf.Bytes())
		if err != nil || string(got) != b {
			t.Fatalf("diff of %q to %q applies as %q, %v:\n%s", a, b, got, err, buf.String())
		}
	})
}
