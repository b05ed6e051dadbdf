package corpus

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"regexp"
	"strings"
)

// ManifestVersion is the manifest format version this package reads.
const ManifestVersion = 1

// Root styles: how a file's path below a root's directory becomes its URL.
const (
	// StyleFile keeps the path, except that a file named index.html stands
	// for its directory: a/index.html is served as a/.
	StyleFile = "file"
	// StyleDir serves every .html file as a directory, as Sphinx's
	// "dirhtml" builder does: a/b.html is served as a/b/ and a/index.html as
	// a/.
	StyleDir = "dir"
)

// ErrManifest is wrapped by every error about a manifest's content.
var ErrManifest = errors.New("corpus: invalid manifest")

// Manifest describes a corpus: sites whose pages are HTML files on the local
// disk, each with the URL it has on the real web. The format is version 1
// of the benchmark's manifest (BENCHMARK.md, "Manifest format").
type Manifest struct {
	// Name names the corpus, for example "dev".
	Name string `json:"name"`
	// Version is the format version; it must be ManifestVersion.
	Version int `json:"version"`
	// Sites are the corpus's sites.
	Sites []Site `json:"sites"`
}

// Site is one web site of a manifest.
type Site struct {
	// Name names the site; it is recorded with each of its pages.
	Name string `json:"name"`
	// Package is the Debian package the files come from, for the record.
	Package string `json:"package,omitempty"`
	// Roots are the directories that hold the site's files.
	Roots []Root `json:"roots"`
	// Aliases are URL prefixes that stand for the first root's base: an href
	// that starts with an alias resolves as if it started with that base.
	Aliases []string `json:"aliases,omitempty"`
	// Include, when not empty, is an RE2 regular expression that a file's
	// path relative to its root's directory must match for the file to be
	// a page.
	Include string `json:"include,omitempty"`
	// Exclude, when not empty, is an RE2 regular expression; a file whose
	// path relative to its root's directory matches it is not a page.
	Exclude string `json:"exclude,omitempty"`
}

// Root maps one local directory to a URL prefix.
type Root struct {
	// Dir is the local directory.
	Dir string `json:"dir"`
	// Base is the absolute http or https URL of Dir; it ends with a slash.
	Base string `json:"base"`
	// Style is StyleFile or StyleDir; empty means StyleFile.
	Style string `json:"style,omitempty"`
}

// ReadManifest reads and validates the manifest in the named file.
func ReadManifest(path string) (*Manifest, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, err := ParseManifest(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// ParseManifest decodes a JSON manifest from r and validates it. Unknown
// fields are an error, so that a misspelt key does not silently change a
// corpus.
func ParseManifest(r io.Reader) (*Manifest, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrManifest, err)
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return &m, nil
}

// Validate reports the first problem that keeps m from being ingested: a
// wrong version, a site without roots, a root without a directory, a base
// that is not an absolute http(s) URL ending in a slash, an unknown style, an
// alias that is not an absolute URL, or a regular expression that does not
// compile. It does not touch the file system. The error wraps ErrManifest.
func (m *Manifest) Validate() error {
	if m.Version != ManifestVersion {
		return fmt.Errorf("%w: version %d, want %d", ErrManifest, m.Version, ManifestVersion)
	}
	if len(m.Sites) == 0 {
		return fmt.Errorf("%w: no sites", ErrManifest)
	}
	for i, s := range m.Sites {
		where := fmt.Sprintf("site %d (%q)", i, s.Name)
		if len(s.Roots) == 0 {
			return fmt.Errorf("%w: %s has no roots", ErrManifest, where)
		}
		for j, r := range s.Roots {
			if r.Dir == "" {
				return fmt.Errorf("%w: %s root %d has no dir", ErrManifest, where, j)
			}
			if err := checkPrefix(r.Base); err != nil {
				return fmt.Errorf("%w: %s root %d base: %v", ErrManifest, where, j, err)
			}
			if r.Style != "" && r.Style != StyleFile && r.Style != StyleDir {
				return fmt.Errorf("%w: %s root %d: unknown style %q", ErrManifest, where, j, r.Style)
			}
		}
		for _, a := range s.Aliases {
			if err := checkPrefix(a); err != nil {
				return fmt.Errorf("%w: %s alias: %v", ErrManifest, where, err)
			}
		}
		for _, re := range []string{s.Include, s.Exclude} {
			if _, err := regexp.Compile(re); err != nil {
				return fmt.Errorf("%w: %s: %v", ErrManifest, where, err)
			}
		}
	}
	return nil
}

// checkPrefix checks that p is an absolute http(s) URL ending in a slash,
// without query or fragment.
func checkPrefix(p string) error {
	u, err := url.Parse(p)
	if err != nil {
		return err
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%q is not an absolute http(s) URL", p)
	}
	if !strings.HasSuffix(p, "/") || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("%q must end with a slash and have no query or fragment", p)
	}
	return nil
}
