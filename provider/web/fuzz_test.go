package web

import (
	"testing"

	"github.com/temoto/robotstxt"
)

// FuzzRobots checks that any robots.txt body parses without panic, and
// that the lines kept after a parse failure always parse (RFC 9309 §2.2:
// use what can be parsed).
func FuzzRobots(f *testing.F) {
	for _, s := range []string{
		"User-agent: *\nDisallow: /private\n",
		"Disallow: /\nUser-agent: *\nAllow: /\n",
		"User-agent: *\nCrawl-delay: soon\n",
		"User-agent: relink\nDisallow: /*.pdf$\nCrawl-delay: 2.5\n",
		"<html><body>not robots</body></html>",
		"\xff\xfe\x00garbage:::\r\n\r\nuser-agent:\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if data := parseRobots(body); data != nil {
			data.FindGroup("relink").Test("/some/path?q=1")
		}
		if _, err := robotstxt.FromBytes(usableRobotsLines(body)); err != nil {
			t.Errorf("usableRobotsLines(%q) does not parse: %v", body, err)
		}
	})
}
