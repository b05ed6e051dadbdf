package repair

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxURL bounds a dead URL of every input format, in bytes (after
// encoding its bytes that are not UTF-8): far above any URL a browser or
// server accepts (most stop at 8 KiB to 64 KiB).
const MaxURL = 64 << 10

// shownURL is how many bytes of a URL over MaxURL a DeadLink keeps.
const shownURL = 200

// ErrURLTooLong is the cause of DeadLink.Err for a URL over MaxURL.
var ErrURLTooLong = errors.New("repair: URL too long")

// Err returns why l cannot be looked for, or nil: an error matching
// ErrURLTooLong for a URL over MaxURL bytes (l.URL then holds its start,
// and l.TooLong how many bytes were read of it). A caller answers such a
// link unknown, with this error's message as the reason.
func (l DeadLink) Err() error {
	if l.TooLong == 0 {
		return nil
	}
	return fmt.Errorf("%w: a URL of at least %d bytes, over %d bytes (%s…)", ErrURLTooLong, l.TooLong, MaxURL, l.URL)
}

// cleanURL returns the dead URL u as every reader records it: its bytes
// that are not UTF-8 percent-encoded (so that results and journals, which
// are UTF-8, hold the URL as it was read, and not U+FFFD). When that is
// over MaxURL bytes it returns the URL's first bytes and its size (at
// least MaxURL+1); otherwise size is 0.
func cleanURL(u string) (clean string, size int) {
	if len(u) > MaxURL {
		return shorten(encodeInvalid(u[:shownURL+utf8.UTFMax])), len(u)
	}
	u = encodeInvalid(u)
	if len(u) > MaxURL {
		return shorten(u), len(u)
	}
	return u, 0
}

// shorten returns the first shownURL bytes of u, or fewer to end on a
// whole character.
func shorten(u string) string {
	if len(u) <= shownURL {
		return u
	}
	u = u[:shownURL]
	for !utf8.ValidString(u) {
		u = u[:len(u)-1]
	}
	return u
}

// encodeInvalid percent-encodes the bytes of s that are not part of a
// UTF-8 character (RFC 3986 §2.1: a URI's bytes outside its characters
// are written %XX). Valid UTF-8, and a percent sign, are left as they are.
func encodeInvalid(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			fmt.Fprintf(&b, "%%%02X", s[i])
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// longKey is the merge key of a URL over MaxURL: a digest of it as read,
// so that the collector does not keep it.
func longKey(u string) string {
	h := sha256.Sum256([]byte(u))
	return "h " + hex.EncodeToString(h[:])
}
