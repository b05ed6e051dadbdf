package ingestbar_test

import (
	"os"
	"strings"
	"testing"

	"github.com/linkrot/relink/lab/internal/ingestbar"
	"github.com/linkrot/relink/provider/store"
)

func TestLineNotTerminal(t *testing.T) {
	var b strings.Builder
	bar := ingestbar.New(&b, "corpus: dir site")
	bar.Update(store.Progress{Files: 3, TotalFiles: 10, Bytes: 1500000, TotalBytes: 5000000})
	if b.Len() != 0 {
		t.Errorf("a line before %v: %q", ingestbar.Every, b.String())
	}
	bar.Finish()
	if got, want := b.String(), "corpus: dir site: 3/10 files, 1.5/5.0 MB\n"; got != want {
		t.Errorf("Finish wrote %q, want %q", got, want)
	}
}

func ExampleBar() {
	bar := ingestbar.New(os.Stdout, "corpus: manifest dev")
	bar.Update(store.Progress{Files: 4532, TotalFiles: 4532, Bytes: 200e6, TotalBytes: 200e6})
	bar.Finish()
	// Output: corpus: manifest dev: 4532/4532 files, 200.0/200.0 MB
}
