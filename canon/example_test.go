package canon_test

import (
	"errors"
	"fmt"
	"log"

	"github.com/linkrot/relink/canon"
)

func ExampleCanonicalize() {
	for _, raw := range []string{
		"HTTP://WWW.Example.COM:80/Papers/#abstract",
		"https://example.com:443/search/?q=links",
		"http://example.com/%7euser/./a",
	} {
		c, err := canon.Canonicalize(raw)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(c)
	}
	// Output:
	// http://www.example.com/Papers
	// https://example.com/search/?q=links
	// http://example.com/%7euser/./a
}

func ExampleCanonicalize_error() {
	_, err := canon.Canonicalize("/relative/path.html")
	fmt.Println(err)
	// Output:
	// canonicalize "/relative/path.html": canon: URI has no scheme or host
}

func ExampleOptions_Canonicalize() {
	raw := "http://WWW.Bücher.example./%7euser/./drafts/../paper/?b=2&a=1&PHPSESSID=f00#top"

	strict, err := canon.Strict().Canonicalize(raw)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(strict)

	all := canon.Strict()
	all.StripWWW, all.SortQuery, all.SessionIDs = true, true, true
	loose, err := all.Canonicalize(raw)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(loose)
	// Output:
	// http://www.xn--bcher-kva.example/~user/paper/?b=2&a=1&PHPSESSID=f00
	// http://xn--bcher-kva.example/~user/paper/?a=1&b=2
}

// Under Strict the query's non-ASCII characters are written as escapes, as
// the path's always are, so a link and its escaped spelling are one key.
func ExampleStrict() {
	for _, raw := range []string{
		"http://example.com/flag?x=⚑",
		"http://example.com/flag?x=%e2%9a%91#top",
	} {
		c, err := canon.Strict().Canonicalize(raw)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(c)
	}
	// Output:
	// http://example.com/flag?x=%E2%9A%91
	// http://example.com/flag?x=%E2%9A%91
}

// Under the default rules a Unicode host and its punycode spelling are one
// key, and so are the spellings of a port.
func ExampleCanonicalize_hosts() {
	for _, raw := range []string{
		"http://Bücher.example/",
		"http://xn--bcher-kva.example",
		"http://bücher.example:0080/",
		"https://例え.jp:08443/a/",
	} {
		c, err := canon.Canonicalize(raw)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(c)
	}
	_, err := canon.Canonicalize("https://xn--/")
	fmt.Println(errors.Is(err, canon.ErrInvalidHost))
	// Output:
	// http://xn--bcher-kva.example
	// http://xn--bcher-kva.example
	// http://xn--bcher-kva.example
	// https://xn--r8jz45g.jp:8443/a
	// true
}

func ExampleSURT() {
	for _, raw := range []string{
		"http://www.Example.com/a/b/?x=1",
		"https://example.com",
		"http://www2.example.com:8080/A?b=2&a=1",
		"http://Bücher.example/%7euser/./x/",
		"http://192.168.0.1/index.html",
		"http://[2001:DB8::1]/",
		"http://example.com/view?JSESSIONID=0123456789ABCDEF0123456789ABCDEF&id=7",
	} {
		key, err := canon.SURT(raw)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(key)
	}
	// Output:
	// com,example)/a/b?x=1
	// com,example)/
	// com,example:8080)/a?a=1&b=2
	// example,xn--bcher-kva)/~user/x
	// 1,0,168,192)/index.html
	// 2001:db8::1)/
	// com,example)/view?id=7
}
