// Package ingestbar shows the progress of building a store for the example
// programs: a bar on a terminal, a line every few seconds otherwise (a log
// file or CI output).
package ingestbar

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/linkrot/relink/provider/store"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Every is how often a line is printed when the output is not a terminal.
const Every = 5 * time.Second

// Bar reports a store ingest's progress to a writer.
type Bar struct {
	w      io.Writer
	prefix string
	bar    *progressbar.ProgressBar
	last   time.Time
	p      store.Progress
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// New returns a Bar writing to w; prefix starts every line, as in
// "corpus: manifest dev".
func New(w io.Writer, prefix string) *Bar {
	b := &Bar{w: w, prefix: prefix, last: time.Now()}
	if IsTerminal(w) {
		b.bar = progressbar.NewOptions64(-1,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription(prefix),
			progressbar.OptionShowBytes(true),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionShowElapsedTimeOnFinish(),
			progressbar.OptionSetPredictTime(true),
		)
	}
	return b
}

// Update is the ingest's Progress callback (store.IngestOptions.Progress).
func (b *Bar) Update(st store.Progress) {
	b.p = st
	if b.bar != nil {
		if st.TotalBytes > 0 && b.bar.GetMax64() != st.TotalBytes {
			b.bar.ChangeMax64(st.TotalBytes)
		}
		b.bar.Set64(st.Bytes)
		return
	}
	if time.Since(b.last) >= Every {
		b.last = time.Now()
		fmt.Fprintf(b.w, "%s: %s\n", b.prefix, b.Line())
	}
}

// Line describes the progress so far: files and megabytes read.
func (b *Bar) Line() string {
	files := fmt.Sprint(b.p.Files)
	if b.p.TotalFiles > 0 {
		files += fmt.Sprintf("/%d", b.p.TotalFiles)
	}
	return fmt.Sprintf("%s files, %.1f/%.1f MB", files, float64(b.p.Bytes)/1e6, float64(b.p.TotalBytes)/1e6)
}

// Finish ends the bar, or prints a last line.
func (b *Bar) Finish() {
	if b.bar != nil {
		b.bar.Finish()
		fmt.Fprintln(b.w)
		return
	}
	fmt.Fprintf(b.w, "%s: %s\n", b.prefix, b.Line())
}
