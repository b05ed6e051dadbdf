package apiclient

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

// noWait marks an answer without a usable Retry-After.
const noWait time.Duration = -1

// now is time.Now; tests of Retry-After dates may replace it.
var now = time.Now

// retryStatus reports whether an answer with this status is worth another
// attempt: 408, 429 and the 5xx statuses that say "not now" rather than
// "never" (501 Not Implemented and 505 HTTP Version Not Supported).
func retryStatus(status int) bool {
	switch status {
	case http.StatusRequestTimeout, http.StatusTooManyRequests:
		return true
	case http.StatusNotImplemented, http.StatusHTTPVersionNotSupported:
		return false
	}
	return status >= 500 && status <= 599
}

// final reports whether err, from an attempt that got no answer, would be
// the same on another attempt: a redirect loop, a host name that does not
// exist, or a TLS certificate or protocol failure.
func final(err error) bool {
	if errors.Is(err, ErrTooManyRedirects) {
		return true
	}
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

// isTimeout reports whether err is a network timeout.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// parseRetryAfter reads a Retry-After value (RFC 9110 §10.2.3): a number
// of seconds or an HTTP date, which is turned into the wait from t. A date
// in the past is a wait of zero. ok is false for an empty or unreadable
// value.
func parseRetryAfter(v string, t time.Time) (d time.Duration, ok bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		const most = int64(1<<63-1) / int64(time.Second)
		return time.Duration(min(secs, most)) * time.Second, true
	}
	when, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(when.Sub(t), 0), true
}

// delay returns the wait after attempt n (1 for the first): the server's
// Retry-After wait when it gave one (wait ≥ 0); otherwise Backoff doubled
// n-1 times, capped at MaxBackoff, and drawn at random from its upper half
// so that many clients do not retry in step.
func (c *Client) delay(n int, wait time.Duration) time.Duration {
	if wait >= 0 {
		return wait
	}
	most := orDefault(c.MaxBackoff, DefaultMaxBackoff)
	d := orDefault(c.Backoff, DefaultBackoff)
	for i := 1; i < n && d < most; i++ {
		d *= 2
	}
	d = min(d, most)
	return d/2 + rand.N(d/2+1)
}

// sleep waits for d, or until ctx is done, when it returns ctx.Err().
func sleep(ctx context.Context, d time.Duration) error {
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
