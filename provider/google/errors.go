package google

import "errors"

// ErrMissingEngine means New was given no search engine ID (cx). Google's
// other errors are searchapi's (see the package documentation).
var ErrMissingEngine = errors.New("google: missing search engine ID (cx)")

// ErrQuotaExceeded means Google answered that the project's queries of
// the day are spent: a 429 RESOURCE_EXHAUSTED whose message names a limit
// "per day" ("Quota exceeded for quota metric 'Queries' and limit
// 'Queries per day' of service 'customsearch.googleapis.com'") or whose
// ErrorInfo names a quota_limit per day (DefaultPerDayPerProject), or the
// older 403 whose reason is dailyLimitExceeded. Asking again that day only
// fails again (the quota resets at midnight Pacific Time), so the answer
// is not retried and the Client stops: every later Search and HitCount
// fails at once, without a request, for the Client's life. The error also
// matches searchapi.ErrStopped, and searchapi.ErrRateLimited for a 429.
var ErrQuotaExceeded = errors.New("google: the project's queries of the day are spent")
