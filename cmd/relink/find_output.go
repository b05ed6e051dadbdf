package main

import (
	"fmt"
	"io"
	"time"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/lexsig"
)

// output is what -json prints.
type output struct {
	URI string `json:"uri"`
	// Method is "paper" or a strategy's name; Search the engine; DF where
	// the document frequencies came from.
	Method string   `json:"method"`
	Search string   `json:"search"`
	DF     outputDF `json:"df"`
	// Signature is the paper's method's ranked terms (empty for a
	// strategy, whose terms are in its queries).
	Signature []outputTerm `json:"signature"`
	// Query is the first query sent, Queries every one in order, and Step
	// what produced the candidates when a strategy chooses among several.
	Query   string   `json:"query"`
	Queries []string `json:"queries"`
	Step    string   `json:"step,omitempty"`
	// Archive is the archived copy an archive method read; Redirects the
	// missing URI's historical redirects, with -archive wayback.
	Archive    *outputArchive    `json:"archive,omitempty"`
	Redirects  []outputRedirect  `json:"redirects,omitempty"`
	Candidates []outputCandidate `json:"candidates"`
	// Confidence is how sure the answer is that the first candidate is
	// the page (relink.Result.Confidence); Found whether it reached the
	// threshold (Threshold), and Answer is then that candidate's URI.
	Confidence float64 `json:"confidence"`
	// Signals are what the judge saw of the first candidate
	// (relink.Result.Signals), Contributions what each added to the
	// log-odds (relink.Model.Contributions).
	Signals       map[string]float64 `json:"signals,omitempty"`
	Contributions map[string]float64 `json:"contributions,omitempty"`
	Threshold     float64            `json:"threshold"`
	Found         bool               `json:"found"`
	Answer        string             `json:"answer"`
	Backlinks     []outputBacklink   `json:"backlinks"`
	// Notes are what went wrong without stopping the run (an archive that
	// failed, no query), as printed on stderr.
	Notes []string `json:"notes,omitempty"`
	// Error says why no query could be formed (relink.ErrNoQuery), or is
	// empty.
	Error string `json:"error,omitempty"`
	// Fetches counts the candidate pages the method fetched.
	Fetches int     `json:"fetches,omitempty"`
	Seconds float64 `json:"seconds"`
}

// outputDF says where document frequencies came from.
type outputDF struct {
	// Source names the numbers, as the DF cache does (see dfSourceName).
	Source string         `json:"source"`
	Cache  *outputDFCache `json:"cache,omitempty"`
}

// outputDFCache counts the term lookups of a -df-cache file in this run.
type outputDFCache struct {
	File   string `json:"file"`
	Hits   int64  `json:"hits"`   // answered from the file
	Misses int64  `json:"misses"` // asked of the DF behind it
	Stored int64  `json:"stored"` // written to the file
}

// outputTerm is one term of a signature, with its weight (Equation 1).
type outputTerm struct {
	Term   string  `json:"term"`
	TF     int     `json:"tf"`
	DF     int64   `json:"df"`
	Weight float64 `json:"weight"`
}

type outputCandidate struct {
	Rank  int    `json:"rank"`
	URI   string `json:"uri"`
	Title string `json:"title,omitempty"`
	// Score is the engine's relevance score, when it reports one.
	Score float64 `json:"score,omitempty"`
}

type outputBacklink struct {
	URI    string `json:"uri"`
	Rank   int    `json:"rank"`
	Level  int    `json:"level"`
	Kept   bool   `json:"kept"`
	Filter string `json:"filter,omitempty"`
	Reason string `json:"reason,omitempty"`
	Words  int    `json:"words"`
	// Via is the page a level-2 backlink links to.
	Via string `json:"via,omitempty"`
	// Fetches counts the requests inspecting the page made.
	Fetches int `json:"fetches,omitempty"`
}

// makeOutput returns the output of res, with the top n terms of its
// signature.
func makeOutput(res *relink.Result, n int) output {
	out := output{
		URI:        res.URI,
		Query:      res.Query.String(),
		Signature:  []outputTerm{},
		Queries:    []string{},
		Candidates: []outputCandidate{},
		Backlinks:  []outputBacklink{},
		Step:       res.Step,
		Fetches:    res.Fetches,
		Confidence: res.Confidence,
		Found:      res.Found,
		Signals:    res.Signals,
	}
	if len(res.Signals) > 0 {
		out.Contributions = relink.DefaultModel().Contributions(res.Signals)
	}
	if res.Found {
		out.Answer = res.Candidates[0].URI
	}
	out.Signature = append(out.Signature, terms(res.Signature.Top(n))...)
	for _, q := range res.Queries {
		out.Queries = append(out.Queries, q.String())
	}
	for _, c := range res.Candidates {
		out.Candidates = append(out.Candidates, outputCandidate{c.Rank, c.URI, c.Title, c.Score})
	}
	for _, b := range res.Backlinks {
		ob := outputBacklink{
			URI: b.URI, Rank: b.Rank, Level: b.Level, Kept: b.Kept,
			Filter: b.Filter, Reason: b.Reason, Words: b.Words, Fetches: b.Fetches,
		}
		if b.Level > 1 {
			ob.Via = b.Via
		}
		out.Backlinks = append(out.Backlinks, ob)
	}
	return out
}

func printText(w io.Writer, out output) {
	kept := 0
	for _, b := range out.Backlinks {
		if b.Kept {
			kept++
		}
	}
	fmt.Fprintf(w, "missing:   %s\n", out.URI)
	fmt.Fprintf(w, "method:    %s\n", out.Method)
	fmt.Fprintf(w, "search:    %s\n", out.Search)
	fmt.Fprintf(w, "df:        %s", out.DF.Source)
	if c := out.DF.Cache; c != nil {
		fmt.Fprintf(w, " (cache %s: %d from the file, %d asked)", c.File, c.Hits, c.Misses)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "backlinks: %d found, %d kept\n", len(out.Backlinks), kept)
	for _, b := range out.Backlinks {
		switch {
		case b.Kept && len(out.Signature) > 0: // the paper's method counts words
			fmt.Fprintf(w, "  %4d  kept      %s (%d words)\n", b.Rank, b.URI, b.Words)
		case b.Kept:
			fmt.Fprintf(w, "  %4d  kept      %s\n", b.Rank, b.URI)
		default:
			fmt.Fprintf(w, "  %4d  %-9s %s: %s\n", b.Rank, b.Filter, b.URI, b.Reason)
		}
	}
	if len(out.Signature) > 0 {
		fmt.Fprintln(w)
		printTerms(w, out.Signature)
	}
	if a := out.Archive; a != nil {
		fmt.Fprintf(w, "\narchived copy (%s): ", a.Service)
		if a.Captured != nil {
			fmt.Fprintf(w, "captured %s UTC, ", a.Captured.UTC().Format(time.DateTime))
		}
		fmt.Fprintln(w, a.Location)
	}
	if out.Redirects != nil {
		printRedirects(w, out.Redirects)
	}
	fmt.Fprintln(w)
	switch len(out.Queries) {
	case 0:
		fmt.Fprintln(w, "no query: the backlinks gave nothing to search")
	case 1:
		fmt.Fprintf(w, "query: %s\n", out.Queries[0])
	default:
		fmt.Fprintln(w, "queries:")
		for i, q := range out.Queries {
			fmt.Fprintf(w, "  %d  %s\n", i+1, q)
		}
	}
	if out.Step != "" {
		fmt.Fprintf(w, "step: %s\n", out.Step)
	}
	if len(out.Candidates) == 0 {
		fmt.Fprintln(w, "no candidates")
	}
	for _, c := range out.Candidates {
		mark := ""
		if u, err := canon.Canonicalize(c.URI); err == nil && u == out.URI {
			mark = "   <- the missing page itself"
		}
		fmt.Fprintf(w, "%4d  %s%s\n", c.Rank, c.URI, mark)
	}
	switch {
	case out.Found:
		fmt.Fprintf(w, "answer: %s (confidence %.2f)\n", out.Answer, out.Confidence)
	case len(out.Candidates) > 0:
		fmt.Fprintf(w, "answer: not found (confidence %.2f, below %.2f)\n", out.Confidence, out.Threshold)
	}
	if len(out.Signals) > 0 {
		fmt.Fprintf(w, "why: %s\n", signalsDetail(relink.DefaultModel(), out.Signals))
	}
	fmt.Fprintf(w, "(%.0f ms)\n", out.Seconds*1000)
}

// printRedirects prints the historical redirects of the missing URI: for
// each redirect capture, the chain it started, a hop a line, with the time
// of the capture that gave the hop.
func printRedirects(w io.Writer, rs []outputRedirect) {
	fmt.Fprintf(w, "\nhistorical redirects (wayback): %d\n", len(rs))
	for _, r := range rs {
		for _, h := range r.Hops {
			fmt.Fprintf(w, "  %s UTC  %d  %s -> %s\n", h.Time.UTC().Format(time.DateTime), h.Status, h.From, h.To)
		}
		switch {
		case r.Loop:
			fmt.Fprintln(w, "    (the chain loops)")
		case r.TooManyHops:
			fmt.Fprintln(w, "    (still redirecting after the last hop followed)")
		}
	}
}

// terms returns the output of a signature's terms.
func terms(sig lexsig.Signature) []outputTerm {
	out := make([]outputTerm, 0, len(sig))
	for _, t := range sig {
		out = append(out, outputTerm{t.Text, t.TF, t.DF, t.Weight})
	}
	return out
}

// printTerms prints a signature as a table.
func printTerms(w io.Writer, ts []outputTerm) {
	fmt.Fprintf(w, "%-20s %4s %8s %8s\n", "term", "tf", "df", "weight")
	for _, t := range ts {
		fmt.Fprintf(w, "%-20s %4d %8d %8.3f\n", t.Term, t.TF, t.DF, t.Weight)
	}
}
