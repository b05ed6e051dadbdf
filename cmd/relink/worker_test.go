package main

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/internal/pgtest"
	"github.com/linkrot/relink/provider/pgqueue"
)

// syncBuffer is a bytes.Buffer safe for concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startWorkers runs n relink worker processes in-process against dsn,
// with the extra flags, until the test ends.
func startWorkers(t *testing.T, dsn string, n int, extra ...string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range n {
		var stderr syncBuffer
		wg.Go(func() {
			code := runEnv(ctx, &env{stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &stderr},
				append([]string{"worker", "-store", dsn, "-concurrency", "2"}, extra...))
			if code != 0 {
				t.Errorf("relink worker: exit %d: %s", code, stderr.String())
			}
			if !strings.Contains(stderr.String(), "relink worker: stopped after") {
				t.Errorf("relink worker's stderr %q, want its last line", stderr.String())
			}
		})
	}
	t.Cleanup(func() { cancel(); wg.Wait() })
}

// TestFixQueue runs fix -queue with two workers over the fixture web in
// PostgreSQL: the results are the very results of a plain fix, in input
// order; fix killed after its first result and run again gets them all
// without queueing anything twice; and the workers' password-bearing
// URL is never printed.
func TestFixQueue(t *testing.T) {
	dsn := pgtest.Database(t)
	mustRun(t, "corpus", "-dir", "testdata/fixsite", "-base", "https://example.org/", "-store", dsn)
	plain, _ := fixResults(t, fixURLs, "-store", dsn)
	require.Len(t, plain, 5)

	// Fix is killed after its first result, before any worker runs the
	// rest: a worker starts, and fix is cancelled at once.
	ctx, cancel := context.WithCancel(context.Background())
	var stderr syncBuffer
	e := &env{stdin: strings.NewReader(fixURLs), stdout: &bytes.Buffer{}, stderr: &stderr, afterResult: func(int) { cancel() }}
	startWorkers(t, dsn, 2)
	if code := runEnv(ctx, e, []string{"fix", "-store", dsn, "-queue"}); code != exitFailure || !strings.Contains(stderr.String(), "interrupted") {
		t.Fatalf("fix -queue cancelled: exit %d, stderr %q; want 1, interrupted", code, stderr.String())
	}
	queued, out := fixResults(t, fixURLs, "-store", dsn, "-queue")
	if d := cmp.Diff(plain, queued); d != "" {
		t.Errorf("fix -queue differs from fix (-plain +queue):\n%s", d)
	}
	if !strings.Contains(out, "5 dead links,") || !strings.Contains(out, "queued now, ") {
		t.Errorf("fix -queue's stderr %q, want what it queued", out)
	}
	if p, _ := mustURL(t, dsn).User.Password(); p != "" && strings.Contains(out+stderr.String(), p) {
		t.Errorf("the password was printed: %q %q", out, stderr.String())
	}
	if n := pgtest.Int(t, dsn, `SELECT count(*) FROM `+pgqueue.Schema+`.river_job`); n != 5 {
		t.Errorf("%d jobs in the queue after two runs, want 5", n)
	}
	// A third run finds every result done and queues nothing.
	again, out := fixResults(t, fixURLs, "-store", dsn, "-queue")
	if d := cmp.Diff(plain, again); d != "" {
		t.Errorf("a third fix -queue differs (-plain +queue):\n%s", d)
	}
	if !strings.Contains(out, "5 done, 0 queued now") {
		t.Errorf("a third fix -queue's stderr %q, want all 5 done and none queued", out)
	}
	if n := pgtest.Int(t, dsn, `SELECT count(*) FROM `+pgqueue.Schema+`.river_job`); n != 5 {
		t.Errorf("%d jobs in the queue after three runs, want 5", n)
	}
}

// TestFixQueueLive runs fix -queue with live services (a web host and a
// search engine on loopback) and two workers: the verdicts are those of
// fix alone; the workers keep the services' answers in the database's
// records and their rate limits in its limits, so that another run over
// the same dead links, with other settings, sends far fewer requests.
func TestFixQueueLive(t *testing.T) {
	clearEnv(t)
	dsn := pgtest.Database(t)
	mustRun(t, "corpus", "-dir", "testdata/fixsite", "-base", "https://example.org/", "-store", dsn)
	srv, seen := liveFixSite(t)
	engine := newFakeSearch(t, "google")
	base := srv.URL + "/"
	in := base + "blog/first-loaf.html\t" + base + "guides/sourdough-starter.html\n" +
		base + "blog/first-loaf.html\t" + base + "guides/rye-bread.html\n" +
		base + "index.html\t" + base + "recipes/focaccia.html\n"
	live := []string{"-store", dsn, "-fetch", "web", "-allow-private", "-search", "google", "-search-url", engine.URL,
		"-df", "search", "-rate", "1000", "-concurrency", "1"}
	sent := func() int {
		n := int(engine.requests.Load())
		for _, v := range seen() {
			n += v
		}
		return n
	}
	plain, _ := fixResults(t, in, append(live, "-no-cache", "-key", "k", "-cx", "c")...)
	// What the workers may reach and where their keys go are theirs to
	// say, not the run's.
	startWorkers(t, dsn, 2, "-key", "k", "-cx", "c", "-allow-private", "-search-url", engine.URL)
	before := sent()
	queued, _ := fixResults(t, in, append(live, "-queue", "-key", "k", "-cx", "c")...)
	first := sent() - before
	if d := cmp.Diff(verdicts(plain), verdicts(queued)); d != "" {
		t.Errorf("fix -queue's verdicts differ from fix's (-plain +queue):\n%s", d)
	}
	kinds := pgtest.Int(t, dsn, `SELECT count(DISTINCT kind) FROM `+pgqueue.Schema+`.records WHERE kind IN ('page', 'search', 'df', 'robots')`)
	if kinds != 4 {
		t.Errorf("the records hold %d of the kinds page, search, df and robots, want all 4", kinds)
	}
	u := mustURL(t, engine.URL)
	for _, key := range []string{"service " + u.Host, "host 127.0.0.1"} {
		if pgtest.Int(t, dsn, `SELECT count(*) FROM `+pgqueue.Schema+`.limits WHERE key = $1`, key) != 1 {
			t.Errorf("no shared rate limit %q", key)
		}
	}
	before = sent()
	again, _ := fixResults(t, in, append(live, "-queue", "-key", "k", "-cx", "c", "-threshold", "0.51")...)
	second := sent() - before
	t.Logf("requests: first queued run %d, second %d", first, second)
	if first == 0 || second*4 > first {
		t.Errorf("requests: first queued run %d, second %d; want the second under a quarter of the first", first, second)
	}
	if len(again) != 3 {
		t.Errorf("the second run gave %d results, want 3", len(again))
	}
}

// TestQueueUsage refuses -queue without a PostgreSQL store and with
// -state, and worker without one.
func TestQueueUsage(t *testing.T) {
	for _, args := range [][]string{
		{"fix", "-queue", "-store", "some.db"},
		{"fix", "-queue", "-store", "postgres://db.example/web", "-state", "s.jsonl"},
		{"worker"},
		{"worker", "-store", "some.db"},
		{"worker", "-store", "postgres://db.example/web", "-concurrency", "0"},
		{"worker", "-store", "postgres://db.example/web", "-job-timeout", "0s"},
		{"worker", "-store", "postgres://db.example/web", "extra"},
		{"worker", "-store", "postgres://db.example/web", "-proxy", "socks5://127.0.0.1:1080"},
	} {
		r := runArgs(t, args...)
		if r.code != exitUsage {
			t.Errorf("relink %q: exit %d, want %d (%s)", args, r.code, exitUsage, r.stderr)
		}
		checkOneLine(t, r.stderr)
	}
}

// TestQueueSettings keeps out of the database what is the process's own
// (input, output, store, keys) and what is each worker's own (what its
// requests may reach, where its keys go), and keeps what the workers
// need.
func TestQueueSettings(t *testing.T) {
	fs, _ := fixFlags()
	require.NoError(t, fs.Parse([]string{"-store", "postgres://u:secret@db/web", "-queue", "-key", "k3y", "-threshold", "0.7",
		"-search", "brave", "-cache", "", "-out", "x.jsonl", "-backlinks-from", "store,mediawiki",
		"-allow-private", "-proxy", "http://127.0.0.1:3128", "-ca", "ca.pem", "-search-url", "http://127.0.0.1:1/",
		"-archive", "ccindex", "-archive-url", "http://127.0.0.1:2/", "-archive-data-url", "http://127.0.0.1:3/",
		"-mediawiki-api", "http://127.0.0.1:4/api.php"}))
	got, owned := queueSettings(fs)
	want := []string{"-archive=ccindex", "-backlinks-from=store,mediawiki", "-no-cache=true", "-search=brave", "-threshold=0.7"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("settings (-want +got):\n%s", d)
	}
	wantOwned := []string{"-allow-private", "-archive-data-url", "-archive-url", "-ca", "-mediawiki-api", "-proxy", "-search-url"}
	if d := cmp.Diff(wantOwned, owned); d != "" {
		t.Errorf("the worker's own (-want +got):\n%s", d)
	}
}
