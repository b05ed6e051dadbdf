package dfcache

import (
	"context"
	"fmt"
	"testing"
)

// BenchmarkDocFreqHit measures a lookup answered from the file, of 10,000
// stored terms.
func BenchmarkDocFreqHit(b *testing.B) {
	ctx := context.Background()
	src, terms := benchSource(b, 10_000)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := src.DocFreq(ctx, terms[i%len(terms)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkDocFreqsHit measures a batch of 10 lookups answered from the
// file, as lexsig.Rank makes for a signature's candidate terms.
func BenchmarkDocFreqsHit(b *testing.B) {
	ctx := context.Background()
	src, terms := benchSource(b, 10_000)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		j := (i * 10) % (len(terms) - 10)
		if _, err := src.DocFreqs(ctx, terms[j:j+10]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// benchSource returns a Source whose file holds n terms.
func benchSource(b *testing.B, n int) (*Source, []string) {
	db, err := Open(b.TempDir()+"/df.cache", nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	engine := &fakeDF{values: map[string]int64{}, docs: 1 << 30}
	terms := make([]string, n)
	for i := range terms {
		terms[i] = fmt.Sprintf("term%06d", i)
		engine.values[terms[i]] = int64(i)
	}
	src := db.Wrap(batchDF{engine}, "bench")
	if _, err := src.DocFreqs(context.Background(), terms); err != nil {
		b.Fatal(err)
	}
	return src, terms
}
