package ingest_test

import (
	"fmt"

	"github.com/linkrot/relink/provider/internal/ingest"
)

// A directory and its public URL make a one-site manifest; a view's
// missing URIs are kept canonical.
func ExampleDirManifest() {
	m, err := ingest.DirManifest("/usr/share/doc/python3-click/html", "https://click.palletsprojects.com/en/8.1.x")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Sites[0].Name, m.Sites[0].Roots[0].Base, m.Sites[0].Roots[0].Style)
	missing := ingest.WithMissing(nil, []string{"HTTPS://Click.PalletsProjects.com/en/8.1.x/api/", "not a url"})
	fmt.Println(ingest.MissingList(missing, nil))
	// Output:
	// click.palletsprojects.com https://click.palletsprojects.com/en/8.1.x/ file
	// [https://click.palletsprojects.com/en/8.1.x/api]
}
