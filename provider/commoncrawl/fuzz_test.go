package commoncrawl_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/provider/commoncrawl"
	"github.com/linkrot/relink/provider/warc"
)

// reasons are the reasons Parse may give.
var reasons = map[string]bool{
	commoncrawl.ReasonNotResponse: true, commoncrawl.ReasonNotHTML: true, commoncrawl.ReasonStatus: true,
	commoncrawl.ReasonBadJSON: true, commoncrawl.ReasonBadEnvelope: true, commoncrawl.ReasonInvalidUTF8: true,
	commoncrawl.ReasonBadURI: true,
}

// FuzzParse checks that Parse never panics and keeps its promises on any
// block: a page has a canonical http(s) URI, canonical http(s) targets and
// normalised text within the bounds; anything else is a *SkipError with
// one of the reasons Parse gives; and parsing is deterministic.
func FuzzParse(f *testing.F) {
	f.Add(response(home, date, `"200"`, head("T", "/base/"), links(
		link("A@/href", "a b", " x\ty "), link("IMG@/src", "/i.png", ""), link("A@/href", "mailto:x", "m"))), "")
	f.Add(response("", date, `200`, head("", ""), links(link("A@/href", "http://[::1]:80/", "v6"))), "http://rec.example/")
	f.Add(request(home), "")
	f.Add(image(home), "")
	f.Add(`{"Envelope":{"WARC-Header-Metadata":{"WARC-Type":"response","WARC-Target-URI":"http://x.example/"},`+
		`"Payload-Metadata":{"HTTP-Response-Metadata":{"HTML-Metadata":{"Links":[{"path":"a@/href","url":"\u0000//y"}]}}}}}`, "")
	f.Add("{", "")
	f.Fuzz(func(t *testing.T, block, record string) {
		p, err := commoncrawl.Parse([]byte(block), record)
		if err != nil {
			var se *commoncrawl.SkipError
			if p != nil || !errors.As(err, &se) || !reasons[se.Reason] {
				t.Fatalf("Parse = %+v, %v; want nil and a *SkipError with a known reason", p, err)
			}
			return
		}
		if c, err := canon.Canonicalize(p.URI); err != nil || c != p.URI || !isHTTP(p.URI) {
			t.Fatalf("page URI %q is not a canonical http(s) URI", p.URI)
		}
		checkText(t, "title", p.Title, 1<<30)
		for _, l := range p.Links {
			if c, err := canon.Canonicalize(l.Target); err != nil || c != l.Target || !isHTTP(l.Target) {
				t.Fatalf("link target %q is not a canonical http(s) URI", l.Target)
			}
			checkText(t, "anchor", l.Anchor, commoncrawl.MaxAnchorBytes)
		}
		again, err := commoncrawl.Parse([]byte(block), record)
		if err != nil {
			t.Fatalf("Parse again: %v", err)
		}
		if diff := cmp.Diff(p, again); diff != "" {
			t.Fatalf("Parse again (-first +again):\n%s", diff)
		}
	})
}

// checkText fails unless s is valid UTF-8 of at most max bytes with no
// control characters and single spaces between words only.
func checkText(t *testing.T, what, s string, max int) {
	t.Helper()
	if !utf8.ValidString(s) || len(s) > max || strings.HasPrefix(s, " ") || strings.HasSuffix(s, " ") || strings.Contains(s, "  ") ||
		strings.ContainsFunc(s, func(r rune) bool { return unicode.IsControl(r) || (unicode.IsSpace(r) && r != ' ') }) {
		t.Fatalf("%s %q is not normalised text", what, s)
	}
}

// isHTTP reports whether u is an http or https URI.
func isHTTP(u string) bool {
	return strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://")
}

// FuzzReader reads any bytes as a WAT file and checks that Next never
// panics or loops, that every error is io.EOF, a *SkipError with
// ReasonBadRecord (which ends the file and comes back on every later call)
// or nothing else, that pages come out in record order, and that Stats
// counts what was returned and reported. Memory stays bounded by
// MaxRecordBytes, set low here.
func FuzzReader(f *testing.F) {
	// Small seeds in the layout of Common Crawl's envelopes, one gzip
	// member per record: the fuzzer minimizes every new input, which
	// takes long for inputs of kilobytes.
	const env = `{"Envelope":{"WARC-Header-Metadata":{"WARC-Type":"response","WARC-Target-URI":"http://a.example/"},` +
		`"Payload-Metadata":{"HTTP-Response-Metadata":{"Response-Message":{"Status":"200"},` +
		`"HTML-Metadata":{"Head":{"Base":"/b/"},"Links":[{"path":"A@/href","url":"x","text":"x"},{"path":"IMG@/src","url":"i.png"}]}}}}}`
	w := &watFile{t: f}
	w.w = warc.NewWriter(&w.buf, true)
	w.meta("http://a.example/", env)
	w.meta("http://a.example/", request("http://a.example/"))
	good := w.bytes()
	f.Add(good)
	f.Add(good[:len(good)-7])
	broken := bytes.Clone(good)
	copy(broken[30:], "garbage")
	f.Add(broken)
	f.Add([]byte("WARC/1.1\r\nWARC-Type: metadata\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}\r\n\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var reported int
		r, err := commoncrawl.NewReader(bytes.NewReader(data), &commoncrawl.Options{
			MaxRecordBytes: 4096,
			OnSkip:         func(*commoncrawl.SkipError) { reported++ },
		})
		if err != nil {
			t.Fatalf("NewReader: %v", err)
		}
		pages, last := 0, -1
		for steps := 0; ; steps++ {
			if steps > len(data)+2 {
				t.Fatalf("more than %d calls of Next on %d bytes", steps, len(data))
			}
			p, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				var se *commoncrawl.SkipError
				if !errors.As(err, &se) || se.Reason != commoncrawl.ReasonBadRecord {
					t.Fatalf("Next: %v, want io.EOF or a *SkipError with ReasonBadRecord", err)
				}
				if _, again := r.Next(); again != err {
					t.Fatalf("Next after %v = %v, want the same error", err, again)
				}
				break
			}
			if p.Record <= last || p.Offset < 0 || p.Offset >= int64(len(data)) {
				t.Fatalf("page record %d at offset %d after record %d, in %d bytes", p.Record, p.Offset, last, len(data))
			}
			last = p.Record
			pages++
		}
		st := r.Stats()
		skipped := 0
		for _, n := range st.Skipped {
			skipped += n
		}
		if st.Pages != pages || skipped != reported {
			t.Fatalf("Stats = %+v, but %d pages returned and %d skips reported", st, pages, reported)
		}
	})
}
