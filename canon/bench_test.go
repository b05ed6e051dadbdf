package canon_test

import (
	"testing"

	"github.com/linkrot/relink/canon"
)

// benchURIs are links of the kinds a backlink page holds.
var benchURIs = []struct {
	name string
	uri  string
}{
	{"ASCII", "HTTP://WWW.Example.COM:80/Papers/2011/link-neighborhood.html#abstract"},
	{"Unicode host", "http://Bücher.example:0080/katalog/?q=Straße"},
	{"query", "https://forum.example.org/viewtopic.php?t=12&sid=9682993c8daa2c5497996114facdc805&start=20"},
}

// benchEach runs f on every URI of benchURIs as a sub-benchmark.
func benchEach(b *testing.B, f func(string) (string, error)) {
	for _, bb := range benchURIs {
		b.Run(bb.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := f(bb.uri); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkCanonicalize(b *testing.B) { benchEach(b, canon.Canonicalize) }

func BenchmarkStrict(b *testing.B) { benchEach(b, canon.Strict().Canonicalize) }

func BenchmarkSURT(b *testing.B) { benchEach(b, canon.SURT) }
