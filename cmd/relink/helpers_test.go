package main

import (
	"bytes"
	"strings"
	"sync"
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
	ownCache(t)
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

// cached holds the tests that have a cache directory of their own.
var cached sync.Map

// ownCache gives t a user cache directory of its own (so the default
// -cache of its runs), the first time one of its runs starts: the live
// services' answers are cached by URL, and a fake service of another test
// may have listened on the same loopback port before.
func ownCache(t *testing.T) {
	if _, ok := cached.LoadOrStore(t, true); ok {
		return
	}
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Cleanup(func() { cached.Delete(t) })
}
