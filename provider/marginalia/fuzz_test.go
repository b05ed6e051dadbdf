package marginalia_test

import (
	"testing"

	"github.com/linkrot/relink/provider/internal/apiclient/apitest"
	"github.com/linkrot/relink/provider/marginalia"
)

// FuzzSearch serves any bytes as the answer and checks that Search fails
// cleanly or returns well-ranked results.
func FuzzSearch(f *testing.F) { suite.Fuzz(f, "testdata/search.json") }

// FuzzDecode feeds any bytes to the decoding of marginalia's answers.
func FuzzDecode(f *testing.F) {
	apitest.FuzzDecode(f, marginalia.Decode, []string{"testdata/search.json"},
		`{"license":"CC-BY-NC-SA 4.0","query":"x","results":[]}`,
		`{"error":"invalid API key"}`)
}
