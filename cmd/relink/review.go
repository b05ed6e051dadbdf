package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/internal/atomicfile"
	"github.com/linkrot/relink/repair"
	"github.com/linkrot/relink/repair/review"
)

const reviewHelp = `
usage: relink review -in FILE [-state FILE] [-addr 127.0.0.1:0]

Review serves a page on which a person looks at the evidence behind each
repair relink fix proposed (-in, its -o jsonl output) and decides: accept
the new URI, reject it, or accept another candidate, by mouse or by
keyboard (j/k move, a accept, r reject, 1-9 pick a candidate, u undo).

It prints one URL, http://127.0.0.1:PORT/?token=..., to open in a
browser; the token is random and valid while the server runs, and every
request must carry it. The server listens on loopback only (-addr must be
a loopback address, 127.0.0.1 or [::1], or localhost; the port 0, the
default, is a free one) and runs until interrupted (Ctrl-C or SIGTERM).

Each decision is written at once to the state file (-state; by default
the input's name with .decisions.json), whole, by a rename: closing the
browser or killing the server loses nothing, and a new review of the same
file shows the decisions made. The state file is the decisions file of
relink fix -rewrite DIR -decisions FILE, which applies the accepted
repairs, each with the URI chosen:

  {"decisions": [{"dead": URL, "uri": URL, "decision": "accept"|"reject"}, ...]}
`

// reviewConfig is review's command line.
type reviewConfig struct {
	in, state, addr string
}

func reviewFlags() (*flag.FlagSet, *reviewConfig) {
	var c reviewConfig
	fs := newFlagSet("review")
	fs.StringVar(&c.in, "in", "", "the results `FILE` of relink fix -o jsonl (required)")
	fs.StringVar(&c.state, "state", "", "the decisions `FILE`, read and written at each decision (default: the input's name with .decisions.json)")
	fs.StringVar(&c.addr, "addr", "127.0.0.1:0", "the loopback `address` to listen on; port 0 is a free port")
	return fs, &c
}

// parseReview parses and checks review's command line.
func parseReview(args []string) (*reviewConfig, error) {
	fs, c := reviewFlags()
	if err := parse(fs, args); err != nil {
		return nil, err
	}
	if fs.NArg() != 0 {
		return nil, usagef("review takes no arguments, got %s", quoteArg(fs.Arg(0)))
	}
	if c.in == "" {
		return nil, usagef("review needs -in FILE, the results of relink fix -o jsonl")
	}
	if err := loopbackAddr(c.addr); err != nil {
		return nil, err
	}
	if c.state == "" {
		c.state = defaultState(c.in)
	}
	return c, nil
}

// defaultState is the state file of the results file in: its name
// without a .jsonl or .json extension, with .decisions.json.
func defaultState(in string) string {
	base := in
	for _, ext := range []string{".jsonl", ".json"} {
		if strings.HasSuffix(base, ext) {
			base = strings.TrimSuffix(base, ext)
			break
		}
	}
	return base + ".decisions.json"
}

// loopbackAddr returns a usage error unless addr is host:port with a
// loopback IP address or localhost as its host.
func loopbackAddr(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return usagef("bad -addr %s: want host:port, such as 127.0.0.1:0", quoteArg(addr))
	}
	if ip := net.ParseIP(host); !(host == "localhost" || ip != nil && ip.IsLoopback()) {
		return usagef("bad -addr %s: review listens on loopback only (127.0.0.1, [::1] or localhost)", quoteArg(addr))
	}
	if _, err := net.LookupPort("tcp", port); err != nil {
		return usagef("bad -addr %s: bad port", quoteArg(addr))
	}
	return nil
}

func runReview(ctx context.Context, e *env, args []string) error {
	c, err := parseReview(args)
	if err != nil {
		return err
	}
	results, err := readInput(ctx, e.stdin, c.in, repair.ReadResults)
	var pe *os.PathError
	switch {
	case errors.As(err, &pe) && pe.Op == "open":
		return fmt.Errorf("-in: %w", err)
	case err != nil:
		return fmt.Errorf("-in %s: %w", c.in, err)
	}
	token := review.NewToken()
	srv, err := review.New(results, review.Options{Token: token, State: c.state, Threshold: relink.DefaultThreshold})
	if err != nil {
		return fmt.Errorf("-state: %w", err)
	}
	if err := checkWritable(c.state); err != nil {
		return err
	}
	addr := c.addr
	if host, port, _ := net.SplitHostPort(addr); host == "localhost" {
		addr = net.JoinHostPort("127.0.0.1", port) // never a name resolved elsewhere
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("-addr: %w", err)
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	fmt.Fprintf(e.stdout, "http://%s/?token=%s\n", ln.Addr(), token)
	fmt.Fprintf(e.stderr, "relink review: %d dead links; decisions go to %s; Ctrl-C to stop\n", len(results), c.state)
	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shut); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("stop: %w", err)
	}
	d := srv.Decisions()
	fmt.Fprintf(e.stderr, "relink review: stopped; %d decisions in %s\n", len(d.Decisions), c.state)
	return nil
}

// checkWritable fails unless the state file can be written (a file
// created beside it, or beside its target when it is a link): better at
// the start than at the first decision.
func checkWritable(state string) error {
	if err := atomicfile.CanWrite(state); err != nil {
		return fmt.Errorf("-state %s: cannot write there: %w", state, err)
	}
	return nil
}
