package store_test

// Regression tests for issue 12, items 4 to 7: a store opened read-only
// never creates or changes a file and works where the user cannot write; a
// reader refuses a store whose ingest did not finish; one writer at a time.
// The crash and concurrency cases run a second process, this test binary
// re-executed (TestHelperProcess), and kill it.

import (
	"bufio"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/provider/store"
)

// childEnv switches the test binary into TestHelperProcess's roles.
const childEnv = "RELINK_STORE_CHILD"

// TestHelperProcess is not a test: run by another test with childEnv set, it
// plays a second process on a store. "read PATH" opens PATH read-only and
// prints its page count; "ingest PATH ROOT" ingests the fixture web copied
// to ROOT into PATH, two files a transaction, and after the fifth file,
// with a transaction open, prints "ready" and waits to be killed.
func TestHelperProcess(t *testing.T) {
	role := os.Getenv(childEnv)
	if role == "" {
		return
	}
	args := strings.Fields(role)
	ctx := context.Background()
	switch args[0] {
	case "read":
		s, err := store.Open(args[1], &store.Options{ReadOnly: true})
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		st, err := s.Totals(ctx)
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		fmt.Printf("pages %d\n", st.Pages)
		s.Close()
		os.Exit(0)
	case "ingest":
		s, err := store.Open(args[1], nil)
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		_, err = s.IngestManifest(ctx, store.FixtureManifest(args[2]), store.IngestOptions{
			Workers: 1, BatchSize: 2,
			Progress: func(p store.Progress) {
				if p.Files == 5 {
					fmt.Println("ready")
					select {} // killed here, in the middle of a batch
				}
			},
		})
		fmt.Println("ingest ended:", err)
		os.Exit(1)
	}
	t.Fatalf("unknown role %q", role)
}

// child returns the command that runs this test binary in role.
func child(t *testing.T, exe, role string) *exec.Cmd {
	t.Helper()
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(exe, "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), childEnv+"="+role)
	return cmd
}

// fileState is what a test compares to see that a directory was left
// alone: each entry's size, modification time and content digest.
type fileState struct {
	Size    int64
	ModTime string
	SHA256  string
}

// dirState returns the state of every entry of dir.
func dirState(t *testing.T, dir string) map[string]fileState {
	t.Helper()
	out := map[string]fileState{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		st := fileState{Size: fi.Size(), ModTime: fi.ModTime().String()}
		if fi.Mode().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(b)
			st.SHA256 = hex.EncodeToString(sum[:])
		}
		out[e.Name()] = st
	}
	return out
}

// builtStore ingests the fixture web into dir/name and closes the store.
func builtStore(t *testing.T, dir, name string) string {
	t.Helper()
	_, m := store.FixtureWeb(t)
	path := filepath.Join(dir, name)
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.IngestManifest(context.Background(), m, store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// readStore opens path read-only and checks that it serves the fixture web.
func readStore(t *testing.T, path string) {
	t.Helper()
	s, err := store.Open(path, &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only Open: %v", err)
	}
	defer s.Close()
	ctx := context.Background()
	if st, err := s.Totals(ctx); err != nil || st.Pages != fixtureStats.Pages {
		t.Errorf("Totals() = %v, %v; want %d pages", st, err, fixtureStats.Pages)
	}
	if bl, err := s.Backlinks(ctx, fi, 0); err != nil || len(bl) != 4 {
		t.Errorf("Backlinks(%q) = %v, %v; want 4", fi, bl, err)
	}
}

// TestReadOnlyDirectory is issue 12 item 4: a store in a directory the
// user cannot write opens read-only and serves (a WAL-mode file needs a
// -shm file it could not create), and a read-only Open creates and changes
// nothing. Stores are left in rollback-journal mode by Close; one left in
// WAL mode (by an older version, or a writer killed after it finished) is
// read too. As root, whom permission bits do not stop, the reader runs
// first as another user (uid 65534, nobody) in a child process.
func TestReadOnlyDirectory(t *testing.T) {
	tests := []struct {
		name string
		wal  bool // leave the file in WAL mode, as a writer before Close switched modes did
	}{
		{"rollback mode at rest", false},
		{"WAL mode at rest", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			dir := filepath.Join(base, "ro")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			path := builtStore(t, dir, "web.db")
			if tt.wal {
				db, err := sql.Open("sqlite", path)
				if err != nil {
					t.Fatal(err)
				}
				var mode string
				err = db.QueryRow(`PRAGMA journal_mode = WAL`).Scan(&mode)
				db.Close()
				if err != nil || mode != "wal" {
					t.Fatalf("journal_mode = %q, %v", mode, err)
				}
			}
			if err := os.Chmod(path, 0o444); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(dir, 0o555); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(dir, 0o755) })
			before := dirState(t, dir)
			if os.Geteuid() == 0 {
				readAsNobody(t, base, path)
				if diff := cmp.Diff(before, dirState(t, dir)); diff != "" {
					t.Errorf("a read-only Open by another user changed the directory (-before +after):\n%s", diff)
				}
			}
			readStore(t, path)
			after := dirState(t, dir)
			if tt.wal && os.Geteuid() == 0 {
				// Where the reader may write the directory, SQLite's
				// readers of a WAL-mode file create its -shm and -wal
				// files; the store itself stays as it was.
				before, after = map[string]fileState{"web.db": before["web.db"]}, map[string]fileState{"web.db": after["web.db"]}
			}
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("a read-only Open changed the directory (-before +after):\n%s", diff)
			}
		})
	}
}

// TestOpenNotAStore is issue 12 item 5: opening read-only what is not a
// store is an error that says so (ErrNoStore, ErrNotStore), and neither a
// reader nor a writer creates a file or writes a schema into one that
// holds something else.
func TestOpenNotAStore(t *testing.T) {
	dir := t.TempDir()
	good := builtStore(t, dir, "good.db")
	whole, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "other.db")
	db, err := sql.Open("sqlite", other)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')`)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		make     func(path string) error // nil: nothing at the path
		want     error
		writable bool // a writable Open refuses it too
	}{
		{name: "missing", want: store.ErrNoStore},
		{name: "empty file", make: func(p string) error { return os.WriteFile(p, nil, 0o644) }, want: store.ErrNotStore},
		{name: "directory", make: func(p string) error { return os.Mkdir(p, 0o755) }, want: store.ErrNotStore, writable: true},
		{name: "text file", make: func(p string) error { return os.WriteFile(p, []byte("not a database\n"), 0o644) }, want: store.ErrNotStore, writable: true},
		{name: "truncated store", make: func(p string) error { return os.WriteFile(p, whole[:len(whole)/2], 0o644) }, want: store.ErrNotStore, writable: true},
		{name: "corrupt header", make: func(p string) error {
			b := append([]byte("SQLite format 3\x00"), make([]byte, 84)...)
			return os.WriteFile(p, append(b, whole[100:]...), 0o644)
		}, want: store.ErrNotStore, writable: true},
		{name: "another SQLite database", make: func(p string) error {
			b, err := os.ReadFile(other)
			if err != nil {
				return err
			}
			return os.WriteFile(p, b, 0o644)
		}, want: store.ErrNotStore, writable: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sub := t.TempDir()
			path := filepath.Join(sub, "x.db")
			if tt.make != nil {
				if err := tt.make(path); err != nil {
					t.Fatal(err)
				}
			}
			before := dirState(t, sub)
			modes := []*store.Options{{ReadOnly: true}}
			if tt.writable {
				modes = append(modes, nil)
			}
			for _, opts := range modes {
				s, err := store.Open(path, opts)
				if err == nil {
					s.Close()
				}
				if !errors.Is(err, tt.want) {
					t.Errorf("Open(%+v) = %v, want %v", opts, err, tt.want)
				}
				if diff := cmp.Diff(before, dirState(t, sub)); diff != "" {
					t.Errorf("Open(%+v) changed the directory (-before +after):\n%s", opts, diff)
				}
			}
			if tt.name == "missing" {
				if _, err := store.Open(path, &store.Options{ReadOnly: true}); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("read-only Open of a missing file = %v, want one matching fs.ErrNotExist too", err)
				}
			}
		})
	}
}

// TestIncompleteStore is issue 12 item 6: a reader refuses a store whose
// ingest did not finish (interrupted, or never run), saying so and how to
// finish it; the ingest run again finishes it and the reader accepts it.
func TestIncompleteStore(t *testing.T) {
	ctx := context.Background()
	_, m := store.FixtureWeb(t)
	dir := t.TempDir()

	empty := filepath.Join(dir, "empty.db")
	s, err := store.Open(empty, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := store.Open(empty, &store.Options{ReadOnly: true}); !errors.Is(err, store.ErrIncomplete) {
		t.Errorf("read-only Open of a store no ingest filled = %v, want ErrIncomplete", err)
	}

	path := filepath.Join(dir, "cut.db")
	s, err = store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ingestCut(t, s, m, 5)
	_, err = store.Open(path, &store.Options{ReadOnly: true})
	if !errors.Is(err, store.ErrIncomplete) {
		t.Fatalf("read-only Open after an interrupted ingest = %v, want ErrIncomplete", err)
	}
	for _, want := range []string{"did not finish", "again"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("read-only Open after an interrupted ingest: %q does not say %q", err, want)
		}
	}
	if err := s.CheckComplete(ctx); !errors.Is(err, store.ErrIncomplete) {
		t.Errorf("CheckComplete after an interrupted ingest = %v, want ErrIncomplete", err)
	}
	if _, err := s.IngestManifest(ctx, m, store.IngestOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := s.CheckComplete(ctx); err != nil {
		t.Errorf("CheckComplete after the ingest finished = %v", err)
	}
	readStore(t, path)
}

// TestSecondWriter is issue 12 item 7: while one ingest writes a store, a
// second one, from another Store on the same file or the same Store, fails
// at once with ErrLocked and writes nothing (it used to interleave, and
// both runs recorded every file as a duplicate), and a reader is refused
// with ErrIncomplete. After the first finishes, the second runs and has
// nothing left to do.
func TestSecondWriter(t *testing.T) {
	ctx := context.Background()
	_, m := store.FixtureWeb(t)
	path := filepath.Join(t.TempDir(), "two.db")
	a, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()

	inside, release := make(chan struct{}), make(chan struct{})
	var (
		wg    sync.WaitGroup
		first store.Stats
		ferr  error
	)
	wg.Go(func() {
		first, ferr = a.IngestManifest(ctx, m, store.IngestOptions{Workers: 1, BatchSize: 2, Progress: func(p store.Progress) {
			if p.Files == 3 {
				close(inside)
				<-release
			}
		}})
	})
	<-inside
	second := []struct {
		name string
		run  func() error
	}{
		{"another Store, IngestManifest", func() error { _, err := b.IngestManifest(ctx, m, store.IngestOptions{}); return err }},
		{"another Store, IngestWARC", func() error { _, err := b.IngestWARC(ctx, nil, store.IngestOptions{}); return err }},
		{"another Store, IngestWAT", func() error { _, err := b.IngestWAT(ctx, nil, store.IngestOptions{}); return err }},
		{"the same Store, IngestManifest", func() error { _, err := a.IngestManifest(ctx, m, store.IngestOptions{}); return err }},
	}
	for _, w := range second {
		if err := w.run(); !errors.Is(err, store.ErrLocked) {
			t.Errorf("%s during an ingest = %v, want ErrLocked", w.name, err)
		}
	}
	if _, err := store.Open(path, &store.Options{ReadOnly: true}); !errors.Is(err, store.ErrIncomplete) {
		t.Errorf("read-only Open during an ingest = %v, want ErrIncomplete", err)
	}
	close(release)
	wg.Wait()
	if ferr != nil {
		t.Fatal(ferr)
	}
	if diff := cmp.Diff(fixtureStats, first, ignoreTime); diff != "" {
		t.Errorf("the first ingest (-want +got):\n%s", diff)
	}
	st, err := b.IngestManifest(ctx, m, store.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Pages != 0 || len(st.Skipped) != 0 || st.Resumed != 13 {
		t.Errorf("the second ingest after the first = %v; want nothing new, nothing skipped, 13 files already done", st)
	}
	total, err := b.Totals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(fixtureStats, total, ignoreTime); diff != "" {
		t.Errorf("Totals after both (-want +got):\n%s", diff)
	}
}

// TestKillDuringIngest kills (SIGKILL) a process in the middle of an
// ingest, with a transaction open. While it runs, a second writer is
// refused with ErrLocked and a reader with ErrIncomplete; after the kill a
// reader is still refused, saying the ingest did not finish, and the ingest
// run again resumes and finishes the store as one uninterrupted run would.
func TestKillDuringIngest(t *testing.T) {
	ctx := context.Background()
	root, m := store.FixtureWeb(t)
	path := filepath.Join(t.TempDir(), "killed.db")
	cmd := child(t, "", "ingest "+path+" "+root)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	defer func() {
		if !killed {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "ready\n" {
		t.Fatalf("child: %q, %v; want ready", line, err)
	}

	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.IngestManifest(ctx, m, store.IngestOptions{}); !errors.Is(err, store.ErrLocked) {
		t.Errorf("IngestManifest while another process ingests = %v, want ErrLocked", err)
	}
	_, err = store.Open(path, &store.Options{ReadOnly: true})
	if !errors.Is(err, store.ErrIncomplete) || !strings.Contains(err.Error(), "running") {
		t.Errorf("read-only Open while another process ingests = %v, want ErrIncomplete saying an ingest is running", err)
	}

	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	io.Copy(io.Discard, out)
	killed = true

	_, err = store.Open(path, &store.Options{ReadOnly: true})
	if !errors.Is(err, store.ErrIncomplete) || !strings.Contains(err.Error(), "did not finish") {
		t.Errorf("read-only Open after the kill = %v, want ErrIncomplete saying the ingest did not finish", err)
	}
	st, err := s.IngestManifest(ctx, m, store.IngestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Resumed != 4 || st.Skipped[store.ReasonDuplicate] != 0 {
		t.Errorf("ingest after the kill: %v; want the 4 committed files resumed, no duplicates", st)
	}
	total, err := s.Totals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(fixtureStats, total, ignoreTime); diff != "" {
		t.Errorf("Totals after the kill and the rerun (-want +got):\n%s", diff)
	}
	readStore(t, path)
}
