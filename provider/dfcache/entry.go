package dfcache

import (
	"encoding/binary"
	"fmt"
	"time"
)

// entryLen is the length of a stored value: the number, then the time it
// was stored.
const entryLen = 16

// entry is one stored value: a document frequency or |D|, and when it was
// asked of the underlying DF.
type entry struct {
	n      int64
	stored time.Time
}

// encode returns e as 16 bytes: n and the Unix time of storing in
// nanoseconds, both big-endian two's-complement int64.
func (e entry) encode() []byte {
	b := make([]byte, entryLen)
	binary.BigEndian.PutUint64(b[:8], uint64(e.n))
	binary.BigEndian.PutUint64(b[8:], uint64(e.stored.UnixNano()))
	return b
}

// decodeEntry parses a stored value. b belongs to a bbolt transaction and
// is not kept.
func decodeEntry(b []byte) (entry, error) {
	if len(b) != entryLen {
		return entry{}, fmt.Errorf("%w: %d bytes, want %d", ErrCorrupt, len(b), entryLen)
	}
	n := int64(binary.BigEndian.Uint64(b[:8]))
	if n < 0 {
		return entry{}, fmt.Errorf("%w: negative value %d", ErrCorrupt, n)
	}
	return entry{n: n, stored: time.Unix(0, int64(binary.BigEndian.Uint64(b[8:])))}, nil
}

// fresh reports whether e may still be used at now, given the maximum age
// (zero or less for no limit). A value stored in the future, after the
// clock was set back, counts as fresh.
func (e entry) fresh(now time.Time, maxAge time.Duration) bool {
	return maxAge <= 0 || now.Sub(e.stored) <= maxAge
}
