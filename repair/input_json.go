package repair

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonReader walks a JSON document token by token, keeping object keys in
// document order (lychee's maps are serialized from hash maps, so their
// order is the only order the report has), and turns every error into an
// *InputError with a line and column.
type jsonReader struct {
	format Format
	data   []byte
	dec    *json.Decoder
}

func newJSONReader(format Format, data []byte) *jsonReader {
	return &jsonReader{format: format, data: data, dec: json.NewDecoder(bytes.NewReader(data))}
}

// fail returns an *InputError at byte offset off of the document.
func (j *jsonReader) fail(off int64, err error) error {
	line, col := position(j.data, off)
	return &InputError{Format: j.format, Line: line, Column: col, Err: err}
}

// wrap turns an error of the decoder's Token or of Decode into an
// *InputError where it happened.
func (j *jsonReader) wrap(err error) error {
	return j.wrapAt(err, j.dec.InputOffset())
}

// wrapAt is wrap for an error of decoding the value that starts at
// offset value: a syntax error is placed where the decoder found it, a
// value of the wrong type at the start of the value it is in.
func (j *jsonReader) wrapAt(err error, value int64) error {
	off := value
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return j.fail(int64(len(j.data)), malformed("unexpected end of JSON"))
	}
	return j.fail(off, malformed("%v", err))
}

// delim reads the next token and fails unless it is the delimiter d.
func (j *jsonReader) delim(d json.Delim, what string) error {
	off := j.dec.InputOffset()
	t, err := j.dec.Token()
	if err != nil {
		return j.wrap(err)
	}
	if got, ok := t.(json.Delim); !ok || got != d {
		return j.fail(firstByte(j.data, off), malformed("%s: want %q, found %s", what, d, describe(t)))
	}
	return nil
}

// key reads an object key.
func (j *jsonReader) key() (string, error) {
	t, err := j.dec.Token()
	if err != nil {
		return "", j.wrap(err)
	}
	s, _ := t.(string)
	return s, nil
}

// skip reads and discards one value.
func (j *jsonReader) skip() error {
	var v json.RawMessage
	if err := j.dec.Decode(&v); err != nil {
		return j.wrap(err)
	}
	return nil
}

// describe names a JSON token for an error message.
func describe(t json.Token) string {
	switch v := t.(type) {
	case json.Delim:
		return strconv.Quote(v.String())
	case string:
		return "a string"
	case nil:
		return "null"
	case bool:
		return "a boolean"
	default:
		return "a number"
	}
}

// position turns a byte offset into a 1-based line and column (in bytes).
func position(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	head := data[:off]
	line = bytes.Count(head, []byte("\n")) + 1
	col = int(off) - (bytes.LastIndexByte(head, '\n') + 1) + 1
	return line, col
}

// lycheeMaps are the maps of lychee's JSON report that list failed links:
// fail_map up to lychee 0.17 (renamed error_map in 0.18, lychee PR #1560)
// and timeout_map since 0.24 (timeouts were in fail_map before, and lychee
// still counts them as failures). excluded_map (links lychee did not
// check), unsupported_map, success_map, redirect_map and suggestion_map
// are not failures and are skipped.
var lycheeMaps = map[string]bool{"fail_map": true, "error_map": true, "timeout_map": true}

// lycheeEntry is one response of a lychee map. The URL is flattened into
// the entry; the status is a string up to lychee 0.15 ("Failed: Network
// error") and an object since 0.16 (lychee PR #1014: {"text", "code"},
// and "details" instead of "code" since PR #1367). Later fields (span,
// duration, redirects, remap) are ignored.
type lycheeEntry struct {
	URL    jsonURL         `json:"url"`
	Status json.RawMessage `json:"status"`
}

type lycheeStatus struct {
	Text    string `json:"text"`
	Code    int    `json:"code"`
	Details string `json:"details"`
}

// parseLychee reads lychee's --format json report: an object whose
// fail_map, error_map and timeout_map map each input source (a URL, a
// file path or "stdin") to the failed responses found there. Sources and
// entries are taken in document order. Text after the report's closing
// brace is ignored: lychee before 0.15 printed warnings there (lychee
// issue #1355). A report with none of those maps is an error.
func parseLychee(_ *Input, data []byte, c *collector) error {
	j := newJSONReader(FormatLychee, data)
	if err := j.delim('{', "lychee report"); err != nil {
		return err
	}
	found := false
	for j.dec.More() {
		k, err := j.key()
		if err != nil {
			return err
		}
		if !lycheeMaps[k] {
			if err := j.skip(); err != nil {
				return err
			}
			continue
		}
		found = true
		if err := j.lycheeMap(k, c); err != nil {
			return err
		}
	}
	if err := j.delim('}', "lychee report"); err != nil {
		return err
	}
	if !found {
		return j.fail(0, malformed("not a lychee report: no fail_map, error_map or timeout_map"))
	}
	return nil
}

// lycheeMap reads one map of source → responses.
func (j *jsonReader) lycheeMap(name string, c *collector) error {
	if err := j.delim('{', name); err != nil {
		return err
	}
	for j.dec.More() {
		src, err := j.key()
		if err != nil {
			return err
		}
		if err := j.delim('[', name+" entry of "+strconv.Quote(src)); err != nil {
			return err
		}
		for j.dec.More() {
			off := firstByte(j.data, j.dec.InputOffset())
			var e lycheeEntry
			if err := j.dec.Decode(&e); err != nil {
				return j.wrapAt(err, off)
			}
			line, col := position(j.data, off)
			if e.URL == "" {
				return &InputError{Format: FormatLychee, Line: line, Column: col, Err: malformed("%s entry without a url", name)}
			}
			status, reason, err := lycheeReason(e.Status)
			if err != nil {
				return &InputError{Format: FormatLychee, Line: line, Column: col, Err: err}
			}
			if err := c.add(string(e.URL), src, status, reason, line); err != nil {
				return err
			}
		}
		if err := j.delim(']', name); err != nil {
			return err
		}
	}
	return j.delim('}', name)
}

// firstByte returns the offset of the first byte at or after off that is
// not JSON white space or a separator: where a value starts.
func firstByte(data []byte, off int64) int64 {
	for off < int64(len(data)) && strings.IndexByte(" \t\r\n,:", data[off]) >= 0 {
		off++
	}
	return off
}

// lycheeReason reads a lychee status in either shape.
func lycheeReason(raw json.RawMessage) (status int, reason string, err error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return 0, "", nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return 0, "", malformed("status: %v", err)
		}
		return leadingStatus(s), s, nil
	}
	var st lycheeStatus
	if err := json.Unmarshal(raw, &st); err != nil {
		return 0, "", malformed("status: %v", err)
	}
	reason = st.Text
	if st.Details != "" && !strings.Contains(reason, st.Details) {
		if reason != "" {
			reason += ": "
		}
		reason += st.Details
	}
	if st.Code == 0 {
		st.Code = leadingStatus(st.Text)
	}
	return st.Code, reason, nil
}

// leadingStatus returns the HTTP status code that s starts with ("404 Not
// Found", "404"), or 0.
func leadingStatus(s string) int {
	if len(s) < 3 || (len(s) > 3 && s[3] != ' ' && s[3] != '(') {
		return 0
	}
	n, err := strconv.Atoi(s[:3])
	if err != nil || n < 100 || n > 599 {
		return 0
	}
	return n
}

// muffetPage is one page of muffet's JSON output (muffet v2.1, PR #117:
// {"url", "links": [{"url", "error"}]}; since v2.7, PR #276, a link may
// instead be {"url", "status"}, a success listed with --verbose).
type muffetPage struct {
	URL   jsonURL      `json:"url"`
	Links []muffetLink `json:"links"`
}

type muffetLink struct {
	URL    jsonURL `json:"url"`
	Error  string  `json:"error"`
	Status int     `json:"status"`
}

// parseMuffet reads muffet's JSON output: an array of pages, each with the
// links that failed on it. A link without an error (a success that
// --verbose listed) is not dead and is skipped. muffet writes an error as
// the HTTP status alone ("404") or with more ("404 (following redirect
// ...)"), or a network error's text.
func parseMuffet(_ *Input, data []byte, c *collector) error {
	j := newJSONReader(FormatMuffet, data)
	if err := j.delim('[', "muffet output"); err != nil {
		return err
	}
	for j.dec.More() {
		off := firstByte(j.data, j.dec.InputOffset())
		var p muffetPage
		if err := j.dec.Decode(&p); err != nil {
			return j.wrapAt(err, off)
		}
		line, col := position(j.data, off)
		if p.URL == "" {
			return &InputError{Format: FormatMuffet, Line: line, Column: col, Err: malformed("page without a url")}
		}
		for _, l := range p.Links {
			if l.Error == "" {
				continue
			}
			if l.URL == "" {
				return &InputError{Format: FormatMuffet, Line: line, Column: col, Err: malformed("link without a url on page %q", p.URL)}
			}
			if err := c.add(string(l.URL), string(p.URL), leadingStatus(l.Error), l.Error, line); err != nil {
				return err
			}
		}
	}
	if err := j.delim(']', "muffet output"); err != nil {
		return err
	}
	off := firstByte(j.data, j.dec.InputOffset())
	if _, err := j.dec.Token(); err != io.EOF {
		return j.fail(off, malformed("text after the closing bracket"))
	}
	return nil
}

// jsonURL is a URL of a JSON report, decoded as it was written: bytes
// that are not UTF-8 are kept (encoding/json would make each U+FFFD, and
// cleanURL percent-encodes them), and no more than MaxURL+1 bytes are
// decoded, so that a URL of 50 MB costs no more than one of 64 KiB.
type jsonURL string

// UnmarshalJSON decodes a JSON string, or null as "".
func (u *jsonURL) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*u = ""
		return nil
	}
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return errors.New("url is not a string")
	}
	s, err := unquote(b[1:len(b)-1], MaxURL+1)
	if err != nil {
		return fmt.Errorf("url: %w", err)
	}
	*u = jsonURL(s)
	return nil
}

// unquote decodes the inside of a JSON string (RFC 8259 §7), keeping
// bytes that are not UTF-8 as they are, and stops after max bytes. A lone
// surrogate escape becomes U+FFFD, as encoding/json makes it.
func unquote(b []byte, max int) (string, error) {
	out := make([]byte, 0, min(len(b), max))
	for i := 0; i < len(b) && len(out) < max; i++ {
		c := b[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		if i+1 >= len(b) {
			return "", errors.New("string ends in a backslash")
		}
		i++
		switch b[i] {
		case '"', '\\', '/':
			out = append(out, b[i])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(b[i+1:])
			if !ok {
				return "", errors.New("bad \\u escape")
			}
			i += 4
			if utf16.IsSurrogate(r) {
				r2, ok := rune(0), false
				if i+2 < len(b) && b[i+1] == '\\' && b[i+2] == 'u' {
					r2, ok = hex4(b[i+3:])
				}
				if d := utf16.DecodeRune(r, r2); ok && d != utf8.RuneError {
					r, i = d, i+6
				} else {
					r = utf8.RuneError
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			return "", fmt.Errorf("bad escape \\%c", b[i])
		}
	}
	return string(out[:min(len(out), max)]), nil
}

// hex4 reads the four hexadecimal digits of a \u escape.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(b[:4]), 16, 16)
	return rune(n), err == nil
}
