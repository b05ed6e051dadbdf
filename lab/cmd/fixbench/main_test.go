package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestBadUsage refuses command lines that cannot work, with exit 2 and a
// line that says why, before anything is built or read.
func TestBadUsage(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "-before and -after are required"},
		{[]string{"-before", "a.db"}, "-before and -after are required"},
		{[]string{"-before", "a.db", "-after", "b.db", "-targets", "0"}, "bad -targets"},
		{[]string{"-before", "a.db", "-after", "b.db", "-concurrency", "0"}, "bad -concurrency"},
		{[]string{"-before", "a.db", "-after", "b.db", "extra"}, "unexpected argument"},
		{[]string{"-no-such-flag"}, "not defined"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), tt.args, &stdout, &stderr); code != 2 || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("fixbench %q: exit %d, stderr %q; want 2 and %q", tt.args, code, stderr.String(), tt.want)
		}
	}
}

// TestMissingStore fails with exit 1 when a store cannot be opened.
func TestMissingStore(t *testing.T) {
	var stdout, stderr bytes.Buffer
	dir := t.TempDir()
	code := run(context.Background(), []string{"-before", dir + "/none.db", "-after", dir + "/none.db.moved", "-report", dir + "/r.json"}, &stdout, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "pre-move store") {
		t.Errorf("exit %d, stderr %q; want 1 and the store named", code, stderr.String())
	}
}
