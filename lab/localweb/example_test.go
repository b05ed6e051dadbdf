package localweb_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/backlink"
	"github.com/linkrot/relink/lab/localweb"
	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/brave"
	"github.com/linkrot/relink/provider/searchapi"
	"github.com/linkrot/relink/provider/store"
	"github.com/linkrot/relink/provider/web"
)

// Example serves a one-page store as the web and reaches it with relink's
// own clients: the live fetcher through the proxy, over https, and the
// Brave client at the local Brave endpoint.
func Example() {
	dir, err := os.MkdirTemp("", "localweb-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	os.MkdirAll(filepath.Join(dir, "html", "library"), 0o755)
	os.WriteFile(filepath.Join(dir, "html", "library", "os.html"),
		[]byte("<title>os — Miscellaneous operating system interfaces</title><p>Portable operating system functions.</p>"), 0o644)
	st, err := store.Open(filepath.Join(dir, "web.db"), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer st.Close()
	ctx := context.Background()
	if _, err := st.IngestDir(ctx, filepath.Join(dir, "html"), "https://docs.python.org/3.11/", store.IngestOptions{}); err != nil {
		fmt.Println(err)
		return
	}

	srv, err := localweb.New(localweb.Options{Web: st, Relaxed: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := srv.Start("127.0.0.1:0"); err != nil {
		fmt.Println(err)
		return
	}
	defer srv.Close()

	// provider/web, configured with the proxy and the CA alone.
	c := &web.Client{Proxy: http.ProxyURL(srv.ProxyURL()), RootCAs: srv.CA().Pool(), Rate: rate.Inf}
	defer c.CloseIdleConnections()
	page, err := c.Fetch(ctx, "https://docs.python.org/3.11/library/os.html")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(page.Status, backlink.Title(page.Body))
	gone, err := c.Fetch(ctx, "https://docs.python.org/3.11/library/gone.html")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(gone.Status)

	// The Brave client, given the local endpoint as its base URL.
	b, err := brave.New(brave.Options{Key: "any", BaseURL: srv.URL("brave"), Transport: searchapi.Transport{Rate: rate.Inf}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer b.CloseIdleConnections()
	results, err := b.Search(ctx, lexsig.NewQuery([]string{"portable", "functions"}, lexsig.Conjunctive), 10)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range results {
		fmt.Println(r.Rank, r.URI)
	}
	// Output:
	// 200 os — Miscellaneous operating system interfaces
	// 404
	// 1 https://docs.python.org/3.11/library/os.html
}
