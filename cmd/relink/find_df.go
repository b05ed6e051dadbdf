package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/cache"
	"github.com/linkrot/relink/provider/dfcache"
	"github.com/linkrot/relink/provider/dftable"
)

// DefaultDocs is |D| for -df search: the number of documents a search
// engine's hit counts are counted out of (§2.1 "TFIDF", Equation 3).
// The paper estimated it from the size of Yahoo!'s index that
// worldwidewebsize.com gave on 2010-11-01; the same site put the indexed
// web at "at least 4.31 billion pages" on 2024-11-20 (its estimate from
// Google's and Bing's hit counts, less their overlap, which the site says
// makes it an underestimate). Yahoo! no longer reports counts, so this
// stands for every engine; set -docs to an engine's own index size when
// it is known.
const DefaultDocs int64 = 4_310_000_000

// dfKinds are the values of -df.
var dfKinds = []string{"store", "search", "table"}

// dfConfig is what the command line says about document frequencies.
type dfConfig struct {
	kind      string // store, search or table
	table     string // -df-table FILE
	docs      int64  // -docs, |D| for search
	cache     string // -df-cache FILE, empty for none
	storePath string
	// records, when not nil, keeps the numbers of a DF other than the
	// store's (relink worker: the queue's table), under the name named
	// gives their source (liveConfig.cacheName).
	records cache.Records
	named   func(source string) string
}

// dfSetup is the DF a run uses and what it is made of.
type dfSetup struct {
	df     lexsig.DF
	source string          // names the numbers, as a DF cache's source name
	cached *dfcache.Source // the DF cache in front, nil without -df-cache
	file   string          // the DF cache's file
	close  func() error    // releases the DF cache's file; never nil
}

// openDF returns the DF c names: the store's exact counts, the search
// engine's hit counts over c.docs, or a table file; with c.cache, behind a
// persistent DF cache whose source name says where the numbers come from
// (see dfSourceName). The DF is also behind an in-memory cache, so that
// each term is looked up once per run however many queries use it.
func openDF(ctx context.Context, c dfConfig, view storeView, e *engine) (*dfSetup, error) {
	var (
		df     lexsig.DF
		source string
	)
	switch {
	case c.kind == "store" && view == nil:
		// No store: fix's site index gives each dead link its site's
		// numbers (fix_site.go); nothing may ask this one.
		df, source = noStoreDF{}, "site"
	case c.kind == "store":
		docs, err := view.Docs(ctx)
		if err != nil {
			return nil, fmt.Errorf("-df store: %w", err)
		}
		df, source = view, dfSourceName("store:"+storeLabel(c.storePath), docs)
	case c.kind == "search":
		if e.hitCount == nil {
			why := ""
			if w := noHitCounts[e.name]; w != "" {
				why = " (" + w + ")"
			}
			return nil, usagef("-df search: %s reports no hit counts%s; the engines that do are %s (or use -df store or -df table)", e.name, why, strings.Join(hitCountEngines, ", "))
		}
		df, source = e.hitCount.WithDocs(c.docs), dfSourceName(e.source, c.docs)
	case c.kind == "table" && c.table == "":
		mem, h, err := defaultDF()
		if err != nil {
			return nil, err
		}
		df, source = mem, dfSourceName("table:"+h.Source, h.Docs)
	case c.kind == "table":
		f, err := os.Open(c.table)
		if err != nil {
			return nil, fmt.Errorf("-df-table: %w", err)
		}
		mem, h, err := dftable.Read(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("-df-table %s: %w", c.table, err)
		}
		name := h.Source
		if name == "" {
			name = filepath.Base(c.table)
		}
		df, source = mem, dfSourceName("table:"+name, h.Docs)
	default:
		return nil, usagef("unknown -df %s: want one of %s", quoteArg(c.kind), strings.Join(dfKinds, ", "))
	}
	s := &dfSetup{source: source, close: func() error { return nil }}
	if c.records != nil && c.kind != "store" {
		df = &cache.DF{Dir: c.records, Name: c.named(source), DF: df}
	}
	if c.cache != "" {
		db, err := dfcache.Open(c.cache, nil)
		if err != nil {
			return nil, fmt.Errorf("-df-cache: %w", err)
		}
		s.cached, s.file, s.close = db.Wrap(df, source), c.cache, db.Close
		df = s.cached
	}
	s.df = lexsig.NewCache(df)
	return s, nil
}

// noStoreDF is the DF of a run without a store where each dead link gets
// its own (fix's site index): every lookup is an error.
type noStoreDF struct{}

// errNoStoreDF is noStoreDF's answer.
var errNoStoreDF = errors.New("no store to take document frequencies from")

func (noStoreDF) DocFreq(context.Context, string) (int64, error) { return 0, errNoStoreDF }
func (noStoreDF) Docs(context.Context) (int64, error)            { return 0, errNoStoreDF }

// dfSourceName names a DF's numbers in a DF cache: where they come from
// and |D|, as in "google/|D|=4310000000", "searxng@search.example.org/|D|=…",
// "store:relink.db/|D|=4532" or "table:yahoo-2009/|D|=20000000000". A
// different |D| is a different source, so that values counted against one
// size are never mixed with another's.
func dfSourceName(from string, docs int64) string {
	return from + "/|D|=" + strconv.FormatInt(docs, 10)
}

// output returns what the output says of the DF.
func (s *dfSetup) output() outputDF {
	out := outputDF{Source: s.source}
	if s.cached != nil {
		st := s.cached.Stats()
		out.Cache = &outputDFCache{File: s.file, Hits: st.Hits, Misses: st.Misses, Stored: st.Stored}
	}
	return out
}
