package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linkrot/relink/provider/store"
)

// buildStore ingests testdata/site, a four-page site, into a new store.
func buildStore(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "site.db")
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.IngestDir(context.Background(), "testdata/site", "https://example.org/", store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRunJSON(t *testing.T) {
	db := buildStore(t)
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"-store", db, "-json", "https://example.org/guides/sourdough-starter.html"}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("run: %v (stderr %q)", err, stderr.String())
	}
	var got output
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout.String())
	}
	if got.URI != "https://example.org/guides/sourdough-starter.html" {
		t.Errorf("uri = %q", got.URI)
	}
	// Three pages link to the target; each passes the filters (§3.1).
	if len(got.Backlinks) != 3 {
		t.Fatalf("backlinks = %+v, want 3", got.Backlinks)
	}
	for _, b := range got.Backlinks {
		if !b.Kept || b.Words == 0 {
			t.Errorf("backlink %+v: want kept with words", b)
		}
	}
	// The anchors' rarest terms (Equations 1-3) make the query, and the
	// missing page, still in the index, is found at rank 1.
	if got.Query != "guide schedule feeding sourdough" {
		t.Errorf("query = %q, want %q", got.Query, "guide schedule feeding sourdough")
	}
	if len(got.Signature) != 4 || got.Signature[0].Term != "guide" || got.Signature[0].TF != 1 || got.Signature[0].DF != 2 {
		t.Errorf("signature = %+v", got.Signature)
	}
	if len(got.Candidates) == 0 || got.Candidates[0].URI != "https://example.org/guides/sourdough-starter.html" {
		t.Errorf("candidates = %+v, want the target first", got.Candidates)
	}
}

func TestRunText(t *testing.T) {
	db := buildStore(t)
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"-store", db, "-terms", "2", "https://example.org/guides/sourdough-starter.html"}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"backlinks: 3 found, 3 kept", "query: guide schedule", "<- the missing page itself"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, stdout.String())
		}
	}
}

func TestRunErrors(t *testing.T) {
	db := buildStore(t)
	tests := []struct {
		name string
		args []string
	}{
		{"no URL", []string{"-store", db}},
		{"two URLs", []string{"-store", db, "https://a.example/", "https://b.example/"}},
		{"no store", []string{"-store", filepath.Join(t.TempDir(), "none.db"), "https://a.example/"}},
		{"bad radius", []string{"-store", db, "-radius", "near", "https://a.example/"}},
		{"relative URL", []string{"-store", db, "/guides/x.html"}},
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

// TestRunFetchWeb serves the fixture site over HTTP on loopback and fetches
// the backlink pages live: the result is the same as replaying them.
func TestRunFetchWeb(t *testing.T) {
	srv := httptest.NewServer(http.FileServer(http.Dir("testdata/site")))
	defer srv.Close()
	path := filepath.Join(t.TempDir(), "live.db")
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.IngestDir(context.Background(), "testdata/site", srv.URL+"/", store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	target := srv.URL + "/guides/sourdough-starter.html"
	var stdout, stderr bytes.Buffer
	err = run(context.Background(), []string{"-store", path, "-fetch", "web", "-allow-private", "-json", target}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("run: %v (stderr %q)", err, stderr.String())
	}
	var got output
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Backlinks) != 3 {
		t.Fatalf("backlinks = %+v, want 3", got.Backlinks)
	}
	for _, b := range got.Backlinks {
		if !b.Kept {
			t.Errorf("backlink %+v not kept", b)
		}
	}
	if got.Query != "guide schedule feeding sourdough" || len(got.Candidates) == 0 || got.Candidates[0].URI != target {
		t.Errorf("query %q, candidates %+v; want the target first", got.Query, got.Candidates)
	}

	// Without -allow-private the live fetcher refuses loopback: every
	// backlink is recorded as unfetched, none is lost.
	stdout.Reset()
	if err := run(context.Background(), []string{"-store", path, "-fetch", "web", "-json", target}, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	got = output{}
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Backlinks) != 3 {
		t.Fatalf("backlinks = %+v, want 3", got.Backlinks)
	}
	for _, b := range got.Backlinks {
		if b.Kept || b.Filter != "fetch" || !strings.Contains(b.Reason, "private") {
			t.Errorf("backlink %+v: want rejected by fetch for a private address", b)
		}
	}
}
