package mojeek

import "errors"

// ErrStatus means Mojeek answered with a response.status other than OK;
// the error quotes it, and also matches searchapi.ErrRateLimited when the
// status speaks of a limit ("ERROR: Daily Limit Reached"), or
// searchapi.ErrUnauthorized when it speaks of the key. Mojeek's other
// errors are searchapi's (see the package documentation).
var ErrStatus = errors.New("mojeek: status not OK")
