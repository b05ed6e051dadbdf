package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net"
	"strconv"
	"strings"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/provider/web"
)

// newFlagSet returns an empty flag set for subcommand name. It prints
// nothing: parse turns its errors into one-line usage errors, and help
// prints the flags.
func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("relink "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parse parses args into fs. An error other than flag.ErrHelp (-h) is a
// usage error.
func parse(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	return usage(err)
}

// setFlags returns the names of the flags the command line set.
func setFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// writeHelp writes a subcommand's help: text, then its flags.
func writeHelp(w io.Writer, text string, fs *flag.FlagSet) {
	fmt.Fprint(w, strings.TrimLeft(text, "\n"))
	fmt.Fprintln(w, "\nFlags:")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// bound is a numeric flag's allowed range, checked by checkBounds.
type bound struct {
	flag    string
	value   int
	min     int
	max     int // 0 means no upper bound
	meaning string
}

// checkBounds returns a usage error for the first value out of its range.
func checkBounds(bs ...bound) error {
	for _, b := range bs {
		if b.value >= b.min && (b.max == 0 || b.value <= b.max) {
			continue
		}
		want := fmt.Sprintf("at least %d", b.min)
		switch {
		case b.max == b.min+1:
			want = fmt.Sprintf("%d or %d", b.min, b.max)
		case b.max != 0:
			want = fmt.Sprintf("%d to %d", b.min, b.max)
		}
		return usagef("bad -%s %d: want %s (%s)", b.flag, b.value, want, b.meaning)
	}
	return nil
}

// listFlag collects a repeatable flag whose values may also be comma lists.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	for p := range strings.SplitSeq(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*l = append(*l, p)
		}
	}
	return nil
}

// webTarget returns the canonical form of raw, an absolute http or https
// URL given as what (an argument or a flag). Anything else is a usage
// error, wrapping relink.ErrScheme for another scheme.
func webTarget(what, raw string) (string, error) {
	if raw == "" {
		return "", usagef("%s is empty: want an absolute http or https URL", what)
	}
	for _, r := range raw {
		if r < 0x20 || r == 0x7f {
			return "", usagef("%s %s holds a control character", what, quoteArg(raw))
		}
	}
	u, err := canon.Canonicalize(raw)
	if err != nil {
		return "", usage(fmt.Errorf("%s: %w", what, err))
	}
	if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
		return "", usage(fmt.Errorf("%s: %w: %s", what, relink.ErrScheme, quoteArg(u)))
	}
	return u, nil
}

// unreachableFirst wraps a web fetcher so that a host that cannot be
// reached reads as unreachable first: the client refuses a URI whose
// robots.txt it could not fetch (RFC 9309 §2.3.1.4 says to assume a
// complete disallow), and its error then begins "disallowed by robots.txt"
// for what is a closed port or an unknown host.
func unreachableFirst(f filter.Fetcher) filter.Fetcher {
	return filter.FetcherFunc(func(ctx context.Context, uri string) (*filter.Page, error) {
		p, err := f.Fetch(ctx, uri)
		return p, explainUnreachable(err)
	})
}

// explainUnreachable returns err with "unreachable: " in front when it is
// a robots.txt refusal caused by a network failure.
func explainUnreachable(err error) error {
	var op *net.OpError
	var dns *net.DNSError
	if errors.Is(err, web.ErrDisallowed) && (errors.As(err, &op) || errors.As(err, &dns)) {
		return fmt.Errorf("unreachable: %w", err)
	}
	return err
}

// byteSize is a flag holding a number of bytes, written as a number with
// an optional unit: B, KB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB,
// TiB (powers of 1024), in any case; "2GiB", "500MB", "1048576".
type byteSize int64

// byteUnits are byteSize's units, largest first so that a String reads
// short.
var byteUnits = []struct {
	name string
	n    int64
}{
	{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10},
	{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6}, {"KB", 1e3}, {"B", 1},
}

func (b *byteSize) String() string {
	for _, u := range byteUnits {
		if *b != 0 && int64(*b)%u.n == 0 {
			return fmt.Sprintf("%d%s", int64(*b)/u.n, u.name)
		}
	}
	return "0"
}

func (b *byteSize) Set(v string) error {
	s := strings.TrimSpace(v)
	mult := int64(1)
	for _, u := range byteUnits {
		if len(s) > len(u.name) && strings.EqualFold(s[len(s)-len(u.name):], u.name) {
			mult, s = u.n, strings.TrimSpace(s[:len(s)-len(u.name)])
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64/mult {
		return fmt.Errorf("bad size %q: want bytes, such as 2GiB, 500MB or 0", v)
	}
	*b = byteSize(n * mult)
	return nil
}
