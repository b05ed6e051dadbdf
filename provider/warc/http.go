package warc

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
)

// DefaultMaxBody is the default bound on the bytes of a decoded body:
// 10 MiB, for DecodeBody and Archive.
const DefaultMaxBody = 10 << 20

// maxCodings is the most content codings DecodeBody undoes for one body.
const maxCodings = 4

// ErrNotHTTP is returned, wrapped, by ReadResponse for a record that does
// not hold an HTTP response.
var ErrNotHTTP = errors.New("warc: record does not hold an HTTP response")

// ErrUnsupportedEncoding is returned, wrapped, by DecodeBody for a content
// coding it cannot undo (br, zstd, compress, or an unknown name).
var ErrUnsupportedEncoding = errors.New("warc: unsupported content encoding")

// ReadResponse parses the HTTP response held in rec's block: the block of a
// response record (or of a revisit record, which may hold the headers
// alone) whose Content-Type is application/http with msgtype=response or no
// msgtype (WARC/1.1 §6.3.2). It uses net/http.ReadResponse, so chunked
// transfer coding is undone as net/http does; a body announced as chunked
// that does not start with a chunk-size line (some writers store it
// dechunked) is returned as recorded. Interim 1xx responses before the
// final one are skipped, and an "HTTP/2" or "HTTP/3" status line is read as
// "HTTP/2.0" or "HTTP/3.0".
//
// The HTTP header, interim responses included, may hold at most
// MaxHeaderBytes, as net/http's client bounds it. The body is otherwise
// returned as recorded: a Content-Encoding such as gzip is not undone (see
// DecodeBody). It reads from rec.Body, so it is valid until the next call
// to Reader.Next, and it ends with the block.
//
// Content-Length fields that do not agree on one length without a sign
// (recorders write "Content-Length: -1", pywb's live-web recorder beside
// chunked transfer coding) are dropped, so that the body is read to the end
// of the block, which bounds it. A record of another type or Content-Type
// returns an error wrapping ErrNotHTTP; a malformed HTTP message a
// *FormatError.
func ReadResponse(rec *Record) (status int, header http.Header, body io.Reader, err error) {
	if t := rec.Header.Type(); t != TypeResponse && t != TypeRevisit {
		return 0, nil, nil, fmt.Errorf("%w: record at offset %d has WARC-Type %q", ErrNotHTTP, rec.Offset, t)
	}
	ct := rec.Header.ContentType()
	mt, params, perr := mime.ParseMediaType(ct)
	if perr != nil || mt != "application/http" || (params["msgtype"] != "" && !strings.EqualFold(params["msgtype"], "response")) {
		return 0, nil, nil, fmt.Errorf("%w: record at offset %d has Content-Type %q", ErrNotHTTP, rec.Offset, ct)
	}
	// Like net/http's client, bound the header: the block may be large.
	lim := &httpHeaderLimit{r: rec.Body, left: MaxHeaderBytes}
	br := bufio.NewReader(lim)
	var (
		head []byte
		resp *http.Response
	)
	for {
		head, err = readHTTPHead(br)
		if err == nil {
			head = fixContentLength(head)
			resp, err = http.ReadResponse(bufio.NewReader(bytes.NewReader(head)), nil)
		}
		if err != nil {
			return 0, nil, nil, &FormatError{Offset: rec.Offset, Msg: "malformed HTTP response", Err: err}
		}
		if resp.StatusCode >= 200 || resp.StatusCode == http.StatusSwitchingProtocols {
			break
		}
	}
	// Parse the final head again with the body after it.
	lim.left = -1 // the header is read: no bound on the body
	resp, err = http.ReadResponse(bufio.NewReader(io.MultiReader(bytes.NewReader(head), br)), nil)
	if err != nil {
		return 0, nil, nil, &FormatError{Offset: rec.Offset, Msg: "malformed HTTP response", Err: err}
	}
	body = resp.Body
	if len(resp.TransferEncoding) > 0 && resp.TransferEncoding[0] == "chunked" && !startsChunked(br) {
		// net/http has not read from br yet: the body starts there.
		body = br
	}
	return resp.StatusCode, resp.Header, body, nil
}

// readHTTPHead reads one HTTP message head from br: the status line and
// the header fields, up to and including the empty line that ends them
// (or the end of the input). An "HTTP/2" or "HTTP/3" status line is
// rewritten as "HTTP/2.0" or "HTTP/3.0", which net/http parses.
func readHTTPHead(br *bufio.Reader) ([]byte, error) {
	var head []byte
	for {
		line, err := br.ReadSlice('\n')
		if len(head) == 0 && (bytes.HasPrefix(line, []byte("HTTP/2 ")) || bytes.HasPrefix(line, []byte("HTTP/3 "))) {
			head = append(head, line[:6]...)
			head = append(head, ".0"...)
			line = line[6:]
		}
		head = append(head, line...)
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF:
			return head, nil // net/http says what is missing
		case err != nil:
			return nil, err
		}
		if len(bytes.TrimRight(line, "\r\n")) == 0 && len(head) > len(line) {
			return head, nil
		}
	}
}

// fixContentLength returns head without its Content-Length fields unless
// they all hold one length, a decimal number without sign. In a WARC record
// the block bounds the HTTP message, so a length the server got wrong is
// not needed to read it: recorders write "Content-Length: -1" (pywb's
// live-web recorder, beside chunked transfer coding), and net/http refuses
// a negative or repeated length.
func fixContentLength(head []byte) []byte {
	var lengths []string
	lines := bytes.SplitAfter(head, []byte("\n"))
	for _, line := range lines[1:] {
		name, value, ok := bytes.Cut(line, []byte(":"))
		if ok && strings.EqualFold(string(bytes.TrimSpace(name)), "Content-Length") {
			lengths = append(lengths, string(bytes.TrimSpace(value)))
		}
	}
	good := len(lengths) > 0
	for _, v := range lengths {
		if v != lengths[0] || v == "" || strings.TrimLeft(v, "0123456789") != "" || len(v) > 18 {
			good = false
		}
	}
	if good || len(lengths) == 0 {
		return head
	}
	out := make([]byte, 0, len(head))
	out = append(out, lines[0]...)
	for _, line := range lines[1:] {
		name, _, ok := bytes.Cut(line, []byte(":"))
		if ok && strings.EqualFold(string(bytes.TrimSpace(name)), "Content-Length") {
			continue
		}
		out = append(out, line...)
	}
	return out
}

// errHTTPHeaderTooLarge ends the reading of an HTTP header longer than
// MaxHeaderBytes.
var errHTTPHeaderTooLarge = fmt.Errorf("HTTP header longer than %d bytes", MaxHeaderBytes)

// httpHeaderLimit fails once more than left bytes are read, while left is not
// negative.
type httpHeaderLimit struct {
	r    io.Reader
	left int
}

// Read reads from r within the bound.
func (l *httpHeaderLimit) Read(p []byte) (int, error) {
	if l.left < 0 {
		return l.r.Read(p)
	}
	if l.left == 0 {
		return 0, errHTTPHeaderTooLarge
	}
	if len(p) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= n
	return n, err
}

// startsChunked reports whether br starts with a chunk-size line of
// RFC 9112 §7.1: hex digits, optional white space and extensions, a line end.
func startsChunked(br *bufio.Reader) bool {
	buf, _ := br.Peek(1024)
	i := bytes.IndexByte(buf, '\n')
	if i < 0 {
		return false
	}
	size, _, _ := bytes.Cut(bytes.TrimSuffix(buf[:i], []byte("\r")), []byte(";"))
	size = bytes.TrimRight(size, " \t")
	if len(size) == 0 || len(size) > 16 {
		return false
	}
	for _, c := range size {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// DecodeBody undoes the Content-Encoding of header on body (RFC 9110
// §8.4): gzip and x-gzip, deflate (zlib, or raw deflate as some servers
// send it) and identity, applied in the order listed. It returns at most
// limit decoded bytes (limit ≤ 0 means DefaultMaxBody); a longer body is
// cut at limit without error, so a small compressed body cannot expand
// without bound. Without a Content-Encoding it reads body up to limit.
//
// Any other coding, or more than four, returns an error wrapping
// ErrUnsupportedEncoding before reading anything. An error while decoding
// (io.ErrUnexpectedEOF for a cut body, a gzip or flate error for bad data)
// is returned with the bytes decoded before it.
func DecodeBody(header http.Header, body io.Reader, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = DefaultMaxBody
	}
	var codings []string
	for _, v := range header.Values("Content-Encoding") {
		for c := range strings.SplitSeq(v, ",") {
			c = strings.ToLower(strings.TrimSpace(c))
			switch c {
			case "", "identity":
			case "gzip", "x-gzip", "deflate":
				codings = append(codings, c)
			default:
				return nil, fmt.Errorf("%w: %q", ErrUnsupportedEncoding, c)
			}
		}
	}
	if len(codings) > maxCodings {
		return nil, fmt.Errorf("%w: %d codings", ErrUnsupportedEncoding, len(codings))
	}
	r := body
	for i := len(codings) - 1; i >= 0; i-- {
		var err error
		if r, err = decoder(codings[i], r); err != nil {
			return nil, err
		}
	}
	return io.ReadAll(io.LimitReader(r, limit))
}

// decoder returns a reader that undoes coding on r.
func decoder(coding string, r io.Reader) (io.Reader, error) {
	if coding != "deflate" {
		return gzip.NewReader(r)
	}
	br := bufio.NewReader(r)
	if p, _ := br.Peek(2); len(p) == 2 && p[0]&0x0f == 8 && (uint(p[0])<<8|uint(p[1]))%31 == 0 {
		return zlib.NewReader(br)
	}
	return flate.NewReader(br), nil
}
