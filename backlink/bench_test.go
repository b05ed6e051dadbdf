package backlink

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/html"
)

// benchPages are the realistic pages the benchmarks read: a ~150 KB
// Sphinx-like documentation page and a ~40 KB blog article.
var benchPages = []struct {
	name        string
	body        []byte
	uri, target string
}{
	{"sphinx", sphinxPage(150 << 10), sphinxURI, sphinxTarget},
	{"blog", blogPage(40 << 10), blogURI, blogTarget},
}

// BenchmarkTokenizer measures the x/net/html tokenizer alone, with the
// least a consumer does: it touches the text of text tokens and the raw
// bytes of the others. Extract is measured against it.
func BenchmarkTokenizer(b *testing.B) {
	for _, p := range benchPages {
		b.Run(p.name, func(b *testing.B) {
			b.SetBytes(int64(len(p.body)))
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				z := html.NewTokenizer(bytes.NewReader(p.body))
				for {
					tt := z.Next()
					if tt == html.ErrorToken {
						break
					}
					if tt == html.TextToken {
						n += len(z.Text())
					} else {
						n += len(z.Raw())
					}
				}
			}
			if n == 0 {
				b.Fatal("no tokens")
			}
		})
	}
}

func BenchmarkExtract(b *testing.B) {
	for _, p := range benchPages {
		for _, r := range []struct {
			name   string
			radius Radius
		}{{"anchor", Anchor}, {"radius10", Radius(10)}, {"page", Page}} {
			b.Run(p.name+"/"+r.name, func(b *testing.B) {
				b.SetBytes(int64(len(p.body)))
				b.ReportAllocs()
				for b.Loop() {
					ws, err := Extract(p.body, p.uri, p.target, r.radius)
					if err != nil || len(ws) == 0 {
						b.Fatalf("Extract = %d words, %v", len(ws), err)
					}
				}
			})
		}
	}
}

func BenchmarkLocate(b *testing.B) {
	for _, p := range benchPages {
		b.Run(p.name, func(b *testing.B) {
			b.SetBytes(int64(len(p.body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Locate(p.body, p.uri, p.target); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkParse(b *testing.B) {
	for _, p := range benchPages {
		b.Run(p.name, func(b *testing.B) {
			b.SetBytes(int64(len(p.body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse(p.body, p.uri); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkRender(b *testing.B) {
	for _, p := range benchPages {
		b.Run(p.name, func(b *testing.B) {
			b.SetBytes(int64(len(p.body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Render(p.body, ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkOutlinks(b *testing.B) {
	for _, p := range benchPages {
		b.Run(p.name, func(b *testing.B) {
			b.SetBytes(int64(len(p.body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Outlinks(p.body, p.uri); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkHostile measures what a hostile backlink page costs: pages with
// 10,000 and 100,000 links to the target (issue 12, item 3), drawn at the
// paper's radius 10 and at radius 1000. Besides time and allocation it
// reports the words drawn (words/op) and the peak heap in use while it
// runs (peak-MB, sampled; garbage not yet collected counts, as it does for
// the process).
func BenchmarkHostile(b *testing.B) {
	for _, p := range []struct {
		name string
		body func() []byte
	}{{"links10k", links10k}, {"links100k", links100k}} {
		for _, r := range []Radius{10, 1000} {
			if p.name == "links100k" && r == 10 {
				continue
			}
			body := p.body()
			b.Run(fmt.Sprintf("%s/extract/r%d", p.name, r), func(b *testing.B) {
				hostileBench(b, body, func() int {
					ws, err := Extract(body, testPage, testTarget, r)
					if err != nil {
						b.Fatal(err)
					}
					return len(ws)
				})
			})
			b.Run(fmt.Sprintf("%s/located/r%d", p.name, r), func(b *testing.B) {
				hostileBench(b, body, func() int {
					loc, err := Locate(body, testPage, testTarget)
					if err != nil {
						b.Fatal(err)
					}
					return len(loc.WordsOf(r, nil))
				})
			})
		}
	}
}

// hostileBench runs op in b's loop and reports its words and peak heap.
func hostileBench(b *testing.B, body []byte, op func() int) {
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	var words int
	peak := peakHeap(func() {
		for b.Loop() {
			words = op()
		}
	})
	b.ReportMetric(float64(words), "words/op")
	b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
}

// peakHeap runs f and returns the most heap memory held by objects, live or
// not yet collected, above what was held before f, sampled every
// millisecond and at the end.
func peakHeap(f func()) uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	base := read()
	var peak atomic.Uint64
	note := func() {
		if v := read(); v > base && v-base > peak.Load() {
			peak.Store(v - base)
		}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				note()
			}
		}
	})
	f()
	note()
	close(done)
	wg.Wait()
	return peak.Load()
}

// BenchmarkHostilePages measures the hostile pages of the tests at their
// benchmark sizes (10 MB attributes, 100,000 links, a 75 MB text page)
// through Render, Parse, Locate and Extract at radius 10, reporting peak
// heap (peak-MB) and peak heap per byte of page (peak-x): what one page
// can make the reader hold.
func BenchmarkHostilePages(b *testing.B) {
	ops := []struct {
		name string
		op   func(body []byte) error
	}{
		{"render", func(body []byte) error { _, err := Render(body, ""); return err }},
		{"parse", func(body []byte) error { _, err := Parse(body, testPage); return err }},
		{"locate", func(body []byte) error { _, err := Locate(body, testPage, testTarget); return err }},
		{"extract-r10", func(body []byte) error { _, err := Extract(body, testPage, testTarget, 10); return err }},
	}
	for _, p := range benchHostilePages {
		for _, o := range ops {
			b.Run(p.name+"/"+o.name, func(b *testing.B) {
				body := p.body()
				b.SetBytes(int64(len(body)))
				b.ReportAllocs()
				peak := peakHeap(func() {
					for b.Loop() {
						if err := o.op(body); err != nil && !errors.Is(err, ErrNoLink) {
							b.Fatal(err)
						}
					}
				})
				b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
				b.ReportMetric(float64(peak)/float64(len(body)), "peak-x")
			})
		}
	}
}
