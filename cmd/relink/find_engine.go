package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/brave"
	"github.com/linkrot/relink/provider/google"
	"github.com/linkrot/relink/provider/marginalia"
	"github.com/linkrot/relink/provider/mojeek"
	"github.com/linkrot/relink/provider/searchapi"
	"github.com/linkrot/relink/provider/searxng"
)

// engineNames are the values of -search: the store, then the live search
// APIs.
var engineNames = []string{"store", "google", "brave", "marginalia", "mojeek", "searxng"}

// unknownEngine is the usage error of a -search value that names no
// engine; also lists the values a subcommand takes besides engineNames.
func unknownEngine(name string, also ...string) error {
	return usagef("unknown -search %s: want one of %s", quoteArg(name), strings.Join(slices.Concat(also, engineNames), ", "))
}

// hitCountEngines are the engines whose hit counts -df search turns into
// document frequencies (besides the store, whose counts are exact).
// Brave and Marginalia report none, and SearXNG no longer does (it
// dropped number_of_results on 2026-05-25: see noHitCounts).
var hitCountEngines = []string{"google", "mojeek"}

// noHitCounts says why an engine that once gave hit counts gives none,
// for the refusal of -df search.
var noHitCounts = map[string]string{
	"searxng": "SearXNG dropped number_of_results from its answers on 2026-05-25",
}

// noOrEngines have no OR operator: their providers refuse a disjunctive
// query, so -or is refused before any request.
var noOrEngines = []string{"marginalia", "mojeek"}

// engineConfig is what the command line says about the search service.
type engineConfig struct {
	name      string
	baseURL   string // -search-url; empty means the service's own
	key, cx   string // -key and -cx; empty means the environment's
	userAgent string
	rate      rate.Limit // zero means the provider's default
	net       netConfig  // -proxy and -ca
}

// searchClient is what every live search provider is.
type searchClient interface {
	lexsig.Searcher
	CloseIdleConnections()
}

// hitCounter is the optional ability of a search provider to report how
// many pages match a query (google, mojeek, searxng).
type hitCounter interface {
	HitCount(ctx context.Context, q string) (int64, error)
}

// engine is a live search service, ready to use.
type engine struct {
	name   string
	client searchClient
	// hitCount answers hit counts; nil when the engine reports none.
	hitCount lexsig.DFFunc
	// source names the engine's numbers in a DF cache: the engine's name,
	// and for SearXNG the instance's host too, since each instance asks
	// engines of its own.
	source string
}

// newEngine returns the live search service c names. Keys come from c (the
// -key and -cx flags), else from the variables the provider packages name;
// a key that is missing is an error before any request. Errors never hold
// a key.
func newEngine(c engineConfig) (*engine, error) {
	// setting returns flagValue, else $env, else def; with none of them,
	// an error that says where it comes from.
	setting := func(flagValue, env, def, what, flagName string) (string, error) {
		if v := cmp.Or(flagValue, os.Getenv(env), def); v != "" {
			return v, nil
		}
		return "", usagef("-search %s needs %s: set $%s or pass %s", c.name, what, env, flagName)
	}
	apiKey := func(env, def string) (string, error) { return setting(c.key, env, def, "an API key", "-key") }
	var (
		client      searchClient
		k, cx, base string
		err         error
		source      = c.name
		transport   = searchapi.Transport{HTTP: c.net.serviceClient(), UserAgent: c.userAgent, Rate: c.rate}
	)
	switch c.name {
	case "google":
		if k, err = apiKey(google.KeyEnv, ""); err != nil {
			return nil, err
		}
		if cx, err = setting(c.cx, google.CXEnv, "", "a Programmable Search Engine ID", "-cx"); err != nil {
			return nil, err
		}
		client, err = google.New(google.Options{Key: k, CX: cx, BaseURL: c.baseURL, Transport: transport})
	case "brave":
		if k, err = apiKey(brave.KeyEnv, ""); err != nil {
			return nil, err
		}
		client, err = brave.New(brave.Options{Key: k, BaseURL: c.baseURL, Transport: transport})
	case "marginalia":
		k, _ = apiKey(marginalia.KeyEnv, marginalia.PublicKey)
		client, err = marginalia.New(marginalia.Options{Key: k, BaseURL: c.baseURL, Transport: transport})
	case "mojeek":
		if k, err = apiKey(mojeek.KeyEnv, ""); err != nil {
			return nil, err
		}
		client, err = mojeek.New(mojeek.Options{Key: k, BaseURL: c.baseURL, Transport: transport})
	case "searxng":
		if base, err = setting(c.baseURL, searxng.URLEnv, "", "the instance's URL", "-search-url"); err != nil {
			return nil, err
		}
		if u, perr := url.Parse(base); perr == nil && u.Host != "" {
			source += "@" + u.Host // never u.User
		}
		client, err = searxng.New(searxng.Options{BaseURL: base, Transport: transport})
	default:
		return nil, unknownEngine(c.name)
	}
	if err != nil {
		// The provider refused its options (a -search-url that is no
		// URL, say): the command line is wrong.
		return nil, usage(fmt.Errorf("-search %s: %w", c.name, err))
	}
	e := &engine{name: c.name, client: client, source: source}
	if h, ok := client.(hitCounter); ok && slices.Contains(hitCountEngines, c.name) {
		e.hitCount = h.HitCount
	}
	return e, nil
}

// noOrSearcher is the searcher of an engine without an OR operator: a
// disjunctive query of several terms, which the engine refuses (an error
// wrapping searchapi.ErrUnsupportedQuery), finds nothing instead, so that
// a method that sends one among others (the default method's fusion)
// goes on with the rest rather than failing the whole search.
type noOrSearcher struct{ s lexsig.Searcher }

func (n noOrSearcher) Search(ctx context.Context, q lexsig.Query, limit int) ([]lexsig.Result, error) {
	res, err := n.s.Search(ctx, q, limit)
	if q.Mode == lexsig.Disjunctive && errors.Is(err, searchapi.ErrUnsupportedQuery) {
		return nil, nil
	}
	return res, err
}

var _ lexsig.Searcher = noOrSearcher{}

// envHelp lists the environment variables newEngine reads, a line each,
// for the usage.
func envHelp() string {
	return fmt.Sprintf(`  google      $%s and $%s
  brave       $%s
  marginalia  $%s (default Marginalia's shared key %q)
  mojeek      $%s
  searxng     $%s (the instance's URL)`,
		google.KeyEnv, google.CXEnv, brave.KeyEnv, marginalia.KeyEnv, marginalia.PublicKey, mojeek.KeyEnv, searxng.URLEnv)
}
