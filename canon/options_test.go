package canon_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/linkrot/relink/canon"
)

func TestStrict(t *testing.T) {
	want := canon.Options{PercentEncoding: true, DotSegments: true, TrailingDot: true, EmptyQuery: true}
	if diff := cmp.Diff(want, canon.Strict()); diff != "" {
		t.Errorf("Strict() mismatch (-want +got):\n%s", diff)
	}
}

// TestZeroOptions: the zero Options are the paper's rules alone (§3.1).
func TestZeroOptions(t *testing.T) {
	for _, tt := range canonicalizeTests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := canon.Options{}.Canonicalize(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// Each option alone, then combinations. The paper's rules (§3.1) always
// apply as well.
var optionsTests = []struct {
	name string
	opts canon.Options
	in   string
	want string
}{
	// PercentEncoding: RFC 3986 §6.2.2.1 (hex case) and §6.2.2.2 (unreserved).
	{"percent lowercase tilde", canon.Options{PercentEncoding: true}, "http://example.com/%7euser", "http://example.com/~user"},
	{"percent uppercase tilde", canon.Options{PercentEncoding: true}, "http://example.com/%7Euser", "http://example.com/~user"},
	{"percent raw tilde", canon.Options{PercentEncoding: true}, "http://example.com/~user", "http://example.com/~user"},
	{"percent letters and digits", canon.Options{PercentEncoding: true}, "http://example.com/%41%62%30%2D%2e%5F", "http://example.com/Ab0-._"},
	{"percent reserved kept, hex upper", canon.Options{PercentEncoding: true}, "http://example.com/a%2fb%3a", "http://example.com/a%2Fb%3A"},
	{"percent non-ASCII hex upper", canon.Options{PercentEncoding: true}, "http://example.com/%c3%bc", "http://example.com/%C3%BC"},
	{"percent in query", canon.Options{PercentEncoding: true}, "http://example.com/?q=%7e%2b%3d", "http://example.com/?q=~%2B%3D"},
	{"percent stray in query", canon.Options{PercentEncoding: true}, "http://example.com/?q=100%&r=%zz", "http://example.com/?q=100%25&r=%25zz"},
	{"percent stray before escape", canon.Options{PercentEncoding: true}, "http://example.com/?%%341", "http://example.com/?%2541"},
	{"percent plus kept", canon.Options{PercentEncoding: true}, "http://example.com/?q=a+b", "http://example.com/?q=a+b"},
	{"percent decoded slash becomes trailing", canon.Options{PercentEncoding: true}, "http://example.com/a%2F", "http://example.com/a%2F"},
	{"percent off keeps case", canon.Options{}, "http://example.com/%7e", "http://example.com/%7e"},
	// PercentEncoding writes the query's non-ASCII bytes as UTF-8 escapes,
	// as the path's always are (RFC 3986 §2.1, RFC 3987 §3.1).
	{"percent raw non-ASCII query", canon.Options{PercentEncoding: true}, "http://example.com/?x=⚑", "http://example.com/?x=%E2%9A%91"},
	{"percent encoded non-ASCII query", canon.Options{PercentEncoding: true}, "http://example.com/?x=%e2%9a%91", "http://example.com/?x=%E2%9A%91"},
	{"percent raw invalid UTF-8 query", canon.Options{PercentEncoding: true}, "http://example.com/?x=\xff", "http://example.com/?x=%FF"},
	{"percent mixed query", canon.Options{PercentEncoding: true}, "http://example.com/?q=Stra\u00dfe&r=%7e", "http://example.com/?q=Stra%C3%9Fe&r=~"},
	{"percent off keeps raw query", canon.Options{}, "http://example.com/?x=⚑", "http://example.com/?x=⚑"},

	// DotSegments: RFC 3986 §5.2.4.
	{"dots", canon.Options{DotSegments: true}, "http://example.com/a/./b/../c", "http://example.com/a/c"},
	{"dots final dot-dot", canon.Options{DotSegments: true}, "http://example.com/a/b/..", "http://example.com/a"},
	{"dots final dot", canon.Options{DotSegments: true}, "http://example.com/a/.", "http://example.com/a"},
	{"dots above root", canon.Options{DotSegments: true}, "http://example.com/../../a", "http://example.com/a"},
	{"dots only", canon.Options{DotSegments: true}, "http://example.com/./..", "http://example.com"},
	{"dots before query", canon.Options{DotSegments: true}, "http://example.com/a/b/..?q", "http://example.com/a/?q"},
	{"dots in names kept", canon.Options{DotSegments: true}, "http://example.com/.a/..b/c.", "http://example.com/.a/..b/c."},
	{"dots empty segment", canon.Options{DotSegments: true}, "http://example.com/a//../b", "http://example.com/a/b"},
	{"dots encoded not a dot", canon.Options{DotSegments: true}, "http://example.com/a/%2e%2e/b", "http://example.com/a/%2e%2e/b"},
	{"dots encoded with percent", canon.Options{DotSegments: true, PercentEncoding: true}, "http://example.com/a/%2e%2E/b", "http://example.com/b"},
	{"dots in query kept", canon.Options{DotSegments: true}, "http://example.com/a?p=../b", "http://example.com/a?p=../b"},

	// TrailingDot: a trailing dot names the same DNS name (RFC 1034 §3.1).
	{"trailing dot", canon.Options{TrailingDot: true}, "http://example.com./a", "http://example.com/a"},
	{"trailing dots", canon.Options{TrailingDot: true}, "http://example.com../", "http://example.com"},
	{"trailing dot and port", canon.Options{TrailingDot: true}, "http://example.com.:8080/", "http://example.com:8080"},
	{"trailing dot of Unicode host", canon.Options{TrailingDot: true}, "http://Bücher.example./", "http://xn--bcher-kva.example"},
	{"trailing dot of IPv4", canon.Options{TrailingDot: true}, "http://192.0.2.1./", "http://192.0.2.1"},
	{"trailing dot IPv6 untouched", canon.Options{TrailingDot: true}, "http://[2001:DB8::1]/", "http://[2001:db8::1]"},
	{"trailing dot host list only lowercased", canon.Options{TrailingDot: true}, "x-db://H1:1,H2:", "x-db://h1:1,h2:"},
	{"trailing dot off", canon.Options{}, "http://example.com./", "http://example.com."},
	// IDNA is deprecated: hosts are ASCII under every Options, and IDNA
	// selects TrailingDot.
	{"idna is trailing dot", canon.Options{IDNA: true}, "http://Bücher.example./", "http://xn--bcher-kva.example"},

	// EmptyQuery.
	{"empty query", canon.Options{EmptyQuery: true}, "http://example.com/a?", "http://example.com/a"},
	{"empty query then slash", canon.Options{EmptyQuery: true}, "http://example.com/a/?", "http://example.com/a"},
	{"empty query with fragment", canon.Options{EmptyQuery: true}, "http://example.com/?#x", "http://example.com"},
	{"empty query keeps query", canon.Options{EmptyQuery: true}, "http://example.com/a?=", "http://example.com/a?="},

	// StripWWW.
	{"www", canon.Options{StripWWW: true}, "http://www.example.com/", "http://example.com"},
	{"www uppercase", canon.Options{StripWWW: true}, "http://WWW.Example.com/", "http://example.com"},
	{"www repeated", canon.Options{StripWWW: true}, "http://www.www.example.com/", "http://example.com"},
	{"www last label kept", canon.Options{StripWWW: true}, "http://www.com/", "http://www.com"},
	{"www2 kept", canon.Options{StripWWW: true}, "http://www2.example.com/", "http://www2.example.com"},
	{"www inner kept", canon.Options{StripWWW: true}, "http://a.www.example.com/", "http://a.www.example.com"},
	{"www with port", canon.Options{StripWWW: true}, "http://www.example.com:8080/", "http://example.com:8080"},

	// SortQuery.
	{"sort", canon.Options{SortQuery: true}, "http://example.com/?b=2&a=1", "http://example.com/?a=1&b=2"},
	{"sort by value", canon.Options{SortQuery: true}, "http://example.com/?a=2&a=1&a=10", "http://example.com/?a=1&a=10&a=2"},
	{"sort key before value", canon.Options{SortQuery: true}, "http://example.com/?ab=1&a=2", "http://example.com/?a=2&ab=1"},
	{"sort bare keys", canon.Options{SortQuery: true}, "http://example.com/?c&a=&b", "http://example.com/?a=&b&c"},
	{"sort stable for equal pairs", canon.Options{SortQuery: true}, "http://example.com/?b=1&a=&a", "http://example.com/?a=&a&b=1"},
	{"sort drops empty", canon.Options{SortQuery: true}, "http://example.com/?b=1&&a=2&", "http://example.com/?a=2&b=1"},
	{"sort only empty", canon.Options{SortQuery: true}, "http://example.com/a/?&&", "http://example.com/a"},
	{"sort keeps bare query", canon.Options{SortQuery: true}, "http://example.com/a?", "http://example.com/a?"},

	// SessionIDs.
	{"session path jsessionid", canon.Options{SessionIDs: true}, "http://example.com/a;jsessionid=ABC", "http://example.com/a"},
	{"session path jsessionid uppercase", canon.Options{SessionIDs: true}, "http://example.com/a;JSESSIONID=ABC?x=1", "http://example.com/a?x=1"},
	{"session path other params kept", canon.Options{SessionIDs: true}, "http://example.com/a;v=1;jsessionid=ABC;w=2/b", "http://example.com/a;v=1;w=2/b"},
	{"session path on directory", canon.Options{SessionIDs: true}, "http://example.com/a/;jsessionid=ABC", "http://example.com/a"},
	{"session query jsessionid", canon.Options{SessionIDs: true}, "http://example.com/a?jsessionid=ABC&x=1", "http://example.com/a?x=1"},
	{"session query phpsessid", canon.Options{SessionIDs: true}, "http://example.com/a?x=1&PHPSESSID=abc", "http://example.com/a?x=1"},
	{"session query sid", canon.Options{SessionIDs: true}, "http://example.com/?sid=1&side=2", "http://example.com/?side=2"},
	{"session query sessionid", canon.Options{SessionIDs: true}, "http://example.com/?SessionID=9&q", "http://example.com/?q"},
	{"session query aspsessionid", canon.Options{SessionIDs: true}, "http://example.com/?ASPSESSIONIDQACTDBSR=XYZ&q=1", "http://example.com/?q=1"},
	{"session query coldfusion", canon.Options{SessionIDs: true}, "http://example.com/?CFID=1&CFTOKEN=2&q=3", "http://example.com/?q=3"},
	{"session query encoded key", canon.Options{SessionIDs: true}, "http://example.com/?%73id=1&q=3", "http://example.com/?q=3"},
	{"session query all removed", canon.Options{SessionIDs: true}, "http://example.com/a/?sid=1", "http://example.com/a"},
	{"session value is not a key", canon.Options{SessionIDs: true}, "http://example.com/?q=sid", "http://example.com/?q=sid"},
	{"session off keeps ids", canon.Options{}, "http://example.com/a;jsessionid=ABC?sid=1", "http://example.com/a;jsessionid=ABC?sid=1"},

	// Strict: the archive-style set.
	{"strict awkward", canon.Strict(), "HTTP://Bücher.Example.:80/%7euser/./a/../b/?#frag", "http://xn--bcher-kva.example/~user/b"},
	{"strict keeps www and order", canon.Strict(), "http://www.example.com/?b=2&a=1&sid=3", "http://www.example.com/?b=2&a=1&sid=3"},
	{"strict dot dot to root", canon.Strict(), "http://example.com/a/..", "http://example.com"},

	// Everything at once.
	{"all", canon.Options{PercentEncoding: true, DotSegments: true, TrailingDot: true, EmptyQuery: true, StripWWW: true, SortQuery: true, SessionIDs: true},
		"http://WWW.Bücher.example/x/../%7ea;jsessionid=ABC/?sid=9&b=2&a=%7e1#f", "http://xn--bcher-kva.example/~a/?a=~1&b=2"},
	{"all session only query", canon.Options{PercentEncoding: true, DotSegments: true, TrailingDot: true, EmptyQuery: true, StripWWW: true, SortQuery: true, SessionIDs: true},
		"http://www.example.com/a/..;jsessionid=1/?jsessionid=1", "http://example.com"},
}

func TestOptionsCanonicalize(t *testing.T) {
	for _, tt := range optionsTests {
		t.Run(tt.name, func(t *testing.T) {
			assertCanonical(t, tt.opts.Canonicalize, tt.in, tt.want)
		})
	}
}

// TestOptionsErrors: every Options has Canonicalize's errors, and
// TrailingDot can empty a host.
func TestOptionsErrors(t *testing.T) {
	dot := canon.Options{TrailingDot: true}
	tests := []struct {
		name string
		opts canon.Options
		in   string
		want error // nil: a parse error, matching no sentinel
	}{
		{"relative", canon.Strict(), "/a/b", canon.ErrNotAbsolute},
		{"host only dots", dot, "http://./a", canon.ErrNotAbsolute},
		{"host two dots", dot, "http://..:8080/", canon.ErrNotAbsolute},
		{"host only dots, deprecated IDNA", canon.Options{IDNA: true}, "http://./a", canon.ErrNotAbsolute},
		{"empty A-label", canon.Strict(), "https://xn--/", canon.ErrInvalidHost},
		{"invalid punycode", canon.Strict(), "http://xn--a.example/", canon.ErrInvalidHost},
		{"port out of range", canon.Strict(), "http://example.com:65536/", canon.ErrInvalidPort},
		{"unparsable", canon.Strict(), "http://example.com/%zz", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.opts.Canonicalize(tt.in)
			require.Error(t, err, "%+v.Canonicalize(%q) = %q", tt.opts, tt.in, got)
			assertError(t, err, tt.in, tt.want)
		})
	}
}
