package relink

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unique"

	"github.com/linkrot/relink/backlink"
)

// pagesClues returns clues of pages kept whole pages, each of about 600
// distinct terms drawn by Zipf's law from a vocabulary of 30,000 shared by
// the pages, as the pages of a backlink neighborhood share their language;
// the pages' words are counted already, as the gather stage leaves them.
func pagesClues(pages int) *Clues {
	r := rand.New(rand.NewPCG(1, 2))
	zipf := rand.NewZipf(r, 1.1, 1, 30_000)
	c := &Clues{}
	for range pages {
		counts := map[string]int{}
		for range 2000 {
			counts[fmt.Sprintf("w%d", zipf.Uint64())]++
		}
		in := &Inspection{Kept: true}
		in.tfOnce.Do(func() {
			for t, n := range counts {
				h := unique.Make(t)
				in.tf = append(in.tf, pageTerm{h, termHash(h), n})
				in.words += n
			}
		})
		c.Evidence = append(c.Evidence, &Evidence{Trace: Trace{Kept: true}, page: in})
	}
	return c
}

// BenchmarkPaperCountPages measures counting the words of whole pages into
// one signature's term frequencies (Paper.count, radius backlink.Page), for
// the top 10 and the top 200 backlink pages.
func BenchmarkPaperCountPages(b *testing.B) {
	for _, pages := range []int{10, 200} {
		b.Run(fmt.Sprintf("pages=%d", pages), func(b *testing.B) {
			c := pagesClues(pages)
			p := Paper{Radius: backlink.Page}
			b.ReportAllocs()
			for b.Loop() {
				p.count(c)
			}
			b.ReportMetric(float64(len(p.count(c))), "terms")
		})
	}
}
