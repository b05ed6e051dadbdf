// Package pgtest gives tests a PostgreSQL database of their own on a
// throwaway server. RELINK_TEST_POSTGRES names the server (a DSN whose
// user may create databases; scripts/test.sh starts one with
// scripts/pg.sh); without it Main starts one with scripts/pg.sh, which
// installs Debian's PostgreSQL when it can, and stops it when the tests
// end. Only when there is no server do the tests that need one skip,
// saying why, and they fail instead when RELINK_REQUIRE_POSTGRES is set (as
// scripts/test.sh sets it where a server could be started).
package pgtest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
)

var (
	server   = os.Getenv("RELINK_TEST_POSTGRES") // "" when there is none
	noServer = "RELINK_TEST_POSTGRES is not set" // why there is none
	created  atomic.Int64

	script    string // the pg.sh Main was given, "" for none
	startOnce sync.Once
	stop      = func() {}
)

// Main runs the tests of m with a server: the one RELINK_TEST_POSTGRES
// names, or one started, when the first test needs it, with the pg.sh
// script at the path pgsh (the repository's scripts/pg.sh, relative to the
// test's directory) and stopped when the tests end. It returns m.Run's
// exit code.
func Main(m *testing.M, pgsh string) int {
	script = pgsh
	defer func() { stop() }()
	return m.Run()
}

// start runs script start and returns the DSN it exports and the function
// that stops the server.
func start(script string) (string, func(), error) {
	none := func() {}
	out, err := exec.Command("bash", script, "start").Output()
	if err != nil {
		var ee *exec.ExitError
		msg := ""
		if errors.As(err, &ee) {
			msg = strings.TrimSpace(string(ee.Stderr))
		}
		return "", none, fmt.Errorf("%s could not start PostgreSQL: %v %s", script, err, msg)
	}
	var dsn, dir string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		k, v, _ := strings.Cut(strings.TrimPrefix(sc.Text(), "export "), "=")
		v = strings.Trim(v, "'")
		switch k {
		case "RELINK_TEST_POSTGRES":
			dsn = v
		case "RELINK_PG_DIR":
			dir = v
		}
	}
	stop := func() { exec.Command("bash", script, "stop", dir).Run() }
	if dsn == "" {
		stop()
		return "", none, fmt.Errorf("%s printed no DSN", script)
	}
	return dsn, stop, nil
}

// Need skips t, or fails it when RELINK_REQUIRE_POSTGRES is set, when
// there is no server.
func Need(t testing.TB) {
	t.Helper()
	startOnce.Do(func() {
		if server != "" || script == "" {
			return
		}
		var err error
		if server, stop, err = start(script); err != nil {
			noServer = err.Error()
		}
	})
	if server != "" {
		return
	}
	if os.Getenv("RELINK_REQUIRE_POSTGRES") != "" {
		t.Fatalf("no PostgreSQL server and RELINK_REQUIRE_POSTGRES is set: %s", noServer)
	}
	t.Skipf("no PostgreSQL server (set RELINK_TEST_POSTGRES, or install PostgreSQL): %s", noServer)
}

// Server returns the server's DSN, after Need.
func Server(t testing.TB) string {
	t.Helper()
	Need(t)
	return server
}

// Database creates an empty database for t on the server, dropped when t
// ends, and returns its DSN.
func Database(t testing.TB) string {
	t.Helper()
	Need(t)
	ctx := context.Background()
	name := fmt.Sprintf("relink_test_%d_%d", os.Getpid(), created.Add(1))
	exec := func(q string) error {
		c, err := pgx.Connect(ctx, server)
		if err != nil {
			return err
		}
		defer c.Close(ctx)
		_, err = c.Exec(ctx, q)
		return err
	}
	if err := exec("CREATE DATABASE " + name); err != nil {
		t.Fatalf("create a test database: %v", err)
	}
	t.Cleanup(func() {
		if err := exec("DROP DATABASE " + name + " WITH (FORCE)"); err != nil {
			t.Error(err)
		}
	})
	u, err := url.Parse(server)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// Int returns the integer the query sql (with args) answers in the
// database dsn, failing t on any error.
func Int(t testing.TB, dsn, sql string, args ...any) int {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var n int
	if err := c.QueryRow(ctx, sql, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}
