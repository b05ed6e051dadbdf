package dftable

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/linkrot/relink/lexsig"
)

// Magic is the first field of a table's header line: the format's name and
// version.
const Magic = "relink-df/1"

// MaxLineBytes is the longest line, its newline not counted, a table may
// have. It bounds the memory a Reader uses whatever its input.
const MaxLineBytes = 64 << 10

// Errors of reading and writing tables, matchable with errors.Is. They reach
// the caller wrapped in a *LineError naming the line at fault.
var (
	// ErrHeader means the first line is missing or is not a header: Magic,
	// a positive |D| and a source name, separated by tabs.
	ErrHeader = errors.New("dftable: bad header")
	// ErrSyntax means a line is not a term and a number separated by one
	// tab, or does not end with a newline.
	ErrSyntax = errors.New("dftable: bad line")
	// ErrLineTooLong means a line is longer than MaxLineBytes.
	ErrLineTooLong = errors.New("dftable: line too long")
	// ErrTerm means a term (or the source name) is empty where it may
	// not be, is not valid UTF-8, holds a control character, or, for a
	// term, is not lowercase as lexsig.Normalize makes it.
	ErrTerm = errors.New("dftable: bad term")
	// ErrNumber means a number is not written in canonical decimal (digits
	// only, no sign, no leading zeros) or does not fit in an int64, or |D|
	// is not positive.
	ErrNumber = errors.New("dftable: bad number")
	// ErrOrder means a term does not sort strictly after the one before it
	// (in byte order), as when a term is repeated.
	ErrOrder = errors.New("dftable: terms out of order")
)

// LineError records what is wrong at a line of a table, counted from 1 (the
// header). errors.Is and errors.As see the cause through it.
type LineError struct {
	// Line is the number of the line at fault.
	Line int
	// Err is one of the package's sentinel errors, often wrapped with
	// detail, or an error of the underlying reader or writer.
	Err error
}

// Error returns "dftable: line N: ERR".
func (e *LineError) Error() string {
	msg := e.Err.Error()
	msg, _ = strings.CutPrefix(msg, "dftable: ")
	return fmt.Sprintf("dftable: line %d: %s", e.Line, msg)
}

// Unwrap returns e.Err.
func (e *LineError) Unwrap() error { return e.Err }

// Header is the first line of a table.
type Header struct {
	// Docs is |D|, the number of documents the frequencies were counted
	// in (or, for a search engine, an estimate of its index size, as the
	// paper took from worldwidewebsize.com, §2.1 "TFIDF"). It is positive.
	Docs int64
	// Source names where the frequencies come from, as in dfcache source
	// names: "yahoo-2009", "store:dev.db". It may be empty; it may not hold
	// a tab, a newline or another control character.
	Source string
}

// parseHeader parses the header line, without its newline.
func parseHeader(line string) (Header, error) {
	fields := strings.Split(line, "\t")
	if len(fields) != 3 || fields[0] != Magic {
		return Header{}, fmt.Errorf("%w: want %q, |D| and a source name separated by tabs", ErrHeader, Magic)
	}
	docs, err := parseNumber(fields[1])
	if err != nil {
		return Header{}, fmt.Errorf("%w: |D|: %w", ErrHeader, err)
	}
	h := Header{Docs: docs, Source: fields[2]}
	if err := h.check(); err != nil {
		return Header{}, fmt.Errorf("%w: %w", ErrHeader, err)
	}
	return h, nil
}

// check reports what makes h unfit for a header.
func (h Header) check() error {
	if h.Docs <= 0 {
		return fmt.Errorf("%w: |D| is %d, want a positive number", ErrNumber, h.Docs)
	}
	if err := checkText(h.Source); err != nil {
		return fmt.Errorf("source name: %w", err)
	}
	return nil
}

// format returns the header line, newline included.
func (h Header) format() string {
	return Magic + "\t" + strconv.FormatInt(h.Docs, 10) + "\t" + h.Source + "\n"
}

// parseRow parses a term line, without its newline.
func parseRow(line string) (string, int64, error) {
	term, num, ok := strings.Cut(line, "\t")
	if !ok || strings.Contains(num, "\t") {
		return "", 0, fmt.Errorf("%w: want a term and a number separated by one tab", ErrSyntax)
	}
	if err := checkTerm(term); err != nil {
		return "", 0, err
	}
	n, err := parseNumber(num)
	if err != nil {
		return "", 0, fmt.Errorf("document frequency of %q: %w", term, err)
	}
	return term, n, nil
}

// checkTerm reports what makes term unfit for a table.
func checkTerm(term string) error {
	if term == "" {
		return fmt.Errorf("%w: empty term", ErrTerm)
	}
	if err := checkText(term); err != nil {
		return err
	}
	if lexsig.Normalize(term) != term {
		return fmt.Errorf("%w: %q is not lowercase", ErrTerm, term)
	}
	return nil
}

// checkText reports whether s is valid UTF-8 without control characters
// (which include tab, newline and carriage return).
func checkText(s string) error {
	if !utf8.ValidString(s) {
		return fmt.Errorf("%w: %q is not valid UTF-8", ErrTerm, s)
	}
	if i := strings.IndexFunc(s, unicode.IsControl); i >= 0 {
		return fmt.Errorf("%w: %q holds the control character %U", ErrTerm, s, []rune(s[i:])[0])
	}
	return nil
}

// parseNumber parses a non-negative int64 in canonical decimal.
func parseNumber(s string) (int64, error) {
	if s == "" {
		return 0, fmt.Errorf("%w: empty", ErrNumber)
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("%w: %q is not a decimal number", ErrNumber, s)
		}
	}
	if len(s) > 1 && s[0] == '0' {
		return 0, fmt.Errorf("%w: %q has a leading zero", ErrNumber, s)
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: %q is out of range", ErrNumber, s)
	}
	return n, nil
}
