// Package progress prints the progress of building a store for the tool:
// a line rewritten in place on a terminal, a line every few seconds
// otherwise (a log file or CI output). It reads an ingest's Progress
// (provider/corpus) and needs no store: it is part of the tool, under
// cmd/relink, as only the tool prints progress bars.
package progress

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/linkrot/relink/provider/corpus"
)

// Every is how often a line is printed when the output is not a terminal;
// on a terminal the line is rewritten at most ten times a second.
const Every = 5 * time.Second

// Bar reports a store ingest's progress to a writer.
type Bar struct {
	w        io.Writer
	prefix   string
	terminal bool
	last     time.Time
	p        corpus.Progress
}

// IsTerminal reports whether w is a terminal (a character device).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// New returns a Bar writing to w; prefix starts every line, as in
// "corpus: manifest dev".
func New(w io.Writer, prefix string) *Bar {
	return &Bar{w: w, prefix: prefix, terminal: IsTerminal(w), last: time.Now()}
}

// Update is the ingest's Progress callback (corpus.IngestOptions.Progress).
func (b *Bar) Update(st corpus.Progress) {
	b.p = st
	every := Every
	if b.terminal {
		every = 100 * time.Millisecond
	}
	if time.Since(b.last) < every {
		return
	}
	b.last = time.Now()
	if b.terminal {
		fmt.Fprintf(b.w, "\r%s: %s\x1b[K", b.prefix, b.Line())
		return
	}
	fmt.Fprintf(b.w, "%s: %s\n", b.prefix, b.Line())
}

// Line describes the progress so far: files and megabytes read.
func (b *Bar) Line() string {
	files := fmt.Sprint(b.p.Files)
	if b.p.TotalFiles > 0 {
		files += fmt.Sprintf("/%d", b.p.TotalFiles)
	}
	return fmt.Sprintf("%s files, %.1f/%.1f MB", files, float64(b.p.Bytes)/1e6, float64(b.p.TotalBytes)/1e6)
}

// Finish ends the line on a terminal.
func (b *Bar) Finish() {
	if b.terminal {
		fmt.Fprintf(b.w, "\r%s: %s\x1b[K\n", b.prefix, b.Line())
	}
}
