package backlink_test

import (
	"strings"
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

func TestHeading(t *testing.T) {
	tests := []struct {
		name, page, want string
	}{
		{name: "h1", page: "<title>Sourdough</title><h2>Contents</h2><h1>The <em>sourdough</em> starter</h1>", want: "The sourdough starter"},
		{name: "doxygen title", page: `<div class="headertitle"><div class="title">Eigen::FullPivLU&lt; _MatrixType &gt; Member List</div></div><h2>Members</h2>`, want: "Eigen::FullPivLU< _MatrixType > Member List"},
		{name: "block inside the title", page: `<div class="title">FullPivLU Class Reference<div class="ingroups">LU module</div></div>`, want: "FullPivLU Class Reference"},
		{name: "h2 without the others", page: "<p>x</p><h2>Evaluate An SQL Statement</h2><h2>Other</h2>", want: "Evaluate An SQL Statement"},
		{name: "h1 before the title class", page: `<h1>Page</h1><div class="title">Other</div>`, want: "Page"},
		{name: "title class before h1", page: `<div class="title">Generated</div><h1>Page</h1>`, want: "Page"},
		{name: "class word, not part", page: `<div class="headertitle">Not this</div>`, want: ""},
		{name: "none", page: "<title>T</title><p>text</p>", want: ""},
		{name: "unclosed h1", page: "<h1>Cut off", want: ""},
		{name: "unclosed h2s", page: strings.Repeat("<h2>x ", 20000), want: ""},
		{name: "empty input", page: "", want: ""},
		{name: "binary", page: "\x00\x01\xff\xfe<h1>\xff</h1>", want: "\ufffd"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := backlink.Heading([]byte(tt.page)); got != tt.want {
				t.Errorf("Heading(%q) = %q, want %q", tt.page, got, tt.want)
			}
		})
	}
}
