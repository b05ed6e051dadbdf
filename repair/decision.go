package repair

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Ruling is a person's ruling on one proposed repair.
type Ruling string

// The rulings of a decisions file.
const (
	// Accept applies the repair: the dead URL becomes Decision.URI.
	Accept Ruling = "accept"
	// Reject leaves the dead link alone.
	Reject Ruling = "reject"
)

// Decision is a person's ruling on the repair of one dead URL: URI is
// the URI chosen, the result's own or another of its candidates.
type Decision struct {
	Dead     string `json:"dead"`
	URI      string `json:"uri"`
	Decision Ruling `json:"decision"`
}

// Decisions is the decisions file that relink review writes and relink
// fix -decisions reads (INTERFACES.md, "relink review"):
//
//	{"decisions": [{"dead": URL, "uri": URL, "decision": "accept"|"reject"}]}
//
// It holds everything a rewrite needs, on its own.
type Decisions struct {
	Decisions []Decision `json:"decisions"`
}

// MaxDecisionsFile bounds the size of a decisions file ReadDecisions
// reads: a million decisions fit in it.
const MaxDecisionsFile = 64 << 20

// ErrDecisions is the cause of a malformed decisions file
// (ReadDecisions).
var ErrDecisions = errors.New("repair: malformed decisions")

// ReadDecisions reads a decisions file of at most MaxDecisionsFile bytes.
// Unknown fields are ignored. A file that is not one JSON object of that
// form, is larger, or holds a ruling other than accept and reject, or a
// decision without a dead URL, is an error matching ErrDecisions. It does
// not check that the URLs are web URLs: the caller that applies them
// does.
func ReadDecisions(r io.Reader) (*Decisions, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxDecisionsFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxDecisionsFile {
		return nil, fmt.Errorf("%w: over %d MB", ErrDecisions, MaxDecisionsFile>>20)
	}
	var d Decisions
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDecisions, err)
	}
	for i, x := range d.Decisions {
		if x.Decision != Accept && x.Decision != Reject {
			return nil, fmt.Errorf("%w: decision %d: %q is neither accept nor reject", ErrDecisions, i+1, x.Decision)
		}
		if x.Dead == "" {
			return nil, fmt.Errorf("%w: decision %d: no dead URL", ErrDecisions, i+1)
		}
	}
	return &d, nil
}

// Write writes d as JSON, indented, one decision a line, ending with a
// line break. A nil list is written [].
func (d *Decisions) Write(w io.Writer) error {
	if _, err := io.WriteString(w, "{\"decisions\": [\n"); err != nil {
		return err
	}
	for i, x := range d.Decisions {
		line, err := json.Marshal(x)
		if err != nil {
			return err
		}
		sep := ",\n"
		if i == len(d.Decisions)-1 {
			sep = "\n"
		}
		if _, err := fmt.Fprintf(w, "  %s%s", line, sep); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, "]}\n")
	return err
}

// Accepted returns the repairs d accepts, dead URL to the URI chosen: the
// map a Rewriter applies. A later decision about the same dead URL
// replaces an earlier one, and a rejection removes it.
func (d *Decisions) Accepted() map[string]string {
	m := map[string]string{}
	for _, x := range d.Decisions {
		switch x.Decision {
		case Accept:
			m[x.Dead] = x.URI
		case Reject:
			delete(m, x.Dead)
		}
	}
	return m
}
