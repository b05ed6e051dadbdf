package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"
)

// DefaultMaxAge is how long a record is used when New is given no age:
// 30 days.
const DefaultMaxAge = 30 * 24 * time.Hour

// MaxRecord is the largest record file Get reads, in bytes; a larger file
// is counted as corrupt.
const MaxRecord = 64 << 20

// ErrBadKind is returned by Put for a kind that is not a short name of
// lowercase letters, digits and '-'.
var ErrBadKind = errors.New("cache: bad kind")

// magic starts every record file, and names its format's version.
var magic = []byte("relink-cache/1\n")

// Dir is a directory of records. Its methods are safe for concurrent use,
// also by several processes sharing the directory.
type Dir struct {
	path   string
	maxAge time.Duration
	// now returns the time; tests set it.
	now   func() time.Time
	stats struct{ hits, misses, expired, corrupt, writes, writeErrors atomic.Int64 }
}

// New returns the Dir at path, whose records are used for maxAge after
// they were stored (zero or less means DefaultMaxAge). It touches no file:
// the directory is made, with mode 0700, by the first Put. It trusts the
// directory: Open refuses one that another user could write.
func New(path string, maxAge time.Duration) *Dir {
	if maxAge <= 0 {
		maxAge = DefaultMaxAge
	}
	return &Dir{path: path, maxAge: maxAge, now: time.Now}
}

// Path returns the directory's path.
func (d *Dir) Path() string { return d.path }

// MaxAge returns how long a record is used.
func (d *Dir) MaxAge() time.Duration { return d.maxAge }

// Stats counts what a Dir's Get and Put calls found and did.
type Stats struct {
	// Hits are records found and young enough.
	Hits int64
	// Misses are keys with no usable record, Expired and Corrupt included.
	Misses int64
	// Expired are records older than MaxAge.
	Expired int64
	// Corrupt are record files that could not be read as the key's record.
	Corrupt int64
	// Writes are records stored; WriteErrors records that could not be.
	Writes, WriteErrors int64
}

// Stats returns the counts since New.
func (d *Dir) Stats() Stats {
	s := &d.stats
	return Stats{Hits: s.hits.Load(), Misses: s.misses.Load(), Expired: s.expired.Load(), Corrupt: s.corrupt.Load(),
		Writes: s.writes.Load(), WriteErrors: s.writeErrors.Load()}
}

// validKind reports whether kind can name a subdirectory.
func validKind(kind string) bool {
	if kind == "" || len(kind) > 64 {
		return false
	}
	for _, r := range kind {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' {
			return false
		}
	}
	return true
}

// file returns the path of the record of key among kind's.
func (d *Dir) file(kind, key string) string {
	sum := sha256.Sum256([]byte(key))
	name := hex.EncodeToString(sum[:])
	return filepath.Join(d.path, kind, name[:2], name)
}

// Get returns the value stored under kind and key and when it was stored,
// or ok false when there is no such record younger than MaxAge, or its
// file is damaged. A kind Put would refuse is a miss.
func (d *Dir) Get(kind, key string) (value []byte, stored time.Time, ok bool) {
	value, stored, ok = d.get(kind, key)
	if ok {
		d.stats.hits.Add(1)
	} else {
		d.stats.misses.Add(1)
	}
	return value, stored, ok
}

func (d *Dir) get(kind, key string) ([]byte, time.Time, bool) {
	if !validKind(kind) {
		return nil, time.Time{}, false
	}
	f, err := os.Open(d.file(kind, key))
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) {
			d.stats.corrupt.Add(1)
		}
		return nil, time.Time{}, false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxRecord+1))
	if err != nil || len(data) > MaxRecord {
		d.stats.corrupt.Add(1)
		return nil, time.Time{}, false
	}
	k, stored, value, err := decode(data)
	if err != nil || k != key {
		// Another key with the same hash cannot be, short of a broken
		// SHA-256; a file that names another key was put there by hand.
		d.stats.corrupt.Add(1)
		return nil, time.Time{}, false
	}
	if age := d.now().Sub(stored); age > d.maxAge || age < -d.maxAge {
		d.stats.expired.Add(1)
		return nil, time.Time{}, false
	}
	return value, stored, true
}

// Put stores value under kind and key, replacing any record there, with
// the time now. kind names a subdirectory: lowercase letters, digits and
// '-', at most 64 bytes (ErrBadKind otherwise). Any other error is the
// file system's.
func (d *Dir) Put(kind, key string, value []byte) error {
	err := d.put(kind, key, value)
	if err != nil {
		d.stats.writeErrors.Add(1)
		return err
	}
	d.stats.writes.Add(1)
	return nil
}

func (d *Dir) put(kind, key string, value []byte) error {
	if !validKind(kind) {
		return fmt.Errorf("%w %q", ErrBadKind, kind)
	}
	path := d.file(kind, key)
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	tmp, err := os.CreateTemp(dir, tmpPrefix+"*")
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	defer os.Remove(tmp.Name()) // after the rename there is nothing to remove
	now := d.now()
	if _, err := tmp.Write(encode(key, now, value)); err != nil {
		tmp.Close()
		return fmt.Errorf("cache: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	// The file's time is the record's, which Prune reads without
	// opening the file.
	if err := os.Chtimes(tmp.Name(), now, now); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	return nil
}

// encode returns a record file: magic, the key's length and bytes, the
// time in Unix nanoseconds, the value's length and bytes (lengths as
// big-endian uint32, the time as big-endian int64), and the CRC-32 (IEEE)
// of all that.
func encode(key string, t time.Time, value []byte) []byte {
	var b bytes.Buffer
	b.Write(magic)
	b.Write(binary.BigEndian.AppendUint32(nil, uint32(len(key))))
	b.WriteString(key)
	b.Write(binary.BigEndian.AppendUint64(nil, uint64(t.UnixNano())))
	b.Write(binary.BigEndian.AppendUint32(nil, uint32(len(value))))
	b.Write(value)
	b.Write(binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(b.Bytes())))
	return b.Bytes()
}

// errCorrupt is decode's error for a file that is no whole record.
var errCorrupt = errors.New("cache: not a whole record")

// decode reads a record file written by encode.
func decode(data []byte) (key string, t time.Time, value []byte, err error) {
	if len(data) < len(magic)+4+8+4+4 || !bytes.HasPrefix(data, magic) {
		return "", time.Time{}, nil, errCorrupt
	}
	body, sum := data[:len(data)-4], binary.BigEndian.Uint32(data[len(data)-4:])
	if crc32.ChecksumIEEE(body) != sum {
		return "", time.Time{}, nil, errCorrupt
	}
	rest := body[len(magic):]
	take := func(n int) []byte {
		if n < 0 || n > len(rest) {
			err = errCorrupt
			return nil
		}
		p := rest[:n]
		rest = rest[n:]
		return p
	}
	kl := take(4)
	if err != nil {
		return "", time.Time{}, nil, err
	}
	k := take(int(binary.BigEndian.Uint32(kl)))
	ts := take(8)
	if err != nil {
		return "", time.Time{}, nil, err
	}
	vl := take(4)
	if err != nil {
		return "", time.Time{}, nil, err
	}
	v := take(int(binary.BigEndian.Uint32(vl)))
	if err != nil || len(rest) != 0 {
		return "", time.Time{}, nil, errCorrupt
	}
	return string(k), time.Unix(0, int64(binary.BigEndian.Uint64(ts))), v, nil
}

// Records is where the decorators keep their answers: a key and a value
// under a kind, with the time they were stored. A Dir is one; a table
// that many processes on many machines share is another (provider/pgqueue's
// Records). Get returns a record younger than the Records' age limit, or ok
// false; a record that cannot be read is a miss, never an error. Put
// replaces the record of kind and key. Both must be safe for concurrent
// use. A nil Records, and a nil *Dir, keep nothing.
type Records interface {
	Get(kind, key string) (value []byte, stored time.Time, ok bool)
	Put(kind, key string, value []byte) error
}

var _ Records = (*Dir)(nil)

// none reports whether r keeps nothing: nil, or a nil *Dir.
func none(r Records) bool {
	if r == nil {
		return true
	}
	d, ok := r.(*Dir)
	return ok && d == nil
}

// getJSON decodes the record of kind and key in r into v; a record that is
// not v's JSON is a miss (counted as corrupt by a Dir).
func getJSON(r Records, kind, key string, v any) bool {
	if none(r) {
		return false
	}
	data, _, ok := r.Get(kind, key)
	if !ok {
		return false
	}
	if err := json.Unmarshal(data, v); err != nil {
		miss(r)
		return false
	}
	return true
}

// miss counts a record r gave as a hit as a corrupt record and a miss
// instead (when r is a Dir).
func miss(r Records) {
	if d, ok := r.(*Dir); ok {
		d.stats.corrupt.Add(1)
		d.stats.hits.Add(-1)
		d.stats.misses.Add(1)
	}
}

// putJSON stores v's JSON under kind and key in r; errors are counted in a
// Dir's Stats and otherwise ignored.
func putJSON(r Records, kind, key string, v any) {
	if none(r) {
		return
	}
	data, err := json.Marshal(v)
	if err != nil {
		if d, ok := r.(*Dir); ok {
			d.stats.writeErrors.Add(1)
		}
		return
	}
	_ = r.Put(kind, key, data) // a Dir counts it in Stats
}
