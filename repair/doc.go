// Package repair holds the parts of relink fix, the bulk repair of dead
// links, that do not talk to the network: reading the dead links a link
// checker found, writing the answers in the formats people feed to other
// tools, and rewriting the links of a documentation tree.
//
// # Inputs
//
// ReadInput (or an Input with its limits) reads the dead links of a plain
// list of URLs, of "source<TAB>dead" pairs, or of the reports of three
// link checkers: lychee's JSON (--format json, every version's shape),
// muffet's JSON (--format=json) and linkchecker's CSV (-o csv). Each
// DeadLink carries the dead URL, the pages that link to it (its known
// backlinks) and what the checker said. Links come in the order of their
// first occurrence, and the occurrences of one URL are merged.
//
//	links, err := repair.ReadInput(os.Stdin, repair.FormatAuto)
//	var ie *repair.InputError
//	if errors.As(err, &ie) {
//		// ie.Line and ie.Column say where the input went wrong
//	}
//
// # Outputs
//
// A Result is the answer for one dead URL, the JSON object of relink fix
// -o jsonl (INTERFACES.md). WriteJSONL, WriteCSV (spreadsheet formulas
// neutralized) and WriteMarkdown write a list of them; Redirects writes
// the moved URLs of one's own site as an nginx map, an Apache RewriteMap
// or a Netlify/Cloudflare _redirects file. Write picks one by its -o
// name.
//
// # Rewriting
//
// A Rewriter replaces dead links by their new homes in the Markdown,
// HTML and reStructuredText files under a directory, given a map of dead
// URL to new URI (Moves makes it from results at a threshold). It
// matches links under canon.Canonicalize, resolves relative links
// against the URL the directory is served at, keeps fragments and the
// relative form, and changes no other byte. By default it only reports
// and writes a unified diff; with Write it replaces each changed file
// atomically. It follows no symbolic link, and skips binary and large
// files.
//
// # What the caller must do
//
// Decide the verdicts: this package does not fetch, search or judge a
// page. Pass Redirects the site whose server will serve the map, and a
// Rewriter the URL its directory is served at (or none, and relative
// links are left alone). Check Report.Err after Rewriter.Dir: one file's
// failure does not stop the others.
//
// # What it does not do
//
// No network I/O, no environment or flags. It does not parse Markdown,
// HTML or reST fully: it finds link targets with scanners that prefer
// missing a link to changing text that is no link (see Rewriter for what
// each finds). It does not follow redirect chains in a repair map, and it
// writes no file outside the directory it is given.
package repair
