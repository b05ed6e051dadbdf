package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"time"
)

// maxCAFile bounds the -ca file read: a bundle of every public root is
// about 200 KB.
const maxCAFile = 4 << 20

// netConfig is how the command's clients reach the network: through an
// HTTP proxy (-proxy) and trusting more certificate authorities (-ca).
// The zero value is direct, with the system's roots.
type netConfig struct {
	proxy *url.URL       // nil: no proxy
	roots *x509.CertPool // nil: the system's roots alone
	// wrap, when not nil, wraps the services' transport (relink worker:
	// the rate limits shared by every worker).
	wrap func(http.RoundTripper) http.RoundTripper
}

// newNetConfig checks -proxy and reads -ca. A bad value is a usage error;
// a CA file that cannot be read or holds no certificate is a failure that
// says so. Reading the CA file gives up when ctx is done.
func newNetConfig(ctx context.Context, proxy, caFile string) (netConfig, error) {
	var nc netConfig
	if proxy != "" {
		u, err := url.Parse(proxy)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" && u.Path != "/" || u.RawQuery != "" {
			return nc, usagef("bad -proxy %s: want an http proxy's URL, http://HOST:PORT", quoteArg(proxy))
		}
		nc.proxy = u
	}
	if caFile != "" {
		pool, err := readCAs(ctx, caFile)
		if err != nil {
			return nc, err
		}
		nc.roots = pool
	}
	return nc, nil
}

// readCAs returns the system's roots (none where the system has no pool)
// with the PEM certificates of file added.
func readCAs(ctx context.Context, file string) (*x509.CertPool, error) {
	if fi, err := os.Stat(file); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("-ca %s is a directory, not a PEM file", file)
	}
	b, err := readInput(ctx, nil, file, func(r io.Reader) ([]byte, error) {
		return io.ReadAll(io.LimitReader(r, maxCAFile+1))
	})
	if err != nil {
		return nil, fmt.Errorf("-ca: %w", err)
	}
	if len(b) > maxCAFile {
		return nil, fmt.Errorf("-ca %s is larger than %d MB: not a CA file", file, maxCAFile>>20)
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(b) {
		return nil, fmt.Errorf("-ca %s holds no PEM certificate", file)
	}
	return pool, nil
}

// set reports whether nc changes anything from a direct connection with
// the system's roots.
func (nc netConfig) set() bool { return nc.proxy != nil || nc.roots != nil || nc.wrap != nil }

// webProxy returns the live fetcher's Client.Proxy: every page through
// the proxy (the fetcher still refuses private hosts in the URLs it is
// given), or nil without one.
func (nc netConfig) webProxy() func(*http.Request) (*url.URL, error) {
	if nc.proxy == nil {
		return nil
	}
	return http.ProxyURL(nc.proxy)
}

// serviceClient returns the HTTP client of the web services (search
// engines, archives): through the proxy but for services on this machine
// (a -search-url or -archive-url on loopback is reached directly, as
// curl and Go's ProxyFromEnvironment do), trusting nc's roots; nil when nc
// is the zero value, so that each client keeps its own default.
func (nc netConfig) serviceClient() *http.Client {
	if !nc.set() {
		return nil
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = nil
	if nc.proxy != nil {
		proxy := nc.proxy
		t.Proxy = func(r *http.Request) (*url.URL, error) {
			if isLoopback(r.URL.Hostname()) {
				return nil, nil
			}
			return proxy, nil
		}
	}
	if nc.roots != nil {
		t.TLSClientConfig = &tls.Config{RootCAs: nc.roots}
	}
	// Longer than any client's own bound on an attempt: a MemGator
	// server answers only when every archive has (up to 60 s each), and
	// its client gives it 90 s (memento.DefaultTimeout).
	t.ResponseHeaderTimeout = 2 * time.Minute
	if nc.wrap != nil {
		return &http.Client{Transport: nc.wrap(t)}
	}
	return &http.Client{Transport: t}
}

// isLoopback reports whether host names this machine: localhost, a name
// below it, or a loopback address.
func isLoopback(host string) bool {
	h := strings.TrimSuffix(strings.ToLower(host), ".")
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	if a, err := netip.ParseAddr(strings.Trim(h, "[]")); err == nil {
		return a.Unmap().IsLoopback()
	}
	return false
}
