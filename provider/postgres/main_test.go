package postgres_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
)

// The tests need a PostgreSQL server. RELINK_TEST_POSTGRES names one (a
// DSN whose user may create databases; scripts/test.sh starts one with
// scripts/pg.sh); without it TestMain starts a throwaway one with
// scripts/pg.sh, which installs Debian's PostgreSQL when it can, and stops
// it after. Only when neither works do the tests that need a server skip,
// saying why, and fail instead when RELINK_REQUIRE_POSTGRES is set (as
// scripts/test.sh sets it where PostgreSQL could be installed).
var (
	serverDSN  string // the server's DSN, "" when there is none
	noServer   string // why there is none
	databaseID atomic.Int64
)

func TestMain(m *testing.M) {
	serverDSN = os.Getenv("RELINK_TEST_POSTGRES")
	stop := func() {}
	if serverDSN == "" {
		var err error
		serverDSN, stop, err = startServer()
		if err != nil {
			noServer = err.Error()
		}
	}
	code := m.Run()
	stop()
	os.Exit(code)
}

// startServer runs scripts/pg.sh start and returns the DSN it exports and
// the function that stops the server.
func startServer() (string, func(), error) {
	out, err := exec.Command("bash", "../../scripts/pg.sh", "start").Output()
	if err != nil {
		var msg string
		if ee, ok := err.(*exec.ExitError); ok {
			msg = strings.TrimSpace(string(ee.Stderr))
		}
		return "", func() {}, fmt.Errorf("scripts/pg.sh could not start PostgreSQL: %v %s", err, msg)
	}
	var dsn, dir string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := strings.TrimPrefix(sc.Text(), "export ")
		k, v, _ := strings.Cut(line, "=")
		v = strings.Trim(v, "'")
		switch k {
		case "RELINK_TEST_POSTGRES":
			dsn = v
		case "RELINK_PG_DIR":
			dir = v
		}
	}
	stop := func() { exec.Command("bash", "../../scripts/pg.sh", "stop", dir).Run() }
	if dsn == "" {
		stop()
		return "", func() {}, fmt.Errorf("scripts/pg.sh printed no DSN")
	}
	return dsn, stop, nil
}

// needServer skips t (or fails it, with RELINK_REQUIRE_POSTGRES set) when
// there is no server.
func needServer(t testing.TB) {
	t.Helper()
	if serverDSN != "" {
		return
	}
	if os.Getenv("RELINK_REQUIRE_POSTGRES") != "" {
		t.Fatalf("no PostgreSQL server and RELINK_REQUIRE_POSTGRES is set: %s", noServer)
	}
	t.Skipf("no PostgreSQL server (set RELINK_TEST_POSTGRES, or install PostgreSQL): %s", noServer)
}

// newDatabase creates an empty database for t, dropped when t ends, and
// returns its DSN.
func newDatabase(t testing.TB) string {
	t.Helper()
	needServer(t)
	ctx := context.Background()
	name := fmt.Sprintf("relink_test_%d_%d", os.Getpid(), databaseID.Add(1))
	admin, err := pgx.Connect(ctx, serverDSN)
	if err != nil {
		t.Fatalf("connect to the test server: %v", err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(ctx, serverDSN)
		if err != nil {
			t.Error(err)
			return
		}
		defer c.Close(ctx)
		if _, err := c.Exec(ctx, "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
			t.Error(err)
		}
	})
	u, err := url.Parse(serverDSN)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}
