package brave_test

import (
	"testing"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/brave"
	"github.com/linkrot/relink/provider/internal/apiclient/apitest"
)

// FuzzSearch serves any bytes as the answer and checks that Search fails
// cleanly or returns well-ranked results.
func FuzzSearch(f *testing.F) {
	apitest.Fuzz(f, []string{"testdata/web_search.json"}, func(base string) (lexsig.Searcher, error) {
		return brave.New(brave.Options{Key: apitest.Key, BaseURL: base, Rate: rate.Inf, Attempts: 1})
	})
}

// FuzzDecode feeds any bytes to the decoding of brave's answers.
func FuzzDecode(f *testing.F) {
	apitest.FuzzDecode(f, brave.Decode, []string{"testdata/web_search.json"},
		`{"type":"search","query":{"original":"x","more_results_available":false}}`,
		`{"type":"ErrorResponse","error":{"status":422,"code":"VALIDATION"}}`)
}
