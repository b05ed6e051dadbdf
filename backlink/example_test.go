package backlink_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/linkrot/relink/backlink"
)

// A backlink page: a course reading list that links to a paper that has
// since moved.
const readingList = `<html><head><title>Reading list</title></head><body>
<nav><a href="/">Home</a> <a href="papers/lexsig.html">Next</a></nav>
<h1>Week 3: finding lost pages</h1>
<p>Before class, read the short paper on
<a href="papers/lexsig.html">rediscovering missing web pages</a>
and bring two questions about anchor text.</p>
</body></html>`

func ExampleExtract() {
	page := "http://course.example.edu/web/week3.html"
	target := "http://course.example.edu/web/papers/lexsig.html"
	for _, radius := range []backlink.Radius{backlink.Anchor, backlink.Radius(5)} {
		words, err := backlink.Extract([]byte(readingList), page, target, radius)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(radius, words)
	}
	// Output:
	// anchor [Next rediscovering missing web pages]
	// five [Home Next Week 3 finding lost pages read the short paper on rediscovering missing web pages and bring two questions about]
}

func ExampleLocate() {
	page := "http://course.example.edu/web/week3.html"
	target := "http://course.example.edu/web/papers/lexsig.html"
	loc, err := backlink.Locate([]byte(readingList), page, target)
	if err != nil {
		log.Fatal(err)
	}
	for _, l := range loc.Links() {
		fmt.Printf("%q nav=%v words %d-%d\n", l.Anchor, l.Nav, l.Start, l.End)
	}
	// Navigation links left out:
	fmt.Println(loc.Words(backlink.Anchor, false))
	// Output:
	// "Next" nav=true words 1-2
	// "rediscovering missing web pages" nav=false words 14-18
	// [rediscovering missing web pages]
}

func ExampleLocated_WordsOf() {
	page := `<ul>
<li><a href="/api/open.html">Opening a database</a>
<li><a href="/api/open.html">https://db.example/api/open.html</a>
</ul>`
	loc, err := backlink.Locate([]byte(page), "https://db.example/sitemap.html", "https://db.example/api/open.html")
	if err != nil {
		log.Fatal(err)
	}
	for _, l := range loc.Links() {
		fmt.Printf("%q address=%v\n", l.Anchor, l.Address)
	}
	// The words of links that describe the page, not those that spell
	// out its address:
	fmt.Println(loc.WordsOf(backlink.Anchor, func(l backlink.Link) bool { return !l.Address }))
	// Output:
	// "Opening a database" address=false
	// "https db example api open html" address=true
	// [Opening a database]
}

func ExampleIsAddress() {
	target := "https://www.sqlite.org/releaselog/3_0_3.html"
	for _, text := range []string{"releaselog/3_0_3.html", "sqlite.org/releaselog/3_0_3.html", "Version 3.0.3"} {
		fmt.Println(text, backlink.IsAddress(text, target))
	}
	// Output:
	// releaselog/3_0_3.html true
	// sqlite.org/releaselog/3_0_3.html true
	// Version 3.0.3 false
}

func ExampleParse() {
	doc, err := backlink.Parse([]byte(readingList), "http://course.example.edu/web/week3.html")
	if err != nil {
		log.Fatal(err)
	}
	// One read of the page serves any number of targets.
	for _, target := range []string{"http://course.example.edu/", "http://course.example.edu/web/papers/lexsig.html"} {
		loc, err := doc.Locate(target)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(loc.Words(backlink.Anchor, true))
	}
	// Output:
	// [Home]
	// [Next rediscovering missing web pages]
}

func ExampleRender() {
	text, err := backlink.Render([]byte(readingList), "text/html; charset=utf-8")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(text)
	// Output:
	// Home Next
	// Week 3: finding lost pages
	// Before class, read the short paper on rediscovering missing web pages and bring two questions about anchor text.
}

func ExampleDecode() {
	// "Café" in windows-1252, declared in a <meta> element.
	page := []byte("<meta charset=\"windows-1252\"><p>Caf\xe9</p>")
	utf8Page, charset, err := backlink.Decode(page, "")
	if err != nil {
		log.Fatal(err)
	}
	text, err := backlink.Render(utf8Page, "")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(charset, ": ", text)
	// Output:
	// windows-1252: Café
}

func ExampleOutlinks() {
	links, err := backlink.Outlinks([]byte(readingList), "http://course.example.edu/web/week3.html")
	if err != nil {
		log.Fatal(err)
	}
	for _, l := range links {
		fmt.Printf("%s %q nav=%v\n", l.URI, l.Anchor, l.Nav)
	}
	// Output:
	// http://course.example.edu "Home" nav=true
	// http://course.example.edu/web/papers/lexsig.html "Next" nav=true
	// http://course.example.edu/web/papers/lexsig.html "rediscovering missing web pages" nav=false
}

func ExampleNeighborhood() {
	// A fake provider standing in for a search engine's backlink query.
	links := map[string][]string{
		"http://example.org/lost.html": {"http://a.example/list.html", "http://b.example/blog/"},
		"http://a.example/list.html":   {"http://c.example/", "http://b.example/blog"},
		"http://b.example/blog":        {"http://d.example/links.html"},
	}
	p := backlink.ProviderFunc(func(ctx context.Context, uri string, limit int) ([]backlink.Backlink, error) {
		var out []backlink.Backlink
		for i, u := range links[uri] {
			out = append(out, backlink.Backlink{URI: u, Rank: i + 1, Level: 1})
		}
		return out, nil
	})
	pages, err := backlink.Neighborhood(context.Background(), p, "http://example.org/lost.html", 2, 10)
	if err != nil {
		log.Fatal(err)
	}
	for _, b := range pages {
		fmt.Println(b.Level, b.Rank, b.URI)
	}
	// Output:
	// 1 1 http://a.example/list.html
	// 1 2 http://b.example/blog/
	// 2 1 http://c.example/
	// 2 2 http://d.example/links.html
}

// A hostile page links to the target ten thousand times: the words drawn
// around its links would hold each of its words many times over, so they
// stop at MaxDrawn of its word count, and Draw says so.
func ExampleLocated_Draw() {
	page := strings.Repeat(`<a href="/lost.html">lost</a> one two three `, 10_000)
	loc, err := backlink.Locate([]byte(page), "http://example.org/list.html", "http://example.org/lost.html")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("bound:", backlink.MaxDrawn(40_000))
	for _, r := range []backlink.Radius{backlink.Anchor, 1, 10, 1000} {
		words, cut := loc.Draw(r, nil)
		fmt.Println(r, len(words), cut)
	}
	// Output:
	// bound: 160000
	// anchor 10000 false
	// r1 29999 false
	// ten 160000 true
	// r1000 160000 true
}

func ExampleParseRadius() {
	for _, s := range []string{"anchor", "ten", "5", "r20", "page", "-1", "wide"} {
		r, err := backlink.ParseRadius(s)
		fmt.Println(s, int(r), err)
	}
	// Output:
	// anchor 0 <nil>
	// ten 10 <nil>
	// 5 5 <nil>
	// r20 20 <nil>
	// page -1 <nil>
	// -1 -1 <nil>
	// wide 0 backlink: bad radius "wide": want anchor, five, ten, page, a number of words or r and a number (r20)
}

// A radius prints as the paper's figures name it, and the name reads back.
func ExampleRadius_String() {
	for _, r := range []backlink.Radius{backlink.Anchor, 5, 10, backlink.Page, 20} {
		back, err := backlink.ParseRadius(r.String())
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(int(r), r, back == r)
	}
	// Output:
	// 0 anchor true
	// 5 five true
	// 10 ten true
	// -1 page true
	// 20 r20 true
}

// Heading gives the name a page shows above its text, where its title is
// the same on many pages.
func ExampleHeading() {
	page := []byte(`<title>Eigen: Member List</title><div class="header"><div class="title">Eigen::FullPivLU&lt; _MatrixType &gt; Member List</div></div>`)
	fmt.Println(backlink.Title(page))
	fmt.Println(backlink.Heading(page))
	// Output:
	// Eigen: Member List
	// Eigen::FullPivLU< _MatrixType > Member List
}
