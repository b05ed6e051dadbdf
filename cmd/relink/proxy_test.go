package main

import (
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/linkrot/relink/repair"
)

// proxySite is a forward proxy on loopback that answers for the fix
// fixture's site, as if it were on the web at http://example.org/, and
// counts the requests it was sent by host.
func proxySite(t *testing.T) (*httptest.Server, func() map[string]int) {
	t.Helper()
	site, _ := liveFixSite(t)
	var mu sync.Mutex
	hosts := map[string]int{}
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hosts[r.URL.Host]++
		mu.Unlock()
		if !r.URL.IsAbs() || r.URL.Host != "example.org" {
			http.Error(w, "proxy: no such site", http.StatusBadGateway)
			return
		}
		site.Config.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(proxy.Close)
	return proxy, func() map[string]int {
		mu.Lock()
		defer mu.Unlock()
		out := map[string]int{}
		for k, v := range hosts {
			out[k] = v
		}
		return out
	}
}

// tlsSearch serves the fake google API over https on loopback, and
// writes its certificate to a PEM file for -ca.
func tlsSearch(t *testing.T) (*fakeSearch, string) {
	t.Helper()
	f := newFakeSearch(t, "google")
	tls := httptest.NewTLSServer(f.Config.Handler)
	t.Cleanup(tls.Close)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	b := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: tls.Certificate().Raw})
	if err := os.WriteFile(ca, b, 0o644); err != nil {
		t.Fatal(err)
	}
	f.Server = tls
	return f, ca
}

// TestFixProxy runs fix with its live clients behind -proxy and -ca: the
// pages of a public host come through the proxy, a search API served
// over https on loopback is reached directly and trusted through -ca, a
// page on a private address is refused without reaching the proxy, and
// without -ca the engine's certificate is refused.
func TestFixProxy(t *testing.T) {
	clearEnv(t)
	proxy, hosts := proxySite(t)
	engine, ca := tlsSearch(t)
	const base = "http://example.org/"
	private := "http://127.0.0.1:9/guides/rye-bread.html"
	in := base + "blog/first-loaf.html\t" + base + "guides/sourdough-starter.html\n" +
		base + "index.html\t" + base + "recipes/focaccia.html\n" +
		base + "index.html\t" + private + "\n"
	live := []string{"-fetch", "web", "-search", "google", "-key", "k", "-cx", "c", "-search-url", engine.URL,
		"-df", "search", "-rate", "inf", "-proxy", proxy.URL}
	got, _ := fixResults(t, in, append(live, "-ca", ca)...)
	if len(got) != 3 {
		t.Fatalf("%d results, want 3", len(got))
	}
	if r := got[0]; r.Verdict == repair.Unknown || len(r.Candidates) == 0 || len(r.Backlinks) != 1 || !r.Backlinks[0].Kept {
		t.Errorf("%s: %+v, want the source read through the proxy and the engine's candidates", r.Dead, r)
	}
	if got[1].Verdict != repair.Alive {
		t.Errorf("%s: %s, want alive (read through the proxy)", got[1].Dead, got[1].Verdict)
	}
	if r := got[2]; r.Verdict == repair.Alive || r.Verdict == repair.Moved || !strings.Contains(evidenceText(r), "private address") {
		t.Errorf("%s: %s %+v, want it refused as a private address", r.Dead, r.Verdict, r.Evidence)
	}
	// The candidates the engine names on https://example.org/ are
	// fetched for their headings through the proxy too (CONNECT
	// example.org:443).
	seen := hosts()
	for host := range seen {
		if strings.TrimSuffix(host, ":443") != "example.org" {
			t.Errorf("the proxy saw %v, want requests for example.org alone", seen)
			break
		}
	}
	if seen["example.org"] == 0 {
		t.Errorf("the proxy saw %v, no page of example.org", seen)
	}
	if engine.requests.Load() == 0 {
		t.Error("the engine got no request")
	}

	// Without -ca the engine's certificate is not trusted.
	before := engine.requests.Load()
	got, _ = fixResults(t, base+"blog/first-loaf.html\t"+base+"guides/sourdough-starter.html\n", live...)
	if len(got) != 1 || got[0].Verdict != repair.Unknown || !strings.Contains(got[0].Error, "certificate") {
		t.Errorf("without -ca: %+v, want unknown with a certificate error", got)
	}
	if engine.requests.Load() != before {
		t.Error("the engine answered a client that does not trust it")
	}
}

// evidenceText joins a result's evidence details.
func evidenceText(r repair.Result) string {
	var b strings.Builder
	for _, e := range r.Evidence {
		b.WriteString(e.Detail + "\n")
	}
	return b.String()
}

// TestProxyFlagsBad refuses a -proxy that is no proxy URL and a -ca that
// holds no certificate, with one line each.
func TestProxyFlagsBad(t *testing.T) {
	notPEM := filepath.Join(t.TempDir(), "ca.pem")
	os.WriteFile(notPEM, []byte("not a certificate\n"), 0o644)
	for _, tt := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"-proxy", "ftp://proxy.example:21"}, exitUsage, "bad -proxy"},
		{[]string{"-proxy", "proxy.example:3128"}, exitUsage, "bad -proxy"},
		{[]string{"-proxy", "http://proxy.example:3128/path"}, exitUsage, "bad -proxy"},
		{[]string{"-ca", notPEM}, exitFailure, "holds no PEM certificate"},
		{[]string{"-ca", filepath.Join(t.TempDir(), "none.pem")}, exitFailure, "-ca"},
		{[]string{"-ca", t.TempDir()}, exitFailure, "is a directory"},
	} {
		for _, cmd := range []string{"fix", "find"} {
			args := append([]string{cmd, "-store", filepath.Join(t.TempDir(), "none.db"), "-fetch", "web"}, tt.args...)
			if cmd == "find" {
				args = append(args, "https://example.org/a.html")
			}
			r := runIn(t, "https://example.org/a.html\n", args...)
			if r.code != tt.code || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("relink %q: exit %d, stderr %q; want %d and %q", args, r.code, r.stderr, tt.code, tt.want)
			}
			checkOneLine(t, r.stderr)
		}
	}
}
