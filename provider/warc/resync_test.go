package warc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// resource returns a resource record of uri whose block is body and whose
// Content-Length field says length (the true length when length < 0).
func resource(uri, body string, length int) string {
	if length < 0 {
		length = len(body)
	}
	return fmt.Sprintf("WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: %s\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", uri, length, body)
}

// events reads data to its end, calling Resync after every *FormatError,
// and returns what happened: "URI@offset=body" for a record read whole,
// "error@offset" for a failure (of Next or of a Body), "resync@offset"
// where Resync resumed, and "eof".
func events(t *testing.T, data []byte) []string {
	t.Helper()
	r, err := NewReader(bytes.NewReader(data))
	require.NoError(t, err)
	var got []string
	fail := func(err error) bool {
		var fe *FormatError
		require.ErrorAs(t, err, &fe, "an error that is not a *FormatError")
		got = append(got, fmt.Sprintf("error@%d", fe.Offset))
		off, err := r.Resync()
		if err == io.EOF {
			got = append(got, "eof")
			return false
		}
		require.NoError(t, err)
		got = append(got, fmt.Sprintf("resync@%d", off))
		return true
	}
	for i := 0; i < 100; i++ {
		rec, err := r.Next()
		if err == io.EOF {
			return append(got, "eof")
		}
		if err != nil {
			if !fail(err) {
				return got
			}
			continue
		}
		body, err := io.ReadAll(rec.Body)
		if err != nil {
			if !fail(err) {
				return got
			}
			continue
		}
		got = append(got, fmt.Sprintf("%s@%d=%s", rec.Header.TargetURI(), rec.Offset, body))
	}
	t.Fatal("more than 100 events: Resync does not move on")
	return nil
}

// TestResyncGzip checks that a bad gzip member, a record of the wrong
// length and garbage between members cost only the records they hold.
func TestResyncGzip(t *testing.T) {
	a := gzipMember(t, resource("http://a.example/", "alpha", -1))
	b := gzipMember(t, resource("http://b.example/", "bravo", -1))
	c := gzipMember(t, resource("http://c.example/", "charlie", -1))
	corrupt := bytes.Clone(b)
	for i := 12; i < len(corrupt)-8; i++ { // the deflate data, not the header or trailer
		corrupt[i] ^= 0x5a
	}
	badCRC := bytes.Clone(b)
	badCRC[len(badCRC)-8] ^= 0xff
	long := gzipMember(t, resource("http://long.example/", "lima", 400))
	short := gzipMember(t, resource("http://short.example/", "sierra", 2))
	// Bytes that look like the start of a gzip member but are not one.
	fakeMagic := []byte("junk \x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff not deflate \x1f\x8b\x08")
	n := func(ms ...[]byte) int { return len(bytes.Join(ms, nil)) }

	tests := []struct {
		name    string
		members [][]byte
		want    []string
	}{
		{
			name:    "corrupt member between good ones",
			members: [][]byte{a, corrupt, c},
			want: []string{"http://a.example/@0=alpha", fmt.Sprintf("error@%d", n(a)), fmt.Sprintf("resync@%d", n(a, corrupt)),
				fmt.Sprintf("http://c.example/@%d=charlie", n(a, corrupt)), "eof"},
		},
		{
			// The record comes out before the member's checksum is read.
			name:    "bad checksum",
			members: [][]byte{a, badCRC, c},
			want: []string{"http://a.example/@0=alpha", fmt.Sprintf("http://b.example/@%d=bravo", n(a)), fmt.Sprintf("error@%d", n(a)),
				fmt.Sprintf("resync@%d", n(a, badCRC)), fmt.Sprintf("http://c.example/@%d=charlie", n(a, badCRC)), "eof"},
		},
		{
			name:    "garbage with false gzip magic between members",
			members: [][]byte{a, fakeMagic, c},
			want: []string{"http://a.example/@0=alpha", fmt.Sprintf("error@%d", n(a)), fmt.Sprintf("resync@%d", n(a, fakeMagic)),
				fmt.Sprintf("http://c.example/@%d=charlie", n(a, fakeMagic)), "eof"},
		},
		{
			name:    "Content-Length too long",
			members: [][]byte{a, long, c},
			want: []string{"http://a.example/@0=alpha", fmt.Sprintf("error@%d", n(a)), fmt.Sprintf("resync@%d", n(a, long)),
				fmt.Sprintf("http://c.example/@%d=charlie", n(a, long)), "eof"},
		},
		{
			name:    "Content-Length too short",
			members: [][]byte{a, short, c},
			want: []string{"http://a.example/@0=alpha", fmt.Sprintf("http://short.example/@%d=si", n(a)), fmt.Sprintf("error@%d", n(a)),
				fmt.Sprintf("resync@%d", n(a, short)), fmt.Sprintf("http://c.example/@%d=charlie", n(a, short)), "eof"},
		},
		{
			name:    "truncated mid-record",
			members: [][]byte{a, b[:len(b)/2]},
			want:    []string{"http://a.example/@0=alpha", fmt.Sprintf("error@%d", n(a)), "eof"},
		},
		{
			name:    "corrupt last member",
			members: [][]byte{a, corrupt},
			want:    []string{"http://a.example/@0=alpha", fmt.Sprintf("error@%d", n(a)), "eof"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := events(t, bytes.Join(tc.members, nil))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}

// TestResyncPlain checks the same for plain files, and a WARC header
// Content-Length of -1.
func TestResyncPlain(t *testing.T) {
	a := resource("http://a.example/", "alpha", -1)
	c := resource("http://c.example/", "charlie", -1)
	tests := []struct {
		name  string
		parts []string
		want  func(n func(...string) int) []string
	}{
		{
			name:  "malformed header",
			parts: []string{a, "WARC/1.1\r\nWARC-Type resource\r\nContent-Length: 5\r\n\r\nbravo\r\n\r\n", c},
			want: func(n func(...string) int) []string {
				return []string{"http://a.example/@0=alpha", fmt.Sprintf("error@%d", n(a)), fmt.Sprintf("resync@%d", n(a, "WARC/1.1\r\nWARC-Type resource\r\nContent-Length: 5\r\n\r\nbravo\r\n\r\n")),
					fmt.Sprintf("http://c.example/@%d=charlie", n(a, "WARC/1.1\r\nWARC-Type resource\r\nContent-Length: 5\r\n\r\nbravo\r\n\r\n")), "eof"}
			},
		},
		{
			// pywb and warcio write -1 for a length they do not know:
			// the block runs to the next record.
			name:  "Content-Length -1",
			parts: []string{a, strings.Replace(resource("http://b.example/", "bravo", -1), "Content-Length: 5", "Content-Length: -1", 1), c},
			want: func(n func(...string) int) []string {
				b := strings.Replace(resource("http://b.example/", "bravo", -1), "Content-Length: 5", "Content-Length: -1", 1)
				return []string{"http://a.example/@0=alpha", fmt.Sprintf("http://b.example/@%d=bravo", n(a)),
					fmt.Sprintf("http://c.example/@%d=charlie", n(a, b)), "eof"}
			},
		},
		{
			name:  "Content-Length too short",
			parts: []string{a, resource("http://s.example/", "sierra", 2), c},
			want: func(n func(...string) int) []string {
				s := resource("http://s.example/", "sierra", 2)
				return []string{"http://a.example/@0=alpha", fmt.Sprintf("http://s.example/@%d=si", n(a)),
					fmt.Sprintf("error@%d", n(a)+strings.Index(s, "erra")), fmt.Sprintf("resync@%d", n(a, s)),
					fmt.Sprintf("http://c.example/@%d=charlie", n(a, s)), "eof"}
			},
		},
		{
			name:  "header line followed at once by the next record",
			parts: []string{a, "WARC/1.1\r\nno colon here\r\n", c},
			want: func(n func(...string) int) []string {
				return []string{"http://a.example/@0=alpha", fmt.Sprintf("error@%d", n(a)), fmt.Sprintf("resync@%d", n(a, "WARC/1.1\r\nno colon here\r\n")),
					fmt.Sprintf("http://c.example/@%d=charlie", n(a, "WARC/1.1\r\nno colon here\r\n")), "eof"}
			},
		},
		{
			name:  "truncated mid-record",
			parts: []string{a, c[:len(c)-8]},
			want: func(n func(...string) int) []string {
				return []string{"http://a.example/@0=alpha", fmt.Sprintf("error@%d", n(a)), "eof"}
			},
		},
		{
			name:  "not a version line",
			parts: []string{a, "WARC/x.y\r\n", c},
			want: func(n func(...string) int) []string {
				return []string{"http://a.example/@0=alpha", fmt.Sprintf("error@%d", n(a)), fmt.Sprintf("resync@%d", n(a, "WARC/x.y\r\n")),
					fmt.Sprintf("http://c.example/@%d=charlie", n(a, "WARC/x.y\r\n")), "eof"}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := func(parts ...string) int { return len(strings.Join(parts, "")) }
			got := events(t, []byte(strings.Join(tc.parts, "")))
			if diff := cmp.Diff(tc.want(n), got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}

// TestResyncWithoutFailure checks that Resync is harmless when Next has
// not failed, and that an error of the input itself cannot be skipped.
func TestResyncWithoutFailure(t *testing.T) {
	r, err := NewReader(strings.NewReader(recA + recB))
	require.NoError(t, err)
	off, err := r.Resync()
	require.NoError(t, err)
	assert.Zero(t, off)
	rec, err := r.Next()
	require.NoError(t, err)
	assert.Equal(t, "http://example.com/a", rec.Header.TargetURI())

	errDisk := errors.New("disk on fire")
	r, err = NewReader(io.MultiReader(strings.NewReader(recA), iotest.ErrReader(errDisk)))
	require.NoError(t, err)
	_, err = r.Next()
	require.NoError(t, err)
	_, err = r.Next()
	require.ErrorIs(t, err, errDisk)
	_, err = r.Resync()
	require.ErrorIs(t, err, errDisk)
}
