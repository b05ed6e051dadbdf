package apiclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/linkrot/relink/internal/retry"
)

// ErrStopped means the Client sent nothing: an earlier answer stopped it
// (Client.Stop, Client.StopAfter), for good or until a time the error
// names. The error also wraps that answer's *StatusError, so that it
// matches ErrRateLimited after 429 answers.
var ErrStopped = errors.New("stopped by an earlier answer")

// errPaused is the cause of a request that would wait past MaxWait for a
// pause of the Client (RateLimitPause) to end.
var errPaused = errors.New("paused after a 429 answer")

// stopError is the cause of a request refused because the Client stopped.
type stopError struct {
	until time.Time    // zero: for good
	why   error        // what Client.Stop said, or nil
	cause *StatusError // the answer that stopped the Client
}

func (e *stopError) Error() string {
	msg := ErrStopped.Error() + " (" + e.cause.Error() + ")"
	if e.why != nil {
		msg = e.why.Error() + ": " + msg
	}
	if !e.until.IsZero() {
		msg += ": no request until " + e.until.UTC().Format(time.RFC3339)
	}
	return msg
}

func (e *stopError) Unwrap() []error {
	if e.why != nil {
		return []error{ErrStopped, e.why, e.cause}
	}
	return []error{ErrStopped, e.cause}
}

// gate is what a Client remembers of earlier answers: a pause of every
// request after a 429 answer, the 429 answers in a row, and a stop.
type gate struct {
	pauseUntil time.Time
	strikes    int
	stop       *stopError
	stopResp   *Response // the answer that stopped the Client
}

// stopped returns the error of a request refused because the Client
// stopped, or nil.
func (c *Client) stopped() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.gate.stop
	if s == nil {
		return nil
	}
	if !s.until.IsZero() && !now().Before(s.until) {
		c.gate.stop, c.gate.stopResp = nil, nil
		return nil
	}
	return s
}

// note records an answer: it counts 429 answers in a row, pauses the
// Client after one (RateLimitPause), and stops it when Stop or StopAfter
// says so. It returns the wait the answer asks for (noWait for none) and
// whether the answer is final because it stopped the Client.
func (c *Client) note(resp *Response, red *redactor) (wait time.Duration, stop bool) {
	wait = noWait
	if d, ok := c.waitFor(resp.Header); ok && retry.Status(resp.Status) {
		wait = d
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	t := now()
	// An answer Final marks (an archived copy of a 429 page, a quota
	// spent) is the service's word, not its rate limit: no pause, no
	// strike.
	if resp.Status != http.StatusTooManyRequests || (c.Final != nil && c.Final(resp)) {
		c.gate.strikes = 0
	} else {
		c.gate.strikes++
		if c.RateLimitPause > 0 {
			wait = max(wait, c.RateLimitPause)
			if until := t.Add(wait); until.After(c.gate.pauseUntil) {
				c.gate.pauseUntil = until
			}
		}
		if c.StopAfter > 0 && c.gate.strikes >= c.StopAfter {
			c.stopOn(resp, red, time.Time{}, nil)
			return wait, true
		}
	}
	if c.Stop != nil && (resp.Status < 200 || resp.Status > 299) {
		if until, why := c.Stop(resp, t); why != nil {
			c.stopOn(resp, red, until, why)
			return wait, true
		}
	}
	return wait, false
}

// stopOn stops the Client on resp until until (zero: for good), for the
// reason why (nil: 429s in a row); c.mu is held.
func (c *Client) stopOn(resp *Response, red *redactor, until time.Time, why error) {
	se := &StatusError{Status: resp.Status, Header: resp.Header, Snippet: red.snippet(resp.Body)}
	if d, ok := c.waitFor(resp.Header); ok {
		se.RetryAfter = d
	}
	c.gate.stop = &stopError{until: until, why: why, cause: se}
	c.gate.stopResp = resp
}

// stoppedBy returns the stop resp caused, or nil when it caused none.
func (c *Client) stoppedBy(resp *Response) *stopError {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gate.stopResp != resp {
		return nil
	}
	return c.gate.stop
}

// paused waits until the pause after a 429 answer (RateLimitPause) is
// over. A pause longer than MaxWait is not waited out: the request fails
// at once with an error wrapping ErrRateLimited.
func (c *Client) paused(ctx context.Context) error {
	c.mu.Lock()
	until := c.gate.pauseUntil
	c.mu.Unlock()
	d := until.Sub(now())
	switch {
	case d <= 0:
		return nil
	case d > c.maxWait():
		return fmt.Errorf("%w, %w: no request until %s", ErrRateLimited, errPaused, until.UTC().Format(time.RFC3339))
	}
	return retry.Sleep(ctx, d)
}
