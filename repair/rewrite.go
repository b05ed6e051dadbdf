package repair

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/linkrot/relink/internal/atomicfile"
)

// DefaultMaxSize is the size above which the Rewriter skips a file: no
// hand-written page or document comes near 8 MiB, and a generated one is
// better rewritten at its source.
const DefaultMaxSize = 8 << 20

// ErrBase is returned by Rewriter.Dir for a Base that is not an absolute
// URL.
var ErrBase = errors.New("repair: base is not an absolute URL")

// Rewriter replaces dead links with their new homes in the Markdown, HTML
// and reStructuredText files under a directory (relink fix -rewrite DIR).
// The zero Rewriter changes nothing; set Moves.
//
// A link matches a dead URL when the two are equal under
// canon.Canonicalize (scheme and host case, default ports and one
// trailing slash do not count, so "https://Old.example/a/" matches
// "https://old.example/a"); a relative link is first resolved against the
// URL of its file (Base and the file's path, or an HTML file's <base
// href>). The new link keeps the old one's #fragment, byte for byte, and
// is written relative, in the old link's style ("/p", "../p" or
// "//host/p"), when the old one was relative and the new URI is on the
// same site (scheme, host and port) as the file; otherwise it is written
// whole. New links are written in ASCII (the host in IDNA, other bytes
// percent-encoded), escaped as each syntax needs, so a file keeps its
// encoding. Nothing but the link targets changes: every other byte, line
// endings included, stays. Each link is rewritten once: a new URI that is
// itself a dead URL of Moves is not followed.
//
// What counts as a link. In Markdown (CommonMark, with GitHub's HTML):
// inline links and images, [t](dest "title") and [t](<dest>); link
// reference definitions, [x]: dest, with the destination on the label's
// line; autolinks, <https://...>; and the href and src of raw HTML tags.
// Code spans, fenced and indented code blocks, HTML comments, and the
// Markdown inside HTML blocks are not links; bare URLs in text are not
// rewritten. In HTML: the href and src attributes of every element but
// <base>, quoted or not, outside comments and the raw text of script,
// style, textarea and title. In reStructuredText: embedded URIs,
// `text <URI>`_ and `text <URI>`__; hyperlink targets whose URI is on their
// line, .. _name: URI, .. __: URI and __ URI; the image and figure
// directives' URI and :target:; and standalone http, https and ftp URIs in
// text. Literal blocks, doctest blocks, comments, inline literals, roles
// (:ref:`t <x>` names no URI) and the content of code, raw and math
// directives are not links, and a target whose URI goes on over the next
// line is left alone. In a reST grid or simple table, or a section
// title, a link is replaced only by one of the same width (the table's
// columns and the title's underline are measured in characters); any
// other is reported as skipped, to be edited by hand.
//
// Safety. The Rewriter follows no symbolic link under the directory (the
// directory itself may be one): a link to a file or a directory, inside
// the tree or out of it, is reported and left alone, and a file replaced
// by a link between the walk and its reading is refused. It skips, and
// reports, files over MaxSize and binary files (holding a NUL byte; so
// UTF-16 text too), and it does not enter .git, .hg or .svn directories.
// With Write set, each changed file is written to a temporary file in its
// own directory, with the original's mode (setuid, setgid and sticky bits
// included), owner and group, synced, and renamed over the original, and
// the directory is synced, so that a run killed at any moment leaves every
// file whole, old or new (a temporary file, ".NAME.relink-*", may be left
// behind). A file whose owner or group the Rewriter cannot give the new
// file (run by a user other than root, on another user's file) is left as
// it was, and reported. A file that someone else changed while it was
// being rewritten (its identity, size, modification time, mode, owner or
// content differ from when it was read, compared just before the rename)
// is not overwritten; a write that comes between that comparison and the
// end of the rename is reported (atomicfile.ErrWrittenDuring), and one by
// a writer that opened the file before the rename and writes after it
// goes to the old file unseen (no lock is taken). A hard link to the old
// file keeps the old content. Only http and https URIs are written: a
// dead link whose new URI has another scheme (javascript:, data:, file:)
// is reported and left alone.
type Rewriter struct {
	// Moves maps a dead URL to its new URI (see Moves, which makes it
	// from results at a threshold). Both must be absolute URLs.
	Moves map[string]string
	// Base is the URL at which the directory's files are served, such as
	// "https://example.org/docs/" for DIR/guide/a.md served at
	// https://example.org/docs/guide/a.md; a missing final slash is
	// added. Relative links are resolved against it, and only then
	// compared. Empty: relative links are left alone.
	Base string
	// MaxSize is the largest file the Rewriter reads; 0 means
	// DefaultMaxSize.
	MaxSize int64
	// Write applies the changes to the files. When false, Dir only
	// reports them (and writes Diff).
	Write bool
	// Diff, when not nil, receives a unified diff of every change, file
	// by file in the walk's order, that git apply and patch -p1 accept.
	Diff io.Writer

	// hook, when set by a test, is called at each stage of a file's
	// write ("written": the new bytes are in the temporary file, not
	// synced; "rename": after the last check, just before the rename) and
	// fails the write with its error.
	hook func(stage, path string) error
}

// Report says what a Rewriter did to a directory.
type Report struct {
	// Files lists, in the walk's (lexical) order, every file with a dead
	// link, and every file or link the Rewriter skipped or failed on.
	Files []FileReport
	// Scanned counts the Markdown, HTML and reST files read (those whose
	// write failed included).
	Scanned int
}

// FileReport is what happened to one file.
type FileReport struct {
	// Path is the file's path relative to the directory, with slashes.
	Path string
	// Syntax is the file's syntax, or 0 for a symbolic link or a file
	// the Rewriter does not read.
	Syntax Syntax
	// Changes are the dead links found, in the file's order.
	Changes []Change
	// Skipped says why the file was not read ("symbolic link, not
	// followed", "binary", "too large: ..."), or is "".
	Skipped string
	// Written is set when the changed file was written.
	Written bool
	// Err is what went wrong reading or writing the file, or nil. The
	// file is then as it was, unless Written is set too
	// (atomicfile.ErrWrittenDuring: someone wrote to it as it was
	// replaced). atomicfile.ErrChanged says someone else changed it since
	// it was read, atomicfile.ErrOwner that its owner could not be kept.
	Err error
}

// replaced returns the number of links replaced in the file (or, without
// Write, that would be): none when the write failed.
func (f *FileReport) replaced() int {
	if f.Err != nil && !f.Written {
		return 0
	}
	n := 0
	for _, c := range f.Changes {
		if c.Skip == "" {
			n++
		}
	}
	return n
}

// Changed returns the number of links replaced (or, without Write, that
// would be) in the report; the links of a file whose write failed are not
// counted.
func (r *Report) Changed() int {
	n := 0
	for i := range r.Files {
		n += r.Files[i].replaced()
	}
	return n
}

// Summary counts what a Report says happened, for a person or, as JSON,
// a program.
type Summary struct {
	// Scanned counts the files read.
	Scanned int `json:"scanned"`
	// Files counts the files changed (written, or without Write, that
	// would be), and Links the links replaced in them.
	Files int `json:"files"`
	Links int `json:"links"`
	// LinksLeft counts the dead links found and left alone, each with
	// its Change.Skip, to be edited by hand.
	LinksLeft int `json:"links_left"`
	// LeftAlone lists, in the walk's order, the files not read (Skipped)
	// and those not written or written wrongly (Err), with why.
	LeftAlone []LeftAlone `json:"left_alone"`
}

// LeftAlone is a file the Rewriter skipped or failed on, and why.
type LeftAlone struct {
	Path string `json:"path"`
	Why  string `json:"why"`
}

// Summary counts the report.
func (r *Report) Summary() Summary {
	s := Summary{Scanned: r.Scanned, LeftAlone: []LeftAlone{}}
	for i := range r.Files {
		f := &r.Files[i]
		if n := f.replaced(); n > 0 {
			s.Files++
			s.Links += n
		}
		for _, c := range f.Changes {
			if c.Skip != "" {
				s.LinksLeft++
			}
		}
		switch {
		case f.Skipped != "":
			s.LeftAlone = append(s.LeftAlone, LeftAlone{Path: f.Path, Why: f.Skipped})
		case f.Err != nil:
			s.LeftAlone = append(s.LeftAlone, LeftAlone{Path: f.Path, Why: f.Err.Error()})
		}
	}
	return s
}

// Err returns the errors of the report's files, joined, or nil.
func (r *Report) Err() error {
	var errs []error
	for _, f := range r.Files {
		if f.Err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", f.Path, f.Err))
		}
	}
	return errors.Join(errs...)
}

// Dir rewrites the files under dir (see Rewriter) and reports what it
// did. Its error is for what stops the whole run: an invalid Moves
// (ErrMoves) or Base (ErrBase), a dir that is not a directory, or Diff's
// write error. What goes wrong with one file is in its FileReport (and
// Report.Err), and the walk goes on.
func (rw *Rewriter) Dir(dir string) (*Report, error) {
	moves, err := newMoveTable(rw.Moves)
	if err != nil {
		return nil, err
	}
	base := ""
	if rw.Base != "" {
		b, err := url.Parse(strings.TrimSpace(rw.Base))
		if err != nil || !b.IsAbs() || b.Host == "" {
			return nil, fmt.Errorf("%w: %q", ErrBase, rw.Base)
		}
		b.RawQuery, b.Fragment, b.RawFragment = "", "", ""
		base = b.String()
		if !strings.HasSuffix(base, "/") {
			base += "/"
		}
	}
	// The directory itself may be a symbolic link, named by the caller;
	// nothing under it is followed.
	dir, err = filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	info, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("repair: %s is not a directory", dir)
	}
	rep := &Report{}
	var diffErr error
	walkErr := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		if err != nil {
			rep.Files = append(rep.Files, FileReport{Path: rel, Err: err})
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			rep.Files = append(rep.Files, FileReport{Path: rel, Skipped: "symbolic link, not followed"})
			return nil
		case d.IsDir():
			if path != dir && (d.Name() == ".git" || d.Name() == ".hg" || d.Name() == ".svn") {
				return fs.SkipDir
			}
			return nil
		}
		syn, ok := SyntaxOf(d.Name())
		if !ok {
			return nil
		}
		if !d.Type().IsRegular() {
			rep.Files = append(rep.Files, FileReport{Path: rel, Skipped: "not a regular file"})
			return nil
		}
		fr := rw.file(path, rel, syn, base, moves)
		if fr.read {
			rep.Scanned++
		}
		if fr.Skipped != "" || fr.Err != nil || len(fr.Changes) > 0 {
			rep.Files = append(rep.Files, fr.FileReport)
		}
		if fr.old != nil && rw.Diff != nil {
			if err := writeDiff(rw.Diff, rel, fr.old, fr.new); err != nil {
				diffErr = err
				return err
			}
		}
		return nil
	})
	if diffErr != nil {
		return rep, diffErr
	}
	return rep, walkErr
}

// fileResult is a FileReport with the bytes before and after, for the
// diff (nil when the file did not change).
type fileResult struct {
	FileReport
	old, new []byte
	read     bool // the file was read whole and scanned
}

// file rewrites one regular file.
func (rw *Rewriter) file(path, rel string, syn Syntax, base string, moves moveTable) fileResult {
	fr := fileResult{FileReport: FileReport{Path: rel, Syntax: syn}}
	max := rw.MaxSize
	if max <= 0 {
		max = DefaultMaxSize
	}
	before, err := os.Lstat(path)
	if err != nil {
		fr.Err = err
		return fr
	}
	if !before.Mode().IsRegular() {
		fr.Skipped = "not a regular file"
		return fr
	}
	if before.Size() > max {
		fr.Skipped = fmt.Sprintf("too large: %d bytes, over the limit of %d", before.Size(), max)
		return fr
	}
	src, snap, err := atomicfile.ReadFile(path, max)
	if err != nil {
		fr.Err = err
		return fr
	}
	if int64(len(src)) > max {
		fr.Skipped = fmt.Sprintf("too large: over the limit of %d bytes", max)
		return fr
	}
	if bytes.IndexByte(src, 0) >= 0 {
		fr.Skipped = "binary (it holds a NUL byte)"
		return fr
	}
	fr.read = true
	doc := ""
	if base != "" {
		doc = base + (&url.URL{Path: rel}).EscapedPath()
	}
	out, changes := rewrite(src, syn, doc, moves)
	fr.Changes = changes
	if bytes.Equal(out, src) {
		return fr
	}
	fr.old, fr.new = src, out
	if rw.Write {
		err := atomicfile.Replace(snap, out, func(s atomicfile.Stage) error {
			switch s {
			case atomicfile.Written:
				return rw.stage("written", path)
			case atomicfile.Renaming:
				return rw.stage("rename", path)
			}
			return nil
		})
		fr.Err = err
		fr.Written = err == nil || errors.Is(err, atomicfile.ErrWrittenDuring)
	}
	return fr
}

func (rw *Rewriter) stage(stage, path string) error {
	if rw.hook != nil {
		return rw.hook(stage, path)
	}
	return nil
}

// Rewrite replaces the dead links of one file's bytes, src, of syntax
// syn, served at doc (an absolute URL, or "" to leave relative links
// alone), as Dir does for each file; it reads and writes nothing. It
// returns the new bytes (src itself when nothing changed) and the dead
// links found. Its error is ErrMoves for an invalid Moves.
func (rw *Rewriter) Rewrite(src []byte, syn Syntax, doc string) ([]byte, []Change, error) {
	moves, err := newMoveTable(rw.Moves)
	if err != nil {
		return nil, nil, err
	}
	out, changes := rewrite(src, syn, doc, moves)
	return out, changes, nil
}
