package web

import (
	"errors"
	"time"

	"github.com/linkrot/relink/internal/retry"
)

// final reports whether err, from an attempt that got no answer, would be
// the same on another attempt: a refusal of the Client's own, or what
// retry.Final calls final (a host name that does not exist, a TLS failure).
func final(err error) bool {
	for _, target := range []error{ErrDisallowed, ErrTooManyRedirects, ErrPrivateAddress, ErrUnsupportedURI} {
		if errors.Is(err, target) {
			return true
		}
	}
	return retry.Final(err)
}

// delay returns the wait after attempt n (1 for the first): the server's
// Retry-After wait when it gave one (wait ≥ 0), capped at MaxWait;
// otherwise the shared backoff (Backoff doubled n-1 times, capped at
// MaxBackoff, with jitter).
func (c *Client) delay(n int, wait time.Duration) time.Duration {
	if wait >= 0 {
		return min(wait, c.maxWait())
	}
	return retry.Backoff{First: c.Backoff, Max: c.MaxBackoff}.Delay(n)
}
