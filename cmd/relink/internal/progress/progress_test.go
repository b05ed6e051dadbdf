package progress_test

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/linkrot/relink/cmd/relink/internal/progress"
	"github.com/linkrot/relink/provider/corpus"
)

func TestLine(t *testing.T) {
	var buf bytes.Buffer
	b := progress.New(&buf, "corpus: dev")
	b.Update(corpus.Progress{Files: 3, TotalFiles: 10, Bytes: 2_500_000, TotalBytes: 10_000_000})
	if got, want := b.Line(), "3/10 files, 2.5/10.0 MB"; got != want {
		t.Errorf("Line() = %q, want %q", got, want)
	}
	b.Finish()
	if progress.IsTerminal(&buf) {
		t.Error("a buffer is a terminal")
	}
	if buf.Len() != 0 {
		t.Errorf("a buffer got %q before Every passed", buf.String())
	}
}

func ExampleBar_Line() {
	b := progress.New(io.Discard, "corpus: dev")
	b.Update(corpus.Progress{Files: 1, TotalFiles: 4, Bytes: 1_000_000, TotalBytes: 4_000_000})
	fmt.Println(b.Line())
	// Output: 1/4 files, 1.0/4.0 MB
}
