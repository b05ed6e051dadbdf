package store_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/store"
)

// searchStore names a store to replay real queries against, e.g. the large
// corpus of lab/scripts/scale.sh:
//
//	go test -run '^$' -bench Search -benchtime 2000x ./provider/store -searchstore ~/.cache/relink/scale-large.db
//
// Without it BenchmarkSearchReplay skips.
var searchStore = flag.String("searchstore", "", "store for BenchmarkSearchReplay")

// searchQueries names the queries BenchmarkSearchReplay sends, one JSON
// object a line ({"terms": [...], "mode": 0, "phrase": false}). The default
// is every hundredth query the experiment sent to the large corpus's store
// (1000 of dev's targets, seed 1, the paper's mode; 101,646 distinct
// queries, every one with limit 1000).
var searchQueries = flag.String("searchqueries", filepath.Join("testdata", "search-queries.jsonl"), "queries for BenchmarkSearchReplay")

// BenchmarkSearchReplay sends the queries of -searchqueries in turn, each
// with limit MaxResults as the experiment does, to the store of
// -searchstore opened read-only without a query cache: one operation is
// one query, so ns/op is the mean time of a query, cpu-ns/op the mean
// process CPU time (user + system, steadier than ns/op on a shared
// machine), and results/op the mean number of results.
func BenchmarkSearchReplay(b *testing.B) {
	if *searchStore == "" {
		b.Skip("no -searchstore")
	}
	qs := store.ReadQueryFile(b, *searchQueries)
	s, err := store.Open(*searchStore, &store.Options{ReadOnly: true, QueryCache: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	results := 0
	cpu := cpuTime()
	for i := 0; b.Loop(); i++ {
		r, err := s.Search(ctx, qs[i%len(qs)], store.MaxResults)
		if err != nil {
			b.Fatal(err)
		}
		results += len(r)
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(results)/float64(b.N), "results/op")
}

// BenchmarkSearchPets sends conjunctive, disjunctive and phrase queries to
// the pet site's small store without a query cache, which needs no
// -searchstore.
func BenchmarkSearchPets(b *testing.B) {
	ctx := context.Background()
	site, err := petSite()
	if err != nil {
		b.Fatal(err)
	}
	defer os.RemoveAll(site)
	path := filepath.Join(b.TempDir(), "pets.db")
	s, err := store.Open(path, &store.Options{QueryCache: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if _, err := s.IngestDir(ctx, site, "https://pets.example/", store.IngestOptions{}); err != nil {
		b.Fatal(err)
	}
	qs := []lexsig.Query{
		{Terms: []string{"dogs"}},
		{Terms: []string{"dogs", "cats"}, Mode: lexsig.Disjunctive},
		{Terms: []string{"dogs", "bark"}, Phrase: true},
	}
	for i := 0; b.Loop(); i++ {
		if _, err := s.Search(ctx, qs[i%len(qs)], store.MaxResults); err != nil {
			b.Fatal(err)
		}
	}
}
