// Package retry is the one retry policy of relink's HTTP clients
// (provider/web for pages, provider/internal/apiclient for web APIs): which
// answers and failures are worth another attempt, how long to wait before
// it (a server's Retry-After, else exponential backoff with jitter, capped),
// and a wait that ends when the caller's context does.
//
// It holds the pieces, not the loop: each client keeps its own loop, since
// they differ in what they return after the last attempt (provider/web
// returns the last answer as a page; apiclient may end early when a server
// asks for a wait longer than it will honour).
//
// It does not send requests, count attempts or keep state: every function
// is safe for concurrent use.
package retry

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Defaults of Backoff's fields.
const (
	// DefaultFirst is the wait before the second attempt.
	DefaultFirst = time.Second
	// DefaultMax caps the wait between two attempts.
	DefaultMax = 30 * time.Second
)

// Backoff is exponential backoff with jitter: the wait after attempt n is
// First doubled n-1 times, capped at Max, and drawn at random from the
// upper half of that, so that many clients that failed together do not
// retry together. The zero value means DefaultFirst (1 s) and DefaultMax
// (30 s); a field of zero or less means its default.
type Backoff struct {
	First time.Duration
	Max   time.Duration
}

// Delay returns the wait after attempt n (1 for the first): between half
// of and the whole of min(First·2ⁿ⁻¹, Max). An n below 1 counts as 1.
func (b Backoff) Delay(n int) time.Duration {
	first, most := b.First, b.Max
	if first <= 0 {
		first = DefaultFirst
	}
	if most <= 0 {
		most = DefaultMax
	}
	d := first
	for i := 1; i < n && d < most; i++ {
		d *= 2
	}
	d = min(d, most)
	return d/2 + rand.N(d/2+1)
}

// Status reports whether an answer with this status is worth another
// attempt: 408 Request Timeout, 429 Too Many Requests and the 5xx statuses
// that say "not now" rather than "never" (all but 501 Not Implemented and
// 505 HTTP Version Not Supported).
func Status(code int) bool {
	switch code {
	case http.StatusRequestTimeout, http.StatusTooManyRequests:
		return true
	case http.StatusNotImplemented, http.StatusHTTPVersionNotSupported:
		return false
	}
	return code >= 500 && code <= 599
}

// Final reports whether err, from an attempt that got no answer, would be
// the same on another attempt: a host name that does not exist, or a TLS
// certificate or protocol failure. Clients add their own refusals (a
// redirect loop, a private address) before asking Final.
func Final(err error) bool {
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
		return true
	}
	var (
		verify   *tls.CertificateVerificationError
		record   tls.RecordHeaderError
		alert    tls.AlertError
		unknown  x509.UnknownAuthorityError
		hostname x509.HostnameError
		invalid  x509.CertificateInvalidError
	)
	return errors.As(err, &verify) || errors.As(err, &record) || errors.As(err, &alert) ||
		errors.As(err, &unknown) || errors.As(err, &hostname) || errors.As(err, &invalid)
}

// After reads a Retry-After value (RFC 9110 §10.2.3), a number of seconds
// or an HTTP date, as the wait from now; a date in the past is a wait of
// zero, and a number of seconds too large for a time.Duration is the
// largest whole number of seconds that fits. ok is false for an empty,
// negative or unreadable value. Surrounding spaces are ignored.
func After(v string, now time.Time) (d time.Duration, ok bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseUint(v, 10, 64); err == nil {
		const most = uint64(1<<63-1) / uint64(time.Second)
		return time.Duration(min(secs, most)) * time.Second, true
	}
	when, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(when.Sub(now), 0), true
}

// Sleep waits for d, or until ctx is done, when it returns ctx.Err(). A d
// of zero or less does not wait, but still returns ctx.Err().
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
