package store_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/linkrot/relink/provider/store"
)

// ingestManifests names corpus manifests for TestMeasureIngest, separated
// by commas; their sites are ingested together into one store (a site
// named twice is taken once), for example the development corpus, or it
// and the held-out corpora, about 13,000 pages:
//
//	go test -run MeasureIngest -v ./provider/store -ingest lab/corpus/dev.json
//	go test -run MeasureIngest -v -timeout 30m ./provider/store \
//		-ingest lab/corpus/dev.json,lab/corpus/holdout.json,lab/corpus/holdout2.json,lab/corpus/holdout3.json,lab/corpus/holdout4.json
//
// The paths are relative to provider/store when they are not absolute.
// The corpora's Debian packages must be installed
// (lab/scripts/install-corpus.sh). Without the flag the test skips.
var ingestManifests = flag.String("ingest", "", "comma-separated corpus manifests for TestMeasureIngest")

// ingestBatch sets IngestOptions.BatchSize for TestMeasureIngest.
var ingestBatch = flag.Int("ingestbatch", 0, "IngestOptions.BatchSize for TestMeasureIngest (0: the default)")

// TestMeasureIngest builds a new store from the -ingest manifests and
// reports the rate in pages and links a second, the CPU time a page takes
// (the wall time depends on what else the machine runs; the CPU time less
// so), the peak resident size and the store's size. It then ingests the
// same manifests again, which finds every file done.
func TestMeasureIngest(t *testing.T) {
	if *ingestManifests == "" {
		t.Skip("no -ingest")
	}
	m := &store.Manifest{Version: store.ManifestVersion}
	names := map[string]bool{}
	for _, p := range strings.Split(*ingestManifests, ",") {
		mp, err := store.ReadManifest(filepath.Join("..", "..", p))
		if filepath.IsAbs(p) || err != nil {
			mp, err = store.ReadManifest(p)
		}
		if err != nil {
			t.Fatal(err)
		}
		m.Name = strings.TrimPrefix(m.Name+"+"+mp.Name, "+")
		for _, s := range mp.Sites {
			if names[s.Name] {
				continue
			}
			for _, r := range s.Roots {
				if _, err := os.Stat(r.Dir); err != nil {
					t.Skipf("site %s of %s is not installed (lab/scripts/install-corpus.sh): %v", s.Name, p, err)
				}
			}
			names[s.Name] = true
			m.Sites = append(m.Sites, s)
		}
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ingest.db")
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cpu := cpuTime()
	st, err := s.IngestManifest(ctx, m, store.IngestOptions{BatchSize: *ingestBatch})
	if err != nil {
		t.Fatal(err)
	}
	cpu = cpuTime() - cpu
	d := st.Duration.Seconds()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s (%d sites): %s", m.Name, len(m.Sites), st)
	t.Logf("%.0f pages/s, %.0f links/s; CPU %.1fs (%.2f ms a page, %.1f of %d cores busy); peak resident %s; store file %.0f MB",
		float64(st.Pages)/d, float64(st.Links)/d, cpu.Seconds(), cpu.Seconds()*1e3/float64(st.Pages),
		cpu.Seconds()/d, runtime.NumCPU(), peakRSS(), float64(fi.Size())/1e6)

	start := time.Now()
	again, err := s.IngestManifest(ctx, m, store.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("again, every file done: %s (%.1fs)", again, time.Since(start).Seconds())
}
