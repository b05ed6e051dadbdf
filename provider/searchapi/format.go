package searchapi

import (
	"fmt"
	"net/url"
	"reflect"
	"strings"
)

// FormatOptions prints o, an engine package's Options struct, as
// "brave.Options{Key: REDACTED, BaseURL: "https://proxy.example/"}": its
// exported fields in order, but the embedded Transport (it holds no secret
// and is rarely what one looks for); a field Key as Redacted when it is
// set, unless it equals public (Marginalia's shared key), which is shown
// as it is; a field BaseURL with any password replaced by "xxxxx". It is
// the Format method of every engine's Options, so that no verb (%v, %#v,
// %x, ...) can show the key. It panics when o is not a struct, a mistake
// of the engine package.
func FormatOptions(f fmt.State, o any, public string) {
	v := reflect.ValueOf(o)
	t := v.Type()
	var b strings.Builder
	b.WriteString(t.String() + "{")
	sep := ""
	for i := range t.NumField() {
		field, value := t.Field(i), v.Field(i)
		if field.Anonymous || !field.IsExported() {
			continue
		}
		b.WriteString(sep + field.Name + ": ")
		sep = ", "
		switch {
		case field.Name == "Key":
			key := value.String()
			if key != "" && key != public {
				key = Redacted
			}
			b.WriteString(key)
		case field.Name == "BaseURL":
			fmt.Fprintf(&b, "%q", redactedURL(value.String()))
		case value.Kind() == reflect.String:
			fmt.Fprintf(&b, "%q", value.String())
		default:
			fmt.Fprint(&b, value.Interface())
		}
	}
	b.WriteString("}")
	fmt.Fprint(f, b.String())
}

// redactedURL returns raw with any password replaced, or a placeholder
// when raw is no URL (it might hold a password no parser found).
func redactedURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(not a URL)"
	}
	return u.Redacted()
}
