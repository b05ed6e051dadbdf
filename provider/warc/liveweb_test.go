package warc

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// liveRecord is a response record as pywb's live-web loader makes one for
// an answer that came without Content-Length (chunked): pywb
// (warcserver/resource/responseloader.py, LiveWebLoader, _set_content_len)
// sets the record's Content-Length only from the live answer's, and
// leaves it out otherwise; pywb and warcio take -1 for a length they do
// not know (responseloader: headers.get('Content-Length', -1); warcio's
// recordloader reads a record without one to the end of its stream). The
// block is the HTTP answer as it came, Transfer-Encoding: chunked and all.
// length is the Content-Length line to write, "" for none.
func liveRecord(uri, length string) string {
	var b strings.Builder
	b.WriteString("WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:4bd0d1c6-5a8e-4a3b-9c1e-0d9a3a9c6e11>\r\n")
	b.WriteString("WARC-Target-URI: " + uri + "\r\nWARC-Date: 2026-01-02T03:04:05Z\r\n")
	b.WriteString("Content-Type: application/http; msgtype=response\r\n")
	if length != "" {
		b.WriteString("Content-Length: " + length + "\r\n")
	}
	b.WriteString("\r\nHTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nTransfer-Encoding: chunked\r\n\r\n")
	b.WriteString("7\r\n<title>\r\n11\r\nLive page</title>\r\n0\r\n\r\n")
	b.WriteString("\r\n\r\n")
	return b.String()
}

// liveFile returns a WARC file, gzip (one member per record) or plain, of
// a record written by Writer, the live record, and another written by
// Writer.
func liveFile(t *testing.T, gz bool, length string) []byte {
	t.Helper()
	var buf bytes.Buffer
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	w := NewWriter(&buf, gz)
	require.NoError(t, w.WriteResponse("http://example.com/before", at, 200, http.Header{"Content-Type": {"text/html"}}, []byte("<title>Before</title>")))
	if gz {
		buf.Write(gzipMember(t, liveRecord("http://example.com/live", length)))
	} else {
		buf.WriteString(liveRecord("http://example.com/live", length))
	}
	w = NewWriter(&buf, gz)
	require.NoError(t, w.WriteResponse("http://example.com/after", at, 200, http.Header{"Content-Type": {"text/html"}}, []byte("<title>After</title>")))
	return buf.Bytes()
}

// TestLiveWebRecords checks that records of unknown length (no
// Content-Length, or -1) are read to the end of their gzip member or to
// the next record of a plain file, and that the Archive replays them,
// chunked coding undone, and the records after them.
func TestLiveWebRecords(t *testing.T) {
	for _, gz := range []bool{true, false} {
		for _, length := range []string{"", "-1"} {
			t.Run(map[bool]string{true: "gzip", false: "plain"}[gz]+" Content-Length "+map[string]string{"": "missing", "-1": "-1"}[length], func(t *testing.T) {
				data := liveFile(t, gz, length)
				recs, err := readAll(t, data)
				require.NoError(t, err)
				require.Len(t, recs, 3)
				assert.True(t, strings.HasPrefix(recs[1].Body, "HTTP/1.1 200 OK\r\n"), "block %q", recs[1].Body)
				assert.True(t, strings.HasSuffix(recs[1].Body, "0\r\n\r\n"), "block %q runs on or stops short", recs[1].Body)

				a, err := NewArchive(context.Background(), bytes.NewReader(data))
				require.NoError(t, err)
				assert.Empty(t, a.Skipped())
				p, err := a.Fetch(context.Background(), "http://example.com/live")
				require.NoError(t, err)
				assert.Equal(t, http.StatusOK, p.Status)
				assert.Equal(t, "<title>Live page</title>", string(p.Body))
				p, err = a.Fetch(context.Background(), "http://example.com/after")
				require.NoError(t, err)
				assert.Equal(t, "<title>After</title>", string(p.Body))
			})
		}
	}
}

// TestArchiveSkipsBadRecord checks that one record with a wrong
// Content-Length costs the Archive that record, not the rest of the file:
// indexing resumes at the next record (the next version line, or gzip
// member that starts one) and the bad stretch is recorded.
func TestArchiveSkipsBadRecord(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	build := func(gz bool, delta int) []byte {
		var buf bytes.Buffer
		w := NewWriter(&buf, gz)
		require.NoError(t, w.WriteResponse("http://example.com/a", at, 200, http.Header{"Content-Type": {"text/html"}}, []byte("<title>A</title>")))
		var bad bytes.Buffer
		require.NoError(t, NewWriter(&bad, false).WriteResponse("http://example.com/bad", at, 200, http.Header{"Content-Type": {"text/html"}}, []byte("<title>Bad</title>")))
		rec := bad.String()
		n := strings.Index(rec, "Content-Length: ")
		end := strings.Index(rec[n:], "\r\n")
		var length int
		_, err := fmtSscan(rec[n+len("Content-Length: "):n+end], &length)
		require.NoError(t, err)
		rec = rec[:n] + "Content-Length: " + itoa(length+delta) + rec[n+end:]
		if gz {
			buf.Write(gzipMember(t, rec))
		} else {
			buf.WriteString(rec)
		}
		w = NewWriter(&buf, gz)
		require.NoError(t, w.WriteResponse("http://example.com/c", at, 200, http.Header{"Content-Type": {"text/html"}}, []byte("<title>C</title>")))
		require.NoError(t, w.WriteResponse("http://example.com/d", at, 200, http.Header{"Content-Type": {"text/html"}}, []byte("<title>D</title>")))
		return buf.Bytes()
	}
	tests := []struct {
		name    string
		gz      bool
		delta   int
		wantBad bool // the bad record stays in the index
		wantC   bool // the record after it too: a plain file's block that runs into it takes it along
	}{
		{"plain, too short", false, -10, true, true},
		{"plain, too long", false, 40, true, false},
		{"gzip, too short", true, -10, true, true},
		{"gzip, too long", true, 40, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := NewArchive(context.Background(), bytes.NewReader(build(tt.gz, tt.delta)))
			require.NoError(t, err)
			assert.Len(t, a.Skipped(), 1, "skipped: %v", a.Skipped())
			for _, e := range a.Skipped() {
				var fe *FormatError
				assert.ErrorAs(t, e, &fe)
				assert.Contains(t, e.Error(), "source 0")
			}
			assert.True(t, a.Has("http://example.com/a"))
			assert.Equal(t, tt.wantC, a.Has("http://example.com/c"), "the record after the bad one")
			p, err := a.Fetch(context.Background(), "http://example.com/d")
			require.NoError(t, err)
			assert.Equal(t, "<title>D</title>", string(p.Body), "the rest of the file")
			if !tt.wantBad {
				assert.False(t, a.Has("http://example.com/bad"), "a record whose block ran into the next")
			}
		})
	}
}

func fmtSscan(s string, n *int) (int, error) { return fmt.Sscan(s, n) }

func itoa(n int) string { return strconv.Itoa(n) }
