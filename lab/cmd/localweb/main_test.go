package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/x509"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/provider/store"
	"github.com/linkrot/relink/provider/web"
)

// newStoreFile writes a one-site store and returns its path.
func newStoreFile(t *testing.T, title string) string {
	t.Helper()
	dir := t.TempDir()
	html := filepath.Join(dir, "html", "3.11", "library")
	if err := os.MkdirAll(html, 0o755); err != nil {
		t.Fatal(err)
	}
	body := "<html><head><title>" + title + "</title></head><body><p>" + title + " and more words.</p></body></html>"
	if err := os.WriteFile(filepath.Join(html, "os.html"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "web.db")
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.IngestDir(context.Background(), filepath.Join(dir, "html"), "https://docs.python.org/", store.IngestOptions{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// readBanner reads the lines the command prints up to "serving", by
// their first word.
func readBanner(t *testing.T, r io.Reader) map[string]string {
	t.Helper()
	got := map[string]string{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) > 1 {
			got[f[0]] = f[1]
		}
		if strings.HasPrefix(sc.Text(), "serving") {
			return got
		}
	}
	t.Fatalf("no \"serving\" line; read %v (%v)", got, sc.Err())
	return nil
}

// fetchThrough fetches uri with provider/web through the proxy, trusting
// the CA in caFile.
func fetchThrough(t *testing.T, proxy, caFile, uri string) (int, string) {
	t.Helper()
	pemBytes, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pemBytes) {
		t.Fatalf("%s holds no certificate", caFile)
	}
	pu, err := url.Parse(proxy)
	if err != nil {
		t.Fatal(err)
	}
	c := &web.Client{Proxy: http.ProxyURL(pu), RootCAs: pool, Rate: rate.Inf, Attempts: 1}
	defer c.CloseIdleConnections()
	p, err := c.Fetch(context.Background(), uri)
	if err != nil {
		t.Fatal(err)
	}
	return p.Status, string(p.Body)
}

// TestRun runs the command in this process: it prints its addresses,
// serves the store through the proxy, and stops when its context ends.
func TestRun(t *testing.T) {
	storeFile := newStoreFile(t, "os — Miscellaneous operating system interfaces")
	archive := newStoreFile(t, "os — the old page")
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int)
	go func() {
		code := run(ctx, []string{"-store", storeFile, "-archive-store", archive, "-relaxed", "-sitemaps", "docs.python.org"}, pw, &stderr)
		pw.Close()
		done <- code
	}()
	banner := readBanner(t, pr)
	go io.Copy(io.Discard, pr)
	for _, name := range []string{"proxy", "ca", "brave", "google", "mojeek", "marginalia", "searxng", "wayback", "wayback-available", "commoncrawl-index", "commoncrawl-data", "mediawiki"} {
		if !strings.HasPrefix(banner[name], "http://127.0.0.1:") && name != "ca" {
			t.Errorf("%s = %q, want a loopback URL", name, banner[name])
		}
	}
	status, body := fetchThrough(t, banner["proxy"], banner["ca"], "https://docs.python.org/3.11/library/os.html")
	if status != 200 || !strings.Contains(body, "Miscellaneous operating system interfaces") {
		t.Errorf("fetch through the proxy = %d %q", status, body)
	}
	if status, body := fetchThrough(t, banner["proxy"], banner["ca"], "https://docs.python.org/sitemap.xml"); status != 200 || !strings.Contains(body, "<loc>https://docs.python.org/3.11/library/os.html</loc>") {
		t.Errorf("sitemap.xml = %d %q, want the page listed", status, body)
	}
	if status, _ := fetchThrough(t, banner["proxy"], banner["ca"], "https://en.wikipedia.org/sitemap.xml"); status != 404 {
		t.Errorf("a host not chosen: sitemap.xml = %d, want 404", status)
	}
	resp, err := http.Get(banner["wayback"] + "/web/20200115120000id_/https://docs.python.org/3.11/library/os.html")
	if err != nil {
		t.Fatal(err)
	}
	old, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(old), "the old page") {
		t.Errorf("wayback replay = %d %q, want the archive's page", resp.StatusCode, old)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("run = %d, want 0; stderr: %s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("run did not return after its context ended")
	}
	if _, err := os.Stat(banner["ca"]); !os.IsNotExist(err) {
		t.Errorf("the temporary CA file %s is still there (%v)", banner["ca"], err)
	}
}

// TestUsage checks the exit codes of bad command lines.
func TestUsage(t *testing.T) {
	tests := []struct {
		args []string
		want int
	}{
		{nil, 2},
		{[]string{"-nosuchflag"}, 2},
		{[]string{"-store", "x.db", "extra"}, 2},
		{[]string{"-store", "x.db", "-archive-time", "yesterday"}, 2},
		{[]string{"-store", "x.db", "-sitemaps", "https://a.example/"}, 2},
		{[]string{"-store", filepath.Join(t.TempDir(), "none.db")}, 1},
		{[]string{"-store", newStoreFile(t, "x"), "-addr", "nohost"}, 1},
		{[]string{"-h"}, 0},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		if got := run(context.Background(), tt.args, &out, &errOut); got != tt.want {
			t.Errorf("run(%q) = %d, want %d; stderr: %s", tt.args, got, tt.want, errOut.String())
		}
	}
}

// TestInterrupt builds the command, starts it, and interrupts it: it must
// stop cleanly with exit code 0 and keep a -ca-out file.
func TestInterrupt(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT on Windows")
	}
	if testing.Short() {
		t.Skip("builds the command")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "localweb")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ca := filepath.Join(dir, "ca.pem")
	cmd := exec.Command(bin, "-store", newStoreFile(t, "a page"), "-ca-out", ca)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	banner := readBanner(t, stdout)
	if banner["ca"] != ca {
		t.Errorf("ca = %q, want %q", banner["ca"], ca)
	}
	if status, _ := fetchThrough(t, banner["proxy"], ca, "https://docs.python.org/3.11/library/os.html"); status != 200 {
		t.Errorf("fetch through the proxy = %d", status)
	}
	go io.Copy(io.Discard, stdout)
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err := <-waited:
		if err != nil {
			t.Errorf("after SIGINT: %v; stderr: %s", err, stderr.String())
		}
	case <-time.After(15 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the command did not stop within 15 s of SIGINT")
	}
	if _, err := os.Stat(ca); err != nil {
		t.Errorf("-ca-out file: %v", err)
	}
}
