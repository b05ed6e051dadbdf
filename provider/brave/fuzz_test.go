package brave_test

import (
	"testing"

	"github.com/linkrot/relink/provider/brave"
	"github.com/linkrot/relink/provider/internal/apiclient/apitest"
)

// FuzzSearch serves any bytes as the answer and checks that Search fails
// cleanly or returns well-ranked results.
func FuzzSearch(f *testing.F) { suite.Fuzz(f, "testdata/web_search.json") }

// FuzzDecode feeds any bytes to the decoding of brave's answers.
func FuzzDecode(f *testing.F) {
	apitest.FuzzDecode(f, brave.Decode, []string{"testdata/web_search.json"},
		`{"type":"search","query":{"original":"x","more_results_available":false}}`,
		`{"type":"ErrorResponse","error":{"status":422,"code":"VALIDATION"}}`)
}
