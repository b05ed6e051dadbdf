package google_test

import (
	"testing"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/google"
	"github.com/linkrot/relink/provider/internal/apiclient/apitest"
)

// FuzzSearch serves any bytes as the answer and checks that Search fails
// cleanly or returns well-ranked results.
func FuzzSearch(f *testing.F) {
	apitest.Fuzz(f, []string{"testdata/search.json"}, func(base string) (lexsig.Searcher, error) {
		return google.New(google.Options{Key: apitest.Key, CX: testCX, BaseURL: base, Rate: rate.Inf, Attempts: 1})
	})
}

// FuzzDecode feeds any bytes to the decoding of google's answers.
func FuzzDecode(f *testing.F) {
	apitest.FuzzDecode(f, google.Decode, []string{"testdata/search.json"},
		`{"kind":"customsearch#search","searchInformation":{"totalResults":"0"}}`,
		`{"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED"}}`)
}
