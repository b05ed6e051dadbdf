package store

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linkrot/relink/lexsig"
)

// postingsWeb writes a web of pages made of a small vocabulary, drawn so
// that word counts vary and many pages tie: ASCII words in mixed case,
// words with digits, and words that are not ASCII or not one word, which
// the postings do not answer but whose tokens count in every page's size.
func postingsWeb(t *testing.T, pages int) string {
	t.Helper()
	vocab := []string{"alpha", "Beta", "GAMMA", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
		"lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi",
		"omega", "x86", "2024", "v2", "naïve", "Straße", "don't", "e-mail", "señal", "café", "the", "a", "of"}
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func() string {
		// Zipf-like: the first words far more often than the last.
		return vocab[int(float64(len(vocab))*math.Pow(rng.Float64(), 2.5))]
	}
	dir := t.TempDir()
	for i := range pages {
		var title, body []string
		for range 1 + rng.IntN(4) {
			title = append(title, pick())
		}
		for range rng.IntN(120) {
			body = append(body, pick())
		}
		if i%7 == 0 {
			body = append(body, title...) // a few pages tie exactly
		}
		html := fmt.Sprintf("<!DOCTYPE html><html lang=\"en\"><head><title>%s</title></head><body><main><p>%s</p></main></body></html>",
			strings.Join(title, " "), strings.Join(body, " "))
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("p%03d.html", i)), []byte(html), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// postingsStore ingests a web of pages made by postingsWeb into a new
// writable store, closed at the test's end, and returns it with its path
// and the web's directory.
func postingsStore(t *testing.T, pages int) (w *Store, path, dir string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "web.db")
	w, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	dir = postingsWeb(t, pages)
	if _, err := w.IngestDir(context.Background(), dir, "https://example.org/", IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	return w, path, dir
}

// comparePostings sends queries to s by its postings and by FTS5 and
// fails on any difference, scores compared bit for bit.
func comparePostings(t *testing.T, s *Store, qs []lexsig.Query, limits []int) (answered int) {
	t.Helper()
	ctx := context.Background()
	x, err := s.postings(ctx)
	if err != nil || x == nil {
		t.Fatalf("the store's postings: %v, %v", x, err)
	}
	for i, q := range qs {
		toks, ok := handles(q)
		if !ok {
			continue
		}
		answered++
		limit := limits[i%len(limits)]
		got, err := x.search(ctx, toks, q.Mode, limit)
		if err != nil {
			t.Fatalf("%v: postings: %v", q, err)
		}
		want, err := s.rankFTS(ctx, matchExpr(q), limit)
		if err != nil {
			t.Fatalf("%v: fts5: %v", q, err)
		}
		if len(got) != len(want) {
			t.Fatalf("%v limit %d: %d results by the postings, %d by FTS5", q, limit, len(got), len(want))
		}
		for j := range got {
			g, w := got[j], want[j]
			if g.URI != w.URI || g.Title != w.Title || g.Rank != w.Rank || math.Float64bits(g.Score) != math.Float64bits(w.Score) {
				t.Fatalf("%v limit %d: result %d is %+v by the postings, %+v by FTS5", q, limit, j, g, w)
			}
		}
	}
	return answered
}

// postingsQueries returns n random queries of the words of postingsWeb,
// in other cases, with words no page holds and words the postings do not
// answer.
func postingsQueries(n int) []lexsig.Query {
	terms := []string{"alpha", "beta", "Gamma", "DELTA", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
		"lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi", "psi",
		"omega", "x86", "2024", "v2", "the", "a", "of", "absent", "naïve", "don't", "caf"}
	rng := rand.New(rand.NewPCG(3, 4))
	var qs []lexsig.Query
	for range n {
		q := lexsig.Query{Mode: lexsig.Mode(rng.IntN(2))}
		for range 1 + rng.IntN(5) {
			q.Terms = append(q.Terms, terms[rng.IntN(len(terms))])
		}
		qs = append(qs, q)
	}
	return qs
}

// smallPostings lets the test stores, smaller than minPostingsPages, make
// postings.
func smallPostings(t *testing.T) {
	old := minPostingsPages
	minPostingsPages = 0
	t.Cleanup(func() { minPostingsPages = old })
}

func TestPostingsAnswerAsFTS5(t *testing.T) {
	smallPostings(t)
	w, path, _ := postingsStore(t, 300)
	s, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	qs := postingsQueries(3000)
	limits := []int{1000, 1, 2, 3, 5, 10, 50}
	if answered := comparePostings(t, s, qs, limits); answered < 2000 {
		t.Errorf("the postings answered %d of %d queries", answered, len(qs))
	}
	// The writable store that made them answers from them too.
	comparePostings(t, w, qs[:300], limits)
}

// TestPostingsStale: postings made from another state of the full-text
// index (as after a write by a version that makes none) are not used,
// and the next ingest makes them again.
func TestPostingsStale(t *testing.T) {
	smallPostings(t)
	ctx := context.Background()
	w, path, dir := postingsStore(t, 40)
	q := lexsig.Query{Terms: []string{"alpha"}}
	want, err := w.Search(ctx, q, 10)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.write.Exec(`UPDATE meta SET value = 'ff' WHERE key = 'postings'`); err != nil {
		t.Fatal(err)
	}
	for _, ro := range []bool{false, true} {
		s := w
		if ro {
			if s, err = Open(path, &Options{ReadOnly: true, QueryCache: -1}); err != nil {
				t.Fatal(err)
			}
			defer s.Close()
		}
		if x, err := s.postings(ctx); x != nil || err != nil {
			t.Errorf("read-only %v: stale postings: index %v, error %v; want none", ro, x, err)
		}
		s.cache = nil
		got, err := s.Search(ctx, q, 10)
		if err != nil || len(got) == 0 || got[0] != want[0] {
			t.Errorf("read-only %v: Search with FTS5 = %v, %v; want %v", ro, got, err, want)
		}
	}
	if _, err := w.IngestDir(ctx, dir, "https://example.org/", IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if x, err := w.postings(ctx); x == nil || err != nil {
		t.Errorf("after another ingest: index %v, error %v; want the postings made again", x, err)
	}
}

// TestPostingsSmallStore: a store of fewer than minPostingsPages pages makes
// no postings and searches with FTS5.
func TestPostingsSmallStore(t *testing.T) {
	ctx := context.Background()
	w, _, _ := postingsStore(t, 40)
	if x, err := w.postings(ctx); x != nil || err != nil {
		t.Errorf("postings of 40 pages: %v, %v; want none", x, err)
	}
	if got, err := w.Search(ctx, lexsig.Query{Terms: []string{"alpha"}}, 5); err != nil || len(got) == 0 {
		t.Errorf("Search = %v, %v; want FTS5's answers", got, err)
	}
}

// TestPostingsAnswerAsFTS5OnStore compares the postings with FTS5 on the
// queries of -searchqueries against the store of -searchstore (see
// BenchmarkSearchReplay), when one is given.
func TestPostingsAnswerAsFTS5OnStore(t *testing.T) {
	path := flag.Lookup("searchstore").Value.String()
	if path == "" {
		t.Skip("no -searchstore")
	}
	s, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	qs := ReadQueryFile(t, flag.Lookup("searchqueries").Value.String())
	t.Logf("%d of %d queries answered by the postings, the same as by FTS5", comparePostings(t, s, qs, []int{MaxResults}), len(qs))
}

// ReadQueryFile reads the queries of path, one JSON object a line
// ({"terms": [...], "mode": 0, "phrase": false}).
func ReadQueryFile(tb testing.TB, path string) []lexsig.Query {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var qs []lexsig.Query
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var l struct {
			Terms  []string    `json:"terms"`
			Mode   lexsig.Mode `json:"mode"`
			Phrase bool        `json:"phrase"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			tb.Fatal(err)
		}
		qs = append(qs, lexsig.Query{Terms: l.Terms, Mode: l.Mode, Phrase: l.Phrase})
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	if len(qs) == 0 {
		tb.Fatalf("%s holds no query", path)
	}
	return qs
}

// TestPostingsCancelled: a search whose context is done while it reads a
// term's postings does not leave an error for the searches that wait for
// the same reading, nor a poisoned entry.
func TestPostingsCancelled(t *testing.T) {
	smallPostings(t)
	ctx := context.Background()
	_, path, _ := postingsStore(t, 40)
	s, err := Open(path, &Options{ReadOnly: true, QueryCache: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	done, cancel := context.WithCancel(ctx)
	cancel()
	x, err := s.postings(ctx)
	if err != nil || x == nil {
		t.Fatalf("postings: %v, %v", x, err)
	}
	if err := x.load(done); err != nil {
		t.Fatalf("load with a done context: %v", err)
	}
	if p, err := x.postings(done, "alpha"); err != nil || p == nil || p.docs == 0 {
		t.Errorf("postings of alpha with a done context = %v, %v; want them read", p, err)
	}
	q := lexsig.Query{Terms: []string{"alpha"}}
	if got, err := s.Search(ctx, q, 5); err != nil || len(got) == 0 {
		t.Errorf("Search after = %v, %v; want answers", got, err)
	}
}
