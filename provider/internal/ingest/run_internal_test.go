package ingest

import "testing"

// TestRunJobPanic checks that a page whose parsing panics becomes a
// skipped file with the panic recorded, not a crashed ingest.
func TestRunJobPanic(t *testing.T) {
	it := runJob(job{run: func() Item { panic("boom") }})
	if it.Skip != ReasonInternal || it.Detail != "panic: boom" {
		t.Errorf("runJob(panicking job) = skip %q, detail %q; want %q, %q", it.Skip, it.Detail, ReasonInternal, "panic: boom")
	}
	it = runJob(job{run: func() Item { return skipped(ReasonEmpty, nil) }})
	if it.Skip != ReasonEmpty {
		t.Errorf("runJob(plain job) = skip %q, want %q", it.Skip, ReasonEmpty)
	}
}
