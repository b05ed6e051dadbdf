package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/linkrot/relink/internal/pgtest"
)

// TestMain points the user's cache directory at a temporary one, so that
// the default -cache of the runs under test writes nothing in the home
// directory of whoever runs them, and no run reads what another left; and
// it gives the tests of -store postgres:// a server (internal/pgtest).
func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		main() // the test binary as the command (runMain)
	}
	dir, err := os.MkdirTemp("", "relink-test-cache")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("XDG_CACHE_HOME", dir)
	os.Setenv("HOME", dir)
	code := pgtest.Main(m, "../../scripts/pg.sh")
	os.RemoveAll(dir)
	os.Exit(code)
}
