package main

import (
	"bytes"
	"strings"
	"testing"
)

// ran is what one run of the command gave.
type ran struct {
	code           int
	stdout, stderr string
}

// runArgs runs the command line args in-process, with an empty stdin.
func runArgs(t *testing.T, args ...string) ran {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, strings.NewReader(""), &stdout, &stderr)
	return ran{code, stdout.String(), stderr.String()}
}

// mustRun runs args and fails the test unless the exit code is 0.
func mustRun(t *testing.T, args ...string) ran {
	t.Helper()
	r := runArgs(t, args...)
	if r.code != 0 {
		t.Fatalf("relink %q: exit %d, stderr %q", args, r.code, r.stderr)
	}
	return r
}

// checkOneLine fails the test unless stderr is one line with no trace of
// a panic.
func checkOneLine(t *testing.T, stderr string) {
	t.Helper()
	if strings.Count(stderr, "\n") != 1 || !strings.HasSuffix(stderr, "\n") {
		t.Errorf("stderr is not one line: %q", stderr)
	}
	for _, bad := range []string{"goroutine ", "panic", "runtime error"} {
		if strings.Contains(stderr, bad) {
			t.Errorf("stderr holds %q: %q", bad, stderr)
		}
	}
}
