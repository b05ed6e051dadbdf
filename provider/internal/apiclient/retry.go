package apiclient

import (
	"errors"
	"net"
	"time"

	"github.com/linkrot/relink/internal/retry"
)

// noWait marks an answer without a usable wait in its header.
const noWait time.Duration = -1

// now is time.Now; tests of Retry-After dates may replace it.
var now = time.Now

// final reports whether err, from an attempt that got no answer, would be
// the same on another attempt: a redirect loop or a refused redirect, or
// what retry.Final calls final (a host name that does not exist, a TLS
// failure).
func final(err error) bool {
	return errors.Is(err, ErrTooManyRedirects) || errors.Is(err, ErrRedirectRefused) || retry.Final(err)
}

// isTimeout reports whether err is a network timeout.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// delay returns the wait after attempt n (1 for the first): the server's
// wait when it gave one (wait ≥ 0), otherwise the backoff of Backoff and
// MaxBackoff.
func (c *Client) delay(n int, wait time.Duration) time.Duration {
	if wait >= 0 {
		return wait
	}
	return retry.Backoff{First: c.Backoff, Max: c.MaxBackoff}.Delay(n)
}
