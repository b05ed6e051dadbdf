package main

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"time"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/provider/ccindex"
	"github.com/linkrot/relink/provider/wayback"
	"github.com/linkrot/relink/repair"
)

// An archived redirect of the dead URL to a live page is a signal of the
// judge's (relink.WithRedirect): its confidence is the model's prior of a
// permanent or a temporary redirect, judged, not measured (the corpora
// hold no archive with redirects), combined with what the judge saw of the
// Finder's first candidate when the redirect leads there. What a redirect
// gets wrong are redirects to a generic page, which fix does not count (a
// site's home page, a page that is gone or a soft 404 now).
//
// maxRedirectChecks bounds the redirect targets fetched per dead URL.
const maxRedirectChecks = 3

// redirectLister lists a URI's historical redirects, oldest first
// (wayback.Client's or ccindex.Client's Redirects, behind the cache).
type redirectLister func(ctx context.Context, uri string) ([]pastRedirect, error)

// pastRedirect is one archived redirect of a URI and where it led.
type pastRedirect struct {
	Captured time.Time `json:"captured"`
	// Status is the captured redirect's status (301, 302, ...).
	Status int `json:"status"`
	// Final is where the redirects that started there ended, Hops how
	// many there were.
	Final string `json:"final"`
	Hops  int    `json:"hops"`
}

// waybackRedirects lists uri's historical redirects in the Wayback
// Machine: the chains that end (no loop, not too long).
func waybackRedirects(w *wayback.Client) redirectLister {
	return func(ctx context.Context, uri string) ([]pastRedirect, error) {
		rs, err := w.Redirects(ctx, uri)
		if err != nil {
			return nil, err
		}
		out := []pastRedirect{}
		for _, r := range rs {
			if r.Loop || r.TooManyHops || len(r.Hops) == 0 || r.Final == "" {
				continue
			}
			out = append(out, pastRedirect{Captured: r.Capture.Time, Status: r.Hops[0].Status, Final: r.Final, Hops: len(r.Hops)})
		}
		return out, nil
	}
}

// ccindexRedirects lists uri's redirects in the newest Common Crawl crawl
// that captured it, one hop each (the index keeps the Location).
func ccindexRedirects(cc *ccindex.Client) redirectLister {
	return func(ctx context.Context, uri string) ([]pastRedirect, error) {
		caps, err := cc.Redirects(ctx, uri)
		if err != nil {
			return nil, err
		}
		out := []pastRedirect{}
		for _, cp := range caps {
			out = append(out, pastRedirect{Captured: cp.Time, Status: cp.Status, Final: cp.Redirect, Hops: 1})
		}
		return out, nil
	}
}

// movedByRedirect is a live page that a historical redirect of the dead
// URL leads to.
type movedByRedirect struct {
	uri, title string
	permanent  bool
	// signals are the judge's of the page known by the redirect alone,
	// confidence the model's of them.
	signals    map[string]float64
	confidence float64
}

// startRedirects asks the archive for target's historical redirects
// while the Finder runs; the returned function waits for the answer. With
// no lister it returns nil.
func (fx *fixer) startRedirects(ctx context.Context, target string) func() ([]pastRedirect, error) {
	if fx.redirects == nil {
		return nil
	}
	type answer struct {
		rs  []pastRedirect
		err error
	}
	ch := make(chan answer, 1)
	go func() {
		rs, err := fx.redirects(countAs(ctx, serviceArchive), target)
		ch <- answer{rs, err}
	}()
	return func() ([]pastRedirect, error) {
		a := <-ch
		return a.rs, a.err
	}
}

// historicalRedirect waits for the redirects wait gives and checks their
// targets, the latest capture first: the first that answers 2xx and is
// no soft 404 is returned. What each redirect showed is added to r's
// evidence.
func (fx *fixer) historicalRedirect(ctx context.Context, target string, wait func() ([]pastRedirect, error), r *repair.Result) *movedByRedirect {
	if wait == nil {
		return nil
	}
	rs, err := wait()
	if err != nil {
		r.Evidence = append(r.Evidence, repair.Evidence{Kind: "redirect", Detail: "the archive could not list historical redirects: " + err.Error()})
		return nil
	}
	tried := map[string]bool{schemeless(target): true}
	checks := 0
	for _, rd := range slices.Backward(rs) {
		if rd.Final == "" {
			continue
		}
		to := canonOr(rd.Final)
		if tried[schemeless(to)] || checks == maxRedirectChecks {
			continue
		}
		tried[schemeless(to)] = true
		status := rd.Status
		said := fmt.Sprintf("archived %d on %s to %s", status, rd.Captured.Format("2006-01-02"), rd.Final)
		if rd.Hops > 1 {
			said += fmt.Sprintf(" (%d redirects)", rd.Hops)
		}
		if isHome(to) && !isHome(target) {
			r.Evidence = append(r.Evidence, repair.Evidence{Kind: "redirect", Detail: said + ": a site's home page, which says the page is gone, not where"})
			continue
		}
		checks++
		p, dead := fx.seenAlive(ctx, rd.Final)
		switch {
		case ctx.Err() != nil:
			return nil
		case dead != nil:
			r.Evidence = append(r.Evidence, repair.Evidence{Kind: "redirect", Detail: said + ", which " + dead.Detail + " now"})
			continue
		}
		m := &movedByRedirect{uri: canonOr(p.URI), permanent: status == 301 || status == 308}
		if p.URI == "" {
			m.uri = to
		}
		m.signals = relink.WithRedirect(nil, m.permanent)
		m.confidence = fx.model.Confidence(m.signals)
		if body, _, err := backlink.Decode(p.Body, p.Header.Get("Content-Type")); err == nil {
			m.title = backlink.Title(body)
		}
		r.Evidence = append(r.Evidence, repair.Evidence{Kind: "redirect", Detail: fmt.Sprintf("%s, which answers %d and is no soft 404", said, p.Status)})
		return m
	}
	return nil
}

// isHome reports whether a canonical URI is a site's home page.
func isHome(uri string) bool {
	u, err := url.Parse(uri)
	return err == nil && (u.Path == "" || u.Path == "/") && u.RawQuery == ""
}

// weighRedirect folds the page a historical redirect led to into r, whose
// Finder answer (candidates, confidence, signals) is filled: the same
// first candidate gains the redirect's signal, and the judge weighs them
// together; otherwise the redirect's page is put first when its
// confidence is the higher.
func weighRedirect(model *relink.Model, r *repair.Result, m *movedByRedirect) {
	if len(r.Candidates) > 0 && schemeless(canonOr(r.Candidates[0].URI)) == schemeless(m.uri) {
		before := r.Confidence
		r.Signals = relink.WithRedirect(r.Signals, m.permanent)
		r.Confidence = model.Confidence(r.Signals)
		r.Evidence = append(r.Evidence, repair.Evidence{Kind: "redirect", Detail: fmt.Sprintf(
			"the first candidate is where the archived redirect leads: confidence %.2f with the redirect, %.2f without", r.Confidence, before)})
		return
	}
	if m.confidence <= r.Confidence && len(r.Candidates) > 0 {
		r.Evidence = append(r.Evidence, repair.Evidence{Kind: "redirect", Detail: fmt.Sprintf(
			"the archived redirect leads elsewhere than the first candidate, with less confidence (%.2f against %.2f)", m.confidence, r.Confidence)})
		return
	}
	if len(r.Candidates) > 0 {
		r.Evidence = append(r.Evidence, repair.Evidence{Kind: "redirect", Detail: fmt.Sprintf(
			"the archived redirect's page comes before the first candidate %s, with more confidence (%.2f against %.2f)", r.Candidates[0].URI, m.confidence, r.Confidence)})
	}
	r.Candidates = slices.DeleteFunc(r.Candidates, func(c repair.Candidate) bool { return schemeless(canonOr(c.URI)) == schemeless(m.uri) })
	r.Candidates = slices.Insert(r.Candidates, 0, repair.Candidate{URI: m.uri, Title: m.title})
	r.Confidence, r.Signals = m.confidence, m.signals
}
