package fixbench

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/linkrot/relink/lab/internal/stats"
	"github.com/linkrot/relink/repair"
)

// The targets of issue 14 for a run on the local internet.
const (
	GoalFound       = 0.85 // of the moved pages found at their new URI
	GoalPrecision   = 0.97 // of the answers for moved pages, right
	GoalGone        = 0.95 // of the deleted pages answered gone
	GoalMedianCalls = 20   // remote calls per dead link, median
	GoalAgreement   = 0.02 // from the experiment's figures
)

// The targets of issue 24 for relink fix with no engine (SiteEngine), and
// checked with an engine fused in too.
const (
	GoalSitePrecision   = 0.98 // of the answers for moved pages, right
	GoalSiteSharedCalls = 15   // remote calls per dead link, median, a host's crawl shared by its dead links
)

// Figures score one run of relink fix.
type Figures struct {
	// DeadLinks, Moved and Deleted count the dead links.
	DeadLinks int `json:"dead_links"`
	Moved     int `json:"moved_pages"`
	Deleted   int `json:"deleted_pages"`
	// Answered counts the moved pages answered "moved", Correct those
	// answered with their new URI; Found is Correct/Moved, Precision
	// Correct/Answered.
	Answered  int     `json:"answered"`
	Correct   int     `json:"correct"`
	Found     float64 `json:"found"`
	Precision float64 `json:"precision"`
	// Gone is the share of the deleted pages answered "gone";
	// FalseSuggestions the share answered "moved".
	Gone             float64 `json:"gone"`
	FalseSuggestions float64 `json:"false_suggestions"`
	// Verdicts counts the verdicts of all dead links.
	Verdicts map[string]int `json:"verdicts"`
	// MedianCalls and P90Calls are the calls per dead link (all four
	// services), Calls their sums.
	MedianCalls float64 `json:"median_calls"`
	P90Calls    float64 `json:"p90_calls"`
	// SharedMedianCalls and SharedP90Calls are the calls per dead link
	// with each host's calls shared by its dead links: a dead link counts
	// the mean of its host's dead links' calls, so that a crawl of the
	// host, counted in the dead link it ran for, counts in all of them.
	SharedMedianCalls float64      `json:"shared_median_calls"`
	SharedP90Calls    float64      `json:"shared_p90_calls"`
	Calls             repair.Calls `json:"calls"`
	Seconds           float64      `json:"seconds"`
}

// Score scores results, in the order of targets.
func Score(targets []Target, results []repair.Result) Figures {
	f := Figures{DeadLinks: len(targets), Verdicts: map[string]int{}}
	byDead := map[string]repair.Result{}
	for _, r := range results {
		byDead[canonOr(r.Dead)] = r
	}
	var calls []float64
	byHost := map[string][]float64{}
	for _, t := range targets {
		r, ok := byDead[canonOr(t.Dead)]
		if !ok {
			f.Verdicts["missing"]++
			continue
		}
		f.Verdicts[string(r.Verdict)]++
		calls = append(calls, float64(total(r.Calls)))
		byHost[hostOf(t.Dead)] = append(byHost[hostOf(t.Dead)], float64(total(r.Calls)))
		f.Calls.Fetch += r.Calls.Fetch
		f.Calls.Search += r.Calls.Search
		f.Calls.Archive += r.Calls.Archive
		f.Calls.Backlinks += r.Calls.Backlinks
		if t.Deleted() {
			f.Deleted++
			switch r.Verdict {
			case repair.Gone:
				f.Gone++
			case repair.Moved:
				f.FalseSuggestions++
			}
			continue
		}
		f.Moved++
		if r.Verdict == repair.Moved {
			f.Answered++
			if canonOr(r.URI) == canonOr(t.Moved) {
				f.Correct++
			}
		}
	}
	f.Found = ratio(f.Correct, f.Moved)
	f.Precision = ratio(f.Correct, f.Answered)
	if f.Deleted > 0 {
		f.Gone /= float64(f.Deleted)
		f.FalseSuggestions /= float64(f.Deleted)
	}
	f.MedianCalls, f.P90Calls = quantile(calls, 0.5), quantile(calls, 0.9)
	var shared []float64
	for _, cs := range byHost {
		sum := 0.0
		for _, c := range cs {
			sum += c
		}
		for range cs {
			shared = append(shared, sum/float64(len(cs)))
		}
	}
	f.SharedMedianCalls, f.SharedP90Calls = round(quantile(shared, 0.5)), round(quantile(shared, 0.9))
	return f
}

// hostOf returns the lowercased host of uri, "" when it has none.
func hostOf(uri string) string {
	u, err := url.Parse(uri)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Host)
}

// ratio is a/b, or 0 when b is 0.
func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// quantile returns the q quantile of xs (the nearest rank), 0 for none.
func quantile(xs []float64, q float64) float64 { return stats.Quantile(xs, q) }

// Experiment is the experiment's figures for the default method on the
// same moved targets, read from its summary.json.
type Experiment struct {
	Method string `json:"method"`
	// Found and Precision are the moved mode's (answer.correct, and
	// correct/answered); FalseSuggestions the deleted mode's
	// answer.answered (on the moved targets themselves, deleted).
	Found            float64 `json:"found"`
	Precision        float64 `json:"precision"`
	FalseSuggestions float64 `json:"false_suggestions"`
}

// ReadExperiment reads the answers of a method in the moved and deleted
// modes from the experiment's summary.json at path: the default method's
// when method is "", else the method of that name.
func ReadExperiment(path, method string) (*Experiment, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s struct {
		Runs []struct {
			Method  string `json:"method"`
			Mode    string `json:"mode"`
			Default bool   `json:"default"`
			Answer  *struct {
				Answered float64 `json:"answered"`
				Correct  float64 `json:"correct"`
			} `json:"answer"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	e := &Experiment{}
	var moved, deleted bool
	for _, r := range s.Runs {
		if r.Answer == nil || (method == "" && !r.Default) || (method != "" && r.Method != method) {
			continue
		}
		switch r.Mode {
		case "moved":
			e.Method, moved = r.Method, true
			e.Found = r.Answer.Correct
			if r.Answer.Answered > 0 {
				e.Precision = r.Answer.Correct / r.Answer.Answered
			}
		case "deleted":
			e.FalseSuggestions, deleted = r.Answer.Answered, true
		}
	}
	if !moved || !deleted {
		if method == "" {
			method = "default method"
		}
		return nil, fmt.Errorf("%s holds no %s's answers in the moved and deleted modes", path, method)
	}
	return e, nil
}

// Summary is the benchmark's summary.json.
type Summary struct {
	Corpus      string  `json:"corpus"`
	Seed        uint64  `json:"seed"`
	Engine      string  `json:"engine"`
	Archive     string  `json:"archive"`
	DF          string  `json:"df"`
	Concurrency int     `json:"concurrency"`
	Results     int     `json:"results_per_query"`
	Live        Figures `json:"live"`
	Store       Figures `json:"store"`
	Served      any     `json:"served_by_service"`
	// Hosts is what each host of the web received in the live run;
	// MaxPerSecond the most requests any host received within a second,
	// and Rate the live run's -rate (0: none).
	Hosts        map[string]HostLoad `json:"hosts,omitempty"`
	MaxPerSecond int                 `json:"max_per_second"`
	Rate         float64             `json:"rate"`
	// WithSitemap and WithoutSitemap are the live run's figures for the
	// dead links on hosts that publish a sitemap and on those that do not,
	// when only some do (Config.Sitemaps).
	WithSitemap    *Figures    `json:"with_sitemap,omitempty"`
	WithoutSitemap *Figures    `json:"without_sitemap,omitempty"`
	Resume         *Resume     `json:"resume,omitempty"`
	Experiment     *Experiment `json:"experiment,omitempty"`
	// ArchiveExperiment is the experiment's figures for the method the
	// live run uses with an archive (the default judged by the archived
	// title, relink.ArchiveCheck), when the experiment ran it.
	ArchiveExperiment *Experiment `json:"archive_experiment,omitempty"`
	// Goals says, for each of issue 14's targets, whether the live run
	// (and the store run, and both against the experiment) met it.
	Goals         map[string]bool `json:"goals"`
	OrderMismatch int             `json:"source_order_mismatches"`
	NoSources     int             `json:"drawn_without_live_source"`
}

// Summarize scores an outcome. exp is the experiment's default method,
// which the store run (no archive) is held to; archived, when not nil, the
// default judged by the archived title too, which the live run (with an
// archive) is held to instead.
func Summarize(corpus string, cfg Config, o *Outcome, exp, archived *Experiment) *Summary {
	s := &Summary{Corpus: corpus, Seed: cfg.Seed, Engine: o.Engine, DF: "search (hit counts), backlinks from the report", Concurrency: cfg.Concurrency, Results: cfg.Results,
		Live: Score(o.Targets, o.Live), Store: Score(o.Targets, o.Store), Served: o.Served, Resume: o.Resume, Experiment: exp, ArchiveExperiment: archived,
		OrderMismatch: o.OrderMismatch, NoSources: o.NoSources}
	switch {
	case o.StoreDF:
		s.DF = "store (backlinks and DF from the current web's store)"
	case siteIndexed(o.Engine):
		s.DF = "the site index's own (each host's crawled pages), every host publishing its sitemap, backlinks from the report"
	}
	if e := webEngine(o.Engine); siteIndexed(o.Engine) && e != "" {
		s.DF += "; the site index's answers fused with " + e + "'s"
	}
	s.Live.Seconds, s.Store.Seconds = round(o.LiveTime.Seconds()), round(o.StoreTime.Seconds())
	s.Hosts, s.Rate, s.Archive = o.Hosts, cfg.Rate, "wayback"
	if cfg.NoArchive {
		s.Archive = "none"
	}
	for _, h := range o.Hosts {
		s.MaxPerSecond = max(s.MaxPerSecond, h.MaxPerSecond)
	}
	if siteIndexed(o.Engine) && cfg.Sitemaps != nil {
		var with, without []Target
		for _, t := range o.Targets {
			u, err := url.Parse(t.Dead)
			if err == nil && cfg.Sitemaps(strings.ToLower(u.Hostname())) {
				with = append(with, t)
			} else {
				without = append(without, t)
			}
		}
		w, wo := Score(with, o.Live), Score(without, o.Live)
		s.WithSitemap, s.WithoutSitemap = &w, &wo
		s.DF = strings.Replace(s.DF, "every host publishing its sitemap", "some hosts publishing a sitemap", 1)
	}
	g := map[string]bool{
		"live_found":        s.Live.Found >= GoalFound,
		"live_precision":    s.Live.Precision >= GoalPrecision,
		"live_gone":         s.Live.Gone >= GoalGone,
		"live_median_calls": s.Live.MedianCalls <= GoalMedianCalls,
		"store_found":       s.Store.Found >= GoalFound,
		"store_precision":   s.Store.Precision >= GoalPrecision,
		"store_gone":        s.Store.Gone >= GoalGone,
	}
	if siteIndexed(o.Engine) {
		g["site_precision_0.98"] = s.Live.Precision >= GoalSitePrecision
		if webEngine(o.Engine) == "" {
			// The bound is the site's alone; an engine's queries
			// come on top (Figures.SharedMedianCalls tells them).
			g["site_shared_median_calls_15"] = s.Live.SharedMedianCalls <= GoalSiteSharedCalls
		}
		if cfg.Rate > 0 {
			// A limiter of rate r and burst 1 lets floor(r)+1 requests
			// start within one second.
			g["site_host_rate_kept"] = float64(s.MaxPerSecond) <= math.Floor(cfg.Rate)+1
		}
	}
	if o.Resume != nil {
		g["resume_repeats_nothing"] = o.Resume.RepeatedDead == 0 && o.Resume.ChangedJournaled == 0 && o.Resume.SecondCalls == o.Resume.SecondRequests
	}
	if exp != nil {
		for _, f := range []struct {
			name string
			fig  Figures
			exp  *Experiment
		}{{"live", s.Live, cmp.Or(archived, exp)}, {"store", s.Store, exp}} {
			g[f.name+"_within_0.02_of_experiment"] = math.Abs(f.fig.Found-f.exp.Found) <= GoalAgreement && math.Abs(f.fig.Precision-f.exp.Precision) <= GoalAgreement
		}
	}
	s.Goals = g
	return s
}

// round rounds x to 3 decimals.
func round(x float64) float64 { return math.Round(x*1000) / 1000 }

// WriteMarkdown writes the summary as a short Markdown report.
func (s *Summary) WriteMarkdown(w io.Writer) error {
	pct := func(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }
	fmt.Fprintf(w, "# relink fix on a local internet: %s, seed %d\n\n", s.Corpus, s.Seed)
	fmt.Fprintf(w, "%d dead links from a lychee report: %d moved pages (the experiment's targets, moved mode) and %d deleted pages. "+
		"Live run: relink fix -fetch web -search %s -archive %s through lab/localweb's proxy (-proxy, -ca), DF: %s, -concurrency %d. "+
		"Store run: relink fix -store (the current web's store alone, no proxy).\n\n",
		s.Live.DeadLinks, s.Live.Moved, s.Live.Deleted, s.Engine, s.Archive, s.DF, s.Concurrency)
	fmt.Fprintln(w, "| run | moved found | precision | deleted: gone | false suggestions | median calls | p90 calls | time |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, r := range []struct {
		name string
		f    Figures
	}{{"live", s.Live}, {"store", s.Store}} {
		fmt.Fprintf(w, "| %s | %s (%d of %d) | %.3f (%d answered) | %s | %s | %g | %g | %.0f s |\n", r.name,
			pct(r.f.Found), r.f.Correct, r.f.Moved, r.f.Precision, r.f.Answered, pct(r.f.Gone), pct(r.f.FalseSuggestions),
			r.f.MedianCalls, r.f.P90Calls, r.f.Seconds)
	}
	for _, r := range []struct {
		name string
		f    *Figures
	}{{"live, hosts with a sitemap", s.WithSitemap}, {"live, hosts without", s.WithoutSitemap}} {
		if r.f != nil {
			fmt.Fprintf(w, "| %s | %s (%d of %d) | %.3f (%d answered) | %s | %s | %g | %g | |\n", r.name,
				pct(r.f.Found), r.f.Correct, r.f.Moved, r.f.Precision, r.f.Answered, pct(r.f.Gone), pct(r.f.FalseSuggestions),
				r.f.MedianCalls, r.f.P90Calls)
		}
	}
	for _, e := range []*Experiment{s.Experiment, s.ArchiveExperiment} {
		if e != nil {
			fmt.Fprintf(w, "| experiment (%s) | %s | %.3f | %s (on the moved targets, deleted) | %s | | | |\n",
				e.Method, pct(e.Found), e.Precision, pct(1-e.FalseSuggestions), pct(e.FalseSuggestions))
		}
	}
	fmt.Fprintf(w, "\nGoals of issue 14 (found ≥ %.0f%%, precision ≥ %.2f, gone ≥ %.0f%%, median calls ≤ %d, within %.2f of the experiment's "+
		"figures for the same method: the live run, which has an archive, against the archive-checked default when the experiment ran it):\n\n",
		100*GoalFound, GoalPrecision, 100*GoalGone, GoalMedianCalls, GoalAgreement)
	names := make([]string, 0, len(s.Goals))
	for k := range s.Goals {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		mark := "met"
		if !s.Goals[k] {
			mark = "**missed**"
		}
		fmt.Fprintf(w, "- %s: %s\n", k, mark)
	}
	if r := s.Resume; r != nil {
		fmt.Fprintf(w, "\nKill and resume: the live run was killed (SIGKILL) with %d dead links journaled, after %d requests; "+
			"the rerun with the same -state sent %d requests, and the results count %d calls for its work; "+
			"journaled dead URLs fetched again: %d; journaled results changed: %d.\n",
			r.Journaled, r.FirstRequests, r.SecondRequests, r.SecondCalls, r.RepeatedDead, r.ChangedJournaled)
	}
	_, err := fmt.Fprintf(w, "\nCalls per service (live): fetch %d, search %d, archive %d, backlinks %d.\n",
		s.Live.Calls.Fetch, s.Live.Calls.Search, s.Live.Calls.Archive, s.Live.Calls.Backlinks)
	if err != nil || !siteIndexed(s.Engine) {
		return err
	}
	fmt.Fprintf(w, "\nCalls per dead link with each host's calls shared by its dead links (the crawl counts in all of them): median %g, p90 %g (live).\n",
		s.Live.SharedMedianCalls, s.Live.SharedP90Calls)
	rate := "no limit"
	if s.Rate > 0 {
		rate = fmt.Sprintf("%g a second", s.Rate)
	}
	fmt.Fprintf(w, "\nRequests each host received (live run, -rate: %s; the most within one second: %d):\n\n| host | requests | most in a second |\n|---|---|---|\n", rate, s.MaxPerSecond)
	hosts := slices.Sorted(maps.Keys(s.Hosts))
	for _, h := range hosts {
		fmt.Fprintf(w, "| %s | %d | %d |\n", h, s.Hosts[h].Requests, s.Hosts[h].MaxPerSecond)
	}
	return nil
}
