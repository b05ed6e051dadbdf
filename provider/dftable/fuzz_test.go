package dftable

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// FuzzRead checks that any bytes give a table or a *LineError, never a
// panic, and that a table that reads without error is written again byte
// for byte as it was (there is one way to write each table), and reads
// into a MemDF with the same values.
func FuzzRead(f *testing.F) {
	sample, err := os.ReadFile(filepath.Join("testdata", "sample.df"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(sample)
	f.Add([]byte("relink-df/1\t1\t\n"))
	f.Add([]byte("relink-df/1\t100\tsrc\nb\t1\na\t2\n"))
	f.Add([]byte("relink-df/1\t100\tsrc\napple\t01\n"))
	f.Add([]byte("relink-df/1\t100\tsrc\nÄpple\t1\n"))
	f.Add([]byte("relink-df/1\t100\tsrc\r\nx\t1"))
	f.Add([]byte{})

	f.Fuzz(func(t *testing.T, data []byte) {
		rd, err := NewReader(bytes.NewReader(data))
		if err != nil {
			checkLineError(t, err, data)
			return
		}
		type row struct {
			term string
			n    int64
		}
		var got []row
		for {
			term, n, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				checkLineError(t, err, data)
				return
			}
			if n < 0 || term == "" {
				t.Fatalf("Next = %q, %d: an empty term or negative number was accepted", term, n)
			}
			got = append(got, row{term, n})
		}
		var out bytes.Buffer
		w, err := NewWriter(&out, rd.Header())
		if err != nil {
			t.Fatalf("NewWriter(%+v) of a header that was read: %v", rd.Header(), err)
		}
		for _, r := range got {
			if err := w.Write(r.term, r.n); err != nil {
				t.Fatalf("Write(%q, %d) of a row that was read: %v", r.term, r.n, err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(data, out.Bytes()) {
			t.Fatalf("table written again differs:\nread  %q\nwrote %q", data, out.Bytes())
		}
		df, h, err := Read(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("Read after NewReader and Next succeeded: %v", err)
		}
		if h != rd.Header() {
			t.Fatalf("Read header %+v, NewReader header %+v", h, rd.Header())
		}
		for _, r := range got {
			if n, err := df.DocFreq(t.Context(), r.term); err != nil || n != r.n {
				t.Fatalf("DocFreq(%q) = %d, %v, want %d", r.term, n, err, r.n)
			}
		}
	})
}

// checkLineError fails t unless err is a *LineError naming a line of data
// (or the one just past its end) and wrapping a sentinel of the package.
func checkLineError(t *testing.T, err error, data []byte) {
	t.Helper()
	var le *LineError
	if !errors.As(err, &le) {
		t.Fatalf("error %v is not a *LineError", err)
	}
	lines := bytes.Count(data, []byte("\n"))
	if le.Line < 1 || le.Line > lines+1 {
		t.Fatalf("error %v names line %d of a %d-line input", err, le.Line, lines)
	}
	for _, s := range []error{ErrHeader, ErrSyntax, ErrLineTooLong, ErrTerm, ErrNumber, ErrOrder} {
		if errors.Is(err, s) {
			return
		}
	}
	t.Fatalf("error %v wraps none of the package's sentinels", err)
}
