package canon

import (
	"cmp"
	"slices"
	"strings"
)

// isSessionKey reports whether the raw query key k names a session
// identifier (see Options.SessionIDs).
func isSessionKey(k string) bool {
	switch k = strings.ToLower(unescapeLoose(k)); k {
	case "jsessionid", // Java servlet containers
		"phpsessid",       // PHP
		"sid",             // many forum and shop packages
		"sessionid",       // generic
		"cfid", "cftoken": // ColdFusion
		return true
	}
	return strings.HasPrefix(k, "aspsessionid") // classic ASP
}

// dropSessionParams removes the session-identifier parameters from the raw
// query q and keeps the others, empty ones included, in their order.
func dropSessionParams(q string) string {
	if q == "" {
		return q
	}
	params := strings.Split(q, "&")
	kept := params[:0]
	for _, p := range params {
		k, _, _ := strings.Cut(p, "=")
		if !isSessionKey(k) {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "&")
}

// sortQuery orders the non-empty parameters of the raw query q by key, then
// value, as Options.SortQuery describes.
func sortQuery(q string) string {
	if q == "" {
		return q
	}
	params := slices.DeleteFunc(strings.Split(q, "&"), func(p string) bool { return p == "" })
	slices.SortStableFunc(params, func(a, b string) int {
		ka, va, _ := strings.Cut(a, "=")
		kb, vb, _ := strings.Cut(b, "=")
		return cmp.Or(strings.Compare(ka, kb), strings.Compare(va, vb))
	})
	return strings.Join(params, "&")
}
