package main

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var fixturePages = []string{
	"testdata/bakery-blog.html=https://blog.example.net/2024/weekend-baking.html",
	"testdata/forum-thread.html=https://example.org/t/help.html",
	"testdata/recipe-index.html=https://example.org/recipes/",
}

func TestRunJSON(t *testing.T) {
	args := append([]string{"-target", "https://example.org/guides/sourdough-starter.html", "-json"}, fixturePages...)
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), args, &stdout, &stderr); err != nil {
		t.Fatalf("run: %v (stderr %q)", err, stderr.String())
	}
	var got output
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout.String())
	}
	// Anchor words of the links to the target (§3.2 "Radius"), stop words
	// dropped: "sourdough starter feeding guide", "starter feeding
	// schedule", "sourdough starter guide", "making a sourdough starter".
	wantPages := []outputPage{
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

func TestRunErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"no target", []string{"testdata/bakery-blog.html"}},
		{"no pages", []string{"-target", "https://example.org/x"}},
		{"bad radius", []string{"-target", "https://example.org/x", "-radius", "wide", "testdata/bakery-blog.html"}},
		{"missing file", []string{"-target", "https://example.org/x", "testdata/nope.html"}},
		{"relative target", []string{"-target", "/guides/x.html", "testdata/bakery-blog.html"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if err := run(context.Background(), tt.args, &stdout, &stderr); err == nil {
				t.Errorf("run(%q) = nil error, want an error", tt.args)
			}
		})
	}
}
