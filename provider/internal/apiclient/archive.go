package apiclient

import (
	"errors"
	"strings"
)

// Errors of the web archive clients (provider/wayback, provider/memento,
// provider/ccindex), which each re-export under its own names, so that one
// errors.Is check covers every archive. Like the errors of a Client, their
// messages carry no package prefix: they are always wrapped in an
// *ArchiveError, whose message begins with the archive's name.
var (
	// ErrNoCapture means the archive holds no capture (memento) of the URI
	// that fits what was asked.
	ErrNoCapture = errors.New("no capture")
	// ErrBadURI means the URI asked about is not an absolute http or https
	// URI.
	ErrBadURI = errors.New("not an absolute http or https URI")
)

// ArchiveError is the error every method of an archive client returns: the
// archive, the operation and the URI asked about, and the cause, which
// errors.Is and errors.As see through it. The archive packages export it
// as their Error.
type ArchiveError struct {
	// Archive names the client's package: "wayback", "memento" or
	// "ccindex".
	Archive string
	// Op is the operation, such as "captures", "lookup" or "fetch".
	Op string
	// URI is the URI asked about; empty for an operation on none (the
	// list of Common Crawl's crawls).
	URI string
	// Err is the cause: ErrNoCapture, ErrBadURI, an error wrapping
	// ErrMalformed, or the error of a request (which wraps ErrRateLimited,
	// ErrTimeout, a *StatusError, a network error or the context's error).
	Err error
}

// Error returns "ARCHIVE: OP URI: CAUSE", without the URI when there is
// none, and the cause without a prefix of the archive's name.
func (e *ArchiveError) Error() string {
	var b strings.Builder
	if e.Archive != "" {
		b.WriteString(e.Archive + ": ")
	}
	b.WriteString(e.Op)
	if e.URI != "" {
		b.WriteString(" " + e.URI)
	}
	if e.Err != nil {
		msg := e.Err.Error()
		if e.Archive != "" {
			msg = strings.TrimPrefix(msg, e.Archive+": ")
		}
		b.WriteString(": " + msg)
	}
	return b.String()
}

// Unwrap returns e.Err.
func (e *ArchiveError) Unwrap() error { return e.Err }
