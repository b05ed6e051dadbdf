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
// A record of another type or Content-Type returns an error wrapping
// ErrNotHTTP; a malformed HTTP message a *FormatError.
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
	if p, _ := br.Peek(7); string(p) == "HTTP/2 " || string(p) == "HTTP/3 " {
		proto := string(p[:6]) + ".0 "
		br.Discard(7)
		br = bufio.NewReader(io.MultiReader(strings.NewReader(proto), br))
	}
	var resp *http.Response
	for {
		resp, err = http.ReadResponse(br, nil)
		if err != nil {
			return 0, nil, nil, &FormatError{Offset: rec.Offset, Msg: "malformed HTTP response", Err: err}
		}
		if resp.StatusCode >= 200 || resp.StatusCode == http.StatusSwitchingProtocols {
			break
		}
	}
	lim.left = -1 // the header is read: no bound on the body
	body = resp.Body
	if len(resp.TransferEncoding) > 0 && resp.TransferEncoding[0] == "chunked" && !startsChunked(br) {
		// net/http has not read from br yet: the body starts there.
		body = br
	}
	return resp.StatusCode, resp.Header, body, nil
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
