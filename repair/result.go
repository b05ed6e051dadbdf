package repair

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Verdict is what became of a dead URL.
type Verdict string

// The verdicts of relink fix (INTERFACES.md, "relink fix").
const (
	// Alive means the URL answers 2xx itself and is no soft 404;
	// Result.URI is the URL as given.
	Alive Verdict = "alive"
	// Moved means the URL redirects to a live page that is no soft 404,
	// or a candidate reached the threshold; Result.URI is the new home.
	Moved Verdict = "moved"
	// Gone means evidence was gathered and no candidate reached the
	// threshold; Result.URI is "".
	Gone Verdict = "gone"
	// Unknown means no decision could be made (no evidence, or the
	// services failed); Result.Error says why.
	Unknown Verdict = "unknown"
)

// Verdicts lists the verdicts in the order reports count them.
func Verdicts() []Verdict { return []Verdict{Moved, Gone, Alive, Unknown} }

// Result is the answer for one dead URL: one object of relink fix -o
// jsonl. Its JSON form has every field of INTERFACES.md, always, in that
// order: a nil slice is written [], a nil Archive null.
type Result struct {
	Dead       string      `json:"dead"`
	Sources    []string    `json:"sources"`
	Verdict    Verdict     `json:"verdict"`
	URI        string      `json:"uri"`
	Confidence float64     `json:"confidence"` // in [0, 1]
	Candidates []Candidate `json:"candidates"`
	Queries    []string    `json:"queries"`
	Backlinks  []Backlink  `json:"backlinks"`
	Archive    *Archive    `json:"archive"` // nil when no archive had a copy
	Evidence   []Evidence  `json:"evidence"`
	// Signals are what the judge saw of the first candidate, by name
	// (relink.Result.Signals, with an archived redirect's), the
	// confidence's reasons.
	Signals map[string]float64 `json:"signals"`
	Calls   Calls              `json:"calls"`
	Error   string             `json:"error"`
}

// Candidate is a page that may be the dead URL's new home, in rank order.
type Candidate struct {
	URI     string  `json:"uri"`
	Title   string  `json:"title"`
	Snippet string  `json:"snippet"`
	Score   float64 `json:"score"`
}

// Backlink is a page that links to the dead URL, kept as evidence or
// rejected (Reason says why). Anchor holds the anchor texts of its links
// to the dead URL, and Context the words a person sees around them (the
// paper's radius of 10 words on each side, anchors included), both ""
// for a page that was not kept. Context is left out of the JSON when
// empty, so that the object stays that of INTERFACES.md: a reader of
// older results sees none.
type Backlink struct {
	URI     string `json:"uri"`
	Kept    bool   `json:"kept"`
	Reason  string `json:"reason"`
	Anchor  string `json:"anchor"`
	Context string `json:"context,omitempty"`
}

// Archive is an archived copy of the dead page.
type Archive struct {
	URI   string `json:"uri"`
	Title string `json:"title"`
	Text  string `json:"text"`
}

// Evidence is one reason behind a verdict, such as {"title", "candidate
// title equals the archived title"}.
type Evidence struct {
	Kind   string `json:"kind"`
	Detail string `json:"detail"`
}

// Calls counts the HTTP requests actually sent to remote services for one
// dead URL (robots.txt, soft-404 probes and retries included; cache hits
// not).
type Calls struct {
	Fetch     int `json:"fetch"`
	Search    int `json:"search"`
	Archive   int `json:"archive"`
	Backlinks int `json:"backlinks"`
}

// MarshalJSON writes r.Redacted (no URL password but in dead and
// sources) with [] for its nil slices and {} for no signals, so that every
// field has one JSON type.
func (r Result) MarshalJSON() ([]byte, error) {
	type plain Result // without this method
	p := plain(r.Redacted())
	p.Sources = nonNil(p.Sources)
	p.Candidates = nonNil(p.Candidates)
	p.Queries = nonNil(p.Queries)
	p.Backlinks = nonNil(p.Backlinks)
	p.Evidence = nonNil(p.Evidence)
	if p.Signals == nil {
		p.Signals = map[string]float64{}
	}
	// Not json.Marshal, which would escape < > & for HTML: the caller's
	// encoder decides that (WriteJSONL does not).
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(p); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// DefaultMaxResultLine bounds one line of ReadResults: a result with its
// archived text and candidates' snippets stays far below 64 MiB.
const DefaultMaxResultLine = 64 << 20

// ErrResults is the cause of a malformed results file (ReadResults).
var ErrResults = errors.New("repair: malformed results")

// ReadResults reads results written by WriteJSONL: one JSON object a
// line, blank lines skipped, unknown fields ignored. A line that is not a
// Result, or over DefaultMaxResultLine bytes, is an error naming its line
// that matches ErrResults. It never panics.
func ReadResults(r io.Reader) ([]Result, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), DefaultMaxResultLine)
	var out []Result
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var res Result
		if err := json.Unmarshal(line, &res); err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrResults, n, err)
		}
		out = append(out, res)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: line %d: %v", ErrResults, n+1, err)
	}
	return out, nil
}

// Moves returns the repairs the results support at threshold: dead URL →
// new URI for every Moved result with a URI whose Confidence is at least
// threshold: the map a Rewriter applies. When one dead URL has several
// such results, the first counts.
func Moves(results []Result, threshold float64) map[string]string {
	m := map[string]string{}
	for _, r := range results {
		if r.Verdict != Moved || r.URI == "" || r.Confidence < threshold {
			continue
		}
		if _, seen := m[r.Dead]; !seen {
			m[r.Dead] = r.URI
		}
	}
	return m
}
