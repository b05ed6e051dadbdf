package warc

import (
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestHeaderAccessors checks the typed accessors on the named fields of
// WARC/1.1 §5.
func TestHeaderAccessors(t *testing.T) {
	h := Header{
		{Name: "warc-type", Value: "Response"},
		{Name: "WARC-Target-URI", Value: "<http://example.com/a?b=c>"},
		{Name: "WARC-Record-ID", Value: "<urn:uuid:12345678-1234-4234-8234-123456789abc>"},
		{Name: "WARC-Date", Value: "2009-03-01T12:30:45.123456Z"},
		{Name: "content-type", Value: "application/http; msgtype=response"},
		{Name: "Content-Length", Value: "0042"},
	}
	tests := []struct {
		name, got, want string
	}{
		{name: "Type lowercases", got: h.Type(), want: TypeResponse},
		{name: "TargetURI strips brackets", got: h.TargetURI(), want: "http://example.com/a?b=c"},
		{name: "RecordID strips brackets", got: h.RecordID(), want: "urn:uuid:12345678-1234-4234-8234-123456789abc"},
		{name: "ContentType ignores case of the name", got: h.ContentType(), want: "application/http; msgtype=response"},
		{name: "Get ignores case", got: h.Get("WARC-TYPE"), want: "Response"},
		{name: "Get of an absent field", got: h.Get("WARC-Refers-To"), want: ""},
		{name: "TargetURI without brackets", got: Header{{Name: "WARC-Target-URI", Value: "http://example.com/"}}.TargetURI(), want: "http://example.com/"},
		{name: "TargetURI of one bracket", got: Header{{Name: "WARC-Target-URI", Value: "<http://example.com/"}}.TargetURI(), want: "<http://example.com/"},
		{name: "Type of an empty header", got: Header(nil).Type(), want: ""},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
	if n, err := h.ContentLength(); n != 42 || err != nil {
		t.Errorf("ContentLength() = %d, %v; want 42, nil", n, err)
	}
	if _, err := (Header{}).ContentLength(); !errors.Is(err, ErrNoField) {
		t.Errorf("ContentLength() of an empty header: error %v, want ErrNoField", err)
	}
}

// TestHeaderDate checks the W3C-ISO8601 forms WARC-Date may take (WARC/1.1
// §5.4).
func TestHeaderDate(t *testing.T) {
	tests := []struct {
		name    string
		value   string
		want    time.Time
		wantErr bool
	}{
		{name: "seconds", value: "2009-03-01T12:30:45Z", want: time.Date(2009, 3, 1, 12, 30, 45, 0, time.UTC)},
		{name: "microseconds", value: "2009-03-01T12:30:45.000123Z", want: time.Date(2009, 3, 1, 12, 30, 45, 123000, time.UTC)},
		{name: "offset", value: "2009-03-01T14:30:45+02:00", want: time.Date(2009, 3, 1, 12, 30, 45, 0, time.UTC)},
		{name: "minutes", value: "2009-03-01T12:30Z", want: time.Date(2009, 3, 1, 12, 30, 0, 0, time.UTC)},
		{name: "day", value: "2009-03-01", want: time.Date(2009, 3, 1, 0, 0, 0, 0, time.UTC)},
		{name: "month", value: "2009-03", want: time.Date(2009, 3, 1, 0, 0, 0, 0, time.UTC)},
		{name: "year", value: "2009", want: time.Date(2009, 1, 1, 0, 0, 0, 0, time.UTC)},
		{name: "ARC-style digits", value: "20090301123045", wantErr: true},
		{name: "garbage", value: "yesterday", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Header{{Name: "WARC-Date", Value: tt.value}}.Date()
			if tt.wantErr {
				if err == nil {
					t.Errorf("Date() of %q = %v, want an error", tt.value, got)
				}
				return
			}
			if err != nil || !got.Equal(tt.want) {
				t.Errorf("Date() of %q = %v, %v; want %v", tt.value, got, err, tt.want)
			}
		})
	}
	if _, err := (Header{}).Date(); !errors.Is(err, ErrNoField) {
		t.Errorf("Date() of an empty header: error %v, want ErrNoField", err)
	}
}

// TestHeaderEdit checks Set, Add, Del and Values.
func TestHeaderEdit(t *testing.T) {
	tests := []struct {
		name string
		edit func(h *Header)
		want Header
	}{
		{
			name: "Set replaces the first and drops the rest",
			edit: func(h *Header) { h.Set("x-a", "new") },
			want: Header{{Name: "X-A", Value: "new"}, {Name: "X-B", Value: "2"}},
		},
		{
			name: "Set appends a new field",
			edit: func(h *Header) { h.Set("X-C", "3") },
			want: Header{{Name: "X-A", Value: "1"}, {Name: "X-B", Value: "2"}, {Name: "x-a", Value: "1b"}, {Name: "X-C", Value: "3"}},
		},
		{
			name: "Add keeps the others",
			edit: func(h *Header) { h.Add("X-A", "1c") },
			want: Header{{Name: "X-A", Value: "1"}, {Name: "X-B", Value: "2"}, {Name: "x-a", Value: "1b"}, {Name: "X-A", Value: "1c"}},
		},
		{
			name: "Del removes all",
			edit: func(h *Header) { h.Del("X-A") },
			want: Header{{Name: "X-B", Value: "2"}},
		},
		{
			name: "Del of an absent field",
			edit: func(h *Header) { h.Del("X-Z") },
			want: Header{{Name: "X-A", Value: "1"}, {Name: "X-B", Value: "2"}, {Name: "x-a", Value: "1b"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := Header{{Name: "X-A", Value: "1"}, {Name: "X-B", Value: "2"}, {Name: "x-a", Value: "1b"}}
			tt.edit(&h)
			if diff := cmp.Diff(tt.want, h); diff != "" {
				t.Errorf("header (-want +got):\n%s", diff)
			}
		})
	}
	h := Header{{Name: "X-A", Value: "1"}, {Name: "X-B", Value: "2"}, {Name: "x-a", Value: "1b"}}
	if diff := cmp.Diff([]string{"1", "1b"}, h.Values("X-A")); diff != "" {
		t.Errorf("Values(X-A) (-want +got):\n%s", diff)
	}
	if v := h.Values("X-Z"); v != nil {
		t.Errorf("Values(X-Z) = %q, want nil", v)
	}
}
