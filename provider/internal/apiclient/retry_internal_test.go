package apiclient

import (
	"net/url"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"
)

func TestDelay(t *testing.T) {
	c := &Client{Transport: Transport{Backoff: time.Second, MaxBackoff: 5 * time.Second}}
	tests := []struct {
		name      string
		n         int
		wait      time.Duration
		least     time.Duration
		mostDelay time.Duration
	}{
		{"first backoff", 1, noWait, 500 * time.Millisecond, time.Second},
		{"doubles", 2, noWait, time.Second, 2 * time.Second},
		{"capped", 10, noWait, 2500 * time.Millisecond, 5 * time.Second},
		{"Retry-After replaces backoff", 3, 3 * time.Second, 3 * time.Second, 3 * time.Second},
		{"Retry-After zero", 3, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 50 {
				if got := c.delay(tt.n, tt.wait); got < tt.least || got > tt.mostDelay {
					t.Fatalf("delay(%d, %v) = %v, want between %v and %v", tt.n, tt.wait, got, tt.least, tt.mostDelay)
				}
			}
		})
	}
}

func TestSnippet(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"empty", "", ""},
		{"plain", "not json", "not json"},
		{"white space collapsed", "  a\n\n\tb  ", "a b"},
		{"control and invalid bytes", "a\x00b\xffc", "a\ufffdb\ufffdc"},
		{"cut", strings.Repeat("é", SnippetLen+5), strings.Repeat("é", SnippetLen) + "…"},
		{"trailing space is not cut", strings.Repeat("a", SnippetLen) + "   ", strings.Repeat("a", SnippetLen)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := snippet([]byte(tt.body)); got != tt.want {
				t.Errorf("snippet(%q) = %q, want %q", tt.body, got, tt.want)
			}
		})
	}
}

// FuzzSnippet checks that a snippet of any bytes is short, valid UTF-8 on
// one line, with no control characters.
func FuzzSnippet(f *testing.F) {
	for _, s := range []string{"", "<html>", "a\x00\xff\n\r\t", strings.Repeat("x", 400)} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		s := snippet(body)
		if !utf8.ValidString(s) {
			t.Fatalf("snippet(%q) = %q, not valid UTF-8", body, s)
		}
		if n := utf8.RuneCountInString(s); n > SnippetLen+1 {
			t.Fatalf("snippet(%q) has %d runes", body, n)
		}
		for _, r := range s {
			if r != ' ' && !unicode.IsPrint(r) && r != utf8.RuneError {
				t.Fatalf("snippet(%q) = %q holds %U", body, s, r)
			}
		}
	})
}

func TestRedactorURL(t *testing.T) {
	r := &redactor{names: []string{"key", "api_key"}, values: []string{"abc/def"}}
	r.values = append(r.values, "abc%2Fdef")
	tests := []struct {
		name, in, want string
	}{
		{"query key", "https://x.test/s?q=a&key=zzz", "https://x.test/s?key=REDACTED&q=a"},
		{"two keys", "https://x.test/s?api_key=1&key=2&key=3", "https://x.test/s?api_key=REDACTED&key=REDACTED&key=REDACTED"},
		{"no secrets", "https://x.test/s?q=a+b", "https://x.test/s?q=a+b"},
		{"escaped value in path", "https://x.test/abc%2Fdef/search", "https://x.test/REDACTED/search"},
		{"user info dropped", "https://u:p@x.test/", "https://x.test/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := parseURL(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.url(u); got != tt.want {
				t.Errorf("url(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func parseURL(s string) (*url.URL, error) { return url.Parse(s) }
