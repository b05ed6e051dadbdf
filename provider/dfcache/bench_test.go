package dfcache

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/linkrot/relink/lexsig"
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

// BenchmarkDocFreqMiss measures a lookup the file lacks, one goroutine at a
// time: the underlying DF answers at once, then the value is written in a
// transaction of its own (BatchDelay, then fsync).
func BenchmarkDocFreqMiss(b *testing.B) {
	benchMiss(b, 1)
}

// BenchmarkDocFreqMissParallel measures misses from 16 goroutines, whose
// writes bbolt's Batch joins into shared transactions.
func BenchmarkDocFreqMissParallel(b *testing.B) {
	benchMiss(b, 16)
}

// benchMiss looks up new terms from goroutines goroutines per CPU.
func benchMiss(b *testing.B, goroutines int) {
	db, err := Open(b.TempDir()+"/df.cache", &Options{BatchDelay: time.Millisecond})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	src := db.Wrap(lexsig.DFFunc(func(context.Context, string) (int64, error) { return 7, nil }).WithDocs(100), "bench")
	var n atomic.Int64
	b.SetParallelism(goroutines)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := src.DocFreq(context.Background(), fmt.Sprintf("term%d", n.Add(1))); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
