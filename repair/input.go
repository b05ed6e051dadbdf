package repair

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/linkrot/relink/canon"
)

// DeadLink is one dead URL to repair, with what the link checker knew
// about it.
type DeadLink struct {
	// URL is the dead URL as the input wrote it (its first spelling, when
	// several spellings of one URL were merged). A link checker's report
	// may hold URLs that are not http(s), such as mailto: or file:; they
	// are kept, and the caller decides what to answer for them.
	URL string
	// Sources are the pages (or, for a checker run over local files, the
	// file paths) that link to URL, in the order first seen, without
	// duplicates: the known backlinks. It is empty when the input named
	// none (a plain list of URLs). A source over MaxURL bytes is left out.
	Sources []string
	// Status is the HTTP status code the checker saw, or 0 when it saw
	// none (a network error, a timeout, or an input that does not say).
	Status int
	// Reason is what the checker said about the link, as it said it
	// ("404 Not Found", "Failed: Network error: ..."), or "".
	Reason string
	// TooLong is the size in bytes of a URL over MaxURL, at least
	// MaxURL+1 (a JSON report's URL is read no further), and 0 for any
	// other: URL then holds only its start, and Err says why it cannot be
	// looked for.
	TooLong int `json:",omitempty"`
}

// Format names an input format of ReadInput.
type Format string

// The input formats. FormatAuto tells them apart by their first bytes: a
// JSON object is lychee's report, a JSON array muffet's, a first line
// (after comments) that starts with linkchecker's "urlname" header is
// linkchecker's CSV, a first line with a tab is pairs, and anything else
// is a list of URLs.
const (
	FormatAuto        Format = "auto"
	FormatURLs        Format = "urls"        // one URL a line; blank lines and lines starting with # skipped
	FormatPairs       Format = "pairs"       // source<TAB>dead a line; blank lines and # comments skipped
	FormatLychee      Format = "lychee"      // lychee --format json
	FormatMuffet      Format = "muffet"      // muffet --format=json (or --json before v2.7)
	FormatLinkchecker Format = "linkchecker" // linkchecker -o csv (or -F csv)
)

// Formats lists every input format, FormatAuto first.
func Formats() []Format {
	return []Format{FormatAuto, FormatURLs, FormatPairs, FormatLychee, FormatMuffet, FormatLinkchecker}
}

// Defaults of Input's limits.
const (
	// DefaultMaxBytes bounds the size of an input: 256 MiB holds a
	// lychee report of about a million failed links.
	DefaultMaxBytes = 256 << 20
	// DefaultMaxLinks bounds the number of distinct dead URLs.
	DefaultMaxLinks = 1_000_000
	// DefaultMaxLine bounds one line of a line-based format (urls, pairs,
	// linkchecker's CSV record).
	DefaultMaxLine = 1 << 20
)

// Errors of reading inputs, matchable with errors.Is. Every error of
// Input.Read about the input's content is an *InputError that wraps one
// of ErrMalformed, ErrTooLarge or ErrTooMany.
var (
	// ErrFormat is returned for a format name that is not one of Formats.
	ErrFormat = errors.New("repair: unknown input format")
	// ErrMalformed is the cause of an input that does not follow its
	// format.
	ErrMalformed = errors.New("repair: malformed input")
	// ErrTooLarge is the cause of an input over Input.MaxBytes, or of a
	// line over Input.MaxLine.
	ErrTooLarge = errors.New("repair: input too large")
	// ErrTooMany is the cause of an input with more than Input.MaxLinks
	// distinct dead URLs.
	ErrTooMany = errors.New("repair: too many dead links")
)

// InputError records where an input went wrong.
type InputError struct {
	// Format is the format the input was read as (never FormatAuto).
	Format Format
	// Line and Column are 1-based; Column is 0 when unknown, and so is
	// Line for an input too large to say where.
	Line, Column int
	// Err is the cause: it matches ErrMalformed, ErrTooLarge or
	// ErrTooMany.
	Err error
}

// Error returns "<format> input, line L, column C: <cause>".
func (e *InputError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s input", e.Format)
	if e.Line > 0 {
		fmt.Fprintf(&b, ", line %d", e.Line)
		if e.Column > 0 {
			fmt.Fprintf(&b, ", column %d", e.Column)
		}
	}
	fmt.Fprintf(&b, ": %v", e.Err)
	return b.String()
}

// Unwrap returns the cause.
func (e *InputError) Unwrap() error { return e.Err }

// malformed returns an error matching ErrMalformed that says why.
func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

// Input reads a list of dead links. The zero Input detects the format and
// uses the default limits.
type Input struct {
	// Format is the input's format; "" means FormatAuto.
	Format Format
	// MaxBytes bounds the input's size; 0 means DefaultMaxBytes.
	MaxBytes int64
	// MaxLinks bounds the number of distinct dead URLs; 0 means
	// DefaultMaxLinks.
	MaxLinks int
	// MaxLine bounds a line of the line-based formats; 0 means
	// DefaultMaxLine.
	MaxLine int
}

// ReadInput reads dead links from r in the given format with the default
// limits: Input{Format: format}.Read(r).
func ReadInput(r io.Reader, format Format) ([]DeadLink, error) {
	return Input{Format: format}.Read(r)
}

// Read reads the dead links of r, in the order of their first occurrence.
// Occurrences of one dead URL are merged into one DeadLink: two URLs are
// one when canon.Canonicalize makes them equal (so "https://Old.example/a/"
// and "https://old.example/a" merge), or, when either cannot be
// canonicalized, when they are equal as written. The merged DeadLink keeps
// the first spelling, unites the sources in order and keeps the first
// status and reason that are not empty.
//
// A UTF-8 byte order mark at the start is ignored. An unknown format is
// ErrFormat; input that does not follow the format is an *InputError
// saying where, wrapping ErrMalformed; one over the limits an *InputError
// wrapping ErrTooLarge or ErrTooMany. Read never panics on any input and
// reads at most MaxBytes+1 bytes of r.
func (in Input) Read(r io.Reader) ([]DeadLink, error) {
	format := in.Format
	if format == "" {
		format = FormatAuto
	}
	var parse func(*Input, []byte, *collector) error
	switch format {
	case FormatAuto:
	case FormatURLs:
		parse = (*Input).parseURLs
	case FormatPairs:
		parse = (*Input).parsePairs
	case FormatLychee:
		parse = parseLychee
	case FormatMuffet:
		parse = parseMuffet
	case FormatLinkchecker:
		parse = (*Input).parseLinkchecker
	default:
		return nil, fmt.Errorf("%w %q (want one of %v)", ErrFormat, in.Format, Formats())
	}
	data, err := io.ReadAll(io.LimitReader(r, in.maxBytes()+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > in.maxBytes() {
		if format == FormatAuto {
			format = detect(data)
		}
		return nil, &InputError{Format: format, Err: fmt.Errorf("%w: over %d bytes", ErrTooLarge, in.maxBytes())}
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	if format == FormatAuto {
		format = detect(data)
		parse = map[Format]func(*Input, []byte, *collector) error{
			FormatURLs: (*Input).parseURLs, FormatPairs: (*Input).parsePairs, FormatLychee: parseLychee,
			FormatMuffet: parseMuffet, FormatLinkchecker: (*Input).parseLinkchecker,
		}[format]
	}
	c := &collector{format: format, max: in.maxLinks(), index: map[string]int{}}
	if err := parse(&in, data, c); err != nil {
		var ie *InputError
		if !errors.As(err, &ie) {
			err = &InputError{Format: format, Err: err}
		}
		return nil, err
	}
	return c.links, nil
}

func (in *Input) maxBytes() int64 {
	if in.MaxBytes > 0 {
		return in.MaxBytes
	}
	return DefaultMaxBytes
}

func (in *Input) maxLinks() int {
	if in.MaxLinks > 0 {
		return in.MaxLinks
	}
	return DefaultMaxLinks
}

func (in *Input) maxLine() int {
	if in.MaxLine > 0 {
		return in.MaxLine
	}
	return DefaultMaxLine
}

// detect tells the format of data (FormatAuto's rules).
func detect(data []byte) Format {
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) > 0 {
		switch trimmed[0] {
		case '{':
			return FormatLychee
		case '[':
			return FormatMuffet
		}
	}
	for len(data) > 0 {
		var line []byte
		line, data, _ = bytes.Cut(data, []byte("\n"))
		line = bytes.TrimRight(line, "\r")
		t := bytes.TrimSpace(line)
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		if isLinkcheckerHeader(line) {
			return FormatLinkchecker
		}
		if bytes.IndexByte(line, '\t') >= 0 {
			return FormatPairs
		}
		return FormatURLs
	}
	return FormatURLs
}

// collector gathers dead links in order of first occurrence, merging
// repeats.
type collector struct {
	format Format
	max    int
	links  []DeadLink
	index  map[string]int // key → position in links
	srcs   []map[string]bool
}

// key is the merge key of a dead URL: its canonical form, or the URL as
// written when it has none.
func key(u string) string {
	if c, err := canon.Canonicalize(u); err == nil {
		return "c " + c
	}
	return "r " + u
}

// add records one occurrence of dead (linked from source, when not "").
// line is where it was read, for the error of a full collector.
// Every reader hands the dead URL as read: add encodes it, and bounds it
// (cleanURL).
func (c *collector) add(dead, source string, status int, reason string, line int) error {
	clean, size := cleanURL(dead)
	k := key(clean)
	if size > 0 {
		k = longKey(dead)
	}
	i, ok := c.index[k]
	if !ok {
		if len(c.links) >= c.max {
			return &InputError{Format: c.format, Line: line, Err: fmt.Errorf("%w: over %d distinct dead URLs", ErrTooMany, c.max)}
		}
		i = len(c.links)
		c.index[k] = i
		c.links = append(c.links, DeadLink{URL: clean, TooLong: size})
		c.srcs = append(c.srcs, nil)
	}
	l := &c.links[i]
	if source != "" && len(source) <= MaxURL && !c.srcs[i][source] {
		if c.srcs[i] == nil {
			c.srcs[i] = map[string]bool{}
		}
		c.srcs[i][source] = true
		l.Sources = append(l.Sources, source)
	}
	if l.Status == 0 {
		l.Status = status
	}
	if l.Reason == "" {
		l.Reason = reason
	}
	return nil
}

// lines calls f with every line of data (without its line ending) and its
// 1-based number, and stops at f's first error. A line over max bytes is
// an error wrapping ErrTooLarge.
func lines(format Format, data []byte, max int, f func(line string, n int) error) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, min(64<<10, max+2)), max+2) // +2: the line ending
	n := 0
	for sc.Scan() {
		n++
		if err := f(strings.TrimSuffix(sc.Text(), "\r"), n); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			err = fmt.Errorf("%w: line over %d bytes", ErrTooLarge, max)
		}
		return &InputError{Format: format, Line: n + 1, Err: err}
	}
	return nil
}

// checkURL reports why u is not an absolute URL a hand-written list may
// hold, or nil.
func checkURL(u string) error {
	if u == "" {
		return malformed("empty URL")
	}
	if strings.ContainsFunc(u, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return malformed("URL %q holds white space or a control character", u)
	}
	i := strings.IndexByte(u, ':')
	if i <= 0 || !isScheme(u[:i]) {
		return malformed("%q is not an absolute URL (no scheme)", u)
	}
	return nil
}

// isScheme reports whether s is a URI scheme (RFC 3986 §3.1).
func isScheme(s string) bool {
	if s == "" || !isAlpha(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !isAlpha(c) && !('0' <= c && c <= '9') && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	return true
}

func isAlpha(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
