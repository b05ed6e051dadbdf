package store

import (
	"io"

	"github.com/linkrot/relink/provider/corpus"
)

// The manifest of a corpus is declared in package provider/corpus, which
// provider/postgres shares without SQLite; the names below are the same
// as corpus's, kept so that code written against this package compiles.

// ManifestVersion is corpus.ManifestVersion, the manifest format version
// this package reads.
const ManifestVersion = corpus.ManifestVersion

// Root styles, the same as corpus.StyleFile and corpus.StyleDir.
const (
	// StyleFile is corpus.StyleFile: a/index.html is served as a/.
	StyleFile = corpus.StyleFile
	// StyleDir is corpus.StyleDir: a/b.html is served as a/b/.
	StyleDir = corpus.StyleDir
)

// ErrManifest is corpus.ErrManifest, wrapped by every error about a
// manifest's content.
var ErrManifest = corpus.ErrManifest

// Manifest is corpus.Manifest: a corpus of sites whose pages are HTML
// files on the local disk, each with the URL it has on the real web.
type Manifest = corpus.Manifest

// Site is corpus.Site, one web site of a manifest.
type Site = corpus.Site

// Root is corpus.Root: one local directory mapped to a URL prefix.
type Root = corpus.Root

// ReadManifest is corpus.ReadManifest: it reads and validates the manifest
// in the named file.
func ReadManifest(path string) (*Manifest, error) { return corpus.ReadManifest(path) }

// ParseManifest is corpus.ParseManifest: it decodes a JSON manifest from r
// and validates it.
func ParseManifest(r io.Reader) (*Manifest, error) { return corpus.ParseManifest(r) }
