package localweb

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// cdxRow is one capture as an index row: field name → value.
type cdxRow map[string]string

// cdxQuery is what a CDX query (the Wayback CDX server's or pywb's, which
// Common Crawl runs) asks for besides the URL.
type cdxQuery struct {
	url       string
	matchType string
	from, to  string // timestamps padded to 14 digits
	filters   []cdxFilter
	collapse  []cdxCollapse
	limit     int // 0 for none; negative for the last -limit
	offset    int
	fields    []string
}

// cdxFilter is one filter= parameter.
type cdxFilter struct {
	field  string
	negate bool
	exact  string         // pywb's "=field:value"
	substr string         // pywb's "~field:value"
	re     *regexp.Regexp // otherwise
	kind   byte           // '=', '~' or 'r'
}

// cdxCollapse is one collapse= parameter: field, or its first n bytes.
type cdxCollapse struct {
	field string
	n     int
}

// errCDX is a query parameter the index servers refuse.
type errCDX struct{ msg string }

// Error returns the message.
func (e *errCDX) Error() string { return e.msg }

// parseCDXQuery reads the query parameters. wayback says whose syntax:
// the Wayback CDX server's (filters are Java regular expressions the
// whole field must match) or pywb's (modifiers = and ~, and a regular
// expression matched from the start of the field).
func parseCDXQuery(v url.Values, wayback bool) (*cdxQuery, error) {
	q := &cdxQuery{url: strings.TrimSpace(v.Get("url")), matchType: v.Get("matchType")}
	if q.matchType == "" {
		q.matchType = v.Get("match_type")
	}
	if q.url == "" {
		return nil, &errCDX{"Missing Required Param: url"}
	}
	switch {
	case strings.HasPrefix(q.url, "*."):
		q.url, q.matchType = q.url[2:], "domain"
	case strings.HasSuffix(q.url, "*"):
		q.url, q.matchType = strings.TrimSuffix(q.url, "*"), "prefix"
	}
	if q.matchType == "" {
		q.matchType = "exact"
	}
	switch q.matchType {
	case "exact", "prefix", "host", "domain":
	default:
		return nil, &errCDX{"Invalid match_type: " + q.matchType}
	}
	if !strings.Contains(q.url, "://") {
		q.url = "http://" + q.url
	}
	var err error
	if q.from, err = padTimestamp(v.Get("from"), '0'); err != nil {
		return nil, err
	}
	if q.to, err = padTimestamp(v.Get("to"), '9'); err != nil {
		return nil, err
	}
	for _, f := range v["filter"] {
		cf := cdxFilter{kind: 'r'}
		if strings.HasPrefix(f, "!") {
			cf.negate, f = true, f[1:]
		}
		if !wayback && f != "" && (f[0] == '=' || f[0] == '~') {
			cf.kind, f = f[0], f[1:]
		}
		field, value, ok := strings.Cut(f, ":")
		if !ok || field == "" {
			return nil, &errCDX{"Invalid filter: " + f}
		}
		cf.field = field
		switch cf.kind {
		case '=':
			cf.exact = value
		case '~':
			cf.substr = value
		default:
			expr := "^(?:" + value + ")"
			if wayback {
				expr += "$"
			}
			if cf.re, err = regexp.Compile(expr); err != nil {
				return nil, &errCDX{"Invalid filter regex: " + value}
			}
		}
		q.filters = append(q.filters, cf)
	}
	for _, c := range v["collapse"] {
		field, n, _ := strings.Cut(c, ":")
		cc := cdxCollapse{field: field}
		if n != "" {
			if cc.n, err = strconv.Atoi(n); err != nil || cc.n < 0 {
				return nil, &errCDX{"Invalid collapse: " + c}
			}
		}
		q.collapse = append(q.collapse, cc)
	}
	if s := v.Get("limit"); s != "" {
		if q.limit, err = strconv.Atoi(s); err != nil {
			return nil, &errCDX{"Invalid limit: " + s}
		}
	}
	if s := v.Get("offset"); s != "" {
		if q.offset, err = strconv.Atoi(s); err != nil || q.offset < 0 {
			return nil, &errCDX{"Invalid offset: " + s}
		}
	}
	if fl := v.Get("fl"); fl != "" {
		q.fields = strings.Split(fl, ",")
	}
	return q, nil
}

// padTimestamp pads a timestamp of 1 to 14 digits with pad to 14; "" stays
// "".
func padTimestamp(ts string, pad byte) (string, error) {
	if ts == "" {
		return "", nil
	}
	if len(ts) > 14 || strings.Trim(ts, "0123456789") != "" {
		return "", &errCDX{"Invalid timestamp: " + ts}
	}
	return ts + strings.Repeat(string(pad), 14-len(ts)), nil
}

// filter returns the rows q keeps, in order: the time range, the
// filters, collapsing, offset and limit.
func (q *cdxQuery) filter(rows []cdxRow, fields []string) []cdxRow {
	var out []cdxRow
	var last []string
	for _, r := range rows {
		ts := r["timestamp"]
		if q.from != "" && ts < q.from || q.to != "" && ts > q.to {
			continue
		}
		if !q.keep(r, fields) {
			continue
		}
		if len(q.collapse) > 0 {
			vals := make([]string, len(q.collapse))
			for i, c := range q.collapse {
				v := r[c.field]
				if c.n > 0 && len(v) > c.n {
					v = v[:c.n]
				}
				vals[i] = v
			}
			if last != nil && strings.Join(vals, "\x00") == strings.Join(last, "\x00") {
				continue
			}
			last = vals
		}
		out = append(out, r)
	}
	if q.offset > 0 {
		out = out[min(q.offset, len(out)):]
	}
	switch {
	case q.limit > 0 && len(out) > q.limit:
		out = out[:q.limit]
	case q.limit < 0 && len(out) > -q.limit:
		out = out[len(out)+q.limit:]
	}
	return out
}

// keep reports whether r passes every filter. A filter's field is a name
// or the index of a field in fields.
func (q *cdxQuery) keep(r cdxRow, fields []string) bool {
	for _, f := range q.filters {
		name := f.field
		if i, err := strconv.Atoi(name); err == nil && i >= 0 && i < len(fields) {
			name = fields[i]
		}
		v := r[name]
		var m bool
		switch f.kind {
		case '=':
			m = v == f.exact
		case '~':
			m = strings.Contains(v, f.substr)
		default:
			m = f.re.MatchString(v)
		}
		if m == f.negate {
			return false
		}
	}
	return true
}

// selectFields returns the fields of the answer: q.fields, or all.
func (q *cdxQuery) selectFields(all []string) ([]string, error) {
	if len(q.fields) == 0 {
		return all, nil
	}
	for _, f := range q.fields {
		ok := false
		for _, a := range all {
			ok = ok || a == f
		}
		if !ok {
			return nil, &errCDX{fmt.Sprintf("Invalid field: %s", f)}
		}
	}
	return q.fields, nil
}
