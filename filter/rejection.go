package filter

// Names of the five filters of §3.1 "Pre-processing Link Neighborhood", as
// recorded in [Rejection.Filter] and accepted by [Filters.Disabled].
const (
	// FilterStatus rejects pages whose final HTTP status is not 2xx (§3.1
	// "HTTP Status Codes").
	FilterStatus = "status"
	// FilterFileType rejects representations that are not HTML (§3.1
	// "Filetypes").
	FilterFileType = "filetype"
	// FilterSize rejects pages with fewer than [DefaultMinTokens] words after
	// rendering (§3.1 "File size").
	FilterSize = "size"
	// FilterLanguage rejects pages that are not in English (§3.1
	// "Language").
	FilterLanguage = "language"
	// FilterSoft404 rejects pages that a server returns, with a 2xx status,
	// for any URI in their path (§3.1 "Soft 404s").
	FilterSoft404 = "soft404"
)

// Order lists the filter names in the order [Filters.Check] applies them; the
// first filter that catches a page is the one recorded, as in the paper's
// Table "Pre-Processing Results" ("only listed in the filter in which they
// were caught first").
//
// The paper's table lists the filters as Content Language, File Type, File
// Size, HTTP Result code, Soft 404s without saying in which order they ran.
// Order differs on purpose: the status and file type filters come first
// because the size and language filters need a successful HTML body to
// render, and the soft 404 filter comes last because it is the only one that
// costs network fetches (two more per page). The set of pages kept is the
// same in any order; only which filter is credited with a page that several
// would catch changes.
//
// Callers must not modify Order.
var Order = []string{FilterStatus, FilterFileType, FilterSize, FilterLanguage, FilterSoft404}

// Rejection records why a filter discarded a page. It is an outcome, not an
// error: the pipeline keeps it in its audit trail and goes on with the other
// pages.
type Rejection struct {
	// Filter is the name of the filter that caught the page, one of the
	// Filter* constants.
	Filter string
	// Reason says in words what the filter saw, for example "HTTP 404 Not
	// Found" or "12 words, fewer than 50".
	Reason string
}

// String returns the filter name and the reason, separated by a colon, for
// example "status: HTTP 404 Not Found". A nil Rejection (a kept page) prints
// as "kept".
func (r *Rejection) String() string {
	if r == nil {
		return "kept"
	}
	return r.Filter + ": " + r.Reason
}
