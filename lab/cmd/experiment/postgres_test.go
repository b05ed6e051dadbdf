package main

import (
	"context"
	"encoding/json"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linkrot/relink/internal/pgtest"
	"github.com/linkrot/relink/provider/postgres"
	"github.com/linkrot/relink/score"
)

// The PostgreSQL tests need a server: package internal/pgtest finds or
// starts one (scripts/pg.sh), or they skip saying why.
func TestMain(m *testing.M) {
	os.Exit(pgtest.Main(m, "../../../scripts/pg.sh"))
}

// readRuns reads the runs of the summary.json in dir.
func readRuns(t *testing.T, dir string) []score.Run {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum struct {
		Runs []score.Run `json:"runs"`
	}
	if err := json.Unmarshal(raw, &sum); err != nil {
		t.Fatal(err)
	}
	return sum.Runs
}

// ndcgTolerance is how far a mean nDCG on PostgreSQL may be from the
// SQLite store's on the same targets. The stores hold the same pages,
// links and document frequencies and rank by the same BM25, so that on
// the tea site every figure is equal; the package documentation of
// provider/postgres says where the rankings may part (tsvector's limits
// on positions, phrases scored word by word), which a larger corpus may
// meet, by a few thousandths of mean nDCG.
const ndcgTolerance = 1e-9

// TestRunPostgres runs the experiment, every mode, on PostgreSQL: the
// paper's store in the database the URL names, each mode's in a schema of
// its own, and gives the SQLite run's results on the same targets; no
// file and no line printed holds the URL's password.
func TestRunPostgres(t *testing.T) {
	dsn := pgtest.Database(t)
	manifest := writeManifest(t)
	sqliteOut := filepath.Join(t.TempDir(), "sqlite")
	runExperiment(t, "-corpus", manifest, "-store", filepath.Join(t.TempDir(), "tea.db"), "-targets", "2", "-seed", "1", "-out", sqliteOut)
	pgOut := filepath.Join(t.TempDir(), "postgres")
	stdout := runExperiment(t, "-corpus", manifest, "-store", dsn, "-targets", "2", "-seed", "1", "-out", pgOut)

	want, got := readRuns(t, sqliteOut), readRuns(t, pgOut)
	if len(got) != len(want) || len(got) == 0 {
		t.Fatalf("PostgreSQL run has %d runs, SQLite's %d", len(got), len(want))
	}
	modes := map[string]bool{}
	for i := range want {
		w, g := want[i], got[i]
		modes[g.Mode] = true
		if w.Method != g.Method || w.Terms != g.Terms || w.Mode != g.Mode || w.Targets != g.Targets {
			t.Fatalf("run %d: PostgreSQL %s/%d/%s, SQLite %s/%d/%s", i, g.Method, g.Terms, g.Mode, w.Method, w.Terms, w.Mode)
		}
		if math.Abs(w.MeanNDCG-g.MeanNDCG) > ndcgTolerance {
			t.Errorf("%s at %d terms, %s mode: mean nDCG %.4f on PostgreSQL, %.4f on SQLite", g.Method, g.Terms, g.Mode, g.MeanNDCG, w.MeanNDCG)
		}
	}
	for _, m := range allModes[1:] {
		if !modes[m] {
			t.Errorf("the PostgreSQL run has no run of the %s mode (modes %v)", m, modes)
		}
	}

	// Each mode's store is in its own schema beside the paper's.
	for _, m := range []string{"moved", "migrated", "edited"} {
		s, err := postgres.Open(context.Background(), postgres.DSN(dsn), &postgres.Options{ReadOnly: true, Schema: "public_" + m})
		if err != nil {
			t.Errorf("the %s mode's store: %v", m, err)
			continue
		}
		if n, err := s.Docs(context.Background()); err != nil || n == 0 {
			t.Errorf("the %s mode's store holds %d pages (%v)", m, n, err)
		}
		s.Close()
	}

	// The password is nowhere.
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	pw, ok := u.User.Password()
	if !ok || pw == "" {
		t.Skip("the test server's URL has no password to look for")
	}
	if strings.Contains(stdout, pw) {
		t.Errorf("stdout holds the password")
	}
	err = filepath.WalkDir(pgOut, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		raw, err := os.ReadFile(path)
		if err == nil && strings.Contains(string(raw), pw) {
			t.Errorf("%s holds the password", path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(pgOut, "versions.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), "command: experiment -corpus") || !strings.Contains(string(raw), "-store postgres://") {
		t.Errorf("versions.txt does not give the command line with the store's URL:\n%s", raw)
	}
	var lat struct {
		Backend string        `json:"backend"`
		Modes   []modeLatency `json:"modes"`
	}
	raw, err = os.ReadFile(filepath.Join(pgOut, "latency.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &lat); err != nil {
		t.Fatal(err)
	}
	if lat.Backend != "postgres" || len(lat.Modes) != len(allModes) || lat.Modes[0].Mode != "paper" || len(lat.Modes[0].Latency) != 2 {
		t.Errorf("latency.json = %s", raw)
	}
}

// TestRedactArgs: a PostgreSQL URL in the command line loses its password,
// as a flag's value and after "-flag=".
func TestRedactArgs(t *testing.T) {
	got := redactArgs([]string{"-store", "postgres://u:secret@h/db", "-store=postgresql://u:secret@h/db", "-out", "r", "x=postgres://u:secret@h/db"})
	for _, a := range got {
		if strings.Contains(a, "secret") && !strings.HasPrefix(a, "x=") {
			t.Errorf("redactArgs left the password in %q", a)
		}
	}
	if got[1] != "postgres://u:xxxxx@h/db" || got[2] != "-store=postgresql://u:xxxxx@h/db" || got[3] != "-out" {
		t.Errorf("redactArgs = %q", got)
	}
}
