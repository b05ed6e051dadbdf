package lexsig

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// benchText returns about n words of running text: a paragraph written for
// these benchmarks, with numbered variants of its words so that the
// vocabulary grows as real text's does.
func benchText(n int) []string {
	para := Tokenize(`The archive keeps every page it has crawled, and each page
		links to others; when a link breaks, the words around it still say what
		the missing page was about. Anchor text is short, often three or four
		words, but it is chosen by people who knew the page, which makes it a
		good description of the page's topic.`)
	out := make([]string, 0, n)
	for i := 0; len(out) < n; i++ {
		for _, w := range para {
			if len(out) == n {
				break
			}
			if i%3 == 0 {
				w = fmt.Sprintf("%s%d", w, i%997)
			}
			out = append(out, w)
		}
	}
	return out
}

// BenchmarkCount measures TF counting (Equation 1) over 50,000 words, the
// size of a large backlink neighborhood with the whole-page radius.
func BenchmarkCount(b *testing.B) {
	ws := benchText(50_000)
	size := 0
	for _, w := range ws {
		size += len(w) + 1
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		Count(ws)
	}
}

// BenchmarkTokenize measures splitting and lowercasing 50,000 words of text.
func BenchmarkTokenize(b *testing.B) {
	text := strings.Join(benchText(50_000), " ")
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Tokenize(text)
	}
}

// rankFixture returns about 2,000 distinct terms with counts and a MemDF that
// knows them.
func rankFixture() (map[string]int, *MemDF) {
	tf := map[string]int{}
	df := NewMemDF()
	df.SetDocs(1_000_000)
	for i := range 2000 {
		term := fmt.Sprintf("term%04d", i)
		tf[term] = 1 + i%9
		df.Set(term, int64(1+(i*7919)%50_000))
	}
	return tf, df
}

// BenchmarkRank measures ranking about 2,000 terms against a MemDF (one
// batch lookup).
func BenchmarkRank(b *testing.B) {
	tf, df := rankFixture()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Rank(ctx, tf, df); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRankSingleLookups measures the same ranking through a DF without
// BatchDF, looked up 8 at a time.
func BenchmarkRankSingleLookups(b *testing.B) {
	tf, mem := rankFixture()
	df := DFFunc(mem.DocFreq).WithDocs(1_000_000)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Rank(ctx, tf, df); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRankCached measures the same ranking through a warm Cache.
func BenchmarkRankCached(b *testing.B) {
	tf, mem := rankFixture()
	df := NewCache(mem)
	ctx := context.Background()
	if _, err := Rank(ctx, tf, df); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Rank(ctx, tf, df); err != nil {
			b.Fatal(err)
		}
	}
}
