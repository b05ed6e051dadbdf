package backlink_test

import (
	"testing"

	"github.com/linkrot/relink/backlink"
)

func TestTitle(t *testing.T) {
	tests := []struct {
		name, page, want string
	}{
		{name: "plain", page: "<html><head><title>Key Serialization</title></head><body>x</body></html>", want: "Key Serialization"},
		{name: "white space collapsed", page: "<title>\n  Django 1.3.6\trelease notes \n</title>", want: "Django 1.3.6 release notes"},
		{name: "entities decoded", page: "<title>Q&amp;A &mdash; FAQ</title>", want: "Q&A — FAQ"},
		{name: "first title only", page: "<title>One</title><title>Two</title>", want: "One"},
		{name: "none", page: "<html><head></head><body><h1>Heading</h1></body></html>", want: ""},
		{name: "title in body ignored", page: "<body><svg><title>icon</title></svg></body>", want: ""},
		{name: "unclosed", page: "<title>Cut off", want: "Cut off"},
		{name: "empty input", page: "", want: ""},
		{name: "binary", page: "\x00\x01\xff\xfe<title>\xff</title>", want: "\ufffd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := backlink.Title([]byte(tt.page)); got != tt.want {
				t.Errorf("Title(%q) = %q, want %q", tt.page, got, tt.want)
			}
		})
	}
}
