package canon_test

import (
	"errors"
	"testing"

	"github.com/linkrot/relink/canon"
)

func TestSURT(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"brief example", "http://www.Example.com/a/b?x=1", "com,example)/a/b?x=1"},
		{"no path", "https://example.com", "com,example)/"},
		{"root slash", "http://example.com/", "com,example)/"},
		{"scheme dropped", "https://example.com/a", "com,example)/a"},
		{"ftp scheme dropped", "ftp://example.com/a", "com,example)/a"},
		{"subdomain", "http://news.bbc.co.uk/x.html", "uk,co,bbc,news)/x.html"},
		{"www dropped", "http://www.example.com/", "com,example)/"},
		{"www only label kept", "http://www.com/", "com,www)/"},
		{"www2 kept", "http://www2.example.com/", "com,example,www2)/"},
		{"port kept", "http://example.com:8080/a", "com,example:8080)/a"},
		{"default port dropped", "http://example.com:80/a", "com,example)/a"},
		{"https default port dropped", "https://example.com:443/a", "com,example)/a"},
		{"https on port 80 kept", "https://example.com:80/a", "com,example:80)/a"},
		{"userinfo dropped", "http://user:pw@example.com/a", "com,example)/a"},
		{"fragment dropped", "http://example.com/a#b", "com,example)/a"},
		{"trailing slash dropped", "http://example.com/a/", "com,example)/a"},
		{"trailing slash before query kept", "http://example.com/a/?q=1", "com,example)/a/?q=1"},
		{"path lowercased", "http://example.com/A/B.HTML", "com,example)/a/b.html"},
		{"query lowercased", "http://example.com/?Q=ABC", "com,example)/?q=abc"},
		{"escape lowercased", "http://example.com/a%2Fb", "com,example)/a%2fb"},
		{"query sorted", "http://example.com/?b=2&a=1", "com,example)/?a=1&b=2"},
		{"empty query dropped", "http://example.com/a?", "com,example)/a"},
		{"percent tilde", "http://example.com/%7euser", "com,example)/~user"},
		{"dot segments", "http://example.com/a/./b/../c", "com,example)/a/c"},
		{"IDNA host", "http://Bücher.example/", "example,xn--bcher-kva)/"},
		{"trailing dot", "http://example.com./a", "com,example)/a"},
		{"session ids kept", "http://example.com/a;jsessionid=ABC", "com,example)/a;jsessionid=abc"},
		{"IPv4 not reversed", "http://192.0.2.1/index.html", "192.0.2.1)/index.html"},
		{"IPv4 with port", "http://192.0.2.1:8080/", "192.0.2.1:8080)/"},
		{"IPv6 not reversed", "http://[2001:DB8::1]:8080/a", "[2001:db8::1]:8080)/a"},
		{"single label", "http://localhost/a", "localhost)/a"},
		{"raw non-ASCII query kept", "http://example.com/?q=Ü", "com,example)/?q=Ü"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := canon.SURT(tt.in)
			if err != nil {
				t.Fatalf("SURT(%q) error: %v", tt.in, err)
			}
			if got != tt.want {
				t.Errorf("SURT(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestSURTErrors(t *testing.T) {
	tests := []struct {
		name        string
		in          string
		notAbsolute bool
	}{
		{"relative", "a/b", true},
		{"hostless", "mailto:a@example.com", true},
		{"unparsable", "http://example.com/%zz", false},
		{"bad IDNA", "http://xn--a.example/", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := canon.SURT(tt.in)
			var e *canon.Error
			if !errors.As(err, &e) {
				t.Fatalf("SURT(%q) = %q, %v, want *canon.Error", tt.in, got, err)
			}
			if errors.Is(err, canon.ErrNotAbsolute) != tt.notAbsolute {
				t.Errorf("SURT(%q) error %v: errors.Is(ErrNotAbsolute) = %v, want %v", tt.in, err, !tt.notAbsolute, tt.notAbsolute)
			}
		})
	}
}
