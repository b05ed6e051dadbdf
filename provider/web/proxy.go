package web

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
)

// proxies remembers the proxies Client.Proxy chose, by the address the
// transport dials for each ("host:port"), so that the dialer lets those
// connections through: the program named them, a link on the web did not.
type proxies struct {
	mu    sync.Mutex
	addrs map[string]bool
}

// add records the proxy u.
func (p *proxies) add(u *url.URL) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.addrs == nil {
		p.addrs = make(map[string]bool)
	}
	p.addrs[proxyAddr(u)] = true
}

// has reports whether address is that of a proxy Client.Proxy chose.
func (p *proxies) has(address string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.addrs[strings.ToLower(address)]
}

// proxyAddr returns the address net/http dials for the proxy u: its host
// and port, the scheme's default port when it names none.
func proxyAddr(u *url.URL) string {
	port := u.Port()
	if port == "" {
		switch strings.ToLower(u.Scheme) {
		case "https":
			port = "443"
		case "socks5", "socks5h":
			port = "1080"
		default:
			port = "80"
		}
	}
	return net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// proxyFunc returns the transport's Proxy function for the Client: nil
// without Client.Proxy. With it, every proxy chosen is recorded for the
// dialer, and unless AllowPrivate a request is refused when its URL's
// host is a name of this machine (localhost and the names below it, RFC
// 6761 §6.3) or an IP address that is not public: the proxy resolves the
// names, so the Client checks what it can see, the host as written. The
// check is made for the requests Proxy sends directly too, so that none
// can dial a chosen proxy's address (which the dialer lets through) as a
// page's; their names are still checked when they are dialled.
func (c *Client) proxyFunc() func(*http.Request) (*url.URL, error) {
	if c.Proxy == nil {
		return nil
	}
	public := c.public
	if public == nil {
		public = isPublic
	}
	return func(req *http.Request) (*url.URL, error) {
		u, err := c.Proxy(req)
		if err != nil {
			return nil, err
		}
		if !c.AllowPrivate {
			if err := checkHost(public, req.URL.Hostname()); err != nil {
				return nil, err
			}
		}
		if u != nil {
			c.proxies.add(u)
		}
		return u, nil
	}
}

// checkHost refuses, with an error wrapping ErrPrivateAddress, a host
// that names this machine (localhost, anything.localhost) or is an IP
// address, in any of the forms a resolver accepts ("127.1", "2130706433",
// "0x7f.0.0.1"), that public does not accept.
func checkHost(public func(netip.Addr) bool, host string) error {
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return fmt.Errorf("%w: host %s", ErrPrivateAddress, host)
	}
	if a, ok := literalAddr(h); ok && !public(a) {
		return fmt.Errorf("%w: host %s", ErrPrivateAddress, host)
	}
	return nil
}

// literalAddr reads host as an IP address: IPv6 (with or without
// brackets), or IPv4 in the forms inet_aton accepts, one to four parts,
// each decimal, octal (a leading 0) or hexadecimal (0x), the last part
// filling the remaining bytes.
func literalAddr(host string) (netip.Addr, bool) {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if a, err := netip.ParseAddr(host); err == nil {
		return a, true
	}
	parts := strings.Split(host, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	var n []uint64
	for _, p := range parts {
		v, err := strconv.ParseUint(p, 0, 32)
		if err != nil || p == "" || p[0] == '+' {
			return netip.Addr{}, false
		}
		n = append(n, v)
	}
	var v uint64
	for i, x := range n[:len(n)-1] {
		if x > 0xff {
			return netip.Addr{}, false
		}
		v |= x << (24 - 8*i)
	}
	last := n[len(n)-1]
	if last >= 1<<(8*(5-len(n))) {
		return netip.Addr{}, false
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

// dialContext returns the transport's dialer: d, except that an address
// a proxy of Client.Proxy was recorded at is dialled with direct, which
// makes no check. Everything else (direct requests, and so every request
// for which Proxy returns nil) goes through d's checks.
func (c *Client) dialContext(d, direct *net.Dialer) func(ctx context.Context, network, address string) (net.Conn, error) {
	if c.Proxy == nil {
		return d.DialContext
	}
	return func(ctx context.Context, network, address string) (net.Conn, error) {
		if c.proxies.has(address) {
			return direct.DialContext(ctx, network, address)
		}
		return d.DialContext(ctx, network, address)
	}
}
