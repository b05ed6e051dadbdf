package repair

import (
	"fmt"
	"strings"
)

// parseURLs reads one dead URL a line. Leading and trailing white space
// is ignored; blank lines and lines whose first other character is # are
// skipped. A line that is not an absolute URL is an error.
func (in *Input) parseURLs(data []byte, c *collector) error {
	return lines(FormatURLs, data, in.maxLine(), func(line string, n int) error {
		t := strings.TrimSpace(line)
		if t == "" || t[0] == '#' {
			return nil
		}
		if err := checkURL(t); err != nil {
			return &InputError{Format: FormatURLs, Line: n, Column: strings.Index(line, t) + 1, Err: err}
		}
		return c.add(t, "", 0, "", n)
	})
}

// parsePairs reads "source<TAB>dead" lines. White space around each field
// is ignored; blank lines and lines whose first other character is # are
// skipped. The source may be anything but empty (a URL or a file path);
// the dead URL must be absolute. A line without a tab, or with more than
// one, is an error.
func (in *Input) parsePairs(data []byte, c *collector) error {
	return lines(FormatPairs, data, in.maxLine(), func(line string, n int) error {
		t := strings.TrimSpace(line)
		if t == "" || t[0] == '#' {
			return nil
		}
		fail := func(col int, err error) error {
			return &InputError{Format: FormatPairs, Line: n, Column: col, Err: err}
		}
		src, dead, ok := strings.Cut(line, "\t")
		if !ok {
			return fail(0, malformed("no tab between source and dead URL"))
		}
		if i := strings.IndexByte(dead, '\t'); i >= 0 {
			return fail(len(src)+1+i+1, malformed("more than two tab-separated fields"))
		}
		if strings.TrimSpace(src) == "" {
			return fail(1, malformed("empty source"))
		}
		d := strings.TrimSpace(dead)
		if err := checkURL(d); err != nil {
			return fail(len(src)+2, fmt.Errorf("dead URL: %w", err))
		}
		return c.add(d, strings.TrimSpace(src), 0, "", n)
	})
}
