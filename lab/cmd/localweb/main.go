// Command localweb serves a relink store as the web on loopback, for
// end-to-end tests and demonstrations: a forward proxy that answers for
// the pages' own URLs (https through CONNECT, with certificates of a CA it
// makes at start), and the web services relink talks to (Brave, Google
// Custom Search, Mojeek, Marginalia and SearXNG search; the Wayback
// Machine's CDX API and replay and Common Crawl's index and WARC files,
// from an older snapshot; MediaWiki's exturlusage), each at its documented
// paths and rate limits. See package lab/localweb for what each answers.
//
//	localweb -store web.db [-archive-store old.db] [-addr 127.0.0.1:0] [-ca-out ca.pem] [-relaxed] [-sitemaps all|none|HOST,...]
//
// -sitemaps chooses the hosts that publish /robots.txt (with a Sitemap
// line) and /sitemap.xml, made from the store's current pages (a sitemap
// index of gzipped parts past 50,000 URLs); the others answer 404 there,
// as many real sites do. The default is none.
//
// It prints the proxy's address, the CA file and each service's base URL,
// and serves until interrupted (SIGINT or SIGTERM), when it stops cleanly.
// Exit codes: 0 after an interrupt, 1 on failure, 2 on bad usage.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/linkrot/relink/lab/localweb"
	"github.com/linkrot/relink/provider/store"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// config is the command line.
type config struct {
	store, archive, addr, caOut string
	archiveTime                 string
	sitemaps                    localweb.Sitemaps
	relaxed                     bool
	wikiLag                     int
}

// errUsage marks a bad command line.
var errUsage = errors.New("usage")

// parseFlags reads args.
func parseFlags(args []string, stderr io.Writer) (*config, error) {
	c := &config{}
	fs := flag.NewFlagSet("localweb", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.store, "store", "", "the store `FILE` served as the current web (required)")
	fs.StringVar(&c.archive, "archive-store", "", "a store `FILE` served as an older snapshot by the Wayback and Common Crawl endpoints")
	fs.StringVar(&c.addr, "addr", "127.0.0.1:0", "the proxy's `address`; the services listen on free ports of the same host")
	fs.StringVar(&c.caOut, "ca-out", "", "write the CA certificate (PEM) to `FILE`; empty means a temporary file, removed on exit")
	fs.StringVar(&c.archiveTime, "archive-time", localweb.DefaultArchiveTime.Format("20060102150405"), "the archive's capture `time`, YYYYMMDDhhmmss (UTC)")
	fs.BoolVar(&c.relaxed, "relaxed", false, "turn every rate limit off (for tests)")
	fs.IntVar(&c.wikiLag, "wiki-lag", 0, "the replication lag, in `seconds`, MediaWiki's maxlag parameter is compared with")
	fs.Func("sitemaps", "the hosts that publish robots.txt and sitemap.xml: `all, none or HOST,...` (default none)", func(v string) error {
		f, err := localweb.ParseSitemaps(v)
		c.sitemaps = f
		return err
	})
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: localweb -store FILE [-archive-store FILE] [-addr 127.0.0.1:0] [-ca-out FILE] [-relaxed] [-sitemaps all|none|HOST,...]\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "localweb: unexpected argument %q\n", fs.Arg(0))
		return nil, errUsage
	}
	if c.store == "" {
		fmt.Fprintln(stderr, "localweb: -store is required")
		return nil, errUsage
	}
	return c, nil
}

// run runs the command until ctx is done and returns its exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, err := parseFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	at, err := time.Parse("20060102150405", c.archiveTime)
	if err != nil {
		fmt.Fprintf(stderr, "localweb: bad -archive-time %q: want YYYYMMDDhhmmss\n", c.archiveTime)
		return 2
	}
	if err := serve(ctx, c, at, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "localweb: %v\n", err)
		return 1
	}
	return 0
}

// serve opens the stores, starts the server, prints where it is and
// waits for ctx.
func serve(ctx context.Context, c *config, at time.Time, stdout, stderr io.Writer) error {
	webStore, err := store.Open(c.store, &store.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer webStore.Close()
	o := localweb.Options{Web: webStore, ArchiveTime: at, Relaxed: c.relaxed, WikiLag: c.wikiLag, Sitemaps: c.sitemaps,
		ErrorLog: log.New(stderr, "localweb: ", 0)}
	if c.archive != "" {
		a, err := store.Open(c.archive, &store.Options{ReadOnly: true})
		if err != nil {
			return err
		}
		defer a.Close()
		o.Archive = a
	}
	srv, err := localweb.New(o)
	if err != nil {
		return err
	}
	caFile := c.caOut
	if caFile == "" {
		f, err := os.CreateTemp("", "localweb-ca-*.pem")
		if err != nil {
			return err
		}
		caFile = f.Name()
		f.Close()
		defer os.Remove(caFile)
	}
	if err := os.WriteFile(caFile, srv.CA().CertPEM(), 0o644); err != nil {
		return fmt.Errorf("-ca-out: %w", err)
	}
	if abs, err := filepath.Abs(caFile); err == nil {
		caFile = abs
	}
	if err := srv.Start(c.addr); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "proxy              %s\n", srv.ProxyURL())
	fmt.Fprintf(stdout, "ca                 %s\n", caFile)
	for _, e := range srv.Endpoints() {
		fmt.Fprintf(stdout, "%-18s %s (as %s)\n", e.Name, e.URL, e.Host)
	}
	limits := "on (each service's documented limits; -relaxed turns them off)"
	if c.relaxed {
		limits = "off"
	}
	fmt.Fprintf(stdout, "rate limits        %s\n", limits)
	fmt.Fprintf(stdout, "try                curl --proxy %s --cacert %s https://HOST/PATH\n", srv.ProxyURL(), caFile)
	fmt.Fprintln(stdout, "serving; interrupt to stop")

	<-ctx.Done()
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = srv.Shutdown(sctx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = srv.Close()
	}
	fmt.Fprintln(stdout, "stopped")
	return err
}
