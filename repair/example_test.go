package repair_test

import (
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/linkrot/relink/repair"
)

func ExampleReadInput() {
	// lychee --format json: the report's error_map, source → failures.
	report := `{
  "total": 3, "errors": 2,
  "error_map": {
    "docs/install.md": [
      {"url": "https://old.example/guide.html", "status": {"text": "404 Not Found", "code": 404}}
    ],
    "docs/index.md": [
      {"url": "https://Old.example/guide.html#setup", "status": {"text": "404 Not Found", "code": 404}},
      {"url": "https://slow.example/", "status": {"text": "Timeout", "details": "Request timed out"}}
    ]
  }
}`
	links, err := repair.ReadInput(strings.NewReader(report), repair.FormatAuto)
	if err != nil {
		log.Fatal(err)
	}
	for _, l := range links {
		fmt.Printf("%s %d %q %v\n", l.URL, l.Status, l.Reason, l.Sources)
	}
	// Output:
	// https://old.example/guide.html 404 "404 Not Found" [docs/install.md docs/index.md]
	// https://slow.example/ 0 "Timeout: Request timed out" [docs/index.md]
}

func ExampleInput_Read() {
	in := repair.Input{Format: repair.FormatPairs}
	_, err := in.Read(strings.NewReader("https://blog.example/post\thttps://old.example/a\nhttps://blog.example/post https://old.example/b\n"))
	var ie *repair.InputError
	if errors.As(err, &ie) && errors.Is(err, repair.ErrMalformed) {
		fmt.Println("line", ie.Line, "of the", ie.Format, "input:", err)
	}
	// Output:
	// line 2 of the pairs input: pairs input, line 2: repair: malformed input: no tab between source and dead URL
}

func ExampleWriteJSONL() {
	results := []repair.Result{
		{Dead: "https://old.example/a.html", Sources: []string{"https://blog.example/post"},
			Verdict: repair.Moved, URI: "https://new.example/docs/a/", Confidence: 0.97},
		{Dead: "https://old.example/b.html", Verdict: repair.Unknown, Error: "search failed"},
	}
	if err := repair.WriteJSONL(os.Stdout, results); err != nil {
		log.Fatal(err)
	}
	// Output:
	// {"dead":"https://old.example/a.html","sources":["https://blog.example/post"],"verdict":"moved","uri":"https://new.example/docs/a/","confidence":0.97,"candidates":[],"queries":[],"backlinks":[],"archive":null,"evidence":[],"signals":{},"calls":{"fetch":0,"search":0,"archive":0,"backlinks":0},"error":""}
	// {"dead":"https://old.example/b.html","sources":[],"verdict":"unknown","uri":"","confidence":0,"candidates":[],"queries":[],"backlinks":[],"archive":null,"evidence":[],"signals":{},"calls":{"fetch":0,"search":0,"archive":0,"backlinks":0},"error":"search failed"}
}

func ExampleWriteCSV() {
	results := []repair.Result{{
		Dead:    "https://old.example/a.html",
		Sources: []string{"=HYPERLINK(\"https://evil.example/\")"}, // from someone's page
		Verdict: repair.Gone, Queries: []string{"a guide", "-minus"},
	}}
	if err := repair.WriteCSV(os.Stdout, results); err != nil {
		log.Fatal(err)
	}
	// Output:
	// dead,verdict,uri,confidence,sources,candidates,queries,archive,error
	// https://old.example/a.html,gone,,0,"'=HYPERLINK(""https://evil.example/"")",,"a guide
	// -minus",,
}

func ExampleWriteMarkdown() {
	results := []repair.Result{
		{Dead: "https://old.example/a.html", Verdict: repair.Moved, URI: "https://new.example/a/", Confidence: 0.97},
		{Dead: "https://old.example/b.html", Verdict: repair.Unknown, Error: "search | failed"},
	}
	if err := repair.WriteMarkdown(os.Stdout, results); err != nil {
		log.Fatal(err)
	}
	// Output:
	// # relink fix report
	//
	// | verdict | count |
	// | --- | ---: |
	// | moved | 1 |
	// | gone | 0 |
	// | alive | 0 |
	// | unknown | 1 |
	// | total | 2 |
	//
	// | # | dead | verdict | new URI | confidence | sources | error |
	// | ---: | --- | --- | --- | ---: | --- | --- |
	// | 1 | <https://old.example/a.html> | moved | <https://new.example/a/> | 0.97 |  |  |
	// | 2 | <https://old.example/b.html> | unknown |  | 0.00 |  | search \| failed |
}

func ExampleRedirects_Write() {
	results := []repair.Result{
		{Dead: "https://old.example/docs/a.html", Verdict: repair.Moved, URI: "https://old.example/guide/a/"},
		{Dead: "https://old.example/b%20c.html", Verdict: repair.Moved, URI: "https://new.example/b"},
		{Dead: "https://old.example/find?q=x", Verdict: repair.Moved, URI: "https://old.example/search/x"},
		{Dead: "https://elsewhere.example/x", Verdict: repair.Moved, URI: "https://old.example/x"},
	}
	for _, format := range []repair.Output{repair.OutputNginx, repair.OutputApache, repair.OutputNetlify} {
		skipped, err := repair.Redirects{Site: "old.example", Format: format}.Write(os.Stdout, results)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(len(skipped), "skipped")
	}
	// Output:
	// # relink fix: nginx redirects for the dead URLs of old.example
	// # the body of: map $uri $new_uri { include THIS_FILE; } and in the server: if ($new_uri) { return 301 $new_uri; }
	// "/docs/a.html" "/guide/a/";
	// "/b c.html" "https://new.example/b";
	// # skipped https://old.example/find?q=x -> https://old.example/search/x: the dead URL has a query, which the map's key does not hold
	// 1 skipped
	// # relink fix: apache redirects for the dead URLs of old.example
	// # RewriteMap relink txt:THIS_FILE; RewriteCond ${relink:%{REQUEST_URI}|NONE} !=NONE; RewriteRule ^ ${relink:%{REQUEST_URI}} [R=301,L,NE]
	// /docs/a.html /guide/a/
	// # skipped https://old.example/b%20c.html -> https://new.example/b: the decoded path holds white space or a control character, which a txt map cannot
	// # skipped https://old.example/find?q=x -> https://old.example/search/x: the dead URL has a query, which the map's key does not hold
	// 2 skipped
	// # relink fix: netlify redirects for the dead URLs of old.example
	// # a _redirects file for Netlify or Cloudflare Pages
	// /docs/a.html /guide/a/ 301
	// /b%20c.html https://new.example/b 301
	// # skipped https://old.example/find?q=x -> https://old.example/search/x: the dead URL has a query, which the map's key does not hold
	// 1 skipped
}

func ExampleMoves() {
	results := []repair.Result{
		{Dead: "https://old.example/a", Verdict: repair.Moved, URI: "https://new.example/a", Confidence: 0.95},
		{Dead: "https://old.example/b", Verdict: repair.Moved, URI: "https://new.example/b", Confidence: 0.6},
		{Dead: "https://old.example/c", Verdict: repair.Gone},
	}
	fmt.Println(repair.Moves(results, 0.9))
	// Output:
	// map[https://old.example/a:https://new.example/a]
}

func ExampleRewriter_Rewrite() {
	rw := &repair.Rewriter{Moves: map[string]string{
		"https://old.example/guide":        "https://new.example/docs/guide/",
		"https://site.example/docs/api.md": "https://site.example/docs/reference/api.md",
	}}
	page := "Read the [guide](https://Old.example/guide/#install) and the [API](../api.md \"API\").\n"
	out, changes, err := rw.Rewrite([]byte(page), repair.Markdown, "https://site.example/docs/tutorial/start.md")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(out))
	for _, c := range changes {
		fmt.Printf("line %d: %s -> %s\n", c.Line, c.Old, c.New)
	}
	// Output:
	// Read the [guide](https://new.example/docs/guide/#install) and the [API](../reference/api.md "API").
	// line 1: https://Old.example/guide/#install -> https://new.example/docs/guide/#install
	// line 1: ../api.md -> ../reference/api.md
}

func ExampleRewriter_Dir() {
	dir, err := os.MkdirTemp("", "docs")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	page := "<p>See <a href=\"old/page.html#part\">the page</a>.</p>\n"
	if err := os.WriteFile(filepath.Join(dir, "index.html"), []byte(page), 0o644); err != nil {
		log.Fatal(err)
	}
	rw := &repair.Rewriter{
		Moves: map[string]string{"https://example.org/docs/old/page.html": "https://example.org/docs/new/page/"},
		Base:  "https://example.org/docs/",
		Diff:  os.Stdout, // Write is false: report and diff only
	}
	report, err := rw.Dir(dir)
	if err != nil {
		log.Fatal(err)
	}
	for _, f := range report.Files {
		fmt.Println(f.Path, len(f.Changes), "changes, written:", f.Written)
	}
	// Output:
	// --- a/index.html
	// +++ b/index.html
	// @@ -1 +1 @@
	// -<p>See <a href="old/page.html#part">the page</a>.</p>
	// +<p>See <a href="new/page/#part">the page</a>.</p>
	// index.html 1 changes, written: false
}

func ExampleReadDecisions() {
	// The file relink review writes and relink fix -decisions reads.
	file := `{"decisions": [
  {"dead": "https://old.example/a", "uri": "https://new.example/a/", "decision": "accept"},
  {"dead": "https://old.example/b", "uri": "https://new.example/b/", "decision": "reject"},
  {"dead": "https://old.example/c", "uri": "https://new.example/c-other/", "decision": "accept"}
]}`
	d, err := repair.ReadDecisions(strings.NewReader(file))
	if err != nil {
		log.Fatal(err)
	}
	moves := d.Accepted() // the map a Rewriter applies
	fmt.Println(len(moves), moves["https://old.example/a"], moves["https://old.example/c"])

	_, err = repair.ReadDecisions(strings.NewReader(`{"decisions": [{"dead": "https://old.example/a", "decision": "maybe"}]}`))
	fmt.Println(errors.Is(err, repair.ErrDecisions))
	// Output:
	// 2 https://new.example/a/ https://new.example/c-other/
	// true
}
