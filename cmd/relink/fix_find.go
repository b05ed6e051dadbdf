package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/url"
	"slices"
	"strings"

	"golang.org/x/net/html"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/cache"
	"github.com/linkrot/relink/provider/memento"
	"github.com/linkrot/relink/repair"
)

// fixer looks for the new homes of dead links with one set of providers,
// each behind a request counter, and caches shared by the whole run: the
// inspected backlink pages and the document frequencies. It is safe for
// concurrent use.
type fixer struct {
	backlinks backlink.Provider // the store's and the wiki's, or nil
	fetcher   filter.Fetcher
	// probes fetches soft-404 probes (the fetcher, or the cache's
	// per-host verdicts in front of it).
	probes   filter.Fetcher
	searcher lexsig.Searcher
	df       lexsig.DF
	archive  filter.Fetcher // nil without -archive
	// redirects lists the dead URL's historical redirects; nil unless
	// the archive is the Wayback Machine.
	redirects redirectLister
	pages     relink.PageCache
	strategy  relink.Strategy
	// model is the judge (relink.DefaultModel), which weighs an archived
	// redirect too.
	model *relink.Model
	// soft404 is the soft-404 filter alone, for the dead URL's own page.
	soft404 *filter.Filters
	// threshold is -threshold; finderThreshold the Finder's form of it
	// (negative for 0: every first candidate is an answer).
	threshold, finderThreshold float64
	concurrency                int
	// results is the Finder's Results: how many results each query asks
	// for.
	results int
	// site, without -store, makes each dead link's site its index,
	// fused with the engine's answers when there is one (fix_site.go);
	// nil otherwise.
	site *siteIndexes
}

// newFixer returns the fixer of the services sv and the store st (nil for
// none) for the command line c.
func newFixer(sv *services, st openedStore, c *fixConfig) *fixer {
	fetcher := countingFetcher{f: sv.fetcher, service: serviceFetch}
	probes := filter.Fetcher(fetcher)
	if sv.probes != nil {
		probes = countingFetcher{f: sv.probes, service: serviceFetch}
	}
	fx := &fixer{
		fetcher:         fetcher,
		probes:          probes,
		backlinks:       sv.backlinks(&c.liveConfig, st),
		searcher:        countingSearcher{sv.searcher},
		df:              countingDF{sv.dfs.df},
		pages:           relink.NewPageCache(int64(c.pageBudget) << 20),
		model:           relink.DefaultModel(),
		strategy:        relink.Default(),
		threshold:       c.threshold,
		finderThreshold: c.threshold,
		concurrency:     c.concurrency,
		results:         c.results,
		soft404: &filter.Filters{Fetcher: probes, Disabled: []string{
			filter.FilterStatus, filter.FilterFileType, filter.FilterSize, filter.FilterLanguage}},
	}
	if c.threshold == 0 {
		fx.finderThreshold = -1
	}
	if c.siteIndex {
		// The site's list and the engine's are fused whole: the site's
		// as deep as without an engine.
		fx.results = max(c.results, c.siteResults)
	}
	if sv.arch != nil {
		fx.archive = countingFetcher{f: sv.arch.log.Fetcher, service: serviceArchive}
		// With an archive, the archived copy's title judges the answer
		// too: on the benchmark's corpora it answers more pages, and
		// fewer wrongly.
		fx.strategy = relink.ArchiveCheck{Base: fx.strategy}
	}
	if list := sv.arch.redirectLister(); list != nil {
		name := c.archiveName()
		fx.redirects = func(ctx context.Context, uri string) ([]pastRedirect, error) {
			return cache.Remember(sv.cache, "redirects", name+"\x00"+uri, func() ([]pastRedirect, error) {
				return list(ctx, uri)
			})
		}
	}
	return fx
}

// fix looks for one dead link and returns its result, and whether the
// result is final: false for one that a rerun should look for again (the
// services failed, or ctx was done).
func (fx *fixer) fix(ctx context.Context, l repair.DeadLink) (repair.Result, bool) {
	counter := &callCounter{}
	r := repair.Result{Dead: l.URL, Sources: l.Sources}
	keep := fx.find(withCounter(ctx, counter), l, &r)
	r.Calls = counter.calls()
	if ctx.Err() != nil {
		keep = false
	}
	return r, keep
}

// find fills r for the dead link l (steps 1 to 4 of fix's help).
func (fx *fixer) find(ctx context.Context, l repair.DeadLink, r *repair.Result) bool {
	if err := l.Err(); err != nil { // a URL over repair.MaxURL
		r.Verdict, r.Error = repair.Unknown, err.Error()
		return true
	}
	var target string
	err := errNotWeb
	if scheme, _, _ := strings.Cut(strings.ToLower(l.URL), ":"); scheme == "http" || scheme == "https" {
		target, err = canon.Canonicalize(l.URL)
	}
	if err != nil {
		r.Verdict, r.Error = repair.Unknown, err.Error()
		return true
	}
	if fx.confirm(ctx, l.URL, r) {
		return true
	}
	if ctx.Err() != nil {
		return false
	}
	wait := fx.startRedirects(ctx, target)
	var old *filter.Page
	if fx.archive != nil {
		p, err := fx.archive.Fetch(ctx, target)
		if err == nil && p != nil && filter.IsSuccess(p.Status) {
			r.Archive, old = archivedCopy(p), p
		}
	}

	f := fx.finder(target, l.Sources)
	if f.Archive != nil {
		// The strategy judges by the archived copy's title
		// (relink.ArchiveCheck): the copy read above, not read again.
		f.Archive = knownCopy{Fetcher: f.Archive, uri: target, page: old}
	}
	s := fx.strategy
	var (
		res *relink.Result
		// checked is what fetching the answer's candidates showed.
		checked []repair.Evidence
	)
	clues, err := f.Clues(ctx, target, s.Needs())
	if err == nil && fx.site != nil {
		var fused *fusedSearch
		if fused, err = fx.site.prepare(ctx, f, clues, old, r); fused != nil {
			defer fused.note(r)
		}
	}
	if err == nil {
		var o *relink.Outcome
		if o, err = s.Find(ctx, clues, f.Tools()); err == nil {
			res, err = f.Answer(s, clues, o)
		}
		if err == nil {
			res, checked, err = fx.aliveAnswer(ctx, f, clues, o, res)
		}
	}
	moved := fx.historicalRedirect(ctx, target, wait, r)
	if res != nil {
		fill(r, res, clues)
	}
	if moved != nil {
		return fx.withRedirect(r, res, clues, checked, err, moved)
	}
	switch {
	case errors.Is(err, relink.ErrNoQuery):
		r.Verdict, r.Error = repair.Unknown, err.Error()
		return true
	case err != nil:
		return failed(r, err)
	case res.Found:
		r.Verdict, r.URI = repair.Moved, res.Candidates[0].URI
	default:
		r.Verdict = repair.Gone
	}
	r.Evidence = append(append(r.Evidence, evidence(fx.model, res, clues, r.Archive, fx.threshold)...), checked...)
	return true
}

// withRedirect completes r, which holds the Finder's answer res (nil when
// it had none) and its error err, with the live page a historical
// redirect led to (checked is what fetching the Finder's candidates
// showed): moved when the combined confidence reaches the
// threshold, gone otherwise. When the Finder failed (a service), the
// redirect answers alone if it reaches the threshold; otherwise the
// result is unknown and not final, as without it.
func (fx *fixer) withRedirect(r *repair.Result, res *relink.Result, clues *relink.Clues, checked []repair.Evidence, err error, m *movedByRedirect) bool {
	switch {
	case err == nil:
		r.Evidence = append(append(r.Evidence, evidence(fx.model, res, clues, r.Archive, fx.threshold)...), checked...)
	case errors.Is(err, relink.ErrNoQuery):
		r.Evidence = append(r.Evidence, repair.Evidence{Kind: "search", Detail: err.Error()})
	case m.confidence < fx.threshold:
		return failed(r, err)
	default:
		r.Evidence = append(r.Evidence, repair.Evidence{Kind: "search", Detail: "the search failed: " + err.Error()})
		r.Candidates, r.Confidence = nil, 0
	}
	weighRedirect(fx.model, r, m)
	r.URI, r.Error = "", ""
	if r.Confidence >= fx.threshold {
		r.Verdict, r.URI = repair.Moved, r.Candidates[0].URI
	} else {
		r.Verdict = repair.Gone
	}
	return true
}

// failed records err, a failure of a service, in r: unknown, and not
// final.
func failed(r *repair.Result, err error) bool {
	r.Verdict, r.URI, r.Error = repair.Unknown, "", err.Error()
	return false
}

// confirm fetches the dead URL: when it answers 2xx itself and is no soft
// 404 it fills r as alive, when it redirects to such a page as moved
// there, and returns true; otherwise it adds what it saw to r's evidence
// and returns false.
func (fx *fixer) confirm(ctx context.Context, uri string, r *repair.Result) bool {
	p, dead := fx.seenAlive(ctx, uri)
	if p == nil || dead != nil {
		if dead != nil {
			dead.Detail = "the URL " + dead.Detail
			r.Evidence = append(r.Evidence, *dead)
		}
		return false
	}
	r.Confidence = 1
	if p.URI == "" || canonOr(p.URI) == canonOr(uri) {
		r.Verdict, r.URI = repair.Alive, uri
		r.Evidence = append(r.Evidence, repair.Evidence{Kind: "alive", Detail: fmt.Sprintf("the URL answers %d and is no soft 404", p.Status)})
		return true
	}
	r.Verdict, r.URI = repair.Moved, p.URI
	r.Evidence = append(r.Evidence, repair.Evidence{Kind: "redirect", Detail: fmt.Sprintf("the URL redirects to %s, which answers %d and is no soft 404", p.URI, p.Status)})
	return true
}

// finder returns the Finder of the dead link target, whose known
// backlinks are sources.
func (fx *fixer) finder(target string, sources []string) *relink.Finder {
	var known []string
	for _, s := range sources {
		if c, err := canon.Canonicalize(s); err == nil && (strings.HasPrefix(c, "http://") || strings.HasPrefix(c, "https://")) {
			known = append(known, c)
		}
	}
	f := &relink.Finder{
		Backlinks: knownBacklinks{p: fx.backlinks, target: target, sources: known},
		Fetcher:   fx.fetcher,
		DF:        fx.df,
		Searcher:  fx.searcher,
		Strategy:  fx.strategy,
		Pages:     fx.pages,
		Threshold: fx.finderThreshold,
		Model:     fx.model,
		Filters:   filter.Filters{Fetcher: fx.probes},
		Results:   fx.results,
	}
	if fx.archive != nil {
		f.Archive = fx.archive
	}
	return f
}

// knownCopy is an archive whose copy of one URI was read already: page,
// or none when page is nil.
type knownCopy struct {
	filter.Fetcher
	uri  string
	page *filter.Page
}

// Fetch returns the copy read already for k's URI, and asks the archive
// for any other.
func (k knownCopy) Fetch(ctx context.Context, uri string) (*filter.Page, error) {
	if uri != k.uri {
		return k.Fetcher.Fetch(ctx, uri)
	}
	if k.page == nil {
		return nil, errNoCopy
	}
	return k.page, nil
}

// errNoCopy is knownCopy's answer for a URI the archive had no good copy of.
var errNoCopy = errors.New("no archived copy")

// fill copies what the Finder gathered into r: the confidence, the
// candidates, the queries and the backlinks with their anchor texts.
func fill(r *repair.Result, res *relink.Result, c *relink.Clues) {
	r.Confidence = min(max(res.Confidence, 0), 1)
	r.Signals = res.Signals
	for _, cand := range res.Candidates[:min(len(res.Candidates), relink.DefaultResults)] {
		// The first few are for a review; no Searcher gives snippets yet: the field stays empty.
		r.Candidates = append(r.Candidates, repair.Candidate{URI: cand.URI, Title: cand.Title, Score: cand.Score})
	}
	for _, q := range res.Queries {
		if res.Step == "moved-link" && q.String() == "moved-link" {
			continue // MovedLink's mark for "no query was needed"
		}
		r.Queries = append(r.Queries, q.String())
	}
	for i, t := range res.Backlinks {
		b := repair.Backlink{URI: t.URI, Kept: t.Kept, Reason: t.Reason}
		if !t.Kept {
			b.Reason = strings.TrimSuffix(t.Filter+": "+t.Reason, ": ")
		}
		if t.Kept && i < len(c.Evidence) {
			b.Anchor = strings.Join(c.Evidence[i].Draw(backlink.Anchor, true), " ")
			b.Context = contextWords(c.Evidence[i].Draw(contextRadius, true))
		}
		r.Backlinks = append(r.Backlinks, b)
	}
}

// contextRadius is how many words on each side of a link to the dead URL
// a result's backlink shows (the paper's ±10), and maxContextWords the
// most words of them it keeps: a page that links to it many times gives
// the first windows.
const (
	contextRadius   = backlink.Radius(10)
	maxContextWords = 80
)

// contextWords joins the words around a backlink's links to the dead URL,
// cut at maxContextWords with "…".
func contextWords(words []string) string {
	if len(words) > maxContextWords {
		return strings.Join(words[:maxContextWords], " ") + " …"
	}
	return strings.Join(words, " ")
}

// evidence returns the reasons behind a Finder's answer res: how its
// first candidate was found, and how its title compares with the
// backlinks' anchor phrases and the archived title.
func evidence(model *relink.Model, res *relink.Result, c *relink.Clues, archived *repair.Archive, threshold float64) []repair.Evidence {
	if len(res.Candidates) == 0 {
		return []repair.Evidence{{Kind: "search", Detail: fmt.Sprintf("%d queries found no candidate", len(res.Queries))}}
	}
	first := res.Candidates[0]
	var out []repair.Evidence
	if res.Step == "moved-link" {
		out = append(out, repair.Evidence{Kind: "moved-link", Detail: fmt.Sprintf(
			"%.0f of the backlink pages, found anew, link to %s with the anchor text of their old link to the dead URL", first.Score, first.URI)})
	} else {
		out = append(out, repair.Evidence{Kind: "fusion", Detail: fmt.Sprintf(
			"%s ranked %s first of %d candidates over %d queries", res.Method, first.URI, len(res.Candidates), len(res.Queries))})
	}
	var phrases []string
	for _, p := range c.Phrases() {
		if len(phrases) == 3 {
			break
		}
		phrases = append(phrases, fmt.Sprintf("%q", strings.Join(p.Words, " ")))
	}
	judged := "at or above"
	if res.Confidence < threshold {
		judged = "below"
	}
	detail := fmt.Sprintf("the candidate's title %q against the backlinks' anchor phrases %s: confidence %.2f, %s the threshold %.2f",
		first.Title, strings.Join(phrases, ", "), res.Confidence, judged, threshold)
	if len(phrases) == 0 {
		detail = fmt.Sprintf("the candidate's title %q against the dead URL's words (no anchor phrase): confidence %.2f, %s the threshold %.2f",
			first.Title, res.Confidence, judged, threshold)
	}
	out = append(out, repair.Evidence{Kind: "title", Detail: detail})
	if len(res.Signals) > 0 {
		out = append(out, repair.Evidence{Kind: "signals", Detail: signalsDetail(model, res.Signals)})
	}
	if archived != nil && archived.Title != "" && strings.EqualFold(strings.TrimSpace(first.Title), strings.TrimSpace(archived.Title)) {
		out = append(out, repair.Evidence{Kind: "title", Detail: "candidate title equals the archived title"})
	}
	return out
}

// signalsDetail says what the judge saw, and what each of the model's
// terms added to the log-odds of the answer, the strongest first:
// "anchor_phrase_in_title 1, title_score 1; adds anchor_phrase_in_title
// +2.10, title_score*score_margin +1.20".
func signalsDetail(model *relink.Model, signals map[string]float64) string {
	names := slices.Sorted(maps.Keys(signals))
	seen := make([]string, len(names))
	for i, n := range names {
		seen[i] = fmt.Sprintf("%s %.3g", n, signals[n])
	}
	contrib := model.Contributions(signals)
	terms := slices.Sorted(maps.Keys(contrib))
	slices.SortStableFunc(terms, func(a, b string) int { return cmp.Compare(math.Abs(contrib[b]), math.Abs(contrib[a])) })
	adds := make([]string, len(terms))
	for i, t := range terms {
		adds[i] = fmt.Sprintf("%s %+.2f", t, contrib[t])
	}
	return "the judge saw " + strings.Join(seen, ", ") + "; to the log-odds, " + strings.Join(adds, ", ")
}

// maxArchiveText bounds the archived first paragraph, in bytes.
const maxArchiveText = 500

// archivedCopy returns what fix reports of an archived copy of the dead
// page: where it was read, its title and its first paragraph.
func archivedCopy(p *filter.Page) *repair.Archive {
	a := &repair.Archive{URI: p.URI}
	if loc := p.Header.Get(memento.ContentLocationHeader); loc != "" {
		a.URI = loc
	}
	body, _, err := backlink.Decode(p.Body, p.Header.Get("Content-Type"))
	if err != nil {
		return a
	}
	a.Title = backlink.Title(body)
	a.Text = firstParagraph(body)
	return a
}

// firstParagraph returns the text of the first <p> of an HTML page with
// words in it, its white space collapsed and cut at maxArchiveText bytes
// (at a word), or the start of the page's text when it has no paragraph.
func firstParagraph(page []byte) string {
	z := html.NewTokenizer(bytes.NewReader(page))
	var (
		b     strings.Builder
		depth int  // inside <p>
		skip  int  // inside script, style
		found bool // a paragraph with words ended
	)
	for !found {
		switch z.Next() {
		case html.ErrorToken:
			found = true
		case html.StartTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "p":
				depth++
			case "script", "style", "template":
				skip++
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "p":
				depth = max(depth-1, 0)
				if depth == 0 && strings.TrimSpace(b.String()) != "" {
					found = true
				}
			case "script", "style", "template":
				skip = max(skip-1, 0)
			}
		case html.TextToken:
			if depth > 0 && skip == 0 {
				b.Write(z.Text())
				b.WriteByte(' ')
			}
		}
	}
	text := strings.Join(strings.Fields(b.String()), " ")
	if text == "" {
		if t, err := backlink.Render(page, "text/html; charset=utf-8"); err == nil {
			text = strings.Join(strings.Fields(t), " ")
		}
	}
	if len(text) > maxArchiveText {
		cut := strings.LastIndexByte(text[:maxArchiveText], ' ')
		if cut <= 0 {
			cut = maxArchiveText
		}
		text = strings.ToValidUTF8(text[:cut], "") + " …"
	}
	return text
}

// applyRules learns how each site moved its pages from the confident
// moves among results (relink.LearnURLRules) and tries each gone or
// unknown dead URL of such a site under the rules: one fetch each (and
// the soft-404 probes), and a page seen alive (seenAlive) makes it moved,
// its confidence the least of those of the moves the rule was learned
// from.
func (fx *fixer) applyRules(ctx context.Context, results []repair.Result) error {
	pairs := map[string]string{}
	conf := map[string]float64{}
	for _, r := range results {
		if r.Verdict == repair.Moved && r.URI != "" && r.Confidence >= fx.threshold {
			d := canonOr(r.Dead)
			pairs[d], conf[d] = canonOr(r.URI), r.Confidence
		}
	}
	rules := relink.LearnURLRules(pairs, 0)
	if len(rules) == 0 {
		return nil
	}
	for i := range results {
		r := &results[i]
		if r.Verdict != repair.Gone && r.Verdict != repair.Unknown {
			continue
		}
		uri, rule, ok := relink.ApplyURLRules(rules, canonOr(r.Dead))
		if !ok {
			continue
		}
		counter := &callCounter{}
		p, dead := fx.seenAlive(withCounter(ctx, counter), uri)
		r.Calls.Fetch += counter.calls().Fetch
		if err := ctx.Err(); err != nil {
			return err
		}
		if p == nil || dead != nil {
			continue
		}
		c := 1.0
		for old, moved := range pairs {
			if u, ok := rule.Apply(old); ok && u == moved {
				c = min(c, conf[old])
			}
		}
		how := rule.From + " → " + rule.To
		if rule.DropExt != "" {
			how += ", without " + rule.DropExt
		}
		r.Verdict, r.URI, r.Confidence, r.Error = repair.Moved, uri, c, ""
		r.Evidence = append(r.Evidence, repair.Evidence{Kind: "url-rule", Detail: fmt.Sprintf(
			"%d pages of the site found moved follow the rule %s, and %s answers %d", rule.Support, how, uri, p.Status)})
	}
	return nil
}

// maxAnswerChecks bounds the candidates fetched per dead URL before one is
// the answer: the first ones judged confident that turn out dead.
const maxAnswerChecks = 3

// seenAlive fetches uri, as every page fix answers moved to (or alive)
// is fetched first, and returns the page it fetched, if any, and why it
// is no such page, or nil when it is one: a page is alive when it
// answers 2xx from an http(s) URI and is no soft 404. The why's Kind is
// what failed ("fetch", "status", "scheme" or "soft-404"), its Detail
// how, to follow the page's name ("answers 404"). Both are nil when ctx
// is done before an answer.
func (fx *fixer) seenAlive(ctx context.Context, uri string) (*filter.Page, *repair.Evidence) {
	p, err := fx.fetcher.Fetch(ctx, uri)
	dead := func(kind, format string, args ...any) (*filter.Page, *repair.Evidence) {
		return p, &repair.Evidence{Kind: kind, Detail: fmt.Sprintf(format, args...)}
	}
	switch {
	case ctx.Err() != nil:
		return nil, nil
	case err != nil:
		return dead("fetch", "gives no answer: %v", err)
	case p == nil:
		return dead("fetch", "gives no answer")
	case !filter.IsSuccess(p.Status):
		return dead("status", "answers %d", p.Status)
	case p.URI != "" && !isWeb(p.URI):
		return dead("scheme", "answers %d from %s, which is no http or https URI", p.Status, p.URI)
	}
	rej, err := fx.soft404.Check(ctx, p)
	switch {
	case ctx.Err() != nil:
		return nil, nil
	case err != nil:
		return dead("soft-404", "answers %d, and its soft-404 check failed: %v", p.Status, err)
	case rej != nil:
		return dead("soft-404", "answers %d with a soft 404: %s", p.Status, rej.Reason)
	}
	return p, nil
}

// isWeb reports whether uri is an absolute http or https URI.
func isWeb(uri string) bool {
	u, err := url.Parse(uri)
	return err == nil && (strings.EqualFold(u.Scheme, "http") || strings.EqualFold(u.Scheme, "https")) && u.Host != ""
}

// aliveAnswer makes sure the Finder's answer res is alive before it is
// one: when res is found, its first candidate is fetched (seenAlive); a
// dead one is dropped from the strategy's outcome o and the rest judged
// anew (relink.Finder.Answer), for at most maxAnswerChecks candidates.
// It returns the answer whose first candidate was seen alive, or one not
// found, and what the fetches showed; with none found, a candidate that
// gave no answer at all (a network failure) is the error, so that the
// result is not final.
func (fx *fixer) aliveAnswer(ctx context.Context, f *relink.Finder, c *relink.Clues, o *relink.Outcome, res *relink.Result) (*relink.Result, []repair.Evidence, error) {
	var (
		seen []repair.Evidence
		// unreachable is the failure of the last candidate that gave no
		// answer: with no answer found, the result is not final.
		unreachable error
	)
	for checks := 0; res.Found; checks++ {
		first := res.Candidates[0].URI
		if checks == maxAnswerChecks {
			res.Found = false
			seen = append(seen, repair.Evidence{Kind: "candidate", Detail: fmt.Sprintf(
				"%s is not fetched: %d candidates judged the answer were dead", first, maxAnswerChecks)})
			return res, seen, nil
		}
		p, dead := fx.seenAlive(ctx, first)
		if err := ctx.Err(); err != nil {
			return res, seen, err
		}
		if p != nil && dead == nil {
			seen = append(seen, repair.Evidence{Kind: "candidate", Detail: fmt.Sprintf(
				"the candidate %s answers %d and is no soft 404", first, p.Status)})
			return res, seen, nil
		}
		seen = append(seen, repair.Evidence{Kind: "candidate", Detail: fmt.Sprintf(
			"the candidate %s (confidence %.2f) %s: not the answer", first, res.Confidence, dead.Detail)})
		if dead.Kind == "fetch" {
			unreachable = fmt.Errorf("the answer %s %s", first, dead.Detail)
		}
		drop := canonOr(first)
		o.Candidates = slices.DeleteFunc(slices.Clone(o.Candidates), func(c lexsig.Result) bool { return canonOr(c.URI) == drop })
		again, err := f.Answer(fx.strategy, c, o)
		if err != nil {
			return res, seen, err
		}
		res = again
	}
	if unreachable != nil {
		return res, seen, unreachable
	}
	return res, seen, nil
}
