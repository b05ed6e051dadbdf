package marginalia_test

import (
	"testing"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/internal/apiclient/apitest"
	"github.com/linkrot/relink/provider/marginalia"
)

// FuzzSearch serves any bytes as the answer and checks that Search fails
// cleanly or returns well-ranked results.
func FuzzSearch(f *testing.F) {
	apitest.Fuzz(f, []string{"testdata/search.json"}, func(base string) (lexsig.Searcher, error) {
		return marginalia.New(marginalia.Options{Key: apitest.Key, BaseURL: base, Rate: rate.Inf, Attempts: 1})
	})
}

// FuzzDecode feeds any bytes to the decoding of marginalia's answers.
func FuzzDecode(f *testing.F) {
	apitest.FuzzDecode(f, marginalia.Decode, []string{"testdata/search.json"},
		`{"license":"CC-BY-NC-SA 4.0","query":"x","results":[]}`)
}
