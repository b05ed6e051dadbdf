package cache

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/filter"
)

// TestOpenRefusesUnsafe: a cache directory that another user could
// write (group or world write permission, or another owner) is refused
// with ErrUnsafe and an error naming the directory, as ssh refuses such
// files; a missing one is made mode 0700, and so are the subdirectories
// Put makes. A planted record there would otherwise be served as an
// answer (issue 23, item 4).
func TestOpenRefusesUnsafe(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permissions")
	}
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, path string)
		// unsafe says Open must refuse it.
		unsafe bool
	}{
		{"missing", func(*testing.T, string) {}, false},
		{"mode 0700", func(t *testing.T, p string) { require.NoError(t, os.Mkdir(p, 0o700)) }, false},
		{"mode 0755", func(t *testing.T, p string) { mkdirMode(t, p, 0o755) }, false},
		{"world-writable 0777", func(t *testing.T, p string) { mkdirMode(t, p, 0o777) }, true},
		{"world-writable sticky 01777", func(t *testing.T, p string) { mkdirMode(t, p, 0o1777) }, true},
		{"group-writable 0770", func(t *testing.T, p string) { mkdirMode(t, p, 0o770) }, true},
		{"owned by another user", func(t *testing.T, p string) {
			if os.Getuid() != 0 {
				t.Skip("only root can give a directory to another user")
			}
			mkdirMode(t, p, 0o700)
			require.NoError(t, os.Chown(p, 65534, 65534))
		}, true},
		{"a kind owned by another user", func(t *testing.T, p string) {
			if os.Getuid() != 0 {
				t.Skip("only root can give a directory to another user")
			}
			mkdirMode(t, p, 0o700)
			mkdirMode(t, filepath.Join(p, "page"), 0o700)
			require.NoError(t, os.Chown(filepath.Join(p, "page"), 65534, 65534))
		}, true},
		{"a world-writable prefix", func(t *testing.T, p string) {
			mkdirMode(t, p, 0o700)
			mkdirMode(t, filepath.Join(p, "page"), 0o700)
			mkdirMode(t, filepath.Join(p, "page", "ab"), 0o777)
		}, true},
		{"a kind that is a symbolic link", func(t *testing.T, p string) {
			mkdirMode(t, p, 0o700)
			require.NoError(t, os.Symlink(t.TempDir(), filepath.Join(p, "page")))
		}, true},
		{"a safe tree", func(t *testing.T, p string) {
			mkdirMode(t, p, 0o700)
			mkdirMode(t, filepath.Join(p, "page"), 0o700)
			mkdirMode(t, filepath.Join(p, "page", "ab"), 0o700)
		}, false},
		{"a symlink to a world-writable directory", func(t *testing.T, p string) {
			target := filepath.Join(t.TempDir(), "open")
			mkdirMode(t, target, 0o777)
			require.NoError(t, os.Symlink(target, p))
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "cache")
			tc.setup(t, path)
			d, err := Open(path, time.Hour)
			if tc.unsafe {
				require.ErrorIs(t, err, ErrUnsafe)
				var ue *UnsafeError
				require.True(t, errors.As(err, &ue), "error %v is no *UnsafeError", err)
				if !strings.Contains(err.Error(), path) || ue.Path != path {
					t.Errorf("error %q does not name the directory %s", err, path)
				}
				return
			}
			require.NoError(t, err)
			require.NoError(t, d.Put("page", "k", []byte("v")))
			for _, dir := range []string{path, filepath.Join(path, "page"), filepath.Dir(d.file("page", "k"))} {
				fi, err := os.Stat(dir)
				require.NoError(t, err)
				if tc.name == "missing" || dir != path {
					if perm := fi.Mode().Perm(); perm&0o077 != 0 {
						t.Errorf("%s: mode %v, want 0700", dir, perm)
					}
				}
			}
		})
	}
}

// TestOpenNotDirectory refuses a file where the directory should be.
func TestOpenNotDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache")
	require.NoError(t, os.WriteFile(path, nil, 0o600))
	_, err := Open(path, 0)
	require.Error(t, err)
	if !strings.Contains(err.Error(), path) {
		t.Errorf("error %q does not name %s", err, path)
	}
}

// mkdirMode makes the directory p with exactly mode perm (the umask
// aside).
func mkdirMode(t *testing.T, p string, perm os.FileMode) {
	t.Helper()
	require.NoError(t, os.Mkdir(p, 0o700))
	mode := perm.Perm()
	if perm&0o1000 != 0 {
		mode |= os.ModeSticky
	}
	require.NoError(t, os.Chmod(p, mode))
}

// TestPrune removes expired records, then the oldest, until the
// directory holds at most the bound; it leaves alone every file that is
// no record, and removes temporary files a killed writer left.
func TestPrune(t *testing.T) {
	now := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
	dir := t.TempDir()
	d, err := Open(dir, 10*time.Hour)
	require.NoError(t, err)
	value := make([]byte, 1000)
	put := func(key string, age time.Duration) {
		d.now = func() time.Time { return now.Add(-age) }
		require.NoError(t, d.Put("page", key, value))
	}
	put("rec-0", 11*time.Hour)
	put("rec-1", 9*time.Hour)
	put("rec-2", 5*time.Hour)
	put("rec-3", 2*time.Hour)
	put("rec-4", time.Hour)
	d.now = func() time.Time { return now }
	size := recordSize(t, d, "rec-4")
	// A file of the user's, and a temporary file a killed Put left an
	// hour ago.
	mine := filepath.Join(dir, "page", "notes.txt")
	require.NoError(t, os.WriteFile(mine, make([]byte, 5000), 0o600))
	leftover := filepath.Join(filepath.Dir(d.file("page", "rec-4")), ".tmp-123")
	require.NoError(t, os.WriteFile(leftover, make([]byte, 5000), 0o600))
	require.NoError(t, os.Chtimes(leftover, now.Add(-2*time.Hour), now.Add(-2*time.Hour)))

	st, err := d.Prune(3 * size)
	require.NoError(t, err)
	for key, kept := range map[string]bool{"rec-0": false, "rec-1": false, "rec-2": true, "rec-3": true, "rec-4": true} {
		if _, err := os.Stat(d.file("page", key)); (err == nil) != kept {
			t.Errorf("%s: kept %v, want %v", key, err == nil, kept)
		}
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("a file that is no record was removed: %v", err)
	}
	if _, err := os.Stat(leftover); err == nil {
		t.Error("the leftover temporary file is still there")
	}
	want := PruneStats{Expired: 1, Oldest: 1, Temporary: 1, Kept: 3, KeptBytes: 3 * size}
	want.RemovedBytes = 2*size + 5000
	if st != want {
		t.Errorf("Prune = %+v, want %+v", st, want)
	}
	// Below the bound, only the expired go.
	put("rec-5", 11*time.Hour)
	d.now = func() time.Time { return now }
	st, err = d.Prune(1 << 30)
	require.NoError(t, err)
	if st.Expired != 1 || st.Oldest != 0 || st.Kept != 3 {
		t.Errorf("Prune with room = %+v, want 1 expired removed and 3 kept", st)
	}
	// Zero means no bound on the size.
	st, err = d.Prune(0)
	require.NoError(t, err)
	if st.Oldest != 0 || st.Kept != 3 {
		t.Errorf("Prune(0) = %+v, want none removed", st)
	}
}

// TestPruneMissing: a directory with nothing in it yet prunes nothing.
func TestPruneMissing(t *testing.T) {
	d := New(filepath.Join(t.TempDir(), "never-made"), 0)
	st, err := d.Prune(1)
	require.NoError(t, err)
	if st != (PruneStats{}) {
		t.Errorf("Prune = %+v, want nothing", st)
	}
}

// recordSize returns the size of the record file of key.
func recordSize(t *testing.T, d *Dir, key string) int64 {
	t.Helper()
	fi, err := os.Stat(d.file("page", key))
	require.NoError(t, err)
	return fi.Size()
}

// TestFetcherPlantedScheme: a kept page that came from a URI that is not
// http(s) (a javascript: URI planted in the directory) is no page a fetch
// gives: it is a miss, counted as corrupt, and the page is fetched again.
func TestFetcherPlantedScheme(t *testing.T) {
	d := New(t.TempDir(), 0)
	const uri = "https://a.example/old"
	planted := &countingFetcher{pages: map[string]*filter.Page{uri: {URI: "javascript:alert(1)//", Status: 200}}}
	_, err := (&Fetcher{Dir: d, Fetcher: planted}).Fetch(context.Background(), uri)
	require.NoError(t, err)
	live := &countingFetcher{}
	p, err := (&Fetcher{Dir: d, Fetcher: live}).Fetch(context.Background(), uri)
	require.NoError(t, err)
	if p.URI != uri || p.Status != 404 || live.calls.Load() != 1 {
		t.Errorf("Fetch = %+v after %d calls, want the live 404 after 1", p, live.calls.Load())
	}
	if c := d.Stats().Corrupt; c != 1 {
		t.Errorf("Stats.Corrupt = %d, want 1", c)
	}
}
