package warc

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// update rewrites the testdata/sample-* fixtures with the Writer.
var update = flag.Bool("update", false, "rewrite testdata/sample-* with the Writer")

// fixtureRecords are the records of the sample fixtures: the sample
// records without the large one.
func fixtureRecords() []toWrite {
	recs := sampleRecords()
	return recs[:len(recs)-1]
}

// TestSampleFixtures reads the fixture files an earlier Writer wrote (run
// with -update to rewrite them), so that a change to the Writer or the
// Reader that breaks files already on disk shows. TestWarcioReadsOurs has
// warcio.js read the same files.
func TestSampleFixtures(t *testing.T) {
	tests := []struct {
		name    string
		version string
		gzip    bool
	}{
		{name: "sample-1.0.warc", version: Version10},
		{name: "sample-1.0.warc.gz", version: Version10, gzip: true},
		{name: "sample-1.1.warc", version: Version11},
		{name: "sample-1.1.warc.gz", version: Version11, gzip: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join("testdata", tt.name)
			recs := fixtureRecords()
			if *update {
				var buf bytes.Buffer
				w := NewWriter(&buf, tt.gzip)
				w.Version = tt.version
				for _, r := range recs {
					if err := r.write(w); err != nil {
						t.Fatal(err)
					}
				}
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			got, err := readAll(t, data)
			if err != nil {
				t.Fatalf("read %s: %v", tt.name, err)
			}
			maskIDs(got)
			want := expected(tt.version, recs, make([]int64, len(recs)))
			if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(rec{}, "Offset")); diff != "" {
				t.Errorf("records of %s (-want +got):\n%s", tt.name, diff)
			}
			for _, r := range got {
				again, err := readAll(t, data[r.Offset:])
				if err != nil || len(again) == 0 {
					t.Fatalf("reading at offset %d: %d records, %v", r.Offset, len(again), err)
				}
				maskIDs(again)
				if diff := cmp.Diff(r.Header, again[0].Header); diff != "" {
					t.Errorf("record at offset %d (-want +got):\n%s", r.Offset, diff)
				}
			}
		})
	}
}
