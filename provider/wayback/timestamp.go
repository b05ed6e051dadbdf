package wayback

import (
	"fmt"
	"time"
)

// timestampLayout is the layout of a Wayback timestamp: yyyyMMddhhmmss, UTC.
const timestampLayout = "20060102150405"

// Timestamp returns t as a 14-digit Wayback timestamp (yyyyMMddhhmmss) in
// UTC, as the CDX and availability APIs and replay URLs write times.
func Timestamp(t time.Time) string { return t.UTC().Format(timestampLayout) }

// ParseTimestamp parses a 14-digit Wayback timestamp as a time in UTC. Any
// other string (shorter prefixes included, which the APIs accept in queries
// but never answer with) is an error wrapping ErrMalformed.
func ParseTimestamp(s string) (time.Time, error) {
	if len(s) != len(timestampLayout) {
		return time.Time{}, fmt.Errorf("%w: timestamp %q is not 14 digits", ErrMalformed, s)
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return time.Time{}, fmt.Errorf("%w: timestamp %q is not 14 digits", ErrMalformed, s)
		}
	}
	t, err := time.Parse(timestampLayout, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%w: timestamp %q: %w", ErrMalformed, s, err)
	}
	return t, nil
}
