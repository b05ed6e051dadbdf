package relink_test

import (
	"fmt"

	"github.com/linkrot/relink"
)

func ExampleURLWords() {
	fmt.Println(relink.URLWords("https://docs.djangoproject.com/en/3.2/releases/1.3.6.html"))
	fmt.Println(relink.URLWords("http://example.com/how-to/bake-bread/index.php?lang=en"))
	// Output:
	// [en 3 2 releases 1 3 6]
	// [bake bread lang en]
}

func ExampleSlugWords() {
	fmt.Println(relink.SlugWords("https://docs.dask.org/en/latest/generated/dask.array.Array.any.html"))
	fmt.Println(relink.SlugWords("https://docs.dask.org/en/latest/best-practices/index.html"))
	fmt.Println(relink.SlugWords("https://example.com/"))
	// Output:
	// [dask array array any]
	// [best practices]
	// []
}

func ExampleStrategies() {
	for _, s := range relink.Strategies() {
		fmt.Printf("%s terms=%d archive=%t\n", s.Name(), s.Terms(), s.Needs().Archive)
	}
	// Output:
	// phrase terms=0 archive=false
	// url-phrase terms=0 archive=false
	// url-2 terms=2 archive=false
	// url-4 terms=4 archive=false
	// url-or-4 terms=4 archive=false
	// 1-anchor-10-prefer terms=4 archive=false
	// anchor+url-4 terms=4 archive=false
	// cascade terms=4 archive=false
	// fusion terms=4 archive=false
	// rerank terms=4 archive=false
	// rerank-fetch terms=4 archive=false
	// moved-link+rerank terms=4 archive=false
	// moved-link+rerank+archive-check terms=4 archive=true
	// archive-title terms=0 archive=true
	// archive-ls5 terms=5 archive=true
	// archive-ls7 terms=7 archive=true
}
