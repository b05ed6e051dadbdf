package fixbench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/linkrot/relink/lab/localweb"
	"github.com/linkrot/relink/provider/store"
	"github.com/linkrot/relink/repair"
)

// Defaults of Config.
const (
	DefaultEngine = "google"
	// SiteEngine is Config.Engine for relink fix's -search site; with
	// "+ENGINE" after it ("site+brave"), the site index fused with ENGINE's
	// answers (relink fix -search ENGINE with no store).
	SiteEngine         = "site"
	DefaultConcurrency = 2
)

// Config is what Run measures and with what.
type Config struct {
	// Relink is the relink binary run; BuildRelink makes one.
	Relink string
	// Before is the store of the web before the move: the targets are
	// drawn from it, and it serves as the archive. After is the
	// moved-mode store the experiment built from it (draw.Moves of the
	// same targets): the current web. Neither is written.
	Before, After string
	// Dir is a directory for the run's files: the copy of After, the
	// report, the CA, the results and the journal.
	Dir string
	// Targets and Seed draw the moved pages as the experiment does;
	// Deleted is how many deleted pages are drawn besides (0 means as
	// many as Targets, -1 none).
	Targets int
	Deleted int
	Seed    uint64
	// Engine is the search engine relink fix is given (-search), reached
	// at its real host through localweb's proxy; empty means
	// DefaultEngine. SiteEngine runs fix with no engine and no key: each
	// dead link's own site is the index, and every host of the local web
	// publishes its sitemap; "site+ENGINE" fuses ENGINE's answers with the
	// site index's (its document frequencies the site's). Any other engine
	// runs alone (-site-index=false).
	Engine string
	// Sitemaps chooses the hosts that publish a sitemap (dated by the
	// archive: localweb.SitemapAge) with Engine SiteEngine; nil means
	// every host.
	Sitemaps localweb.Sitemaps
	// NoArchive runs the live run without -archive: relink fix with
	// nothing but the report and the web.
	NoArchive bool
	// Rate is relink fix's -rate, the requests per second to each host;
	// zero means no limit (inf).
	Rate float64
	// StoreDF gives the live run the current web's store for backlinks and
	// document frequencies (-store) instead of -df search over the
	// engine's hit counts and the report's sources alone.
	StoreDF bool
	// Concurrency is relink fix's -concurrency; 0 means
	// DefaultConcurrency.
	Concurrency int
	// Results is relink fix's -results for both runs; 0 means fix's
	// default (as many as one request of the engine brings; 100 of the
	// store).
	Results int
	// KillAfter, when positive, kills the live run (SIGKILL) once that
	// many dead links are in its journal, and runs it again with the same
	// -state.
	KillAfter int
	// Log receives progress lines; nil means none.
	Log io.Writer
}

func (c *Config) deleted() int {
	switch {
	case c.Deleted < 0:
		return 0
	case c.Deleted == 0:
		return c.Targets
	}
	return c.Deleted
}

func (c *Config) engine() string {
	if c.Engine == "" {
		return DefaultEngine
	}
	return c.Engine
}

// siteIndexed reports whether the live run of engine (Config.Engine) has
// the site index: SiteEngine alone or fused with an engine.
func siteIndexed(engine string) bool {
	return engine == SiteEngine || strings.HasPrefix(engine, SiteEngine+"+")
}

// webEngine returns the web engine of the live run of engine
// (Config.Engine): "" for the site alone.
func webEngine(engine string) string {
	if rest, ok := strings.CutPrefix(engine, SiteEngine); ok && (rest == "" || rest[0] == '+') {
		return strings.TrimPrefix(rest, "+")
	}
	return engine
}

func (c *Config) logf(format string, args ...any) {
	if c.Log != nil {
		fmt.Fprintf(c.Log, "fixbench: "+format+"\n", args...)
	}
}

// BuildRelink builds the relink command of the repository at root into
// dir and returns the binary's path.
func BuildRelink(ctx context.Context, root, dir string) (string, error) {
	bin := filepath.Join(dir, "relink")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/relink")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/relink in %s: %v\n%s", root, err, out)
	}
	return bin, nil
}

// Outcome is what Run measured.
type Outcome struct {
	// Targets are the dead links, moved pages first.
	Targets []Target
	// Live and Store are the results of the live run (after the resume,
	// when killed) and of the run with -store alone, in Targets' order.
	Live, Store []repair.Result
	// LiveTime and StoreTime are the runs' wall times (the live run's
	// both parts when killed).
	LiveTime, StoreTime time.Duration
	// Served counts the requests localweb answered during the live run,
	// by service.
	Served map[string]int
	// Hosts are the requests each host of the web received during the
	// live run.
	Hosts map[string]HostLoad
	// Resume is the kill and resume check; nil without Config.KillAfter.
	Resume *Resume
	// OrderMismatch and NoSources are as in the plan.
	OrderMismatch, NoSources int
	// Engine and StoreDF are the live run's settings; LiveArgs its
	// command line (with -state, rerunning it sends nothing); WebStore the
	// path of the current web's store (the copy with the deleted pages
	// removed).
	Engine   string
	StoreDF  bool
	LiveArgs []string
	WebStore string
}

// Resume is what killing the live run and running it again showed.
type Resume struct {
	// Journaled is the number of dead links in the journal when the run
	// was killed.
	Journaled int `json:"journaled"`
	// FirstRequests and SecondRequests are the requests localweb answered
	// in the killed run and in the run that finished it.
	FirstRequests  int `json:"first_requests"`
	SecondRequests int `json:"second_requests"`
	// SecondCalls is the calls the results count for the work of the
	// second run: the dead links it looked for, and any more calls a
	// journaled dead link's result gained (URL rules tried after the run).
	// Equal to SecondRequests when nothing was sent for the journaled dead
	// links' own search.
	SecondCalls int `json:"second_calls"`
	// RepeatedDead is the number of journaled dead URLs the second run
	// fetched again; ChangedJournaled the journaled results whose verdict,
	// URI or search, archive and backlink calls changed.
	RepeatedDead     int `json:"repeated_dead"`
	ChangedJournaled int `json:"changed_journaled"`
}

// Run measures relink fix as Config says; see the package documentation.
func Run(ctx context.Context, cfg Config) (*Outcome, error) {
	before, err := store.Open(cfg.Before, &store.Options{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("pre-move store: %w", err)
	}
	defer before.Close()
	cfg.logf("drawing %d moved and %d deleted pages with seed %d", cfg.Targets, cfg.deleted(), cfg.Seed)
	p, err := prepare(ctx, &cfg, before)
	if err != nil {
		return nil, err
	}
	web, err := store.Open(p.web, &store.Options{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer web.Close()
	rank := func(u string) int {
		info, err := web.PageInfo(ctx, u)
		if err != nil {
			return 0
		}
		return info.Backlinks
	}
	report := filepath.Join(cfg.Dir, "lychee.json")
	if p.orderMismatch, err = writeReport(report, p.targets, rank); err != nil {
		return nil, err
	}
	out := &Outcome{Targets: p.targets, OrderMismatch: p.orderMismatch, NoSources: p.noSources, Engine: cfg.engine(), StoreDF: cfg.StoreDF}

	reqs := &requestLog{}
	lo := localweb.Options{Web: web, Archive: before, Relaxed: true, Served: reqs.add}
	if siteIndexed(cfg.engine()) {
		lo.Sitemaps = cfg.Sitemaps
		if lo.Sitemaps == nil {
			lo.Sitemaps = localweb.AllSitemaps
		}
	}
	srv, err := localweb.New(lo)
	if err != nil {
		return nil, err
	}
	if err := srv.Start("127.0.0.1:0"); err != nil {
		return nil, err
	}
	defer srv.Close()
	caFile := filepath.Join(cfg.Dir, "ca.pem")
	if err := os.WriteFile(caFile, srv.CA().CertPEM(), 0o644); err != nil {
		return nil, err
	}

	b := &bench{cfg: &cfg, report: report, log: reqs}
	live := b.liveArgs(srv.ProxyURL().String(), caFile, p)
	out.LiveArgs, out.WebStore = live, p.web
	cfg.logf("live run: relink %s", strings.Join(live, " "))
	if err := b.runLive(ctx, live, out); err != nil {
		return nil, err
	}
	cfg.logf("store run: relink fix -store %s", p.web)
	start := time.Now()
	storeOut := filepath.Join(cfg.Dir, "store.jsonl")
	if _, err := b.relink(ctx, "fix", "-store", p.web, "-in", report, "-out", storeOut, "-concurrency", strconv.Itoa(b.concurrency()),
		"-results", strconv.Itoa(b.cfg.Results)); err != nil {
		return nil, err
	}
	out.StoreTime = time.Since(start)
	if out.Store, err = readResults(storeOut); err != nil {
		return nil, err
	}
	return out, nil
}

// bench runs relink for Run.
type bench struct {
	cfg    *Config
	report string
	log    *requestLog
}

func (b *bench) concurrency() int {
	if b.cfg.Concurrency > 0 {
		return b.cfg.Concurrency
	}
	return DefaultConcurrency
}

// liveArgs returns the live run's command line: every service live,
// through the proxy at its real host.
func (b *bench) liveArgs(proxy, ca string, p *plan) []string {
	args := []string{"fix", "-in", b.report, "-out", filepath.Join(b.cfg.Dir, "live.jsonl"), "-state", filepath.Join(b.cfg.Dir, "live.state"),
		"-fetch", "web", "-proxy", proxy, "-ca", ca, "-rate", b.rate(), "-concurrency", strconv.Itoa(b.concurrency()),
		"-results", strconv.Itoa(b.cfg.Results),
		// The run's own cache: the killed run's answers serve its rerun,
		// and nothing of another run (or the user's) is read.
		"-cache", filepath.Join(b.cfg.Dir, "cache")}
	if !b.cfg.NoArchive {
		args = append(args, "-archive", "wayback", "-archive-rate", "inf")
	}
	engine := webEngine(b.cfg.engine())
	if engine == "" {
		return append(args, "-search", SiteEngine) // the site's own document frequencies
	}
	args = append(args, "-search", engine)
	switch engine {
	case "google":
		args = append(args, "-key", "bench-key", "-cx", "bench-cx")
	case "brave", "mojeek":
		args = append(args, "-key", "bench-key")
	case "searxng":
		args = append(args, "-search-url", "https://"+localweb.SearXNGHost)
	}
	switch {
	case siteIndexed(b.cfg.engine()):
		return args // fused with the site index, the site's document frequencies
	case b.cfg.StoreDF:
		return append(args, "-store", p.web)
	}
	return append(args, "-site-index=false", "-df", "search", "-docs", strconv.FormatInt(max(p.pages, 1), 10))
}

// runLive runs the live command line, killed and resumed when the
// configuration asks, and fills out's live fields.
func (b *bench) runLive(ctx context.Context, args []string, out *Outcome) error {
	state := filepath.Join(b.cfg.Dir, "live.state")
	os.Remove(state)
	var took time.Duration
	var journal []repair.Result
	if b.cfg.KillAfter > 0 {
		b.log.phase("killed")
		start := time.Now()
		if err := b.runUntil(ctx, args, state, b.cfg.KillAfter); err != nil {
			return err
		}
		took = time.Since(start)
		var err error
		if journal, err = readJournal(state); err != nil {
			return err
		}
		b.cfg.logf("killed with %d dead links journaled", len(journal))
	}
	b.log.phase("live")
	start := time.Now()
	if _, err := b.relink(ctx, args...); err != nil {
		return err
	}
	out.LiveTime = took + time.Since(start)
	var err error
	if out.Live, err = readResults(filepath.Join(b.cfg.Dir, "live.jsonl")); err != nil {
		return err
	}
	out.Served = b.log.counts("killed", "live")
	out.Hosts = b.log.hosts("killed", "live")
	if b.cfg.KillAfter > 0 {
		out.Resume = b.resume(journal, out.Live)
	}
	return nil
}

// rate returns the live run's -rate.
func (b *bench) rate() string {
	if b.cfg.Rate <= 0 {
		return "inf"
	}
	return strconv.FormatFloat(b.cfg.Rate, 'g', -1, 64)
}

// runUntil runs relink with args and kills it with SIGKILL once the
// journal at state holds n complete lines. A run that ends first is an
// error.
func (b *bench) runUntil(ctx context.Context, args []string, state string, n int) error {
	cmd := exec.CommandContext(ctx, b.cfg.Relink, args...)
	cmd.Env = benchEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			return fmt.Errorf("the run to kill ended before %d dead links were journaled (%v): %s", n, err, lastLine(stderr.String()))
		case <-tick.C:
			if lines, _ := countLines(state); lines >= n {
				if err := cmd.Process.Kill(); err != nil {
					return err
				}
				<-done
				return nil
			}
		case <-ctx.Done():
			<-done
			return ctx.Err()
		}
	}
}

// resume compares the journal of the killed run with the final results.
func (b *bench) resume(journal, final []repair.Result) *Resume {
	r := &Resume{Journaled: len(journal)}
	first := b.log.entries("killed")
	second := b.log.entries("live")
	r.FirstRequests, r.SecondRequests = len(first), len(second)
	byDead := map[string]repair.Result{}
	for _, j := range journal {
		byDead[canonOr(j.Dead)] = j
	}
	asked := map[string]bool{}
	for _, e := range second {
		if e.service == localweb.WebService {
			asked[canonOr(e.uri)] = true
		}
	}
	for _, f := range final {
		j, ok := byDead[canonOr(f.Dead)]
		if !ok {
			r.SecondCalls += total(f.Calls)
			continue
		}
		r.SecondCalls += total(f.Calls) - total(j.Calls)
		if asked[canonOr(f.Dead)] {
			r.RepeatedDead++
		}
		if f.Verdict != j.Verdict || f.URI != j.URI && f.Verdict != repair.Moved ||
			f.Calls.Search != j.Calls.Search || f.Calls.Archive != j.Calls.Archive || f.Calls.Backlinks != j.Calls.Backlinks {
			// A journaled gone may become moved by a URL rule after the
			// run; that is no repeat.
			if !(j.Verdict == repair.Gone && f.Verdict == repair.Moved) {
				r.ChangedJournaled++
			}
		}
	}
	return r
}

// relink runs the relink binary with args and returns its stderr; a
// non-zero exit is an error with stderr's last line.
func (b *bench) relink(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, b.cfg.Relink, args...)
	cmd.Env = benchEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if err != nil {
		return stderr.String(), fmt.Errorf("relink %s: %v: %s", strings.Join(args, " "), err, lastLine(stderr.String()))
	}
	b.cfg.logf("%s", lastLine(stderr.String()))
	return stderr.String(), nil
}

// benchEnv is the environment of relink: this process's, without the
// search engines' keys and addresses, which the command line gives.
func benchEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GOOGLE_API_KEY", "GOOGLE_CSE_ID", "BRAVE_API_KEY", "MARGINALIA_API_KEY", "MOJEEK_API_KEY", "SEARXNG_URL",
			"HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy":
			continue
		}
		env = append(env, kv)
	}
	return env
}

// lastLine returns the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// countLines counts the complete lines of the file at path.
func countLines(path string) (int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return bytes.Count(b, []byte("\n")), nil
}

// readResults reads a JSON Lines results file.
func readResults(path string) ([]repair.Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return repair.ReadResults(f)
}

// readJournal reads the complete lines of a -state journal.
func readJournal(path string) ([]repair.Result, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []repair.Result
	sc := bufio.NewScanner(bytes.NewReader(b[:bytes.LastIndexByte(b, '\n')+1]))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var r repair.Result
		if err := json.Unmarshal(line, &r); err != nil {
			continue // a header or a line of another kind
		}
		if r.Dead != "" {
			out = append(out, r)
		}
	}
	return out, sc.Err()
}

// total is the number of calls c counts.
func total(c repair.Calls) int { return c.Fetch + c.Search + c.Archive + c.Backlinks }

// requestLog is the requests localweb answered, each in the phase of the
// run it came in. It is safe for concurrent use.
type requestLog struct {
	mu   sync.Mutex
	now  string
	reqs []served
}

type served struct {
	phase, service, uri string
	at                  time.Time
}

// phase starts a phase.
func (l *requestLog) phase(name string) {
	l.mu.Lock()
	l.now = name
	l.mu.Unlock()
}

// add is localweb's Options.Served.
func (l *requestLog) add(service, uri string) {
	l.mu.Lock()
	l.reqs = append(l.reqs, served{l.now, service, uri, time.Now()})
	l.mu.Unlock()
}

// entries returns the requests of a phase.
func (l *requestLog) entries(phase string) []served {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []served
	for _, r := range l.reqs {
		if r.phase == phase {
			out = append(out, r)
		}
	}
	return out
}

// counts returns the requests of the phases by service.
func (l *requestLog) counts(phases ...string) map[string]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[string]int{}
	for _, r := range l.reqs {
		if slices.Contains(phases, r.phase) {
			out[r.service]++
		}
	}
	return out
}

// HostLoad is what one host of the web received.
type HostLoad struct {
	// Requests counts the requests, robots.txt and sitemaps included.
	Requests int `json:"requests"`
	// MaxPerSecond is the most requests that started within one second.
	MaxPerSecond int `json:"max_per_second"`
}

// hosts returns the requests of the phases to each host of the web
// (WebService).
func (l *requestLog) hosts(phases ...string) map[string]HostLoad {
	l.mu.Lock()
	defer l.mu.Unlock()
	times := map[string][]time.Time{}
	for _, r := range l.reqs {
		if r.service != localweb.WebService || !slices.Contains(phases, r.phase) {
			continue
		}
		u, err := url.Parse(r.uri)
		if err != nil {
			continue
		}
		h := strings.ToLower(u.Host)
		times[h] = append(times[h], r.at)
	}
	out := map[string]HostLoad{}
	for h, ts := range times {
		slices.SortFunc(ts, time.Time.Compare)
		most, j := 0, 0
		for i := range ts {
			for ts[i].Sub(ts[j]) >= time.Second {
				j++
			}
			most = max(most, i-j+1)
		}
		out[h] = HostLoad{Requests: len(ts), MaxPerSecond: most}
	}
	return out
}
