package wayback

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParseCDX checks that any JSON array of string rows gives captures or
// an error wrapping ErrMalformed, never a panic; that every row is a
// capture, a skipped row (a *RowError wrapping ErrMalformed, given to
// onSkip in order) or after the end of the captures, so none is lost
// silently; and that every capture has an original URI and a time that
// writes back to the 14 digits it came from.
func FuzzParseCDX(f *testing.F) {
	for _, name := range []string{"cdx-page.json", "cdx-loop.json", "cdx-empty.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`[["timestamp","original"],[],["resumekey"]]`))
	f.Add([]byte(`[["original","timestamp","statuscode","length"],["http://a/","19991231235959","-","-"]]`))
	f.Add([]byte(`[[],["x"]]`))
	// A row of the Internet Archive's index with month zero, between good
	// rows.
	f.Add([]byte(`[["urlkey","timestamp","original","mimetype","statuscode","digest","length"],` +
		`["com,example)/","19990125085330","http://example.com/","text/html","200","AAAA","512"],` +
		`["com,example)/","20000012170449","http://example.com/","text/html","200","BBBB","498"],` +
		`["com,example)/","20010203040506","http://example.com/","warc/revisit","-","BBBB","-"]]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var rows [][]string
		if json.Unmarshal(data, &rows) != nil {
			return
		}
		var skipped []int
		caps, err := parseCDX(rows, func(re *RowError) {
			if !errors.Is(re, ErrMalformed) {
				t.Fatalf("skipped row %d: %v does not wrap ErrMalformed", re.Row, re)
			}
			if re.Row < 1 || re.Row >= len(rows) || len(skipped) > 0 && re.Row <= skipped[len(skipped)-1] {
				t.Fatalf("skipped row %d after rows %v, of %d", re.Row, skipped, len(rows))
			}
			skipped = append(skipped, re.Row)
		})
		if err != nil {
			if !errors.Is(err, ErrMalformed) {
				t.Fatalf("parseCDX error %v does not wrap ErrMalformed", err)
			}
			return
		}
		end := len(rows)
		for i, row := range rows {
			if i > 0 && len(row) == 0 {
				end = i
				break
			}
		}
		if len(rows) > 0 && len(caps)+len(skipped) != end-1 {
			t.Fatalf("%d captures and %d skipped rows from %d rows", len(caps), len(skipped), end-1)
		}
		for _, cp := range caps {
			if cp.Original == "" {
				t.Fatalf("capture %+v has no original", cp)
			}
			if _, err := ParseTimestamp(cp.Timestamp()); err != nil {
				t.Fatalf("capture time %v does not write back: %v", cp.Time, err)
			}
			if cp.Status != 0 && (cp.Status < 100 || cp.Status > 999) || cp.Length < -1 {
				t.Fatalf("capture %+v has an impossible status or length", cp)
			}
		}
	})
}

// FuzzParseReplay checks that any Location gives either no replay URL or
// one whose original is an absolute http(s) URI, never a panic, and that the
// replay URL the Client makes of any http(s) URI parses back to its parts.
func FuzzParseReplay(f *testing.F) {
	c := &Client{BaseURL: "https://web.archive.org"}
	f.Add("/web/20100220101010/http://example.com/new/page.html", "http://example.com/new/page.html")
	f.Add("https://web.archive.org/web/2010id_/http:/example.com/", "https://example.com/a?b=c")
	f.Add("//web.archive.org/web/20100220101010im_/example.com/x", "http://example.com/")
	f.Add("https://other.example/web/20100220101010/http://example.com/", "http://x.example/")
	f.Add("/web//http://", "http://e/")
	f.Fuzz(func(t *testing.T, loc, original string) {
		from := c.replayURL("20070806193004", "http://example.com/old/page.html")
		if ref, ok := c.parseReplay(from, loc); ok {
			if _, err := checkURI(ref.original); err != nil {
				t.Fatalf("parseReplay(%q) original %q: %v", loc, ref.original, err)
			}
			if ref.ts == "" || len(ref.ts) > 14 {
				t.Fatalf("parseReplay(%q) timestamp %q", loc, ref.ts)
			}
		}
		if _, err := checkURI(original); err != nil {
			return
		}
		ref, ok := c.parseReplay(from, c.replayURL("20070806193004", original))
		if !ok {
			t.Fatalf("the replay URL of %q does not parse", original)
		}
		if ref.ts != "20070806193004" || !sameURI(ref.original, original) {
			t.Fatalf("the replay URL of %q parsed as %+v", original, ref)
		}
	})
}

// FuzzAvailability checks that any JSON answer of the availability API
// gives a snapshot or an error (ErrNoCapture or ErrMalformed), never a
// panic, and that a snapshot has a URL, a time that writes back to 14
// digits, and a status of three digits or none.
func FuzzAvailability(f *testing.F) {
	for _, name := range []string{"available.json", "available-none.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"archived_snapshots": {"closest": {"available": true, "url": "http://a/", "timestamp": "20000012170449", "status": "200"}}}`))
	f.Add([]byte(`{"archived_snapshots": {"closest": {"available": true, "url": "http://a/", "timestamp": "19960101000000", "status": "-"}}}`))
	f.Add([]byte(`{"archived_snapshots": {"closest": {"available": true, "url": "", "timestamp": "1", "status": "2000"}}}`))
	f.Add([]byte(`{"archived_snapshots": {}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var a availability
		if json.Unmarshal(data, &a) != nil {
			return
		}
		s, err := a.snapshot()
		if err != nil {
			if !errors.Is(err, ErrNoCapture) && !errors.Is(err, ErrMalformed) {
				t.Fatalf("snapshot error %v is neither ErrNoCapture nor ErrMalformed", err)
			}
			return
		}
		if s.URL == "" || (s.Status != 0 && (s.Status < 100 || s.Status > 999)) {
			t.Fatalf("snapshot %+v: no URL or an impossible status", s)
		}
		if _, err := ParseTimestamp(Timestamp(s.Time)); err != nil {
			t.Fatalf("snapshot time %v does not write back: %v", s.Time, err)
		}
	})
}
