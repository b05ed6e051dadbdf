package repair

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
)

// isLinkcheckerHeader reports whether line is the header row of
// linkchecker's CSV output: it starts with the column urlname.
func isLinkcheckerHeader(line []byte) bool {
	rest, ok := bytes.CutPrefix(line, []byte("urlname"))
	return ok && (len(rest) == 0 || !isNameChar(rest[0]))
}

func isNameChar(c byte) bool { return isAlpha(c) || '0' <= c && c <= '9' || c == '_' }

// parseLinkchecker reads linkchecker's CSV output (-o csv or -F csv). Its
// CSV logger (linkcheck/logger/csvlog.py) writes "# " comment lines (the
// intro and outro), then a header row naming the columns it logs, then one
// row per URL it logs, in Python's "excel" dialect with ';' as separator
// and '"' as quote by default. The header has been written since
// linkchecker 2.x (2005); the full column list today is urlname,
// parentname, base (baseref before 8.x), result, warningstring,
// infostring, valid, url, line, column, name, dltime, size (dlsize
// before), checktime, cached, level, modified, but a configuration's
// "parts" may log fewer. The separator is read from the header, so a
// configured one works too.
//
// A row is a dead link when its valid column is False (linkchecker also
// logs valid URLs that have warnings, and every URL with --verbose). The
// dead URL is the url column (the absolute, normalized URL), or urlname
// (the link as written in the page) when url is empty; the source is
// parentname; the reason is result ("404 Not Found"). linkchecker leaves
// the line and column cells out of a row when it does not know them, so
// columns after url may shift: none of those is read.
func (in *Input) parseLinkchecker(data []byte, c *collector) error {
	if bytes.Contains(data, []byte("\r\r\n")) {
		// Python's csv module writes os.linesep through a text-mode file
		// on Windows: every row ends in \r\r\n.
		data = bytes.ReplaceAll(data, []byte("\r\r\n"), []byte("\r\n"))
	}
	sep, headerLine, err := linkcheckerSeparator(data)
	if err != nil {
		return err
	}
	r := csv.NewReader(bytes.NewReader(blankComments(data)))
	r.Comma = sep
	r.FieldsPerRecord = -1
	fail := func(line, col int, err error) error {
		return &InputError{Format: FormatLinkchecker, Line: line, Column: col, Err: err}
	}
	header, err := r.Read()
	if err != nil {
		return csvError(err, headerLine)
	}
	col := map[string]int{}
	for i, h := range header {
		if _, dup := col[h]; !dup {
			col[h] = i
		}
	}
	valid, hasValid := col["valid"]
	if !hasValid {
		return fail(headerLine, 0, malformed("header has no valid column: cannot tell dead links from warnings"))
	}
	urlCol, hasURL := col["url"]
	nameCol, hasName := col["urlname"]
	if !hasURL && !hasName {
		return fail(headerLine, 0, malformed("header has neither url nor urlname column"))
	}
	field := func(rec []string, name string) string {
		if i, ok := col[name]; ok && i < len(rec) {
			return rec[i]
		}
		return ""
	}
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return csvError(err, 0)
		}
		line, _ := r.FieldPos(0)
		size := 0
		for _, f := range rec {
			size += len(f)
		}
		if size > in.maxLine() {
			return fail(line, 0, fmt.Errorf("%w: record over %d bytes", ErrTooLarge, in.maxLine()))
		}
		if valid >= len(rec) {
			return fail(line, 0, malformed("record has %d fields, no valid column (%d)", len(rec), valid+1))
		}
		switch strings.ToLower(strings.TrimSpace(rec[valid])) {
		case "true", "1", "yes":
			continue
		case "false", "0", "no":
		default:
			l, cl := r.FieldPos(valid)
			return fail(l, cl, malformed("valid column is %q, not True or False", rec[valid]))
		}
		dead := ""
		if hasURL && urlCol < len(rec) {
			dead = strings.TrimSpace(rec[urlCol])
		}
		if dead == "" && hasName && nameCol < len(rec) {
			dead = strings.TrimSpace(rec[nameCol])
		}
		if dead == "" {
			return fail(line, 0, malformed("invalid link without url or urlname"))
		}
		result := field(rec, "result")
		if err := c.add(dead, strings.TrimSpace(field(rec, "parentname")), leadingStatus(result), result, line); err != nil {
			return err
		}
	}
}

// blankComments returns data with linkchecker's comment lines emptied
// (encoding/csv skips empty lines, and the line numbers of its errors stay
// right). A comment is a line that starts with "# " where a record starts,
// as linkchecker's CSVLogger.comment writes it; a record whose first
// field starts with '#' otherwise (a link "#top") is data, and a line
// inside a quoted field is never a comment.
func blankComments(data []byte) []byte {
	out := make([]byte, 0, len(data))
	quoted := false
	for len(data) > 0 {
		line, rest, found := bytes.Cut(data, []byte("\n"))
		if !quoted && (bytes.HasPrefix(line, []byte("# ")) || string(bytes.TrimRight(line, "\r")) == "#") {
			line = nil
		}
		quoted = quoted != (bytes.Count(line, []byte(`"`))%2 == 1)
		out = append(out, line...)
		if found {
			out = append(out, '\n')
		}
		data = rest
	}
	return out
}

// linkcheckerSeparator finds the header row (the first line that is not a
// comment or blank) and returns the separator that follows its first
// column, urlname, with the header's line number.
func linkcheckerSeparator(data []byte) (rune, int, error) {
	n := 0
	for len(data) > 0 {
		var line []byte
		line, data, _ = bytes.Cut(data, []byte("\n"))
		n++
		line = bytes.TrimRight(line, "\r")
		if len(bytes.TrimSpace(line)) == 0 || bytes.HasPrefix(line, []byte("# ")) {
			continue
		}
		if !isLinkcheckerHeader(line) {
			return 0, n, &InputError{Format: FormatLinkchecker, Line: n, Column: 1,
				Err: malformed("no header: the first row must start with the column urlname")}
		}
		rest := line[len("urlname"):]
		if len(rest) == 0 {
			return ';', n, nil
		}
		sep := rune(rest[0])
		if sep == '"' || sep == '\r' || sep == '\n' || sep == '#' || sep >= 0x80 {
			return 0, n, &InputError{Format: FormatLinkchecker, Line: n, Column: len("urlname") + 1,
				Err: malformed("%q cannot be a separator", sep)}
		}
		return sep, n, nil
	}
	return 0, n, &InputError{Format: FormatLinkchecker, Line: n, Err: malformed("no header row")}
}

// csvError turns an error of encoding/csv into an *InputError.
func csvError(err error, line int) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &InputError{Format: FormatLinkchecker, Line: pe.Line, Column: pe.Column, Err: malformed("%v", pe.Err)}
	}
	return &InputError{Format: FormatLinkchecker, Line: line, Err: malformed("%v", err)}
}
