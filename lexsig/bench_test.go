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

// pageDocs is |D| of pageFixture.
const pageDocs = 1_000_000

// pageFixture returns the word counts of about 50,000 words of whole pages,
// as a backlink neighborhood with the whole-page radius gives: 5,000
// distinct terms counted by Zipf's law (the i-th most frequent about
// 2,500/i times, half of them once), and their document frequencies in a
// collection of pageDocs documents, unrelated to the counts.
func pageFixture() (map[string]int, map[string]int64) {
	tf := map[string]int{}
	freqs := map[string]int64{}
	for i := range 5000 {
		term := fmt.Sprintf("word%04d", (i*7)%5000)
		tf[term] = max(1, 2500/(i+1))
		freqs[term] = int64(1 + (i*7919)%50_000)
	}
	return tf, freqs
}

// memOf returns a MemDF of pageDocs documents holding freqs.
func memOf(freqs map[string]int64) *MemDF {
	df := NewMemDF()
	df.SetDocs(pageDocs)
	for term, n := range freqs {
		df.Set(term, n)
	}
	return df
}

// BenchmarkRankPage measures Rank of a whole-page neighborhood's 5,000
// terms against a MemDF, every term looked up and sorted.
func BenchmarkRankPage(b *testing.B) {
	tf, freqs := pageFixture()
	df := memOf(freqs)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Rank(ctx, tf, df); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(tf)), "lookups/op")
}

// BenchmarkRankTopPage measures RankTop of the same terms for the 10 terms
// of the longest signature the paper queried (§3.2 "Lexical Signature
// Size"); it reports how many terms it looked up.
func BenchmarkRankTopPage(b *testing.B) {
	tf, freqs := pageFixture()
	df := memOf(freqs)
	ctx := context.Background()
	counted := &recordingDF{freqs: freqs, docs: pageDocs}
	if _, err := RankTop(ctx, tf, counted, 10); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := RankTop(ctx, tf, df, 10); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(counted.lookedUp()), "lookups/op")
}
