package repair_test

import (
	"bytes"
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/repair"
)

// FuzzReadInput: no input makes Read panic or return a link without a
// URL, two links that are one URL, or a source twice; every error is an
// ErrFormat or an *InputError with a known cause.
func FuzzReadInput(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "input", "*"))
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data, uint8(0))
		}
	}
	for _, tt := range badInputTests {
		for i, format := range repair.Formats() {
			if format == tt.format {
				f.Add([]byte(tt.in), uint8(i))
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		formats := repair.Formats()
		format := formats[int(which)%len(formats)]
		in := repair.Input{Format: format, MaxLinks: 1000, MaxLine: 4096}
		links, err := in.Read(bytes.NewReader(data))
		if err != nil {
			var ie *repair.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("Read(%q) error %v is no *InputError", data, err)
			}
			if !errors.Is(err, repair.ErrMalformed) && !errors.Is(err, repair.ErrTooLarge) && !errors.Is(err, repair.ErrTooMany) {
				t.Fatalf("Read(%q) error %v has no known cause", data, err)
			}
			if ie.Line < 0 || ie.Column < 0 || ie.Format == repair.FormatAuto {
				t.Fatalf("Read(%q) error %+v", data, ie)
			}
			return
		}
		seen := map[string]bool{}
		for _, l := range links {
			if l.URL == "" {
				t.Fatalf("Read(%q) gave a link without a URL: %+v", data, links)
			}
			// Every reader records a URL in UTF-8 (its other bytes
			// percent-encoded) and within repair.MaxURL (issue 23).
			if !utf8.ValidString(l.URL) || len(l.URL) > repair.MaxURL || (l.TooLong > 0) != errors.Is(l.Err(), repair.ErrURLTooLong) {
				t.Fatalf("Read(%q) gave URL %q (TooLong %d, Err %v)", data, l.URL, l.TooLong, l.Err())
			}
			if l.TooLong > 0 {
				continue // its start only: another may share it
			}
			k := "r " + l.URL
			if c, err := canon.Canonicalize(l.URL); err == nil {
				k = "c " + c
			}
			if seen[k] {
				t.Fatalf("Read(%q) gave %q twice: %+v", data, l.URL, links)
			}
			seen[k] = true
			srcs := map[string]bool{}
			for _, s := range l.Sources {
				if s == "" || srcs[s] {
					t.Fatalf("Read(%q) gave sources %q", data, l.Sources)
				}
				srcs[s] = true
			}
		}
	})
}

// FuzzReadResults: ReadResults never panics, and what it reads is written
// and read again unchanged.
func FuzzReadResults(f *testing.F) {
	var buf bytes.Buffer
	if err := repair.WriteJSONL(&buf, sampleResults()); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte(`{"dead":"x","archive":{"uri":1}}`))
	f.Add([]byte("{}\n\n[]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, err := repair.ReadResults(bytes.NewReader(data))
		if err != nil {
			if !errors.Is(err, repair.ErrResults) {
				t.Fatalf("ReadResults(%q): %v does not match ErrResults", data, err)
			}
			return
		}
		var out bytes.Buffer
		if err := repair.WriteJSONL(&out, rs); err != nil {
			return // NaN and the like cannot be written, and cannot be read either
		}
		again, err := repair.ReadResults(&out)
		if err != nil || len(again) != len(rs) {
			t.Fatalf("results of %q read back as %d, %v", data, len(again), err)
		}
	})
}

// FuzzWriteCSV: whatever the results hold, the CSV is valid and no cell
// starts a formula.
func FuzzWriteCSV(f *testing.F) {
	f.Add("=1+1", "@x", "-2\n+3", "\t\r")
	f.Fuzz(func(t *testing.T, dead, uri, query, errText string) {
		var buf bytes.Buffer
		rs := []repair.Result{{Dead: dead, URI: uri, Queries: []string{query, query}, Sources: []string{uri}, Error: errText}}
		if err := repair.WriteCSV(&buf, rs); err != nil {
			t.Fatal(err)
		}
		rows, err := csv.NewReader(&buf).ReadAll()
		if err != nil || len(rows) != 2 {
			t.Fatalf("CSV of %+v does not read back: %v", rs, err)
		}
		for _, cell := range rows[1] {
			// encoding/csv reads \r\n in a quoted cell as \n.
			if cell != "" && strings.IndexByte("=+-@\t\r\x00", cell[0]) >= 0 {
				t.Fatalf("cell %q starts a formula", cell)
			}
		}
	})
}

// FuzzRedirects: whatever the URLs, every line of a redirect map is a
// comment or one well-formed entry.
func FuzzRedirects(f *testing.F) {
	for _, r := range redirectResults() {
		f.Add(r.Dead, r.URI, uint8(0))
	}
	f.Fuzz(func(t *testing.T, dead, uri string, which uint8) {
		formats := []repair.Output{repair.OutputNginx, repair.OutputApache, repair.OutputNetlify}
		format := formats[int(which)%len(formats)]
		var buf bytes.Buffer
		rs := []repair.Result{{Dead: dead, URI: uri, Verdict: repair.Moved}}
		if _, err := (repair.Redirects{Site: "old.example", Format: format}).Write(&buf, rs); err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
			if strings.HasPrefix(l, "#") {
				continue
			}
			switch format {
			case repair.OutputNginx:
				if !nginxLine(l) {
					t.Fatalf("nginx line %q", l)
				}
			case repair.OutputApache:
				if f := strings.Fields(l); len(f) != 2 || l != f[0]+" "+f[1] || len(l) >= 1023 || !strings.HasPrefix(l, "/") {
					t.Fatalf("apache line %q", l)
				}
			case repair.OutputNetlify:
				if f := strings.Fields(l); len(f) != 3 || f[2] != "301" || len(l) > 1000 || strings.Contains(f[0], "*") {
					t.Fatalf("netlify line %q", l)
				}
			}
		}
	})
}

// nginxLine reports whether l is `"key" "value";` as nginx's
// configuration parser reads quoted strings (\ escapes the next byte),
// with a key that starts with a slash.
func nginxLine(l string) bool {
	quoted := func(s string) (rest string, ok bool) {
		if !strings.HasPrefix(s, `"`) {
			return "", false
		}
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '"':
				return s[i+1:], true
			}
		}
		return "", false
	}
	if !strings.HasPrefix(l, `"/`) {
		return false
	}
	rest, ok := quoted(l)
	if !ok || !strings.HasPrefix(rest, " ") {
		return false
	}
	rest, ok = quoted(rest[1:])
	return ok && rest == ";"
}
