package cache

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestGetPut(t *testing.T) {
	d := New(t.TempDir(), time.Hour)
	_, _, ok := d.Get("page", "https://a.example/")
	require.False(t, ok, "empty Dir")
	require.NoError(t, d.Put("page", "https://a.example/", []byte("one")))
	v, stored, ok := d.Get("page", "https://a.example/")
	require.True(t, ok)
	if string(v) != "one" || stored.IsZero() {
		t.Errorf("Get = %q, %v, want \"one\" and the time stored", v, stored)
	}
	// A kind is a namespace: the same key under another kind is a miss.
	if _, _, ok := d.Get("search", "https://a.example/"); ok {
		t.Error("Get of another kind found the record")
	}
	require.NoError(t, d.Put("page", "https://a.example/", []byte("two")))
	if v, _, _ := d.Get("page", "https://a.example/"); string(v) != "two" {
		t.Errorf("after a second Put, Get = %q, want \"two\"", v)
	}
	// An empty value is a value.
	require.NoError(t, d.Put("page", "empty", nil))
	if v, _, ok := d.Get("page", "empty"); !ok || len(v) != 0 {
		t.Errorf("Get(empty) = %q, %v, want an empty value", v, ok)
	}
	want := Stats{Hits: 3, Misses: 2, Writes: 3}
	if got := d.Stats(); got != want {
		t.Errorf("Stats = %+v, want %+v", got, want)
	}
}

func TestExpiry(t *testing.T) {
	now := time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)
	d := New(t.TempDir(), time.Hour)
	d.now = func() time.Time { return now }
	require.NoError(t, d.Put("page", "k", []byte("v")))
	for _, tc := range []struct {
		name  string
		later time.Duration
		ok    bool
	}{
		{"at once", 0, true},
		{"at the age limit", time.Hour, true},
		{"past the age limit", time.Hour + time.Second, false},
		{"stored in the future (a clock set back)", -2 * time.Hour, false},
	} {
		d.now = func() time.Time { return now.Add(tc.later) }
		if _, _, ok := d.Get("page", "k"); ok != tc.ok {
			t.Errorf("%s: Get ok = %v, want %v", tc.name, ok, tc.ok)
		}
	}
	if got := d.Stats().Expired; got != 2 {
		t.Errorf("Stats.Expired = %d, want 2", got)
	}
}

func TestDefaultMaxAge(t *testing.T) {
	if got := New(t.TempDir(), 0).MaxAge(); got != DefaultMaxAge {
		t.Errorf("New(dir, 0).MaxAge() = %v, want %v", got, DefaultMaxAge)
	}
}

func TestBadKind(t *testing.T) {
	d := New(t.TempDir(), 0)
	for _, kind := range []string{"", "Page", "../x", "a/b", "a b", string(make([]byte, 65))} {
		require.ErrorIs(t, d.Put(kind, "k", []byte("v")), ErrBadKind, "Put(%q)", kind)
		if _, _, ok := d.Get(kind, "k"); ok {
			t.Errorf("Get(%q) found a record", kind)
		}
	}
}

// TestCorrupt damages a record file in every way a crash, a full disk or a
// person could, and expects a miss counted as corrupt, never a panic.
func TestCorrupt(t *testing.T) {
	good := encode("k", time.Now(), []byte("value"))
	flipped := bytes.Clone(good)
	flipped[len(magic)+6] ^= 1
	otherKey := encode("other", time.Now(), []byte("value"))
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"cut in the magic", good[:5]},
		{"cut in the value", good[:len(good)-6]},
		{"checksum missing", good[:len(good)-4]},
		{"a byte changed", flipped},
		{"not a record", []byte("<html>not a record at all, long enough to be parsed</html>")},
		{"another key's record", otherKey},
		{"trailing bytes", append(bytes.Clone(good), 'x')},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := New(t.TempDir(), 0)
			path := d.file("page", "k")
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
			require.NoError(t, os.WriteFile(path, tc.data, 0o600))
			if v, _, ok := d.Get("page", "k"); ok {
				t.Fatalf("Get = %q, true; want a miss", v)
			}
			if got := d.Stats().Corrupt; got != 1 {
				t.Errorf("Stats.Corrupt = %d, want 1", got)
			}
			// A Put repairs it.
			require.NoError(t, d.Put("page", "k", []byte("new")))
			if v, _, ok := d.Get("page", "k"); !ok || string(v) != "new" {
				t.Errorf("after Put, Get = %q, %v", v, ok)
			}
		})
	}
}

// TestRecordIsDirectory: a directory where a record should be is a miss,
// and Put reports the error.
func TestRecordIsDirectory(t *testing.T) {
	d := New(t.TempDir(), 0)
	require.NoError(t, os.MkdirAll(d.file("page", "k"), 0o700))
	if _, _, ok := d.Get("page", "k"); ok {
		t.Error("Get found a record in a directory")
	}
	require.Error(t, d.Put("page", "k", []byte("v")))
	if got := d.Stats().WriteErrors; got != 1 {
		t.Errorf("Stats.WriteErrors = %d, want 1", got)
	}
}

// TestConcurrent has goroutines write and read the same keys: every Get
// sees a whole record (run with -race).
func TestConcurrent(t *testing.T) {
	d := New(t.TempDir(), 0)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				k := strconv.Itoa(i % 5)
				if err := d.Put("page", k, []byte(fmt.Sprintf("%s from %d", k, g))); err != nil {
					t.Error(err)
				}
				if v, _, ok := d.Get("page", k); ok && !bytes.HasPrefix(v, []byte(k+" from ")) {
					t.Errorf("Get(%s) = %q", k, v)
				}
			}
		})
	}
	wg.Wait()
	if got := d.Stats().Corrupt; got != 0 {
		t.Errorf("Stats.Corrupt = %d, want 0", got)
	}
}

// TestTwoProcesses runs a second process that writes the same keys as
// this one while this one reads them: no read sees a part of a record.
func TestTwoProcesses(t *testing.T) {
	if dir := os.Getenv("RELINK_CACHE_HELPER_DIR"); dir != "" {
		d := New(dir, 0)
		for i := range 400 {
			k := strconv.Itoa(i % 7)
			if err := d.Put("page", k, bytes.Repeat([]byte(k), 1000+i)); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		return
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestTwoProcesses$")
	cmd.Env = append(os.Environ(), "RELINK_CACHE_HELPER_DIR="+dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	d := New(dir, 0)
	found := 0
	for i := 0; ; i++ {
		k := strconv.Itoa(i % 7)
		if err := d.Put("page", k, bytes.Repeat([]byte(k), 500)); err != nil {
			t.Fatal(err)
		}
		if v, _, ok := d.Get("page", k); ok {
			found++
			if len(bytes.Trim(v, k)) != 0 {
				t.Fatalf("Get(%s) read a record of other bytes", k)
			}
		}
		if cmd.ProcessState != nil || i >= 400 {
			break
		}
	}
	require.NoError(t, cmd.Wait(), "helper process: %s", stderr.String())
	if c := d.Stats().Corrupt; c != 0 || found == 0 {
		t.Errorf("found %d records, %d corrupt; want some and none", found, c)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(encode("k", time.Unix(1, 0), []byte("v")))
	f.Add([]byte("relink-cache/1\n\xff\xff\xff\xff"))
	f.Fuzz(func(t *testing.T, data []byte) {
		k, ts, v, err := decode(data)
		if err != nil {
			return
		}
		// A record decoded encodes to the same bytes.
		if again := encode(k, ts, v); !bytes.Equal(again, data) {
			t.Errorf("decode then encode changed the record")
		}
	})
}
