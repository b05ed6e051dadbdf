package main

import (
	"fmt"
	"os"
	"testing"
)

// TestMain points the user's cache directory at a temporary one, so that
// the default -cache of the runs under test writes nothing in the home
// directory of whoever runs them, and no run reads what another left.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "relink-test-cache")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	os.Setenv("HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
