package main

import (
	"os"
	"testing"

	"github.com/linkrot/relink/internal/pgtest"
)

// TestMain gives the tests of the PostgreSQL store a server (package
// internal/pgtest: RELINK_TEST_POSTGRES, or one scripts/pg.sh starts).
func TestMain(m *testing.M) {
	os.Exit(pgtest.Main(m, "../../scripts/pg.sh"))
}
