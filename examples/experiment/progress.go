package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/provider/store"
)

// progressEvery is how often a progress line is printed when stderr is not
// a terminal.
const progressEvery = 5 * time.Second

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progress shows the grid's progress on stderr: a bar with the rate and the
// time left on a terminal, a line every few seconds otherwise.
type progress struct {
	w     io.Writer
	bar   *progressbar.ProgressBar
	start time.Time
	last  time.Time
	p     relink.Progress
}

func newProgress(w io.Writer, total int) *progress {
	p := &progress{w: w, start: time.Now(), last: time.Now(), p: relink.Progress{Total: total}}
	if isTerminal(w) {
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription("grid"),
			progressbar.OptionShowCount(),
			progressbar.OptionShowIts(),
			progressbar.OptionSetItsString("targets"),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionShowElapsedTimeOnFinish(),
		)
	}
	return p
}

// update is the evaluation's Progress callback.
func (p *progress) update(st relink.Progress) {
	p.p = st
	if p.bar != nil {
		p.bar.Describe(fmt.Sprintf("grid (%d pages, %d queries)", st.Pages, st.Queries))
		p.bar.Set(st.Done)
		return
	}
	if time.Since(p.last) >= progressEvery {
		p.last = time.Now()
		fmt.Fprintf(p.w, "experiment: %s\n", p.line())
	}
}

// line describes the progress so far: targets done, rate, time left.
func (p *progress) line() string {
	el := time.Since(p.start)
	rate := float64(p.p.Done) / el.Seconds()
	left := "?"
	if rate > 0 {
		left = time.Duration(float64(p.p.Total-p.p.Done) / rate * float64(time.Second)).Round(time.Second).String()
	}
	return fmt.Sprintf("%d/%d targets, %.2f targets/s, %s left, %d pages, %d queries",
		p.p.Done, p.p.Total, rate, left, p.p.Pages, p.p.Queries)
}

// finish ends the bar, or prints a last line.
func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
		fmt.Fprintln(p.w)
		return
	}
	fmt.Fprintf(p.w, "experiment: %s in %s\n", p.line(), time.Since(p.start).Round(time.Millisecond))
}

// ingestProgress shows the progress of building the store.
type ingestProgress struct {
	w    io.Writer
	bar  *progressbar.ProgressBar
	last time.Time
	p    store.Progress
}

func newIngestProgress(w io.Writer) *ingestProgress {
	p := &ingestProgress{w: w, last: time.Now()}
	if isTerminal(w) {
		p.bar = progressbar.NewOptions64(-1,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription("store"),
			progressbar.OptionShowBytes(true),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionSetPredictTime(true),
		)
	}
	return p
}

// update is the ingest's Progress callback.
func (p *ingestProgress) update(st store.Progress) {
	p.p = st
	if p.bar != nil {
		if st.TotalBytes > 0 && p.bar.GetMax64() != st.TotalBytes {
			p.bar.ChangeMax64(st.TotalBytes)
		}
		p.bar.Set64(st.Bytes)
		return
	}
	if time.Since(p.last) >= progressEvery {
		p.last = time.Now()
		fmt.Fprintf(p.w, "experiment: store: %d/%d files\n", st.Files, st.TotalFiles)
	}
}

// finish ends the bar.
func (p *ingestProgress) finish() {
	if p.bar != nil {
		p.bar.Finish()
		fmt.Fprintln(p.w)
	}
}
