package site

import (
	"net/url"
	"path"
	"strings"
	"time"

	"github.com/linkrot/relink/lexsig"
)

// Clues are what is known of the missing page, the words a link must
// share with it to be followed first. Any field may be empty.
type Clues struct {
	// Anchors are the anchor texts of the links to the missing page.
	Anchors []string
	// Signature are the terms of its lexical signature.
	Signature []string
	// URI is the missing page's URI, whose path words count.
	URI string
	// Title is its title, from an archived copy.
	Title string
	// Since, when not zero, is when the missing page was last seen alive
	// at its address (an archived copy's date): a sitemap URL whose
	// <lastmod> is later was published or changed after that, as a page
	// moved to a new address is. Zero means unknown: the sitemap's newer
	// half of its dated URLs are taken as the recent ones.
	Since time.Time
}

// uriNoise are the words of paths that name a file's kind or a
// directory's index rather than what a page is about.
var uriNoise = map[string]bool{
	"html": true, "htm": true, "shtml": true, "xhtml": true, "php": true,
	"asp": true, "aspx": true, "jsp": true, "cgi": true, "index": true,
	"default": true, "www": true, "http": true, "https": true,
}

// scorer weighs a link by the clue words its anchor and URL share.
type scorer struct {
	// weight of each clue term: the number of kinds of clue (anchors,
	// signature, URI, title) that hold it, so that a word the anchors
	// and the old path agree on counts more than a word of one.
	weight map[string]float64
}

// newScorer returns the scorer of c.
func newScorer(c Clues) *scorer {
	s := &scorer{weight: map[string]float64{}}
	kinds := [][]string{
		lexsig.Tokenize(strings.Join(c.Anchors, " ")),
		lexsig.Tokenize(strings.Join(c.Signature, " ")),
		uriWords(c.URI),
		lexsig.Tokenize(c.Title),
	}
	for _, terms := range kinds {
		seen := map[string]bool{}
		for _, t := range terms {
			if seen[t] || lexsig.IsStopWord(t) || uriNoise[t] {
				continue
			}
			seen[t] = true
			s.weight[t]++
		}
	}
	return s
}

// score returns the summed weights of the distinct clue terms in anchor
// and in uri's path and query.
func (s *scorer) score(anchor, uri string) float64 {
	if len(s.weight) == 0 {
		return 0
	}
	seen := map[string]bool{}
	total := 0.0
	for _, terms := range [][]string{lexsig.Tokenize(anchor), uriWords(uri)} {
		for _, t := range terms {
			if !seen[t] {
				seen[t] = true
				total += s.weight[t]
			}
		}
	}
	return total
}

// uriWords returns the words of uri's path and query, lowercased, without
// the words that name a file's kind (uriNoise).
func uriWords(uri string) []string {
	u, err := url.Parse(uri)
	if err != nil {
		return nil
	}
	p := u.Path
	if ext := path.Ext(p); len(ext) <= 6 {
		p = strings.TrimSuffix(p, ext)
	}
	var out []string
	for _, t := range lexsig.Tokenize(p + " " + u.RawQuery) {
		if !uriNoise[t] {
			out = append(out, t)
		}
	}
	return out
}
