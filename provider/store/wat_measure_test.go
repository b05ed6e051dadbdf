package store_test

import (
	"context"
	"database/sql"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/linkrot/relink/provider/store"
)

// watFile names a WAT file for TestMeasureIngestWAT, for example the
// synthetic one provider/commoncrawl's TestMeasureReader writes:
//
//	go test -run MeasureReader ./provider/commoncrawl -watfile /tmp/synthetic.wat.gz
//	go test -run MeasureIngestWAT -v ./provider/store -watfile /tmp/synthetic.wat.gz
//
// Without it the test skips.
var watFile = flag.String("watfile", "", "WAT file for TestMeasureIngestWAT")

// TestMeasureIngestWAT ingests the file into a new store and reports the
// rate, the peak resident size, the file's size and the latency of
// Backlinks on the targets with the most link sources.
func TestMeasureIngestWAT(t *testing.T) {
	if *watFile == "" {
		t.Skip("no -watfile")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "wat.db")
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	st, err := s.IngestWAT(ctx, []string{*watFile}, store.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d := st.Duration.Seconds()
	fi, err := os.Stat(*watFile)
	if err != nil {
		t.Fatal(err)
	}
	db, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("IngestWAT: %s", st)
	t.Logf("%.0f records/s, %.0f link sources/s, %.0f link records/s, %.1f MB/s of gzip input; store file %.0f MB; peak resident %s",
		float64(st.Records)/d, float64(st.Sources)/d, float64(st.Links)/d, float64(fi.Size())/1e6/d, float64(db.Size())/1e6, peakRSS())
	// A rerun finds the file unchanged by reading it once (its digest).
	again, err := s.IngestWAT(ctx, []string{*watFile}, store.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("rerun on the unchanged file: %s", again)

	// Backlinks of the targets with the most link sources.
	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	rows, err := raw.QueryContext(ctx, `SELECT u.uri, count(DISTINCT r.src) n FROM link_records r JOIN urls u ON u.id = r.dst
		GROUP BY r.dst ORDER BY n DESC LIMIT 200`)
	if err != nil {
		t.Fatal(err)
	}
	var targets []string
	for rows.Next() {
		var u string
		var n int
		if err := rows.Scan(&u, &n); err != nil {
			t.Fatal(err)
		}
		targets = append(targets, u)
	}
	rows.Close()
	start := time.Now()
	links := 0
	for _, u := range targets {
		bl, err := s.Backlinks(ctx, u, 100)
		if err != nil {
			t.Fatal(err)
		}
		links += len(bl)
	}
	t.Logf("Backlinks(limit 100) of the %d most linked targets: %.2f ms each, %d backlinks in all",
		len(targets), float64(time.Since(start).Microseconds())/1e3/float64(len(targets)), links)
}

// peakRSS returns the VmHWM line of /proc/self/status, or "unknown".
func peakRSS() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}
