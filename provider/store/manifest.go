package store

import (
	"io"

	"github.com/linkrot/relink/provider/internal/ingest"
)

// ManifestVersion is the manifest format version this package reads.
const ManifestVersion = ingest.ManifestVersion

// Root styles: how a file's path below a root's directory becomes its URL.
const (
	// StyleFile keeps the path, except that a file named index.html stands
	// for its directory: a/index.html is served as a/.
	StyleFile = ingest.StyleFile
	// StyleDir serves every .html file as a directory, as Sphinx's
	// "dirhtml" builder does: a/b.html is served as a/b/ and a/index.html as
	// a/.
	StyleDir = ingest.StyleDir
)

// ErrManifest is wrapped by every error about a manifest's content.
var ErrManifest = ingest.ErrManifest

// Manifest describes a corpus: sites whose pages are HTML files on the local
// disk, each with the URL it has on the real web. The format is version 1
// of the benchmark's manifest (BENCHMARK.md, "Manifest format"): a Name, a
// Version (ManifestVersion) and Sites. Its Validate method reports the
// first problem that keeps it from being ingested.
type Manifest = ingest.Manifest

// Site is one web site of a manifest: its Name, the Package its files
// come from, its Roots, the Aliases (URL prefixes that stand for the first
// root's base), and the Include and Exclude expressions a file's path must
// pass.
type Site = ingest.Site

// Root maps one local directory (Dir) to a URL prefix (Base, an absolute
// http(s) URL ending with a slash), in a Style: StyleFile (empty) or
// StyleDir.
type Root = ingest.Root

// ReadManifest reads and validates the manifest in the named file.
func ReadManifest(path string) (*Manifest, error) { return ingest.ReadManifest(path) }

// ParseManifest decodes a JSON manifest from r and validates it. Unknown
// fields are an error, so that a misspelt key does not silently change a
// corpus.
func ParseManifest(r io.Reader) (*Manifest, error) { return ingest.ParseManifest(r) }
