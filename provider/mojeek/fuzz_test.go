package mojeek_test

import (
	"testing"

	"github.com/linkrot/relink/provider/internal/apiclient/apitest"
	"github.com/linkrot/relink/provider/mojeek"
)

// FuzzSearch serves any bytes as the answer and checks that Search fails
// cleanly or returns well-ranked results.
func FuzzSearch(f *testing.F) { suite.Fuzz(f, "testdata/search.json") }

// FuzzDecode feeds any bytes to the decoding of mojeek's answers.
func FuzzDecode(f *testing.F) {
	apitest.FuzzDecode(f, mojeek.Decode, []string{"testdata/search.json"},
		`{"response":{"status":"ERROR: Daily Limit Reached"}}`,
		`{"response":{"status":"OK","head":{"query":"x","start":1,"return":0,"results":0}}}`)
}
