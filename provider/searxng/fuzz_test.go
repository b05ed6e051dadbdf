package searxng_test

import (
	"testing"

	"github.com/linkrot/relink/provider/internal/apiclient/apitest"
	"github.com/linkrot/relink/provider/searxng"
)

// FuzzSearch serves any bytes as the answer and checks that Search fails
// cleanly or returns well-ranked results.
func FuzzSearch(f *testing.F) { suite.Fuzz(f, "testdata/search.json") }

// FuzzDecode feeds any bytes to the decoding of searxng's answers.
func FuzzDecode(f *testing.F) {
	apitest.FuzzDecode(f, searxng.Decode, []string{"testdata/search.json"},
		`{"query":"x","results":[],"unresponsive_engines":[["google","CAPTCHA"]]}`,
		`{"query":"x","number_of_results":120000,"results":[{"url":"https://a.example/","title":"A","score":1.5}],"unresponsive_engines":[]}`)
}
