package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/provider/dftable"
	"github.com/linkrot/relink/provider/store"
)

// TestDF writes a store's table with relink df and reads it back: |D| and
// every term's frequency are the store's, and find with -df table on it
// gives the signature find gives with the store's own frequencies.
func TestDF(t *testing.T) {
	db := buildStore(t)
	out := filepath.Join(t.TempDir(), "site.df")
	r := mustRun(t, "df", "-store", db, "-out", out)
	if r.stdout != "" || !strings.HasPrefix(r.stderr, "df: ") {
		t.Errorf("stdout %q, stderr %q; want nothing and a summary", r.stdout, r.stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	table, h, err := dftable.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	s, err := store.Open(db, &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	docs, _ := s.Docs(ctx)
	if h.Docs != docs || h.Source != "store:site.db" {
		t.Errorf("header %+v, want |D| %d from store:site.db", h, docs)
	}
	n := 0
	err = s.Terms(ctx, func(term string, want int64) error {
		n++
		if got, _ := table.DocFreq(ctx, term); got != want {
			t.Errorf("table DocFreq(%q) = %d, store says %d", term, got, want)
		}
		return nil
	})
	if err != nil || n < 50 {
		t.Fatalf("store lists %d terms, %v", n, err)
	}

	const target = "https://example.org/guides/sourdough-starter.html"
	fromStore, _ := runJSON(t, "-store", db, "-method", "paper", "-keep-missing", target)
	fromTable, _ := runJSON(t, "-store", db, "-method", "paper", "-keep-missing", "-df", "table", "-df-table", out, target)
	if fromTable.Query != fromStore.Query || fromTable.Query == "" {
		t.Errorf("query with the table %q, with the store %q", fromTable.Query, fromStore.Query)
	}

	// To standard output, the rare terms left out.
	r = mustRun(t, "df", "-store", db, "-min-docs", "2", "-source", "bakery")
	rare, h2, err := dftable.Read(strings.NewReader(r.stdout))
	if err != nil {
		t.Fatal(err)
	}
	if h2.Source != "bakery" || rare.Len() >= table.Len() || rare.Len() == 0 {
		t.Errorf("-min-docs 2: %d terms of %d, source %q", rare.Len(), table.Len(), h2.Source)
	}
	if got, _ := rare.DocFreq(ctx, "sourdough"); got < 2 {
		t.Errorf("-min-docs 2 dropped sourdough (%d)", got)
	}
}

// TestDFUsage checks df's bad command lines and failures.
func TestDFUsage(t *testing.T) {
	db := buildStore(t)
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no store", []string{"df"}, exitUsage, "need -store"},
		{"argument", []string{"df", "-store", db, "extra"}, exitUsage, "unexpected argument"},
		{"min-docs 0", []string{"df", "-store", db, "-min-docs", "0"}, exitUsage, "-min-docs"},
		{"missing store", []string{"df", "-store", filepath.Join(t.TempDir(), "none.db")}, exitFailure, "none.db"},
		{"unwritable output", []string{"df", "-store", db, "-out", filepath.Join(t.TempDir(), "no", "dir", "x.df")}, exitFailure, "x.df"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runArgs(t, tt.args...)
			if r.code != tt.code || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("exit %d, stderr %q; want %d and %q", r.code, r.stderr, tt.code, tt.want)
			}
			checkOneLine(t, r.stderr)
			if diff := cmp.Diff("", r.stdout); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
		})
	}
}
