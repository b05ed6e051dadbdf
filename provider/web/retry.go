package web

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"math/rand/v2"
	"net"
	"time"
)

// final reports whether err, from an attempt that got no answer, would be
// the same on another attempt: a refusal of the Client's own, a host name
// that does not exist, or a TLS certificate or protocol failure.
func final(err error) bool {
	for _, target := range []error{ErrDisallowed, ErrTooManyRedirects, ErrPrivateAddress, ErrUnsupportedURI} {
		if errors.Is(err, target) {
			return true
		}
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

// delay returns the wait after attempt n (1 for the first): the server's
// Retry-After wait when it gave one (wait ≥ 0), capped at MaxWait;
// otherwise Backoff doubled n-1 times, capped at MaxBackoff, and drawn at
// random from its upper half so that many clients do not retry in step.
func (c *Client) delay(n int, wait time.Duration) time.Duration {
	if wait >= 0 {
		return min(wait, c.maxWait())
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
