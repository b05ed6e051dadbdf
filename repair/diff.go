package repair

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
)

// diffContext is the number of unchanged lines a hunk shows around a
// change, as diff -u and git diff show by default.
const diffContext = 3

// writeDiff writes a unified diff (GNU diff -u, POSIX "diff -u") that
// turns a into b, with the file names "a/"+name and "b/"+name as git
// writes them, so that "git apply" and "patch -p1" apply it. Nothing is
// written when a and b are equal.
//
// Lines are compared whole, line endings included, so a line whose only
// change is CRLF to LF shows. A line is written with its line ending as
// it is (a CRLF line's \r stays before the \n), and a last line without
// one is followed by "\ No newline at end of file". The diff keeps the
// lines the two texts share at the start and at the end; when what lies
// between has as many lines in a as in b (the Rewriter changes targets
// within lines and never adds or removes one) lines are paired one to
// one and only the differing ones are shown; otherwise that middle is
// shown as removed and added whole. Both are correct diffs; the first is
// the shortest for a Rewriter's changes.
func writeDiff(w io.Writer, name string, a, b []byte) error {
	if bytes.Equal(a, b) {
		return nil
	}
	la, lb := diffLines(a), diffLines(b)
	// ops: for each line of the edit script, 'e' (equal), '-' or '+', with
	// the index of the line in la or lb.
	type op struct {
		kind   byte
		ia, ib int
	}
	pre := 0
	for pre < len(la) && pre < len(lb) && bytes.Equal(la[pre], lb[pre]) {
		pre++
	}
	suf := 0
	for suf < len(la)-pre && suf < len(lb)-pre && bytes.Equal(la[len(la)-1-suf], lb[len(lb)-1-suf]) {
		suf++
	}
	var ops []op
	for i := 0; i < pre; i++ {
		ops = append(ops, op{'e', i, i})
	}
	ma, mb := la[pre:len(la)-suf], lb[pre:len(lb)-suf]
	if len(ma) == len(mb) {
		for i := 0; i < len(ma); {
			if bytes.Equal(ma[i], mb[i]) {
				ops = append(ops, op{'e', pre + i, pre + i})
				i++
				continue
			}
			j := i
			for j < len(ma) && !bytes.Equal(ma[j], mb[j]) {
				j++
			}
			for k := i; k < j; k++ {
				ops = append(ops, op{'-', pre + k, pre + k})
			}
			for k := i; k < j; k++ {
				ops = append(ops, op{'+', pre + k, pre + k})
			}
			i = j
		}
	} else {
		for k := range ma {
			ops = append(ops, op{'-', pre + k, pre})
		}
		for k := range mb {
			ops = append(ops, op{'+', pre + len(ma), pre + k})
		}
	}
	for i := 0; i < suf; i++ {
		ops = append(ops, op{'e', len(la) - suf + i, len(lb) - suf + i})
	}

	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "--- %s\n+++ %s\n", diffName("a/"+name), diffName("b/"+name))
	for i := 0; i < len(ops); {
		if ops[i].kind == 'e' {
			i++
			continue
		}
		// A hunk: from diffContext lines before this change to
		// diffContext lines after the last change that is no more than
		// 2*diffContext equal lines from the one before it.
		start := max(i-diffContext, 0)
		end := i
		for {
			for end < len(ops) && ops[end].kind != 'e' {
				end++
			}
			next := end
			for next < len(ops) && ops[next].kind == 'e' {
				next++
			}
			if next < len(ops) && next-end <= 2*diffContext {
				end = next
				continue
			}
			end = min(end+diffContext, len(ops))
			break
		}
		h := ops[start:end]
		var na, nb int
		for _, o := range h {
			if o.kind != '+' {
				na++
			}
			if o.kind != '-' {
				nb++
			}
		}
		fmt.Fprintf(bw, "@@ -%s +%s @@\n", hunkRange(h[0].ia, na), hunkRange(h[0].ib, nb))
		for _, o := range h {
			prefix, l := byte(' '), []byte(nil)
			switch o.kind {
			case 'e':
				l = la[o.ia]
			case '-':
				prefix, l = '-', la[o.ia]
			case '+':
				prefix, l = '+', lb[o.ib]
			}
			bw.WriteByte(prefix)
			bw.Write(l)
			if len(l) == 0 || l[len(l)-1] != '\n' {
				bw.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = end
	}
	return bw.Flush()
}

// diffName writes a file name as git does in a diff header: as it is, or
// in double quotes with C escapes when it holds a control character, a
// double quote or a backslash (which patch and git apply read back).
func diffName(name string) string {
	if !strings.ContainsFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f || r == '"' || r == '\\' }) {
		return name
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(name); i++ {
		switch c := name[i]; c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		default:
			if c < ' ' || c == 0x7f {
				fmt.Fprintf(&b, `\%03o`, c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// hunkRange writes a hunk's range as diff -u does: "start,count" with a
// 1-based start, "start" alone for one line, and the line before for
// none.
func hunkRange(first, count int) string {
	switch count {
	case 0:
		return fmt.Sprintf("%d,0", first)
	case 1:
		return fmt.Sprintf("%d", first+1)
	}
	return fmt.Sprintf("%d,%d", first+1, count)
}

// diffLines cuts s into lines, each with its "\n" (the last may lack
// one).
func diffLines(s []byte) [][]byte {
	var ls [][]byte
	for len(s) > 0 {
		i := bytes.IndexByte(s, '\n')
		if i < 0 {
			ls = append(ls, s)
			break
		}
		ls = append(ls, s[:i+1])
		s = s[i+1:]
	}
	return ls
}
