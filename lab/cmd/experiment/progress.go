package main

import (
	"fmt"
	"io"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/linkrot/relink/lab/eval"
	"github.com/linkrot/relink/lab/internal/ingestbar"
)

// progress shows the grid's progress on stderr: a bar with the rate and the
// time left on a terminal, a line every few seconds otherwise.
type progress struct {
	w     io.Writer
	bar   *progressbar.ProgressBar
	start time.Time
	last  time.Time
	p     eval.Progress
}

func newProgress(w io.Writer, total int) *progress {
	p := &progress{w: w, start: time.Now(), last: time.Now(), p: eval.Progress{Total: total}}
	if ingestbar.IsTerminal(w) {
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
func (p *progress) update(st eval.Progress) {
	p.p = st
	if p.bar != nil {
		p.bar.Describe(fmt.Sprintf("grid (%d pages, %d queries)", st.Pages, st.Queries))
		p.bar.Set(st.Done)
		return
	}
	if time.Since(p.last) >= ingestbar.Every {
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
