package fixbench

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/lab/draw"
	"github.com/linkrot/relink/provider/store"
	"github.com/linkrot/relink/repair"
)

// ciCorpus is the CI corpus: four small Debian documentation packages
// (Flask, Werkzeug, Jinja, Click) that scripts/test.sh installs.
const ciCorpus = "../corpus/ci.json"

// ciTargets and ciDeleted are the moved and deleted pages of the test.
const (
	ciTargets = 16
	ciDeleted = 8
)

// ciStores builds the CI corpus's pre-move store and its moved-mode store
// (ciTargets targets drawn with seed 1) in dir, or skips the test when the
// corpus is not installed (fails it when RELINK_REQUIRE_CORPUS is set).
func ciStores(t *testing.T, dir string) (before, after string) {
	t.Helper()
	m, err := store.ReadManifest(ciCorpus)
	require.NoError(t, err)
	for _, site := range m.Sites {
		for _, r := range site.Roots {
			if _, err := os.Stat(r.Dir); err != nil {
				if os.Getenv("RELINK_REQUIRE_CORPUS") != "" {
					t.Fatalf("the CI corpus is not installed (%v): run bash scripts/test.sh as root", err)
				}
				t.Skipf("the CI corpus is not installed (%v); scripts/test.sh installs it as root", err)
			}
		}
	}
	ctx := context.Background()
	build := func(name string, moves map[string]string) string {
		path := filepath.Join(dir, name)
		s, err := store.Open(path, nil)
		require.NoError(t, err)
		_, err = s.IngestManifest(ctx, m, store.IngestOptions{Moves: moves})
		require.NoError(t, s.Close())
		require.NoError(t, err)
		return path
	}
	before = build("before.db", nil)
	s, err := store.Open(before, &store.Options{ReadOnly: true})
	require.NoError(t, err)
	targets, _, err := draw.Targets(ctx, s, ciTargets, 1)
	s.Close()
	require.NoError(t, err)
	var uris []string
	for _, tg := range targets {
		uris = append(uris, tg.URI)
	}
	return before, build("after.db", draw.Moves(uris))
}

// ciConfig builds relink and the CI corpus's stores in a directory of
// t's and returns the benchmark's configuration over them (ciTargets moved
// and ciDeleted deleted pages, seed 1), or skips t as ciStores does and
// in short mode.
func ciConfig(t *testing.T) Config {
	t.Helper()
	if testing.Short() {
		t.Skip("builds relink and two stores of a corpus")
	}
	dir := t.TempDir()
	before, after := ciStores(t, dir)
	bin, err := BuildRelink(context.Background(), filepath.Join("..", ".."), dir)
	require.NoError(t, err)
	work := filepath.Join(dir, "work")
	require.NoError(t, os.Mkdir(work, 0o755))
	return Config{Relink: bin, Before: before, After: after, Dir: work, Targets: ciTargets, Deleted: ciDeleted, Seed: 1, Log: testLog{t}}
}

// TestCorpusFix runs relink fix end to end on the CI corpus served by
// localweb: the live clients through the proxy, killed after a few dead
// links and resumed, then -store alone. Moved pages are found at their new
// URIs, deleted ones are not answered with a page, the resumed run sends
// nothing for the journaled dead links, and the calls the results count
// are the requests localweb answered. Then a docs tree linking to the
// moved pages is rewritten from the live run's journal.
func TestCorpusFix(t *testing.T) {
	ctx := context.Background()
	cfg := ciConfig(t)
	bin, work := cfg.Relink, cfg.Dir
	cfg.KillAfter = 5
	out, err := Run(ctx, cfg)
	require.NoError(t, err)
	s := Summarize("ci", cfg, out, nil, nil)
	t.Logf("live %+v\nstore %+v\nresume %+v", s.Live, s.Store, s.Resume)

	for _, f := range []struct {
		name string
		fig  Figures
	}{{"live", s.Live}, {"store", s.Store}} {
		if f.fig.Moved == 0 || f.fig.Deleted == 0 {
			t.Fatalf("%s: %d moved and %d deleted dead links, want both", f.name, f.fig.Moved, f.fig.Deleted)
		}
		if f.fig.Found < 0.5 || f.fig.Precision < 0.9 {
			t.Errorf("%s: found %.2f at precision %.2f, want most moved pages found, at their new URIs", f.name, f.fig.Found, f.fig.Precision)
		}
		if f.fig.FalseSuggestions > 0.25 {
			t.Errorf("%s: %.2f of the deleted pages answered with a page", f.name, f.fig.FalseSuggestions)
		}
		if f.fig.Verdicts["unknown"] > 0 || f.fig.Verdicts["missing"] > 0 || f.fig.Verdicts["alive"] > 0 {
			t.Errorf("%s: verdicts %v, want none unknown, alive or missing", f.name, f.fig.Verdicts)
		}
	}
	if s.Live.Calls.Fetch == 0 || s.Live.Calls.Search == 0 || s.Live.Calls.Archive == 0 {
		t.Errorf("live calls %+v, want pages, searches and archive reads", s.Live.Calls)
	}
	if s.Store.Calls != (repair.Calls{}) {
		t.Errorf("store calls %+v, want none", s.Store.Calls)
	}
	r := out.Resume
	switch {
	case r == nil || r.Journaled < cfg.KillAfter:
		t.Errorf("resume %+v, want at least %d dead links journaled before the kill", r, cfg.KillAfter)
	case r.RepeatedDead != 0 || r.ChangedJournaled != 0:
		t.Errorf("resume %+v: the rerun looked again for dead links the journal held", r)
	case r.SecondCalls != r.SecondRequests:
		t.Errorf("resume %+v: the rerun's requests are not the calls of the work it did", r)
	}

	rewriteDocs(t, bin, work, out)
}

// TestCorpusFixSite runs relink fix as a new user would, with no store,
// no key and no engine (issue 24): a lychee report of the CI corpus's
// moved and deleted pages, two of its four hosts publishing a dated
// sitemap and two not, every dead link's own site the index, -rate 20.
// Moved pages on the hosts with a sitemap are found at their new
// addresses (the moved mode's /relocated/ pages, which no page links to:
// a crawl reaches them through the sitemap alone), no deleted page is
// answered with a page, every answer is right, the calls per dead link
// with each host's crawl shared stay within issue 24's median, and no
// host receives more than the rate allows. Then the same dead links with
// localweb's Brave fused in: every moved page the site alone found is
// found, and some on the hosts without a sitemap besides.
func TestCorpusFixSite(t *testing.T) {
	ctx := context.Background()
	withMap := map[string]bool{"flask.palletsprojects.com": true, "jinja.palletsprojects.com": true}
	const rate = 20
	cfg := ciConfig(t)
	cfg.Engine, cfg.NoArchive, cfg.Rate, cfg.Sitemaps = SiteEngine, true, rate, func(h string) bool { return withMap[h] }
	out, err := Run(ctx, cfg)
	require.NoError(t, err)
	s := Summarize("ci", cfg, out, nil, nil)
	var md strings.Builder
	require.NoError(t, s.WriteMarkdown(&md))
	t.Log(md.String())

	if !slices.Contains(out.LiveArgs, "-search") || slices.Contains(out.LiveArgs, "-store") || slices.Contains(out.LiveArgs, "-key") || slices.Contains(out.LiveArgs, "-archive") {
		t.Fatalf("live run %q: want no store, no key, no archive", out.LiveArgs)
	}
	w, wo := s.WithSitemap, s.WithoutSitemap
	require.NotNil(t, w)
	if w.Moved == 0 || wo.Moved == 0 || s.Live.Deleted == 0 {
		t.Fatalf("%d moved pages on hosts with a sitemap, %d on hosts without, %d deleted: want some of each", w.Moved, wo.Moved, s.Live.Deleted)
	}
	if w.Found < GoalFound {
		t.Errorf("hosts with a sitemap: found %.2f (%d of %d), want at least %.2f", w.Found, w.Correct, w.Moved, GoalFound)
	}
	if s.Live.Precision < GoalSitePrecision || s.Live.FalseSuggestions > 0 {
		t.Errorf("precision %.2f, %.2f of the deleted pages answered with a page: want every answer right", s.Live.Precision, s.Live.FalseSuggestions)
	}
	if s.Live.Gone < GoalGone {
		t.Errorf("deleted pages answered gone: %.2f, want at least %.2f", s.Live.Gone, GoalGone)
	}
	if v := s.Live.Verdicts; v["unknown"] > 0 || v["missing"] > 0 || v["alive"] > 0 {
		t.Errorf("verdicts %v, want none unknown, alive or missing", v)
	}
	if s.Live.SharedMedianCalls > GoalSiteSharedCalls {
		t.Errorf("calls per dead link, each host's shared: median %g, want at most %d", s.Live.SharedMedianCalls, GoalSiteSharedCalls)
	}
	if s.Live.Calls.Search != 0 || s.Live.Calls.Archive != 0 {
		t.Errorf("live calls %+v: want no engine and no archive asked", s.Live.Calls)
	}
	checkHosts(t, out, s, rate)
	for h := range withMap {
		if out.Hosts[h].Requests == 0 {
			t.Errorf("%s received no request", h)
		}
	}

	// The same dead links with localweb's Brave fused in (relink fix
	// -search brave, no store): the engine, which indexes the whole web,
	// reaches the moved pages no crawl reaches on the hosts without a
	// sitemap, and loses none the site found.
	fused := cfg
	fused.Engine, fused.Dir = SiteEngine+"+brave", filepath.Join(cfg.Dir, "fused")
	require.NoError(t, os.Mkdir(fused.Dir, 0o755))
	fout, err := Run(ctx, fused)
	require.NoError(t, err)
	fs := Summarize("ci", fused, fout, nil, nil)
	md.Reset()
	require.NoError(t, fs.WriteMarkdown(&md))
	t.Log(md.String())
	if !slices.Contains(fout.LiveArgs, "brave") || slices.Contains(fout.LiveArgs, "-store") || slices.Contains(fout.LiveArgs, "-site-index=false") {
		t.Fatalf("fused run %q: want -search brave, no store, the site index on", fout.LiveArgs)
	}
	if !slices.EqualFunc(fout.Targets, out.Targets, func(a, b Target) bool { return a.Dead == b.Dead }) {
		t.Fatal("the fused run's dead links are not the site-only run's")
	}
	lost := 0
	for i, r := range out.Live {
		if tg := out.Targets[i]; !tg.Deleted() && r.URI == tg.Moved && fout.Live[i].URI != tg.Moved {
			lost++
		}
	}
	fw, fwo := fs.WithSitemap, fs.WithoutSitemap
	t.Logf("found: site alone %d (%d with a sitemap, %d without), fused %d (%d, %d); lost %d", s.Live.Correct, w.Correct, wo.Correct, fs.Live.Correct, fw.Correct, fwo.Correct, lost)
	if lost > 0 || fs.Live.Correct < s.Live.Correct {
		t.Errorf("fused: found %d, %d of them lost that the site alone found (%d); want none lost", fs.Live.Correct, lost, s.Live.Correct)
	}
	if fwo.Correct <= wo.Correct {
		t.Errorf("hosts without a sitemap: fused found %d of %d, the site alone %d; want the engine to add some", fwo.Correct, fwo.Moved, wo.Correct)
	}
	if fs.Live.Precision < GoalSitePrecision || fs.Live.Gone < GoalGone {
		t.Errorf("fused: precision %.2f, deleted pages gone %.2f; want at least %.2f and %.2f", fs.Live.Precision, fs.Live.Gone, GoalSitePrecision, GoalGone)
	}
	if v := fs.Live.Verdicts; v["unknown"] > 0 || v["missing"] > 0 || v["alive"] > 0 {
		t.Errorf("fused verdicts %v, want none unknown, alive or missing", v)
	}
	if fs.Live.Calls.Search == 0 || fs.Live.Calls.Search != fout.Served["brave"] {
		t.Errorf("fused: %d searches counted, Brave answered %d; want the same, some", fs.Live.Calls.Search, fout.Served["brave"])
	}
	checkHosts(t, fout, fs, rate)
}

// checkHosts checks the requests each host received in a live run: within
// the rate, and counted by the results (each request is some dead link's
// call).
func checkHosts(t *testing.T, out *Outcome, s *Summary, rate int) {
	t.Helper()
	sum := 0
	for h, l := range out.Hosts {
		if l.MaxPerSecond > rate+1 {
			t.Errorf("%s received %d requests within a second, over -rate %d", h, l.MaxPerSecond, rate)
		}
		sum += l.Requests
	}
	if sum != s.Live.Calls.Fetch {
		t.Errorf("the hosts received %d requests, the results count %d fetches", sum, s.Live.Calls.Fetch)
	}
}

// rewriteDocs makes a docs tree linking to the moved pages (absolute
// links with a fragment, and a root-relative link on the site the tree is
// served at) and to a deleted page, rewrites it with relink fix -rewrite
// from the live run's journal (-state: nothing is looked for again), and
// checks the diff and the files written, byte for byte.
func rewriteDocs(t *testing.T, bin, work string, out *Outcome) {
	t.Helper()
	found := map[string]string{} // dead -> the live run's moved URI
	for _, r := range out.Live {
		if r.Verdict == repair.Moved {
			found[r.Dead] = r.URI
		}
	}
	var moved, gone []Target
	for _, tg := range out.Targets {
		switch {
		case !tg.Deleted() && found[tg.Dead] == tg.Moved:
			moved = append(moved, tg)
		case tg.Deleted() && found[tg.Dead] == "":
			gone = append(gone, tg)
		}
	}
	if len(moved) < 2 || len(gone) < 1 {
		t.Fatalf("%d moved pages found and %d deleted pages gone: too few to rewrite", len(moved), len(gone))
	}
	a, b := moved[0], moved[1]
	bu, err := url.Parse(b.Dead)
	require.NoError(t, err)
	nu, err := url.Parse(b.Moved)
	require.NoError(t, err)
	base := bu.Scheme + "://" + bu.Host + "/"
	docs := filepath.Join(work, "docs")
	require.NoError(t, os.MkdirAll(filepath.Join(docs, "guide"), 0o755))
	oldIndex := fmt.Sprintf("# Notes\r\n\r\nRead [the first page](%s#usage) and <%s>.\r\nAlso [a page](%s) and [a removed page](%s).\r\n",
		a.Dead, a.Dead, bu.Path, gone[0].Dead)
	newIndex := fmt.Sprintf("# Notes\r\n\r\nRead [the first page](%s#usage) and <%s>.\r\nAlso [a page](%s) and [a removed page](%s).\r\n",
		a.Moved, a.Moved, nu.Path, gone[0].Dead)
	oldGuide := fmt.Sprintf("Unchanged line.\n\nSee [it](%s \"title\").\n", b.Dead)
	newGuide := fmt.Sprintf("Unchanged line.\n\nSee [it](%s \"title\").\n", b.Moved)
	index, guide := filepath.Join(docs, "index.md"), filepath.Join(docs, "guide", "page.md")
	require.NoError(t, os.WriteFile(index, []byte(oldIndex), 0o644))
	require.NoError(t, os.WriteFile(guide, []byte(oldGuide), 0o600))

	args := []string{"fix", "-in", filepath.Join(work, "lychee.json"), "-state", filepath.Join(work, "live.state"), "-store", out.WebStore,
		"-rewrite", docs, "-base", base, "-out", filepath.Join(work, "rewrite.jsonl")}
	diff := relinkOut(t, bin, args...)
	var changed []string
	for _, l := range strings.Split(diff, "\n") {
		if (strings.HasPrefix(l, "-") || strings.HasPrefix(l, "+")) && !strings.HasPrefix(l, "---") && !strings.HasPrefix(l, "+++") {
			changed = append(changed, strings.TrimSuffix(l, "\r"))
		}
	}
	oldLines, newLines := strings.Split(oldIndex, "\r\n"), strings.Split(newIndex, "\r\n")
	want := []string{"-" + oldLines[2], "-" + oldLines[3], "+" + newLines[2], "+" + newLines[3],
		"-" + strings.Split(oldGuide, "\n")[2], "+" + strings.Split(newGuide, "\n")[2]}
	slices.Sort(want)
	slices.Sort(changed)
	if !slices.Equal(changed, want) {
		t.Errorf("diff changes\n%s\nwant\n%s\nwhole diff:\n%s", strings.Join(changed, "\n"), strings.Join(want, "\n"), diff)
	}
	for _, f := range []struct{ path, want string }{{index, oldIndex}, {guide, oldGuide}} {
		if got, _ := os.ReadFile(f.path); string(got) != f.want {
			t.Errorf("%s changed without -write", f.path)
		}
	}
	relinkOut(t, bin, append(args, "-write")...)
	for _, f := range []struct {
		path, want string
		mode       os.FileMode
	}{{index, newIndex, 0o644}, {guide, newGuide, 0o600}} {
		got, err := os.ReadFile(f.path)
		require.NoError(t, err)
		if string(got) != f.want {
			t.Errorf("%s after -write:\n%q\nwant\n%q", f.path, got, f.want)
		}
		if fi, err := os.Stat(f.path); err != nil || fi.Mode().Perm() != f.mode {
			t.Errorf("%s: mode %v (%v), want %v kept", f.path, fi.Mode().Perm(), err, f.mode)
		}
	}
}

// relinkOut runs the relink binary and returns its standard output; a
// failure fails the test.
func relinkOut(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = benchEnv()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("relink %q: %v\n%s", args, err, stderr.String())
	}
	if !strings.Contains(stderr.String(), " from -state)") {
		t.Errorf("relink %q looked for dead links again: %s", args, stderr.String())
	}
	return string(b)
}

// testLog writes the benchmark's progress to the test's log.
type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

// TestReadExperiment reads the default method's answers, or a named
// method's, from a summary.json, and refuses one without them.
func TestReadExperiment(t *testing.T) {
	path := filepath.Join(t.TempDir(), "summary.json")
	summary := `{"runs": [
 {"method": "1-anchor-10", "mode": "moved", "answer": {"answered": 0.5, "correct": 0.5}},
 {"method": "moved-link+rerank", "mode": "moved", "default": true, "answer": {"answered": 0.8, "correct": 0.76}},
 {"method": "moved-link+rerank", "mode": "deleted", "default": true, "answer": {"answered": 0.02, "correct": 0}},
 {"method": "moved-link+rerank+archive-check", "mode": "moved", "answer": {"answered": 0.9, "correct": 0.9}},
 {"method": "moved-link+rerank+archive-check", "mode": "deleted", "answer": {"answered": 0.01, "correct": 0}}
]}`
	if err := os.WriteFile(path, []byte(summary), 0o644); err != nil {
		t.Fatal(err)
	}
	def, err := ReadExperiment(path, "")
	if err != nil {
		t.Fatal(err)
	}
	if want := (Experiment{Method: "moved-link+rerank", Found: 0.76, Precision: 0.95, FalseSuggestions: 0.02}); *def != want {
		t.Errorf("default: %+v, want %+v", *def, want)
	}
	arch, err := ReadExperiment(path, "moved-link+rerank+archive-check")
	if err != nil {
		t.Fatal(err)
	}
	if want := (Experiment{Method: "moved-link+rerank+archive-check", Found: 0.9, Precision: 1, FalseSuggestions: 0.01}); *arch != want {
		t.Errorf("archive-check: %+v, want %+v", *arch, want)
	}
	if _, err := ReadExperiment(path, "paper"); err == nil {
		t.Error("a method the experiment did not run: no error")
	}
}
