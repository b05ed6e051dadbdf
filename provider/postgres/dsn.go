package postgres

import (
	"fmt"
	"net/url"
	"strings"
)

// DSN is a PostgreSQL connection string: a postgres:// or postgresql://
// URL, or a key=value list ("host=... password=..."). Its String method
// hides the password, so that a DSN can be printed, logged or written to
// a results file as it is: fmt's %s, %v, %q and %#v all show the redacted
// form. Only Open reads the password.
type DSN string

// redacted stands in for a password.
const redacted = "xxxxx"

// IsURL reports whether s is a PostgreSQL URL (postgres:// or
// postgresql://, in any case): what a -store flag takes for PostgreSQL
// rather than a file path.
func IsURL(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "postgres://") || strings.HasPrefix(l, "postgresql://")
}

// String returns d with its password replaced by "xxxxx": in a URL's user
// information and in a password parameter of its query, or in a
// key=value string's password. A URL that cannot be parsed is shown as
// its scheme and "://xxxxx", since where the password is cannot be told.
func (d DSN) String() string {
	s := string(d)
	if !IsURL(s) {
		return redactKeyValue(s)
	}
	u, err := url.Parse(s)
	if err != nil {
		scheme, _, _ := strings.Cut(s, "://")
		return scheme + "://" + redacted
	}
	if u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), redacted)
		}
	}
	q := u.Query()
	for k := range q {
		if strings.EqualFold(k, "password") {
			q.Set(k, redacted)
			u.RawQuery = q.Encode()
		}
	}
	return u.String()
}

// GoString is String, so that %#v does not show the password either.
func (d DSN) GoString() string { return fmt.Sprintf("postgres.DSN(%q)", d.String()) }

// password returns the password d holds, or "" (for scrubbing it from
// messages that might repeat it).
func (d DSN) password() string {
	s := string(d)
	if !IsURL(s) {
		for _, f := range keyValueFields(s) {
			if strings.EqualFold(f.key, "password") {
				return f.value
			}
		}
		return ""
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	if u.User != nil {
		if p, ok := u.User.Password(); ok {
			return p
		}
	}
	for k, v := range u.Query() {
		if strings.EqualFold(k, "password") && len(v) > 0 {
			return v[0]
		}
	}
	return ""
}

// Scrub returns err with every occurrence of d's password in its message
// replaced, for the errors of another package that talks to d's server
// (provider/pgqueue): the driver's errors name the connection string in
// places. It unwraps to err.
func (d DSN) Scrub(err error) error { return d.scrub(err) }

// scrub is Scrub.
func (d DSN) scrub(err error) error {
	if err == nil {
		return nil
	}
	p := d.password()
	if p == "" || !strings.Contains(err.Error(), p) {
		return err
	}
	return &scrubbed{msg: strings.ReplaceAll(err.Error(), p, redacted), err: err}
}

// scrubbed is an error whose message no longer holds a password; it
// unwraps to the original for errors.Is and errors.As.
type scrubbed struct {
	msg string
	err error
}

func (e *scrubbed) Error() string { return e.msg }
func (e *scrubbed) Unwrap() error { return e.err }

// kv is one key=value field of a connection string.
type kv struct {
	key, value string
	start, end int // the value's bytes in the string
}

// keyValueFields splits a key=value connection string, whose values may
// be single-quoted with backslash escapes (libpq's format).
func keyValueFields(s string) []kv {
	var out []kv
	i := 0
	for i < len(s) {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		eq := strings.IndexByte(s[i:], '=')
		if eq < 0 {
			break
		}
		key := strings.TrimSpace(s[i : i+eq])
		i += eq + 1
		for i < len(s) && s[i] == ' ' {
			i++
		}
		start := i
		var v strings.Builder
		if i < len(s) && s[i] == '\'' {
			i++
			for i < len(s) && s[i] != '\'' {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				v.WriteByte(s[i])
				i++
			}
			i++ // the closing quote
		} else {
			for i < len(s) && s[i] != ' ' {
				v.WriteByte(s[i])
				i++
			}
		}
		out = append(out, kv{key: key, value: v.String(), start: start, end: min(i, len(s))})
	}
	return out
}

// redactKeyValue replaces the password of a key=value string.
func redactKeyValue(s string) string {
	fields := keyValueFields(s)
	for i := len(fields) - 1; i >= 0; i-- {
		if f := fields[i]; strings.EqualFold(f.key, "password") {
			s = s[:f.start] + redacted + s[f.end:]
		}
	}
	return s
}

// Label returns a short name of the database d names, without user or
// password: its host and database name ("db.example:5432/web"), for
// recording where numbers came from.
func (d DSN) Label() string {
	s := string(d)
	if IsURL(s) {
		u, err := url.Parse(s)
		if err != nil {
			return "postgres"
		}
		return u.Host + u.Path
	}
	var host, name string
	for _, f := range keyValueFields(s) {
		switch strings.ToLower(f.key) {
		case "host":
			host = f.value
		case "dbname":
			name = f.value
		}
	}
	return host + "/" + name
}
