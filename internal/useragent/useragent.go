// Package useragent names relink to the servers it talks to: the one
// User-Agent that provider/web sends for pages and provider/internal/apiclient
// sends to web APIs, so that neither has to import the other for it.
//
// It holds constants only and imports nothing.
package useragent

const (
	// Version is the relink release Default names: the newest version
	// of the CHANGELOG (TestVersionIsTheChangelogs).
	Version = "1.0.0"
	// Default is the User-Agent relink sends unless a program sets its own:
	// the product token "relink" (the token robots.txt groups match), its
	// version, and where to read about it.
	Default = "relink/" + Version + " (+https://github.com/linkrot/relink)"
)
