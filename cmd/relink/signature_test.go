package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fixturePages are the example program's saved pages, each with the URI
// it was fetched from.
var fixturePages = []string{
	"../../examples/signature/testdata/bakery-blog.html=https://blog.example.net/2024/weekend-baking.html",
	"../../examples/signature/testdata/forum-thread.html=https://example.org/t/help.html",
	"../../examples/signature/testdata/recipe-index.html=https://example.org/recipes/",
}

func TestSignatureJSON(t *testing.T) {
	r := mustRun(t, append([]string{"signature", "-target", "https://example.org/guides/sourdough-starter.html", "-json"}, fixturePages...)...)
	var got sigOutput
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, r.stdout)
	}
	// Anchor words of the links to the target (§3.2 "Radius"), stop words
	// dropped: "sourdough starter feeding guide", "starter feeding
	// schedule", "sourdough starter guide", "making a sourdough starter".
	wantPages := []sigOutPage{
		{URI: "https://blog.example.net/2024/weekend-baking.html", Words: 4},
		{URI: "https://example.org/t/help.html", Words: 6},
		{URI: "https://example.org/recipes/", Words: 4},
	}
	if diff := cmp.Diff(wantPages, got.Pages); diff != "" {
		t.Errorf("pages (-want +got):\n%s", diff)
	}
	if got.Query != "making feeding guide schedule" {
		t.Errorf("query = %q, want %q", got.Query, "making feeding guide schedule")
	}
	if len(got.Signature) != 4 || got.Signature[0].Term != "making" || got.Signature[0].DF != 1 {
		t.Errorf("signature = %+v, want 4 terms led by making (df 1)", got.Signature)
	}
}

// TestSignatureStore takes document frequencies from a store, opened
// read-only: the store file is the same after the run.
func TestSignatureStore(t *testing.T) {
	db := buildStore(t)
	before := fileState(t, db)
	r := mustRun(t, append([]string{"signature", "-target", "https://example.org/guides/sourdough-starter.html", "-store", db, "-terms", "2"}, fixturePages...)...)
	// guide (TF 2) is on 2 of the store's 4 pages: 2 ln 2; making is on
	// none, which counts as one: ln 4 (Equations 1-3).
	if !strings.Contains(r.stdout, "guide                   2        2    1.386\n") || !strings.Contains(r.stdout, "query: guide making\n") {
		t.Errorf("output:\n%s\nwant guide with the store's DF 2, and the query guide making", r.stdout)
	}
	if after := fileState(t, db); after != before {
		t.Errorf("the store changed: %+v, was %+v", after, before)
	}
}

func TestSignatureErrors(t *testing.T) {
	page := "../../examples/signature/testdata/bakery-blog.html"
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"no target", []string{page}, exitUsage},
		{"no pages", []string{"-target", "https://example.org/x"}, exitUsage},
		{"bad radius", []string{"-target", "https://example.org/x", "-radius", "wide", page}, exitUsage},
		{"zero terms", []string{"-target", "https://example.org/x", "-terms", "0", page}, exitUsage},
		{"missing file", []string{"-target", "https://example.org/x", "../../examples/signature/testdata/nope.html"}, exitFailure},
		{"relative target", []string{"-target", "/guides/x.html", page}, exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runArgs(t, append([]string{"signature"}, tt.args...)...)
			if r.code != tt.code {
				t.Errorf("relink signature %q: exit %d, want %d (stderr %q)", tt.args, r.code, tt.code, r.stderr)
			}
			checkOneLine(t, r.stderr)
		})
	}
}
