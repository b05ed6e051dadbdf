package ingest

import (
	"bytes"
	"compress/flate"
	"os"
	"strings"
	"testing"
)

// FuzzDeflate checks that what Deflate writes inflates to what it was
// given, and that a body written by the standard library's DEFLATE, as
// stores written before hold, inflates too.
func FuzzDeflate(f *testing.F) {
	for _, s := range []string{"", "<p>x</p>", strings.Repeat("<a href=\"x\">y</a>\n", 500), "\x00\xff\xfe"} {
		f.Add([]byte(s))
	}
	if b, err := os.ReadFile("../../../backlink/testdata/sphinx.html"); err == nil {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := Inflate(Deflate(b))
		if err != nil || !bytes.Equal(got, b) {
			t.Fatalf("Inflate(Deflate(%q)) = %q, %v", b, got, err)
		}
		var old bytes.Buffer
		w, _ := flate.NewWriter(&old, flate.BestSpeed)
		w.Write(b)
		w.Close()
		got, err = Inflate(old.Bytes())
		if err != nil || !bytes.Equal(got, b) {
			t.Fatalf("Inflate of %q as the standard library deflates it = %q, %v", b, got, err)
		}
	})
}
