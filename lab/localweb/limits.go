package localweb

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// A Window allows at most N requests in any span of Per (a sliding
// window). N zero means the default of the Limits field; N below zero
// means no limit.
type Window struct {
	N   int
	Per time.Duration
}

// Limits are the rate limits the services keep to, each as the service
// documents it (see the package documentation for the sources). The zero
// value means DefaultLimits; a zero Window field means its default.
type Limits struct {
	// Brave is the plan's rate and BraveMonth its monthly quota, per
	// subscription token: the free plan's 1 a second (Brave's response
	// headers page: "1;w=1") and 2,000 a month (the quota_limit of
	// recorded 429 answers).
	Brave, BraveMonth Window
	// Google is the per-minute quota and GoogleDay the daily one, per
	// API key: 100 a minute and the free 100 a day.
	Google, GoogleDay Window
	// MojeekDay is the daily limit of a key. Mojeek documents the answer
	// ("ERROR: Daily Limit Reached") but not the number, which depends on
	// the plan: 1,000 here.
	MojeekDay Window
	// MarginaliaPublic is the queries a minute all users of the key
	// "public" share, Marginalia those of any other key, and
	// MarginaliaDay the queries a day of each key. Marginalia's API
	// server counts both per key and answers 429 past either (ApiV2); a
	// key's minute is set per key in its database and unpublished (60
	// and 600 a minute here), its day 2,000 (LicenseService).
	MarginaliaPublic, Marginalia, MarginaliaDay Window
	// SearXNGBurst, SearXNGLong and SearXNGAPI are the limiter's
	// sliding windows per client address (searx/botdetection/ip_limit.py:
	// 15 in 20 s, 150 in 10 min, and 4 API requests, format other than
	// html, an hour).
	SearXNGBurst, SearXNGLong, SearXNGAPI Window
	// WaybackCDX is the CDX API's limit per client address: 24 a minute,
	// the hard limit the Internet Archive set in 2026 (edgi wayback
	// v0.5.1's release notes; earlier 60 a minute averaged over five).
	WaybackCDX Window
	// CCIndex is the Common Crawl index server's limit per client address,
	// CCData that of the data bucket's front. Common Crawl asks not to
	// overload the index and answers 503 to clients that do (and 503
	// SlowDown from the bucket), without publishing a number: 1 a second
	// and 10 a second here.
	CCIndex, CCData Window
	// Wiki is the limit of anonymous API requests per client address:
	// 500 an hour, Wikimedia's published limit for anonymous API requests
	// (the global limits rolled out in 2026 answer 429 with Retry-After).
	Wiki Window
}

// DefaultLimits returns the limits the services document, as this
// package models them.
func DefaultLimits() Limits {
	return Limits{
		Brave:            Window{1, time.Second},
		BraveMonth:       Window{2000, 30 * 24 * time.Hour},
		Google:           Window{100, time.Minute},
		GoogleDay:        Window{100, 24 * time.Hour},
		MojeekDay:        Window{1000, 24 * time.Hour},
		MarginaliaPublic: Window{60, time.Minute},
		Marginalia:       Window{600, time.Minute},
		MarginaliaDay:    Window{2000, 24 * time.Hour},
		SearXNGBurst:     Window{15, 20 * time.Second},
		SearXNGLong:      Window{150, 10 * time.Minute},
		SearXNGAPI:       Window{4, time.Hour},
		WaybackCDX:       Window{24, time.Minute},
		CCIndex:          Window{1, time.Second},
		CCData:           Window{10, time.Second},
		Wiki:             Window{500, time.Hour},
	}
}

// withDefaults returns l with every zero Window replaced by its default.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	for _, p := range []struct{ w, def *Window }{
		{&l.Brave, &d.Brave}, {&l.BraveMonth, &d.BraveMonth},
		{&l.Google, &d.Google}, {&l.GoogleDay, &d.GoogleDay},
		{&l.MojeekDay, &d.MojeekDay},
		{&l.MarginaliaPublic, &d.MarginaliaPublic}, {&l.Marginalia, &d.Marginalia}, {&l.MarginaliaDay, &d.MarginaliaDay},
		{&l.SearXNGBurst, &d.SearXNGBurst}, {&l.SearXNGLong, &d.SearXNGLong}, {&l.SearXNGAPI, &d.SearXNGAPI},
		{&l.WaybackCDX, &d.WaybackCDX},
		{&l.CCIndex, &d.CCIndex}, {&l.CCData, &d.CCData},
		{&l.Wiki, &d.Wiki},
	} {
		if p.w.N == 0 {
			*p.w = *p.def
		}
	}
	return l
}

// maxKeys is how many keys (addresses, API keys) a limiter tracks before
// it forgets them all.
const maxKeys = 10000

// limiter counts requests per key in one sliding window. The zero
// limiter (and a nil one) allows everything.
type limiter struct {
	w   Window
	now func() time.Time

	mu   sync.Mutex
	seen map[string][]time.Time // admitted requests in the window, oldest first
}

// newLimiter returns a limiter for w, or nil when w allows everything or
// relaxed is set.
func newLimiter(w Window, relaxed bool, now func() time.Time) *limiter {
	if relaxed || w.N < 0 || w.Per <= 0 {
		return nil
	}
	return &limiter{w: w, now: now, seen: make(map[string][]time.Time)}
}

// state is a limiter's view of one key after a request.
type state struct {
	ok        bool          // the request is admitted
	limit     int           // the window's N
	remaining int           // requests left in the window after this one
	reset     time.Duration // until the oldest request in the window leaves it
	window    time.Duration
}

// take admits one request for key when the window has room, counting it,
// and reports the key's state. A nil limiter admits everything.
func (l *limiter) take(key string) state {
	if l == nil {
		return state{ok: true, limit: -1, remaining: -1}
	}
	return l.check(key, true)
}

// peek reports whether a request for key would be admitted, without
// counting one.
func (l *limiter) peek(key string) state {
	if l == nil {
		return state{ok: true, limit: -1, remaining: -1}
	}
	return l.check(key, false)
}

// check is take and peek.
func (l *limiter) check(key string, count bool) state {
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	ts := l.seen[key]
	i := 0
	for i < len(ts) && now.Sub(ts[i]) >= l.w.Per {
		i++
	}
	ts = ts[i:]
	st := state{limit: l.w.N, window: l.w.Per}
	if len(ts) < l.w.N {
		st.ok = true
		if count {
			if len(l.seen) >= maxKeys {
				l.seen = make(map[string][]time.Time)
			}
			ts = append(ts, now)
		}
	}
	if len(ts) == 0 {
		delete(l.seen, key)
	} else {
		l.seen[key] = ts
	}
	st.remaining = max(0, l.w.N-len(ts))
	if len(ts) > 0 {
		st.reset = l.w.Per - now.Sub(ts[0])
	} else {
		st.reset = l.w.Per
	}
	return st
}

// seconds returns d in whole seconds, rounded up, at least 1.
func seconds(d time.Duration) int64 {
	s := int64((d + time.Second - 1) / time.Second)
	return max(s, 1)
}

// limits are the Server's limiters, one per window of each service.
type limits struct {
	brave, braveMonth                     *limiter
	google, googleDay                     *limiter
	mojeekDay                             *limiter
	marginaliaPublic, marginalia          *limiter
	marginaliaDay                         *limiter
	searxngBurst, searxngLong, searxngAPI *limiter
	waybackCDX                            *limiter
	ccIndex, ccData                       *limiter
	wiki                                  *limiter
}

// newLimits returns the limiters of l.
func newLimits(l Limits, relaxed bool, now func() time.Time) limits {
	n := func(w Window) *limiter { return newLimiter(w, relaxed, now) }
	return limits{
		brave: n(l.Brave), braveMonth: n(l.BraveMonth),
		google: n(l.Google), googleDay: n(l.GoogleDay),
		mojeekDay:        n(l.MojeekDay),
		marginaliaPublic: n(l.MarginaliaPublic), marginalia: n(l.Marginalia), marginaliaDay: n(l.MarginaliaDay),
		searxngBurst: n(l.SearXNGBurst), searxngLong: n(l.SearXNGLong), searxngAPI: n(l.SearXNGAPI),
		waybackCDX: n(l.WaybackCDX),
		ccIndex:    n(l.CCIndex), ccData: n(l.CCData),
		wiki: n(l.Wiki),
	}
}

// clientKey returns the key of r's client for per-address limits: its IP
// address.
func clientKey(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
