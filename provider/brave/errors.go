package brave

import "errors"

// ErrQuotaExceeded means Brave answered that the key's quota is spent: a
// 429 whose error code is QUOTA_LIMITED ("Request quota limit exceeded for
// plan."), or whose X-RateLimit-Remaining names a window beyond the
// first (the month's) with nothing left. Asking again before that window
// resets only fails again, so the answer is not retried and the Client
// stops: every later Search fails at once, without a request, until the
// reset X-RateLimit-Reset names (for the Client's life when it names
// none). The error also matches searchapi.ErrRateLimited and
// searchapi.ErrStopped.
var ErrQuotaExceeded = errors.New("brave: the key's quota is spent")
