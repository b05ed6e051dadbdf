package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runMainEnv, set to 1, makes the test binary run main with its
// arguments (TestMain): the command as a process of its own, to send
// signals to.
const runMainEnv = "RELINK_TEST_MAIN"

// hangBound is how long a test waits for what must happen at once before
// it calls it a hang: a detector, not a timing assertion.
const hangBound = 60 * time.Second

// TestSignalWhileReading starts the command as a process reading a FIFO
// nobody writes to, as -in, -ca or review -in, and sends it SIGTERM: it
// ends, exit 1, with one line saying it was interrupted (issue 23, item
// 9: one case still ran 605 s after SIGTERM).
func TestSignalWhileReading(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the command as processes")
	}
	db := buildFixStore(t, "https://example.org/")
	for _, tt := range []struct {
		name string
		args func(fifo string) []string
	}{
		{"fix -in", func(fifo string) []string { return []string{"fix", "-store", db, "-in", fifo} }},
		{"fix -ca", func(fifo string) []string { return []string{"fix", "-store", db, "-ca", fifo} }},
		{"review -in", func(fifo string) []string {
			return []string{"review", "-in", fifo, "-state", filepath.Join(t.TempDir(), "decisions.json")}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fifo := filepath.Join(t.TempDir(), "fifo")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			cmd := exec.Command(os.Args[0], tt.args(fifo)...)
			cmd.Env = append(os.Environ(), runMainEnv+"=1")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			// The command is reading once it has the FIFO open: until then
			// opening its other end without blocking fails (ENXIO).
			w := openWriter(t, fifo, exited)
			defer w.Close()
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			var err error
			select {
			case err = <-exited:
			case <-time.After(hangBound):
				cmd.Process.Kill()
				t.Fatalf("still running %v after SIGTERM; stderr %q", hangBound, stderr.String())
			}
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != exitFailure || !strings.Contains(stderr.String(), "interrupted") {
				t.Errorf("after SIGTERM: %v, stderr %q; want exit 1, interrupted", err, stderr.String())
			}
			checkOneLine(t, stderr.String())
		})
	}
}

// openWriter opens the writing end of fifo once a reader has it open,
// failing the test if the command exits first or never opens it.
func openWriter(t *testing.T, fifo string, exited <-chan error) *os.File {
	t.Helper()
	deadline := time.Now().Add(hangBound)
	for {
		f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err == nil {
			return f
		}
		if !errors.Is(err, syscall.ENXIO) {
			t.Fatal(err)
		}
		select {
		case err := <-exited:
			t.Fatalf("the command exited before reading the FIFO: %v", err)
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("the command did not open the FIFO in %v", hangBound)
		}
	}
}

// blockedReader is a standard input nobody writes to: Read says it was
// called and blocks until the test ends.
type blockedReader struct {
	reading chan struct{}
	end     chan struct{}
}

func (b *blockedReader) Read([]byte) (int, error) {
	select {
	case b.reading <- struct{}{}:
	default:
	}
	<-b.end
	return 0, os.ErrClosed
}

// TestInterruptWhileReadingStdin cancels fix while it waits for its
// standard input: it returns at once, interrupted.
func TestInterruptWhileReadingStdin(t *testing.T) {
	db := buildFixStore(t, "https://example.org/")
	in := &blockedReader{reading: make(chan struct{}, 1), end: make(chan struct{})}
	defer close(in.end)
	ctx, cancel := context.WithCancelCause(context.Background())
	var stdout, stderr bytes.Buffer
	code := make(chan int, 1)
	go func() {
		code <- runEnv(ctx, &env{stdin: in, stdout: &stdout, stderr: &stderr}, []string{"fix", "-store", db})
	}()
	select {
	case <-in.reading:
	case c := <-code:
		t.Fatalf("fix returned %d before reading; stderr %q", c, stderr.String())
	}
	cancel(errors.New("terminated signal received"))
	select {
	case c := <-code:
		if c != exitFailure || !strings.Contains(stderr.String(), "interrupted") || !strings.Contains(stderr.String(), "terminated") {
			t.Errorf("exit %d, stderr %q; want 1, interrupted (terminated)", c, stderr.String())
		}
	case <-time.After(hangBound):
		t.Fatalf("fix still reading standard input %v after it was cancelled", hangBound)
	}
}

// TestFixStateFIFO gives fix a FIFO as -state: refused at once, never
// read (it would block the run).
func TestFixStateFIFO(t *testing.T) {
	db := buildFixStore(t, "https://example.org/")
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	done := make(chan ran, 1)
	go func() { done <- runIn(t, fixAlive+"\n", "fix", "-store", db, "-state", fifo) }()
	select {
	case r := <-done:
		if r.code != exitFailure || !strings.Contains(r.stderr, "not a regular file") {
			t.Errorf("exit %d, stderr %q; want 1, not a regular file", r.code, r.stderr)
		}
	case <-time.After(hangBound):
		t.Fatalf("fix -state FIFO still running after %v", hangBound)
	}
}
