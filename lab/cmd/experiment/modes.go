package main

import (
	"context"
	"crypto/sha256"
	"fmt"
	"html"
	"io"
	"math/rand/v2"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lab/draw"
	"github.com/linkrot/relink/lab/eval"
	"github.com/linkrot/relink/lab/internal/ingestbar"
	"github.com/linkrot/relink/provider/store"
)

// The evaluation modes besides the paper's (BENCHMARK.md, "mode").
const (
	modeMoved    = "moved"
	modeMigrated = "migrated"
	modeEdited   = "edited"
	modeDeleted  = "deleted"
)

// allModes are the modes -modes accepts, in the order they run.
var allModes = []string{"paper", modeMoved, modeMigrated, modeEdited, modeDeleted}

// modeTitles describe the modes in headings.
var modeTitles = map[string]string{
	modeMoved:    "moved (the page has a new URI)",
	modeMigrated: "migrated (half the sites moved by a rule; backlink pages of a moved site are gone but archived)",
	modeEdited:   "edited (the page has a new URI and edited text)",
	modeDeleted:  "deleted (the page is gone: the right answer is not found)",
}

// modeRun is one evaluation mode's outcome.
type modeRun struct {
	name string
	// targets are the mode's own targets, or nil when they are the paper
	// mode's (every mode but migrated).
	targets []target
	report  *eval.Report
	// ingest is the time building the mode's store took, grid the time
	// its evaluation took.
	ingest, grid time.Duration
	// latency is the latency of the mode's searches.
	latency []latency
}

// evaluate runs ev with a progress bar and records it as mode name.
func evaluate(ctx context.Context, name string, ev eval.Evaluation, stderr io.Writer) (*modeRun, error) {
	bar := newProgress(stderr, len(ev.Targets))
	ev.Progress = bar.update
	searches := timeSearches(ev.Searcher)
	ev.Searcher = searches
	start := time.Now()
	rep, err := eval.Evaluate(ctx, ev)
	bar.finish()
	if err != nil {
		return nil, fmt.Errorf("%s mode: %w", name, err)
	}
	return &modeRun{name: name, report: rep, grid: time.Since(start), latency: searches.summary()}, nil
}

// buildStore builds the store of a mode beside the paper mode's, from
// scratch: in a file whose name is the paper store's with the mode's name
// as suffix, or in a PostgreSQL schema named after the paper store's and
// the mode (labStore.fresh).
func buildStore(ctx context.Context, paper labStore, m *store.Manifest, name string, opts store.IngestOptions, stderr io.Writer) (labStore, time.Duration, error) {
	s, path, err := paper.fresh(ctx, name)
	if err != nil {
		return nil, 0, err
	}
	start := time.Now()
	p := ingestbar.New(stderr, "experiment: "+name+" store")
	opts.Progress = p.Update
	_, err = s.IngestManifest(ctx, m, opts)
	p.Finish()
	if err != nil {
		s.Close()
		return nil, 0, fmt.Errorf("building %s: %w", path, err)
	}
	return s, time.Since(start), nil
}

// runDeleted runs ev again in the deleted mode: each target is gone from
// the web and from the index, and the right answer is "not found". The
// store of the paper's mode serves: the Finder's defaults leave the missing
// URI out of the candidates, so the page is in no answer, as if no index
// held it (its words still count in document frequencies, a difference of
// one page in thousands). No candidate is the page: every rank is 0, and
// an answer whose confidence reaches the threshold is a false suggestion.
func runDeleted(ctx context.Context, ev eval.Evaluation, web filter.Fetcher, stderr io.Writer) (*modeRun, error) {
	ev.LeaveOutMissing, ev.LeaveOutBacklinks = true, true
	ev.Answer = func(string) string { return "" } // never found
	run, err := evaluate(ctx, modeDeleted, ev, stderr)
	if err != nil {
		return nil, err
	}
	return run, addURLRules(ctx, run, ev.Targets, ev.Answer, web, ev.Threshold)
}

// runMoved runs ev again in the moved mode: a second store is built from
// the manifest with every target published at a new URI (draw.MovedURI), and a
// target is found when its new URI is. With edit, the mode is "edited":
// each target's text is also changed as editEdits says.
func runMoved(ctx context.Context, cfg *config, m *store.Manifest, paper labStore, ev eval.Evaluation, edit bool, stderr io.Writer) (*modeRun, error) {
	moves := draw.Moves(ev.Targets)
	name, opts := modeMoved, store.IngestOptions{Moves: moves}
	if edit {
		e, err := newEditor(ctx, paper, ev.Targets, cfg.seed)
		if err != nil {
			return nil, err
		}
		name, opts.Edit = modeEdited, e.edit
	}
	ms, took, err := buildStore(ctx, paper, m, name, opts, stderr)
	if err != nil {
		return nil, err
	}
	defer ms.Close()
	ev.Missing, ev.DF, ev.Searcher = views(ms), ms, ms
	// A moved page is found as a user finds it: the Finder's defaults
	// leave the old URI and the backlink pages out of the candidates.
	ev.LeaveOutMissing, ev.LeaveOutBacklinks = true, true
	ev.Answer = func(t string) string { return moves[t] }
	run, err := evaluate(ctx, name, ev, stderr)
	if err != nil {
		return nil, err
	}
	run.ingest = took
	return run, addURLRules(ctx, run, ev.Targets, ev.Answer, ms, ev.Threshold)
}

// runMigrated runs the migrated mode: half of the manifest's sites move,
// each by one rule (planMigrations), and targets are drawn from their
// pages. The link index is the paper's store as it was before the move
// (its backlinks list the moved sites' own pages at their old URIs), the
// web that is fetched and searched is a store built with the migrations,
// where every old URI of a moved site answers 404, and the archive is the
// web before the move: a method that reads archived copies of backlink
// pages (relink.Needs.ArchivedBacklinks) gets the moved site's old pages
// back; the paper's method, fetching live, finds them gone.
func runMigrated(ctx context.Context, cfg *config, m *store.Manifest, paper labStore, ev eval.Evaluation, stderr io.Writer) (*modeRun, []migrationPlan, error) {
	plans, err := planMigrations(ctx, m, paper, cfg.seed)
	if err != nil {
		return nil, nil, err
	}
	moves := map[string]string{}
	var migrations []store.Migration
	var sites []string
	for _, p := range plans {
		migrations = append(migrations, p.pages)
		sites = append(sites, p.site)
		for from, to := range p.pages {
			moves[from] = to
		}
	}
	targets, _, err := draw.TargetsOf(ctx, paper, cfg.targets, cfg.seed, func(p store.PageInfo) bool {
		_, ok := moves[p.URI]
		return ok
	})
	if err != nil {
		return nil, nil, fmt.Errorf("migrated mode (sites %s): %w", strings.Join(sites, ", "), err)
	}
	ms, took, err := buildStore(ctx, paper, m, modeMigrated, store.IngestOptions{Migrations: migrations}, stderr)
	if err != nil {
		return nil, nil, err
	}
	defer ms.Close()
	ev.Targets = make([]string, len(targets))
	for i, t := range targets {
		ev.Targets[i] = t.URI
	}
	ev.Missing = func(t string) eval.View {
		return eval.View{Backlinks: paper.WithMissing(t), Fetcher: ms}
	}
	ev.DF, ev.Searcher = ms, ms
	ev.Archive = func(ctx context.Context, uri string) (*filter.Page, error) { return paper.Fetch(ctx, uri) }
	ev.LeaveOutMissing, ev.LeaveOutBacklinks = true, true
	ev.Answer = func(t string) string { return moves[t] }
	run, err := evaluate(ctx, modeMigrated, ev, stderr)
	if err != nil {
		return nil, nil, err
	}
	run.ingest, run.targets = took, targets
	return run, plans, addURLRules(ctx, run, ev.Targets, ev.Answer, ms, ev.Threshold)
}

// The rules by which the migrated mode moves a site, as real sites move
// (BENCHMARK.md, "migrated").
const (
	// ruleHost moves the site to a new host, paths kept.
	ruleHost = "host"
	// ruleVersion replaces a version segment of the site's base path:
	// "/3.11/" becomes "/3/" (the major version), a segment without a dot
	// ("/12/") becomes "/stable/".
	ruleVersion = "version"
	// ruleStyle serves the pages of a site whose files map to their names
	// ("a/b.html") at directories ("a/b/"), as a Sphinx site rebuilt with
	// dirhtml is.
	ruleStyle = "style"
	// rulePrefix renames the first segment of the site's base path ("doc"
	// becomes "docs", any other "docs"), or adds "docs/" to a site at the
	// root of its host.
	rulePrefix = "prefix"
)

// migrationPlan is how the migrated mode moves one site.
type migrationPlan struct {
	site string
	rule string
	// pages maps the old canonical URI of every page of the site to its
	// new one; pages whose new URI would collide with another's stay.
	pages store.Migration
}

// versionSegment matches a path segment that names a version.
var versionSegment = regexp.MustCompile(`^v?[0-9]+(\.[0-9]+)*$`)

// planMigrations draws, with seed, half of m's sites (at least one) and a
// rule for each among those that apply to it, and maps every page of each
// drawn site in s to its new URI.
func planMigrations(ctx context.Context, m *store.Manifest, s draw.Pager, seed uint64) ([]migrationPlan, error) {
	names := make([]string, len(m.Sites))
	bySite := map[string]store.Site{}
	for i, site := range m.Sites {
		names[i] = site.Name
		bySite[site.Name] = site
	}
	slices.Sort(names)
	r := rand.New(rand.NewPCG(seed, 2))
	perm := r.Perm(len(names))
	n := max(1, len(names)/2)
	var plans []migrationPlan
	for _, i := range perm[:n] {
		site := bySite[names[i]]
		rules := []string{ruleHost, rulePrefix}
		if slices.ContainsFunc(site.Roots, func(rt store.Root) bool { return versionOf(rt.Base) >= 0 }) {
			rules = append(rules, ruleVersion)
		}
		if slices.ContainsFunc(site.Roots, func(rt store.Root) bool { return rt.Style != store.StyleDir }) {
			rules = append(rules, ruleStyle)
		}
		plans = append(plans, migrationPlan{site: site.Name, rule: rules[r.IntN(len(rules))], pages: store.Migration{}})
	}
	slices.SortFunc(plans, func(a, b migrationPlan) int { return strings.Compare(a.site, b.site) })
	index := map[string]int{}
	for i, p := range plans {
		index[p.site] = i
	}
	taken := map[string]bool{}
	var pages []store.PageInfo
	for p, err := range s.Pages(ctx) {
		if err != nil {
			return nil, err
		}
		taken[p.URI] = true
		if _, ok := index[p.Site]; ok {
			pages = append(pages, p)
		}
	}
	slices.SortFunc(pages, func(a, b store.PageInfo) int { return strings.Compare(a.URI, b.URI) })
	for _, p := range pages {
		plan := &plans[index[p.Site]]
		to, err := migrate(p.URI, plan.rule, plan.site, bySite[p.Site])
		if err != nil || to == p.URI || taken[to] {
			continue // a page the rule cannot move stays
		}
		taken[to] = true
		plan.pages[p.URI] = to
	}
	return plans, nil
}

// versionOf returns the index of the version segment in base's path, or -1.
func versionOf(base string) int {
	u, err := url.Parse(base)
	if err != nil {
		return -1
	}
	for i, seg := range strings.Split(strings.Trim(u.Path, "/"), "/") {
		if versionSegment.MatchString(seg) {
			return i
		}
	}
	return -1
}

// migrate returns the new URI of the page at uri (canonical) of site under
// rule.
func migrate(uri, rule, name string, site store.Site) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", err
	}
	// The root whose base the page is under decides the base path.
	var base *url.URL
	var root store.Root
	for _, rt := range site.Roots {
		b, err := url.Parse(rt.Base)
		if err != nil || !strings.EqualFold(b.Host, u.Host) {
			continue
		}
		bp := strings.TrimSuffix(b.Path, "/")
		if (u.Path == bp || strings.HasPrefix(u.Path, bp+"/")) && (base == nil || len(bp) > len(base.Path)) {
			b.Path = bp
			base, root = b, rt
		}
	}
	if base == nil {
		return "", fmt.Errorf("%s is under no root of site %s", uri, name)
	}
	rest := strings.TrimPrefix(u.Path, base.Path)
	segs := strings.Split(strings.Trim(base.Path, "/"), "/")
	if segs[0] == "" {
		segs = nil
	}
	switch rule {
	case ruleHost:
		u.Host = strings.NewReplacer("_", "-", ".", "-").Replace(strings.ToLower(name)) + ".docs.example.org"
	case ruleVersion:
		i := versionOf(root.Base)
		if i < 0 || i >= len(segs) {
			return "", fmt.Errorf("no version segment in %s", root.Base)
		}
		if major, _, ok := strings.Cut(segs[i], "."); ok {
			segs[i] = major
		} else {
			segs[i] = "stable"
		}
	case ruleStyle:
		if root.Style == store.StyleDir || !strings.HasSuffix(rest, ".html") {
			return "", fmt.Errorf("%s is no file-style page", uri)
		}
		rest = strings.TrimSuffix(rest, ".html") + "/"
	case rulePrefix:
		switch {
		case len(segs) == 0:
			segs = []string{"docs"}
		case segs[0] == "doc":
			segs[0] = "docs"
		case segs[0] == "docs":
			segs[0] = "documentation"
		default:
			segs[0] = "docs"
		}
	default:
		return "", fmt.Errorf("unknown rule %q", rule)
	}
	u.Path = "/" + strings.Join(segs, "/") + rest
	if len(segs) == 0 {
		u.Path = rest
	}
	u.RawPath = ""
	return u.String(), nil
}

// editor changes the text of the edited mode's targets as real edits
// change a page that moves (BENCHMARK.md, "edited"), mechanically, with
// the seed:
//
//   - the title loses its site suffix (the part after the last " — ",
//     " – ", " - ", " | ", " :: " or " » "), or the suffix changes: its
//     words with digits (a version) go, or, when it has none, it becomes
//     the site's name followed by "docs"; and a title of three words or
//     more, suffix aside, loses one word;
//   - a third of the page's paragraphs (<p> elements, at least one), in one
//     run from a place drawn at random, are changed: the first half of
//     them are replaced by paragraphs of another page of the same site,
//     drawn at random (text rewritten from elsewhere on the site), the
//     rest are removed.
//
// The <h1> and everything else stay: a page that moves keeps most of
// itself.
type editor struct {
	seed   uint64
	donors map[string][]string // target → paragraphs of another page of its site
	sites  map[string]string   // target → its site's name
}

var (
	titleElement = regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`)
	paragraph    = regexp.MustCompile(`(?is)<p\b[^>]*>.*?</p>`)
	titleSeps    = []string{" — ", " – ", " - ", " | ", " :: ", " » "}
	hasDigit     = regexp.MustCompile(`[0-9]`)
)

// newEditor prepares the edits of targets, drawing each target's donor
// page from the pages of its site in s.
func newEditor(ctx context.Context, s labStore, targets []string, seed uint64) (*editor, error) {
	bySite := map[string][]string{}
	site := map[string]string{}
	for p, err := range s.Pages(ctx) {
		if err != nil {
			return nil, err
		}
		bySite[p.Site] = append(bySite[p.Site], p.URI)
		site[p.URI] = p.Site
	}
	e := &editor{seed: seed, donors: map[string][]string{}, sites: map[string]string{}}
	for _, t := range targets {
		pages := slices.Clone(bySite[site[t]])
		slices.Sort(pages)
		pages = slices.DeleteFunc(pages, func(u string) bool { return u == t })
		e.sites[t] = site[t]
		r := e.rand(t, 1)
		// The first donor page with paragraphs, in an order drawn at
		// random.
		for _, i := range r.Perm(len(pages)) {
			p, err := s.Fetch(ctx, pages[i])
			if err != nil {
				return nil, err
			}
			if paras := paragraph.FindAll(p.Body, -1); len(paras) > 0 {
				for _, para := range paras[:min(3, len(paras))] {
					e.donors[t] = append(e.donors[t], string(para))
				}
				break
			}
		}
	}
	return e, nil
}

// rand returns the random source of one target's edit.
func (e *editor) rand(target string, stream uint64) *rand.Rand {
	sum := sha256.Sum256([]byte(target))
	var h uint64
	for _, b := range sum[:8] {
		h = h<<8 | uint64(b)
	}
	return rand.New(rand.NewPCG(e.seed^h, stream))
}

// edit is the store.IngestOptions.Edit of the edited mode.
func (e *editor) edit(uri string, page []byte) []byte {
	site, ok := e.sites[uri]
	if !ok {
		return page
	}
	r := e.rand(uri, 2)
	out := string(page)
	if m := titleElement.FindStringSubmatchIndex(out); m != nil {
		title := editTitle(html.UnescapeString(out[m[2]:m[3]]), site, r)
		out = out[:m[2]] + html.EscapeString(title) + out[m[3]:]
	}
	paras := paragraph.FindAllStringIndex(out, -1)
	if len(paras) == 0 {
		return []byte(out)
	}
	n := max(1, len(paras)/3)
	start := r.IntN(len(paras) - n + 1)
	var b strings.Builder
	b.WriteString(out[:paras[start][0]])
	for i := range n {
		if d := e.donors[uri]; i < (n+1)/2 && len(d) > 0 {
			b.WriteString(d[i%len(d)])
			b.WriteString("\n")
		}
	}
	b.WriteString(out[paras[start+n-1][1]:])
	return []byte(b.String())
}

// editTitle returns title edited as editor says.
func editTitle(title, site string, r *rand.Rand) string {
	title = strings.Join(strings.Fields(title), " ")
	main, sep, suffix := title, "", ""
	for _, s := range titleSeps {
		if i := strings.LastIndex(title, s); i > 0 && (sep == "" || i > len(main)) {
			main, sep, suffix = title[:i], s, title[i+len(s):]
		}
	}
	if words := strings.Fields(main); len(words) >= 3 {
		i := r.IntN(len(words))
		main = strings.Join(slices.Delete(words, i, i+1), " ")
	}
	switch {
	case suffix == "":
	case r.IntN(2) == 0:
		sep, suffix = "", "" // the suffix is dropped
	default:
		var kept []string
		for _, w := range strings.Fields(suffix) {
			if !hasDigit.MatchString(w) {
				kept = append(kept, w)
			}
		}
		if len(kept) == len(strings.Fields(suffix)) || len(kept) == 0 {
			kept = []string{site, "docs"}
		}
		suffix = strings.Join(kept, " ")
	}
	return main + sep + suffix
}
