package backlink

import (
	"bytes"
	"testing"

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
