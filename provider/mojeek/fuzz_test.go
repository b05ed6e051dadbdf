package mojeek_test

import (
	"testing"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/internal/apiclient/apitest"
	"github.com/linkrot/relink/provider/mojeek"
)

// FuzzSearch serves any bytes as the answer and checks that Search fails
// cleanly or returns well-ranked results.
func FuzzSearch(f *testing.F) {
	apitest.Fuzz(f, []string{"testdata/search.json"}, func(base string) (lexsig.Searcher, error) {
		return mojeek.New(mojeek.Options{Key: apitest.Key, BaseURL: base, Rate: rate.Inf, Attempts: 1})
	})
}

// FuzzDecode feeds any bytes to the decoding of mojeek's answers.
func FuzzDecode(f *testing.F) {
	apitest.FuzzDecode(f, mojeek.Decode, []string{"testdata/search.json"},
		`{"response":{"status":"ERROR: Daily Limit Reached"}}`,
		`{"response":{"status":"OK","head":{"query":"x","start":1,"return":0,"results":0}}}`)
}
