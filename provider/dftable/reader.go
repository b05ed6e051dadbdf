package dftable

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/linkrot/relink/lexsig"
)

// Reader reads a table line by line, checking each line as it goes. It
// holds one line in memory at a time (at most MaxLineBytes).
type Reader struct {
	br     *bufio.Reader
	header Header
	line   int    // the number of the last line read
	prev   string // the last term read
	err    error  // sticky
}

// NewReader reads and checks the header line of a table from r and returns a
// Reader positioned at the first term. Errors are *LineError values for
// line 1, wrapping ErrHeader (an empty input included), or the error of r.
func NewReader(r io.Reader) (*Reader, error) {
	rd := &Reader{br: bufio.NewReaderSize(r, MaxLineBytes+1)}
	line, err := rd.readLine()
	if err == io.EOF {
		err = &LineError{Line: 1, Err: fmt.Errorf("%w: empty input", ErrHeader)}
	}
	if err != nil {
		return nil, err
	}
	if rd.header, err = parseHeader(line); err != nil {
		return nil, &LineError{Line: 1, Err: err}
	}
	return rd, nil
}

// Header returns the table's header.
func (r *Reader) Header() Header { return r.header }

// Next returns the next term and its document frequency. At the end of the
// table it returns io.EOF. Any other error is a *LineError naming the line
// at fault, and Next returns it again on every later call.
func (r *Reader) Next() (term string, df int64, err error) {
	if r.err != nil {
		return "", 0, r.err
	}
	defer func() { r.err = err }()
	line, err := r.readLine()
	if err != nil {
		return "", 0, err
	}
	term, df, err = parseRow(line)
	if err != nil {
		return "", 0, &LineError{Line: r.line, Err: err}
	}
	if r.prev != "" && term <= r.prev {
		return "", 0, &LineError{Line: r.line, Err: fmt.Errorf("%w: %q after %q", ErrOrder, term, r.prev)}
	}
	r.prev = term
	return term, df, nil
}

// readLine returns the next line without its newline, io.EOF at the end of
// the input, or a *LineError.
func (r *Reader) readLine() (string, error) {
	b, err := r.br.ReadSlice('\n')
	switch {
	case err == nil:
		r.line++
		return string(b[:len(b)-1]), nil
	case errors.Is(err, bufio.ErrBufferFull):
		return "", &LineError{Line: r.line + 1, Err: fmt.Errorf("%w: more than %d bytes", ErrLineTooLong, MaxLineBytes)}
	case err == io.EOF && len(b) == 0:
		return "", io.EOF
	case err == io.EOF:
		return "", &LineError{Line: r.line + 1, Err: fmt.Errorf("%w: no newline at the end of the input", ErrSyntax)}
	}
	return "", &LineError{Line: r.line + 1, Err: err}
}

// Read reads a whole table from r into a lexsig.MemDF, whose Docs is the
// header's |D|, and returns it with the header. Terms with a document
// frequency of 0 are read and checked but not kept, since a MemDF answers
// 0 for an unknown term anyway. Errors are those of NewReader and
// Reader.Next; on error the MemDF is nil.
func Read(r io.Reader) (*lexsig.MemDF, Header, error) {
	rd, err := NewReader(r)
	if err != nil {
		return nil, Header{}, err
	}
	df := lexsig.NewMemDF()
	df.SetDocs(rd.header.Docs)
	for {
		term, n, err := rd.Next()
		if err == io.EOF {
			return df, rd.header, nil
		}
		if err != nil {
			return nil, Header{}, err
		}
		if n > 0 {
			df.Set(term, n)
		}
	}
}
