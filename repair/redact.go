package repair

import (
	"reflect"
	"strings"
)

// Results echo the input in Dead and Sources, as given; every other field
// may quote a URL with a password in its user information (the dead URL
// in an error, a backlink fetched, a candidate, an archive's address), and
// a results file or a journal is shared more widely than the input. Every
// writer of results (Result.MarshalJSON, WriteCSV, WriteMarkdown) writes
// Result.Redacted, so that no field added later is missed.

// redactedPassword stands for a password, as net/url's URL.Redacted
// writes it.
const redactedPassword = "xxxxx"

// Redacted returns a copy of r whose string fields, but Dead and Sources,
// have every URL password replaced (RedactPasswords). r is not changed: the
// copy shares nothing with it that it changes.
func (r Result) Redacted() Result {
	dead, sources := r.Dead, r.Sources
	v := reflect.New(reflect.TypeFor[Result]()).Elem()
	v.Set(redactValue(reflect.ValueOf(r)))
	out := v.Interface().(Result)
	out.Dead, out.Sources = dead, sources
	return out
}

// redactValue returns a copy of v with RedactPasswords applied to every
// string it holds, through structs, slices and pointers.
func redactValue(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.String:
		s := v.String()
		if r := RedactPasswords(s); r != s {
			c := reflect.New(v.Type()).Elem()
			c.SetString(r)
			return c
		}
	case reflect.Struct:
		c := reflect.New(v.Type()).Elem()
		c.Set(v)
		for i := range v.NumField() {
			if c.Field(i).CanSet() {
				c.Field(i).Set(redactValue(v.Field(i)))
			}
		}
		return c
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			c.Index(i).Set(redactValue(v.Index(i)))
		}
		return c
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		c := reflect.New(v.Type().Elem())
		c.Elem().Set(redactValue(v.Elem()))
		return c
	}
	return v
}

// RedactPasswords returns s with the password of every URL in it that has
// one ("scheme://user:password@host") replaced by xxxxx, as net/url's
// URL.Redacted does; the user name is kept. A URL's authority ends at the
// first / ? # or white space or quote after "://", and its user
// information at the last @ in it (so a password holding @ is redacted
// whole). Text without such a URL is returned as it is.
func RedactPasswords(s string) string {
	if !strings.Contains(s, "@") || !strings.Contains(s, "://") {
		return s
	}
	var b strings.Builder
	rest := s
	for {
		i := strings.Index(rest, "://")
		if i < 0 {
			break
		}
		start := i + len("://")
		if !endsInScheme(rest[:i]) {
			b.WriteString(rest[:start])
			rest = rest[start:]
			continue
		}
		end := strings.IndexAny(rest[start:], "/?#\"'<> \t\r\n")
		if end < 0 {
			end = len(rest) - start
		}
		auth := rest[start : start+end]
		at := strings.LastIndexByte(auth, '@')
		colon := strings.IndexByte(auth, ':')
		if at < 0 || colon < 0 || colon > at {
			b.WriteString(rest[:start+end])
		} else {
			b.WriteString(rest[:start+colon+1])
			b.WriteString(redactedPassword)
			b.WriteString(auth[at:])
		}
		rest = rest[start+end:]
	}
	b.WriteString(rest)
	return b.String()
}

// endsInScheme reports whether s ends in a URI scheme (RFC 3986 §3.1).
func endsInScheme(s string) bool {
	i := len(s)
	for i > 0 && (isAlpha(s[i-1]) || '0' <= s[i-1] && s[i-1] <= '9' || strings.IndexByte("+-.", s[i-1]) >= 0) {
		i--
	}
	return isScheme(s[i:])
}
