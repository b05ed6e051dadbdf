package store

import "testing"

// TestRunJobPanic checks that a page whose parsing panics becomes a
// skipped file with the panic recorded, not a crashed ingest.
func TestRunJobPanic(t *testing.T) {
	it := runJob(job{run: func() item { panic("boom") }})
	if it.skip != ReasonInternal || it.detail != "panic: boom" {
		t.Errorf("runJob(panicking job) = skip %q, detail %q; want %q, %q", it.skip, it.detail, ReasonInternal, "panic: boom")
	}
	it = runJob(job{run: func() item { return skipped(ReasonEmpty, nil) }})
	if it.skip != ReasonEmpty {
		t.Errorf("runJob(plain job) = skip %q, want %q", it.skip, ReasonEmpty)
	}
}
