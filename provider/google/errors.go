package google

import "errors"

// ErrMissingEngine means New was given no search engine ID (cx). Google's
// other errors are searchapi's (see the package documentation).
var ErrMissingEngine = errors.New("google: missing search engine ID (cx)")
