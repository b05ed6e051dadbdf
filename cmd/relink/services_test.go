package main

import (
	"context"
	"flag"
	"io"
	"math"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"

	"github.com/linkrot/relink/provider/memento"
)

// TestArchiveRate checks that each service keeps its own rate: -rate is
// the search engine's (and, with -fetch web, each host's), -archive-rate
// the archive's, whose zero leaves the archive its documented default
// (the Wayback Machine's CDX 0.4 a second, 24 of the 30 a minute it
// allows). -rate 1 used to set the CDX rate too: 60 a minute, and the
// archive dropped for the run at its second 429.
func TestArchiveRate(t *testing.T) {
	const fake = "http://127.0.0.1:1"
	tests := []struct {
		name   string
		args   []string
		search float64
		arch   rate.Limit // zero: the archive's default
	}{
		{"-rate is the search's alone", []string{"-archive", "wayback", "-rate", "1"}, 1, 0},
		{"-archive-rate", []string{"-archive", "wayback", "-rate", "1", "-archive-rate", "0.2"}, 1, 0.2},
		{"-archive-rate alone", []string{"-archive", "wayback", "-archive-rate", "0.3"}, 0, 0.3},
		{"memento", []string{"-archive", "memento", "-archive-url", fake, "-rate", "5", "-archive-rate", "0.5"}, 5, 0.5},
		{"memento's default", []string{"-archive", "memento", "-archive-url", fake, "-rate", "5"}, 5, 0},
		{"ccindex", []string{"-archive", "ccindex", "-rate", "inf", "-archive-rate", "2"}, math.Inf(1), 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c liveConfig
			fs := flag.NewFlagSet("test", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			c.register(fs)
			require.NoError(t, fs.Parse(append([]string{"-no-cache", "-search", "marginalia", "-search-url", fake}, tt.args...)))
			set := map[string]bool{}
			fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
			require.NoError(t, c.check(set))
			sv, err := c.dial()
			require.NoError(t, err)
			defer sv.close()
			var got rate.Limit
			switch a := sv.arch; {
			case a.wayback != nil:
				got = a.wayback.Rate
			case a.ccindex != nil:
				got = a.ccindex.Rate
				if a.ccindex.DataRate != got {
					t.Errorf("ccindex rates %v and %v, want both %v", a.ccindex.Rate, a.ccindex.DataRate, tt.arch)
				}
			default:
				got = a.log.Fetcher.(*memento.Client).Rate
			}
			if got != tt.arch {
				t.Errorf("%q: the archive's rate = %v, want %v", tt.args, got, tt.arch)
			}
			if c.rate != tt.search {
				t.Errorf("%q: -rate = %v, want %v", tt.args, c.rate, tt.search)
			}
		})
	}
	// A worker keeps the rates in the shared limits, each service at its
	// own: the archive's transport waits at -archive-rate, the engine's
	// at -rate.
	var c liveConfig
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	c.register(fs)
	require.NoError(t, fs.Parse([]string{"-no-cache", "-search", "marginalia", "-search-url", fake, "-archive", "wayback", "-rate", "1", "-archive-rate", "0.2"}))
	c.shared = &shared{} // no request is sent: its limits are not reached
	sv, err := c.dial()
	require.NoError(t, err)
	defer sv.close()
	if tr, ok := sv.arch.wayback.HTTP.Transport.(limitedTransport); !ok || tr.rate != 0.2 {
		t.Errorf("a worker's archive transport %#v, want the shared limits at -archive-rate 0.2", sv.arch.wayback.HTTP.Transport)
	}

	c = liveConfig{}
	fs = flag.NewFlagSet("test", flag.ContinueOnError)
	c.register(fs)
	require.NoError(t, fs.Parse([]string{"-archive", "wayback", "-archive-rate", "-1"}))
	if err := c.check(map[string]bool{"archive-rate": true}); err == nil {
		t.Errorf("-archive-rate -1: no error, want a usage error")
	}
}

// TestServiceClientOutlastsMemGator checks that the services' HTTP client
// (made for -proxy, -ca or a worker) waits for a MemGator server's headers
// longer than the memento client's own bound: MemGator sends them only
// when every archive has answered, up to 60 s each, and a header timeout
// of a minute cut its slowest answers.
func TestServiceClientOutlastsMemGator(t *testing.T) {
	nc, err := newNetConfig(context.Background(), "http://127.0.0.1:1", "")
	require.NoError(t, err)
	tr, ok := nc.serviceClient().Transport.(*http.Transport)
	require.True(t, ok)
	if tr.ResponseHeaderTimeout <= memento.DefaultTimeout {
		t.Errorf("ResponseHeaderTimeout %v, want more than memento.DefaultTimeout (%v)", tr.ResponseHeaderTimeout, memento.DefaultTimeout)
	}
}
