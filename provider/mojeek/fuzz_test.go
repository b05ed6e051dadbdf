package mojeek_test

import (
	"os"
	"testing"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/internal/apiclient/apitest"
	"github.com/linkrot/relink/provider/mojeek"
)

// FuzzSearch serves any bytes as the answer and checks that Search fails
// cleanly or returns well-ranked results.
func FuzzSearch(f *testing.F) {
	seed, err := os.ReadFile("testdata/search.json")
	if err != nil {
		f.Fatal(err)
	}
	apitest.Fuzz(f, [][]byte{seed}, func(base string) (lexsig.Searcher, error) {
		return mojeek.New(mojeek.Options{Key: apitest.Key, BaseURL: base, Rate: rate.Inf, Attempts: 1})
	})
}
