package commoncrawl_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/provider/commoncrawl"
	"github.com/linkrot/relink/provider/warc"
)

// fixture is a small WAT file with every kind of record, and what reading
// it should give.
type fixture struct {
	data    []byte
	pages   []*commoncrawl.Page // Record and Offset set
	skips   []skip              // in file order
	records int
}

// skip is a SkipError as the tests compare it.
type skip struct {
	Record int
	Offset int64
	URI    string
	Reason string
}

// newFixture writes the fixture: for each of two HTML pages the request,
// response and crawler-metadata envelopes Common Crawl writes, and between
// them an image, a 404 page, a record larger than 4 KiB (the tests'
// MaxRecordBytes), broken JSON, invalid UTF-8, an envelope with no page
// URI, and a WARC response record that has no place in a WAT file.
func newFixture(t *testing.T) fixture {
	f := newWAT(t)
	var fx fixture
	const (
		a = "http://a.example/"
		b = "http://b.example/dir/page.html"
	)
	add := func(uri, reason string, off int64) {
		fx.skips = append(fx.skips, skip{Record: fx.records, Offset: off, URI: uri, Reason: reason})
		fx.records++
	}
	page := func(p *commoncrawl.Page, off int64) {
		p.Record, p.Offset = fx.records, off
		fx.pages = append(fx.pages, p)
		fx.records++
	}
	add("", commoncrawl.ReasonNotMetadata, 0) // warcinfo, written by newWAT
	add(a, commoncrawl.ReasonNotResponse, f.meta(a, request(a)))
	page(&commoncrawl.Page{
		URI: "http://a.example", Address: a, Fetched: fetched, Status: 200, Title: "A",
		Links:   []commoncrawl.Link{{Target: "http://b.example/dir/page.html", Anchor: "the b page"}, {Target: "http://a.example/about", Anchor: "About"}},
		Dropped: map[string]int{commoncrawl.DropNotAnchor: 1},
	}, f.meta(a, response(a, date, `"200"`, head("A", ""), links(
		link("A@/href", "http://B.example/dir/page.html#top", "the b\npage"),
		link("IMG@/src", "/a.png", ""),
		link("A@/href", "/about", "About"),
	))))
	add(a, commoncrawl.ReasonNotResponse, f.meta(a, metadataEnvelope(a)))
	add(a+"a.png", commoncrawl.ReasonNotHTML, f.meta(a+"a.png", image(a+"a.png")))
	add(a+"gone", commoncrawl.ReasonStatus, f.meta(a+"gone", response(a+"gone", date, `"404"`, head("", ""), links(link("A@/href", "/", "home")))))
	big := response(a+"big", date, `"200"`, head("", ""), links(link("A@/href", "/", longText(1000)), link("A@/href", "/", longText(1000)),
		link("A@/href", "/", longText(1000)), link("A@/href", "/", longText(1000)), link("A@/href", "/", longText(1000))))
	add(a+"big", commoncrawl.ReasonTooLarge, f.meta(a+"big", big))
	add(a+"cut", commoncrawl.ReasonBadJSON, f.meta(a+"cut", response(a+"cut", date, `"200"`, head("", ""), links())[:200]))
	add(a+"latin1", commoncrawl.ReasonInvalidUTF8, f.meta(a+"latin1",
		strings.Replace(response(a+"latin1", date, `"200"`, head("Cafe", ""), links()), "Cafe", "Caf\xe9", 1)))
	add("", commoncrawl.ReasonBadURI, f.meta("", response("", date, `"200"`, head("", ""), links())))
	add(a+"warc", commoncrawl.ReasonNotMetadata, f.record(warc.TypeResponse, a+"warc", "application/http; msgtype=response",
		"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=/>x</a>"))
	add(b, commoncrawl.ReasonNotResponse, f.meta(b, request(b)))
	page(&commoncrawl.Page{
		URI: b, Address: b, Fetched: fetched, Status: 200, Title: "B",
		Links: []commoncrawl.Link{{Target: "http://a.example", Anchor: "back to a"}},
	}, f.meta(b, response(b, date, `"200"`, head("B", ""), links(link("A@/href", "http://a.example/", "back to a")))))
	fx.data = f.bytes()
	return fx
}

// readAll reads every page of data with opts, collecting the skips.
func readAll(t *testing.T, data []byte, opts commoncrawl.Options) ([]*commoncrawl.Page, []skip, commoncrawl.Stats, error) {
	t.Helper()
	var skips []skip
	opts.OnSkip = func(se *commoncrawl.SkipError) {
		skips = append(skips, skip{Record: se.Record, Offset: se.Offset, URI: se.URI, Reason: se.Reason})
	}
	r, err := commoncrawl.NewReader(bytes.NewReader(data), &opts)
	if err != nil {
		t.Fatal(err)
	}
	var pages []*commoncrawl.Page
	for {
		p, err := r.Next()
		if err == io.EOF {
			return pages, skips, r.Stats(), nil
		}
		if err != nil {
			return pages, skips, r.Stats(), err
		}
		pages = append(pages, p)
	}
}

func TestReader(t *testing.T) {
	fx := newFixture(t)
	pages, skips, st, err := readAll(t, fx.data, commoncrawl.Options{MaxRecordBytes: 4096})
	if err != nil {
		t.Fatalf("Next: %v", err)
	}
	if diff := cmp.Diff(fx.pages, pages); diff != "" {
		t.Errorf("pages (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(fx.skips, skips); diff != "" {
		t.Errorf("skips (-want +got):\n%s", diff)
	}
	want := commoncrawl.Stats{
		Records: fx.records, Pages: 2, Links: 3,
		Skipped: map[string]int{
			commoncrawl.ReasonNotMetadata: 2, commoncrawl.ReasonNotResponse: 3, commoncrawl.ReasonNotHTML: 1,
			commoncrawl.ReasonStatus: 1, commoncrawl.ReasonTooLarge: 1, commoncrawl.ReasonBadJSON: 1,
			commoncrawl.ReasonInvalidUTF8: 1, commoncrawl.ReasonBadURI: 1,
		},
		DroppedLinks: map[string]int{commoncrawl.DropNotAnchor: 1},
	}
	if diff := cmp.Diff(want, st); diff != "" {
		t.Errorf("Stats (-want +got):\n%s", diff)
	}
	wantString := "13 records: 2 pages, 3 links; skipped 1 bad-json, 1 bad-uri, 1 http-status, 1 invalid-utf8, 1 not-html, " +
		"2 not-metadata, 3 not-response, 1 too-large; links dropped 1 not-a-href"
	if got := st.String(); got != wantString {
		t.Errorf("Stats.String() = %q, want %q", got, wantString)
	}

	// Every page record read again from its offset alone gives the page.
	for _, p := range fx.pages {
		r, err := commoncrawl.NewReader(bytes.NewReader(fx.data[p.Offset:]), nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.Next()
		if err != nil || got.URI != p.URI || len(got.Links) != len(p.Links) {
			t.Errorf("reading from offset %d: %+v, %v; want the page %s", p.Offset, got, err, p.URI)
		}
	}
}

// TestReaderFrom resumes at the last page: earlier records are counted
// but neither parsed nor reported.
func TestReaderFrom(t *testing.T) {
	fx := newFixture(t)
	last := fx.pages[len(fx.pages)-1]
	pages, skips, st, err := readAll(t, fx.data, commoncrawl.Options{From: last.Record})
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 1 || pages[0].URI != last.URI || pages[0].Record != last.Record {
		t.Errorf("From %d: pages %+v, want only %s", last.Record, pages, last.URI)
	}
	if len(skips) != 0 || st.Records != fx.records || st.Pages != 1 || len(st.Skipped) != 0 {
		t.Errorf("From %d: skips %v, stats %+v; want no skips, %d records, 1 page", last.Record, skips, st, fx.records)
	}
}

// TestReaderBroken cuts the file inside the gzip trailer of its last
// member, and corrupts a copy in its last record: the pages before the
// damage come out (the last page too when only its trailer is lost), then a
// *SkipError with ReasonBadRecord, again on every call.
func TestReaderBroken(t *testing.T) {
	fx := newFixture(t)
	last := fx.pages[len(fx.pages)-1]
	corrupt := bytes.Clone(fx.data)
	copy(corrupt[last.Offset+20:], "garbage garbage garbage")
	tests := []struct {
		name  string
		data  []byte
		pages int
		trunc bool
	}{
		{name: "cut in the last gzip trailer", data: fx.data[:len(fx.data)-6], pages: 2, trunc: true},
		{name: "cut in the last record", data: fx.data[:last.Offset+40], pages: 1, trunc: true},
		{name: "corrupt gzip member", data: corrupt, pages: 1},
		{name: "not gzip, not WARC", data: []byte("this is not a WAT file\n"), pages: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := commoncrawl.NewReader(bytes.NewReader(tt.data), &commoncrawl.Options{MaxRecordBytes: 4096})
			if err != nil {
				t.Fatal(err)
			}
			var got int
			for {
				_, err = r.Next()
				if err != nil {
					break
				}
				got++
			}
			var se *commoncrawl.SkipError
			if !errors.As(err, &se) || se.Reason != commoncrawl.ReasonBadRecord {
				t.Fatalf("Next after %d pages: %v, want a *SkipError with ReasonBadRecord", got, err)
			}
			if got != tt.pages || errors.Is(err, warc.ErrTruncated) != tt.trunc {
				t.Errorf("%d pages then %v; want %d pages, truncated %v", got, err, tt.pages, tt.trunc)
			}
			if _, again := r.Next(); again != err {
				t.Errorf("Next after the error = %v, want the same error", again)
			}
			if n := r.Stats().Skipped[commoncrawl.ReasonBadRecord]; n != 1 {
				t.Errorf("Stats().Skipped[bad-record] = %d, want 1", n)
			}
		})
	}
}

// failingReader fails after its data.
type failingReader struct{ r io.Reader }

var errDisk = errors.New("disk on fire")

func (f *failingReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		return n, errDisk
	}
	return n, err
}

// TestReaderInputError: an error of the input itself is returned, not
// counted as a record.
func TestReaderInputError(t *testing.T) {
	fx := newFixture(t)
	r, err := commoncrawl.NewReader(&failingReader{bytes.NewReader(fx.data)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err = r.Next(); err != nil {
			break
		}
	}
	var se *commoncrawl.SkipError
	if !errors.Is(err, errDisk) || errors.As(err, &se) {
		t.Errorf("Next at the failing end = %v, want the input's error, not a skip", err)
	}
}

// TestWriterRoundTrip writes pages with Writer and reads them back.
func TestWriterRoundTrip(t *testing.T) {
	in := []*commoncrawl.Page{
		{URI: "https://a.example", Address: "https://A.example/", Fetched: time.Date(2023, 1, 2, 3, 4, 5, 0, time.UTC), Status: 200, Title: "A page",
			Links: []commoncrawl.Link{{Target: "https://b.example/x", Anchor: "to x"}, {Target: "https://b.example/y"}}},
		{URI: "http://b.example/x", Links: []commoncrawl.Link{}},
	}
	var buf bytes.Buffer
	w := commoncrawl.NewWriter(&buf)
	for _, p := range in {
		if err := w.WritePage(p); err != nil {
			t.Fatal(err)
		}
	}
	got, _, st, err := readAll(t, buf.Bytes(), commoncrawl.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(in) {
		t.Fatalf("read %d pages, wrote %d", len(got), len(in))
	}
	for i := range got {
		in[i].Record, in[i].Offset = got[i].Record, got[i].Offset
		if in[i].Address == "" {
			in[i].Address = in[i].URI
		}
	}
	if diff := cmp.Diff(in, got); diff != "" {
		t.Errorf("pages read back (-want +got):\n%s", diff)
	}
	if st.Skipped[commoncrawl.ReasonNotMetadata] != 1 || st.Records != 3 {
		t.Errorf("Stats = %+v, want the warcinfo record and two pages", st)
	}
	if err := w.WritePage(&commoncrawl.Page{URI: "http://x.example/\nbad"}); err == nil {
		t.Error("WritePage of a URI with a newline: no error")
	}
}

// TestReaderCorruptMember corrupts the gzip member of one page in the
// middle of the file: that record is reported with ReasonBadRecord at its
// member's offset, and the pages after it still come out (issue 12: the
// rest of a file after a corrupt member was lost).
func TestReaderCorruptMember(t *testing.T) {
	fx := newFixture(t)
	require.GreaterOrEqual(t, len(fx.pages), 2)
	first := fx.pages[0]
	data := bytes.Clone(fx.data)
	copy(data[first.Offset+20:], "garbage garbage garbage")

	var bad []*commoncrawl.SkipError
	r, err := commoncrawl.NewReader(bytes.NewReader(data), &commoncrawl.Options{
		MaxRecordBytes: 4096,
		OnSkip: func(se *commoncrawl.SkipError) {
			if se.Reason == commoncrawl.ReasonBadRecord {
				bad = append(bad, se)
			}
		},
	})
	require.NoError(t, err)
	var got []string
	for {
		p, err := r.Next()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		got = append(got, p.URI)
	}
	var want []string
	for _, p := range fx.pages[1:] {
		want = append(want, p.URI)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pages after the corrupt member (-want +got):\n%s", diff)
	}
	require.Len(t, bad, 1)
	assert.Equal(t, first.Offset, bad[0].Offset)
	assert.Equal(t, first.Record, bad[0].Record)
	var fe *warc.FormatError
	assert.ErrorAs(t, bad[0], &fe)
	assert.Equal(t, 1, r.Stats().Skipped[commoncrawl.ReasonBadRecord])
}
