package web

import (
	"context"
	"strings"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/internal/retry"
)

// minSweep is the number of host and robots.txt entries below which the
// Client never sweeps them.
const minSweep = 1024

// host holds the politeness state of one host name.
type host struct {
	slots   chan struct{} // one token per request in flight
	limiter *rate.Limiter // request starts
	users   int           // goroutines holding or waiting for the host; guarded by Client.mu
}

// acquire waits until a request to hostname may start: a free slot
// (PerHost) and a token of the rate limiter, slowed to one request per
// crawlDelay when that is slower (capped at MaxWait). It returns the
// function that frees the slot, or ctx.Err() when ctx is done first.
func (c *Client) acquire(ctx context.Context, hostname string, crawlDelay time.Duration) (release func(), err error) {
	h := c.host(strings.ToLower(hostname))
	select {
	case h.slots <- struct{}{}:
	case <-ctx.Done():
		c.unref(h)
		return nil, ctx.Err()
	}
	limit := c.rate()
	if crawlDelay > 0 {
		limit = min(limit, rate.Every(min(crawlDelay, c.maxWait())))
	}
	if h.limiter.Limit() != limit {
		h.limiter.SetLimit(limit)
	}
	r := h.limiter.Reserve()
	if err := retry.Sleep(ctx, r.Delay()); err != nil {
		r.Cancel()
		<-h.slots
		c.unref(h)
		return nil, err
	}
	return func() {
		<-h.slots
		c.unref(h)
	}, nil
}

// host returns the entry of hostname, made if need be, counting the
// caller as a user until unref.
func (c *Client) host(hostname string) *host {
	c.mu.Lock()
	defer c.mu.Unlock()
	h := c.hosts[hostname]
	if h == nil {
		c.sweepLocked()
		h = &host{
			slots:   make(chan struct{}, c.perHost()),
			limiter: rate.NewLimiter(c.rate(), c.burst()),
		}
		c.hosts[hostname] = h
	}
	h.users++
	return h
}

// unref undoes one host call.
func (c *Client) unref(h *host) {
	c.mu.Lock()
	h.users--
	c.mu.Unlock()
}

// sweepLocked drops, once there are many, the entries a new one would
// equal: hosts nobody uses whose rate limiter is full again, and
// robots.txt entries that have expired. c.mu is held.
func (c *Client) sweepLocked() {
	if len(c.hosts)+len(c.robots) < c.sweep {
		return
	}
	now := time.Now()
	for name, h := range c.hosts {
		if h.users == 0 && (h.limiter.Limit() == rate.Inf || h.limiter.TokensAt(now) >= float64(h.limiter.Burst())) {
			delete(c.hosts, name)
		}
	}
	for origin, e := range c.robots {
		if e.done() && now.After(e.expires) {
			delete(c.robots, origin)
		}
	}
	c.sweep = max(minSweep, 2*(len(c.hosts)+len(c.robots)))
}
