package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/linkrot/relink/repair"
)

// TestUsage refuses command lines that cannot work, with exit 2 and a
// line that says why, before anything is built or read.
func TestUsage(t *testing.T) {
	pg := "postgres://db.example/moved"
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"nothing", nil, "-store postgres://... and -before are required"},
		{"a file store", []string{"-store", "a.db", "-before", "a.db"}, "-store postgres://"},
		{"no -before", []string{"-store", pg}, "-before are required"},
		{"bad workers", []string{"-store", pg, "-before", "a.db", "-workers", "1,x"}, "bad -workers"},
		{"no workers", []string{"-store", pg, "-before", "a.db", "-workers", "0"}, "bad -workers"},
		{"no targets", []string{"-store", pg, "-before", "a.db", "-targets", "0"}, "must be positive"},
		{"an argument", []string{"-store", pg, "-before", "a.db", "extra"}, "unexpected argument"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), tt.args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%s: queuebench %q: exit %d, stderr %q; want 2 and %q", tt.name, tt.args, code, stderr.String(), tt.want)
		}
	}
}

// TestSameAndMarkdown counts equal results field by field and writes a
// row per run.
func TestSameAndMarkdown(t *testing.T) {
	a := []repair.Result{{Dead: "https://a.example/x", Verdict: repair.Moved, URI: "https://a.example/y"}, {Dead: "https://a.example/z", Verdict: repair.Gone}}
	b := []repair.Result{a[0], {Dead: "https://a.example/z", Verdict: repair.Unknown}}
	if n := same(a, b); n != 1 {
		t.Errorf("same = %d, want 1", n)
	}
	var md bytes.Buffer
	writeMarkdown(&md, &Summary{Targets: 2, Seed: 1, Concurrency: 2, Runs: []Run{{Name: "relink fix", Seconds: 2, PerSecond: 1, Ratio: 1, Same: 2}}})
	if !strings.Contains(md.String(), "| relink fix | 2.0 s | 1.00 | 1.00 | 2 of 2 | 0 | 0 |") {
		t.Errorf("markdown:\n%s", md.String())
	}
}
