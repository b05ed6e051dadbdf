package google_test

import (
	"testing"

	"github.com/linkrot/relink/provider/google"
	"github.com/linkrot/relink/provider/internal/apiclient/apitest"
)

// FuzzSearch serves any bytes as the answer and checks that Search fails
// cleanly or returns well-ranked results.
func FuzzSearch(f *testing.F) { suite.Fuzz(f, "testdata/search.json") }

// FuzzDecode feeds any bytes to the decoding of google's answers.
func FuzzDecode(f *testing.F) {
	apitest.FuzzDecode(f, google.Decode, []string{"testdata/search.json"},
		`{"kind":"customsearch#search","searchInformation":{"totalResults":"0"}}`,
		`{"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED"}}`)
}
