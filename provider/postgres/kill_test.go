package postgres_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/internal/pgtest"
	"github.com/linkrot/relink/provider/corpus"
	"github.com/linkrot/relink/provider/internal/ingest/fixture"
	"github.com/linkrot/relink/provider/postgres"
)

// childEnv switches the test binary into TestHelperProcess's role.
const childEnv = "RELINK_POSTGRES_CHILD"

// TestHelperProcess is not a test: run by TestKilledIngest with childEnv
// set to "DSN ROOT", it ingests the fixture web copied to ROOT into the
// database at DSN, two files a transaction, and after the fifth file, with
// a transaction open, prints "ready" and waits to be killed.
func TestHelperProcess(t *testing.T) {
	role := os.Getenv(childEnv)
	if role == "" {
		return
	}
	dsn, root, _ := strings.Cut(role, " ")
	ctx := context.Background()
	s, err := postgres.Open(ctx, postgres.DSN(dsn), nil)
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	m, err := corpus.ParseManifest(bytes.NewReader(fixture.ManifestJSON(root)))
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}
	_, err = s.IngestManifest(ctx, m, corpus.IngestOptions{Workers: 1, BatchSize: 2, Progress: func(p corpus.Progress) {
		if p.Files == 5 {
			fmt.Println("ready")
			select {} // killed here, in the middle of a batch
		}
	}})
	fmt.Println("ingest ended:", err)
	os.Exit(1)
}

// TestKilledIngest kills an ingesting process (SIGKILL, in the middle of a
// batch) and checks that readers refuse the store as an ingest that did
// not finish, that what was committed stands, and that running the ingest
// again finishes the store with every page once.
func TestKilledIngest(t *testing.T) {
	dsn := pgtest.Database(t)
	root := fixture.Web(t, "../store/testdata/web")
	exe, err := os.Executable()
	require.NoError(t, err)
	cmd := exec.Command(exe, "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), childEnv+"="+dsn+" "+root)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || strings.TrimSpace(line) != "ready" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the child said %q, %v", line, err)
	}
	require.NoError(t, cmd.Process.Kill())
	cmd.Wait()

	// The killed process's session ends when its server process sees the
	// connection closed; until then its ingest reads as running.
	ctx := context.Background()
	waitSessions(t, dsn)
	_, err = postgres.Open(ctx, postgres.DSN(dsn), &postgres.Options{ReadOnly: true})
	require.ErrorIs(t, err, postgres.ErrIncomplete)
	require.ErrorContains(t, err, "did not finish")

	s, err := postgres.Open(ctx, postgres.DSN(dsn), nil)
	require.NoError(t, err)
	defer s.Close()
	before, err := s.Totals(ctx)
	require.NoError(t, err)
	if before.Pages == 0 {
		t.Errorf("the killed ingest committed no page: %v", before)
	}
	m, err := corpus.ParseManifest(bytes.NewReader(fixture.ManifestJSON(root)))
	require.NoError(t, err)
	st, err := s.IngestManifest(ctx, m, corpus.IngestOptions{})
	require.NoError(t, err)
	if st.Resumed == 0 || st.Skipped[corpus.ReasonDuplicate] != 0 {
		t.Errorf("the rerun: %v, want files resumed and no duplicates", st)
	}
	require.NoError(t, s.CheckComplete(ctx))
	after, err := s.Totals(ctx)
	require.NoError(t, err)
	docs, err := s.Docs(ctx)
	require.NoError(t, err)
	if docs != int64(after.Pages) || after.Pages <= before.Pages {
		t.Errorf("after the rerun: %d pages, Docs %d; before it %d pages", after.Pages, docs, before.Pages)
	}
}

// waitSessions waits until no session but the caller's is connected to
// the database at dsn.
func waitSessions(t *testing.T, dsn string) {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer c.Close(ctx)
	for range 600 {
		var n int
		require.NoError(t, c.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND pid <> pg_backend_pid()`).Scan(&n))
		if n == 0 {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the killed process's session did not end")
}
