package pgqueue_test

import (
	"os"
	"testing"

	"github.com/linkrot/relink/internal/pgtest"
)

// The tests need a PostgreSQL server: package internal/pgtest finds or
// starts one (scripts/pg.sh), or the tests that need one skip.
func TestMain(m *testing.M) {
	os.Exit(pgtest.Main(m, "../../scripts/pg.sh"))
}
