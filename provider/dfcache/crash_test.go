package dfcache

import (
	"bufio"
	"context"
	"fmt"
	"hash/fnv"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/linkrot/relink/lexsig"
)

// crashEnv names the environment variable that makes TestCrashChild write
// to the cache file it names until it is killed.
const crashEnv = "DFCACHE_CRASH_CHILD_FILE"

// crashDF is the child's underlying DF: a value computed from the term, so
// the parent can check every stored value.
func crashDF(_ context.Context, term string) (int64, error) {
	h := fnv.New64a()
	h.Write([]byte(term))
	return int64(h.Sum64() % 1_000_000), nil
}

// TestCrashChild is the child process of TestCrashConsistent: it looks up
// new terms from several goroutines, printing "stored TERM" after each
// lookup returns (and so after its value was committed), until it is killed.
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashEnv)
	if path == "" {
		t.Skip("run by TestCrashConsistent as a child process")
	}
	db, err := Open(path, &Options{BatchDelay: time.Millisecond})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(2)
	}
	src := db.Wrap(lexsig.DFFunc(crashDF).WithDocs(1_000_000), "crash")
	var (
		out sync.Mutex
		wg  sync.WaitGroup
	)
	for g := range 4 {
		wg.Go(func() {
			// Bounded, in case the parent dies without killing us.
			for i := range 200_000 {
				var terms []string
				if i%2 == 0 {
					terms = []string{fmt.Sprintf("g%d-%d", g, i)}
					if _, err := src.DocFreq(context.Background(), terms[0]); err != nil {
						fmt.Println("error", err)
						os.Exit(2)
					}
				} else {
					terms = []string{fmt.Sprintf("g%d-%d-a", g, i), fmt.Sprintf("g%d-%d-b", g, i)}
					if _, err := src.DocFreqs(context.Background(), terms); err != nil {
						fmt.Println("error", err)
						os.Exit(2)
					}
				}
				out.Lock()
				for _, term := range terms {
					fmt.Println("stored", term)
				}
				out.Unlock()
			}
		})
	}
	wg.Wait()
	os.Exit(3) // never reached in a passing run: the parent kills us first
}

// TestCrashConsistent kills a process in the middle of writing to a cache
// file (SIGKILL, so nothing is flushed or closed) and checks that the file
// opens again, passes bbolt's consistency check, and holds the right value
// for every term whose lookup had returned.
func TestCrashConsistent(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	for round := range 2 {
		t.Run(fmt.Sprintf("round %d", round+1), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "df.cache")
			want := crashRun(t, path, 300)
			db, err := Open(path, nil)
			if err != nil {
				t.Fatalf("Open after the crash: %v", err)
			}
			defer db.Close()
			if err := db.bolt.View(func(tx *bolt.Tx) error {
				var first error
				for err := range tx.Check() { // drain: Check's goroutine sends every error
					if first == nil {
						first = err
					}
				}
				return first
			}); err != nil {
				t.Fatalf("consistency check after the crash: %v", err)
			}
			offline := db.Wrap(nil, "crash")
			for _, term := range want {
				wantN, _ := crashDF(context.Background(), term)
				got, err := offline.DocFreq(context.Background(), term)
				if err != nil || got != wantN {
					t.Errorf("DocFreq(%q) after the crash = %d, %v, want %d", term, got, err, wantN)
				}
			}
			n, err := db.Len("crash")
			if err != nil || n < len(want) {
				t.Errorf("Len after the crash = %d, %v, want at least %d", n, err, len(want))
			}
			// The file takes writes again.
			if _, err := db.Wrap(lexsig.DFFunc(crashDF).WithDocs(1), "crash").DocFreq(context.Background(), "after"); err != nil {
				t.Errorf("DocFreq after the crash: %v", err)
			}
		})
	}
}

// crashRun runs TestCrashChild on path, kills it once it has reported at
// least n stored terms, and returns the terms it reported.
func crashRun(t *testing.T, path string, n int) []string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnv+"="+path)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var stored []string
	sc := bufio.NewScanner(stdout)
	for len(stored) < n && sc.Scan() {
		line := sc.Text()
		if term, ok := strings.CutPrefix(line, "stored "); ok {
			stored = append(stored, term)
		} else if strings.HasPrefix(line, "error") {
			t.Errorf("child: %s", line)
		}
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatalf("kill: %v", err)
	}
	cmd.Wait() // an error: the child was killed
	if len(stored) < n {
		t.Fatalf("the child reported %d stored terms before ending, want %d", len(stored), n)
	}
	return stored
}
