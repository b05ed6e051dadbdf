package dftable

import (
	"bytes"
	"context"
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/lexsig"
)

// TestReadSample reads the fixture and checks every value, and that the
// table written again from what was read is the same file byte for byte.
func TestReadSample(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "sample.df"))
	if err != nil {
		t.Fatal(err)
	}
	df, h, err := Read(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	if diff := cmp.Diff(Header{Docs: 20_000_000_000, Source: "yahoo-2009"}, h); diff != "" {
		t.Errorf("header (-want +got):\n%s", diff)
	}
	ctx := context.Background()
	want := map[string]int64{
		"archive": 9250000, "café": 31000000, "digital": 412000000, "lexical": 2100000, "library": 0,
		"memento": 340000, "signature": 9800000, "wayback": 1200000, "zürich": 88000000, "中文": 540000000,
		"unknown": 0,
	}
	for term, n := range want {
		if got, err := df.DocFreq(ctx, term); err != nil || got != n {
			t.Errorf("DocFreq(%q) = %d, %v, want %d", term, got, err, n)
		}
	}
	if got, err := df.Docs(ctx); err != nil || got != h.Docs {
		t.Errorf("Docs = %d, %v, want %d", got, err, h.Docs)
	}
	if df.Len() != 9 {
		t.Errorf("Len = %d, want 9 (the zero is not kept)", df.Len())
	}

	rd, err := NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Write(&out, rd.Header(), rows(rd, t)); err != nil {
		t.Fatalf("Write: %v", err)
	}
	if diff := cmp.Diff(string(data), out.String()); diff != "" {
		t.Errorf("table written again (-want +got):\n%s", diff)
	}
}

// rows yields the rows of rd, failing t on an error.
func rows(rd *Reader, t testing.TB) func(yield func(string, int64) bool) {
	return func(yield func(string, int64) bool) {
		for {
			term, n, err := rd.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				t.Fatalf("Next: %v", err)
			}
			if !yield(term, n) {
				return
			}
		}
	}
}

// TestReadErrors checks that every rule of the format is enforced, with the
// line at fault.
func TestReadErrors(t *testing.T) {
	const head = "relink-df/1\t100\tsrc\n"
	tests := []struct {
		name    string
		in      string
		line    int
		wantErr error
	}{
		{"empty input", "", 1, ErrHeader},
		{"no header", "apple\t1\n", 1, ErrHeader},
		{"wrong version", "relink-df/2\t100\tsrc\n", 1, ErrHeader},
		{"header without source field", "relink-df/1\t100\n", 1, ErrHeader},
		{"header with extra field", "relink-df/1\t100\tsrc\tmore\n", 1, ErrHeader},
		{"zero docs", "relink-df/1\t0\tsrc\n", 1, ErrNumber},
		{"negative docs", "relink-df/1\t-5\tsrc\n", 1, ErrNumber},
		{"docs with leading zero", "relink-df/1\t0100\tsrc\n", 1, ErrNumber},
		{"docs overflow", "relink-df/1\t9223372036854775808\tsrc\n", 1, ErrNumber},
		{"header without newline", "relink-df/1\t100\tsrc", 1, ErrSyntax},
		{"header with CRLF", "relink-df/1\t100\tsrc\r\n", 1, ErrTerm},
		{"source with control character", "relink-df/1\t100\ts\x01rc\n", 1, ErrTerm},
		{"source invalid UTF-8", "relink-df/1\t100\ts\xffrc\n", 1, ErrTerm},
		{"blank line", head + "\n", 2, ErrSyntax},
		{"no tab", head + "apple 1\n", 2, ErrSyntax},
		{"two tabs", head + "apple\t1\t2\n", 2, ErrSyntax},
		{"empty term", head + "\t1\n", 2, ErrTerm},
		{"uppercase term", head + "Apple\t1\n", 2, ErrTerm},
		{"invalid UTF-8 term", head + "app\xc3le\t1\n", 2, ErrTerm},
		{"term with carriage return", head + "apple\t1\r\n", 2, ErrNumber},
		{"term with control character", head + "ap\x7fple\t1\n", 2, ErrTerm},
		{"empty number", head + "apple\t\n", 2, ErrNumber},
		{"negative number", head + "apple\t-1\n", 2, ErrNumber},
		{"plus sign", head + "apple\t+1\n", 2, ErrNumber},
		{"leading zero", head + "apple\t01\n", 2, ErrNumber},
		{"spaces around number", head + "apple\t 1\n", 2, ErrNumber},
		{"number overflow", head + "apple\t99999999999999999999\n", 2, ErrNumber},
		{"unsorted", head + "banana\t1\napple\t2\n", 3, ErrOrder},
		{"duplicate", head + "apple\t1\napple\t2\n", 3, ErrOrder},
		{"last line without newline", head + "apple\t1\nbanana\t2", 3, ErrSyntax},
		{"line too long", head + strings.Repeat("a", MaxLineBytes) + "\t1\n", 2, ErrLineTooLong},
		{"comment", head + "# note\n", 2, ErrSyntax},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Read(strings.NewReader(tc.in))
			var le *LineError
			if !errors.Is(err, tc.wantErr) || !errors.As(err, &le) || le.Line != tc.line {
				t.Errorf("Read(%q) = %v, want a *LineError for line %d wrapping %v", tc.in, err, tc.line, tc.wantErr)
			}
		})
	}
}

// TestReaderSticky checks that Next repeats its error.
func TestReaderSticky(t *testing.T) {
	rd, err := NewReader(strings.NewReader("relink-df/1\t10\t\nb\t1\na\t2\nc\t3\n"))
	if err != nil {
		t.Fatalf("NewReader: %v", err)
	}
	if term, n, err := rd.Next(); err != nil || term != "b" || n != 1 {
		t.Fatalf("Next = %q, %d, %v, want \"b\", 1", term, n, err)
	}
	for i := range 2 {
		if _, _, err := rd.Next(); !errors.Is(err, ErrOrder) {
			t.Errorf("Next %d after an unsorted line = %v, want ErrOrder", i+1, err)
		}
	}
}

// TestLineLimit checks the longest line accepted.
func TestLineLimit(t *testing.T) {
	term := strings.Repeat("a", MaxLineBytes-2)
	in := "relink-df/1\t10\tsrc\n" + term + "\t7\n"
	df, _, err := Read(strings.NewReader(in))
	if err != nil {
		t.Fatalf("Read of a %d-byte line: %v", MaxLineBytes, err)
	}
	if n, _ := df.DocFreq(context.Background(), term); n != 7 {
		t.Errorf("DocFreq of the long term = %d, want 7", n)
	}
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{Docs: 10, Source: "src"})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(term, 7); err != nil {
		t.Errorf("Write of a %d-byte line: %v", MaxLineBytes, err)
	}
	if err := w.Write(term+"b", 10); !errors.Is(err, ErrLineTooLong) {
		t.Errorf("Write of a %d-byte line = %v, want ErrLineTooLong", MaxLineBytes+2, err)
	}
}

// TestWriterErrors checks that the Writer refuses what a Reader would, and
// goes on after refusing a line.
func TestWriterErrors(t *testing.T) {
	if _, err := NewWriter(io.Discard, Header{Docs: 0, Source: "s"}); !errors.Is(err, ErrHeader) || !errors.Is(err, ErrNumber) {
		t.Errorf("NewWriter with zero |D| = %v, want ErrHeader and ErrNumber", err)
	}
	if _, err := NewWriter(io.Discard, Header{Docs: 1, Source: "a\tb"}); !errors.Is(err, ErrTerm) {
		t.Errorf("NewWriter with a tab in the source = %v, want ErrTerm", err)
	}
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{Docs: 50, Source: ""})
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		name    string
		term    string
		df      int64
		wantErr error
	}{
		{"first", "beta", 1, nil},
		{"same term", "beta", 2, ErrOrder},
		{"earlier term", "alpha", 2, ErrOrder},
		{"uppercase", "Gamma", 2, ErrTerm},
		{"empty", "", 2, ErrTerm},
		{"newline in term", "gam\nma", 2, ErrTerm},
		{"negative", "gamma", -1, ErrNumber},
		{"after refusals", "gamma", 0, nil},
	}
	for _, s := range steps {
		err := w.Write(s.term, s.df)
		if !errors.Is(err, s.wantErr) {
			t.Errorf("%s: Write(%q, %d) = %v, want %v", s.name, s.term, s.df, err, s.wantErr)
		}
		var le *LineError
		if s.wantErr != nil && (!errors.As(err, &le) || le.Line != 3) {
			t.Errorf("%s: Write(%q, %d) = %v, want a *LineError for line 3", s.name, s.term, s.df, err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("relink-df/1\t50\t\nbeta\t1\ngamma\t0\n", buf.String()); diff != "" {
		t.Errorf("table (-want +got):\n%s", diff)
	}
}

// failWriter fails every write.
type failWriter struct{}

var errDisk = errors.New("disk full")

func (failWriter) Write([]byte) (int, error) { return 0, errDisk }

// TestWriteIOError checks that an error of the underlying writer comes out.
func TestWriteIOError(t *testing.T) {
	err := Write(failWriter{}, Header{Docs: 1}, maps.All(map[string]int64{"a": 1}))
	if !errors.Is(err, errDisk) {
		t.Errorf("Write to a failing writer = %v, want %v", err, errDisk)
	}
}

// TestWriteDF checks writing a table from a DF and a term list, with a
// BatchDF and a plain DF.
func TestWriteDF(t *testing.T) {
	mem := lexsig.NewMemDF()
	mem.SetDocs(1000)
	mem.Set("lexical", 30)
	mem.Set("signature", 12)
	plain := lexsig.DFFunc(func(ctx context.Context, term string) (int64, error) {
		return mem.DocFreq(ctx, term)
	}).WithDocs(1000)
	errEngine := errors.New("engine down")
	failing := lexsig.DFFunc(func(ctx context.Context, term string) (int64, error) {
		if term == "signature" {
			return 0, errEngine
		}
		return 1, nil
	}).WithDocs(1000)
	negative := lexsig.DFFunc(func(ctx context.Context, term string) (int64, error) { return -1, nil }).WithDocs(10)
	noDocs := lexsig.DFFunc(func(ctx context.Context, term string) (int64, error) { return 1, nil }).WithDocs(0)

	const want = "relink-df/1\t1000\tmem\nlexical\t30\nrare\t0\nsignature\t12\n"
	tests := []struct {
		name    string
		df      lexsig.DF
		terms   []string
		want    string
		wantErr error
	}{
		{"BatchDF", mem, []string{"signature", "rare", "lexical", "signature"}, want, nil},
		{"plain DF", plain, []string{"signature", "rare", "lexical", "rare"}, want, nil},
		{"no terms", mem, nil, "relink-df/1\t1000\tmem\n", nil},
		{"failed lookup", failing, []string{"lexical", "signature"}, "", errEngine},
		{"uppercase term", mem, []string{"Lexical"}, "", ErrTerm},
		{"negative answer", negative, []string{"lexical"}, "", ErrNumber},
		{"zero |D|", noDocs, []string{"lexical"}, "", ErrHeader},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			terms := slices.Clone(tc.terms)
			err := WriteDF(context.Background(), &buf, tc.df, "mem", tc.terms)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("WriteDF(%q) = %v, want %v", tc.terms, err, tc.wantErr)
			}
			if diff := cmp.Diff(tc.want, buf.String()); diff != "" {
				t.Errorf("WriteDF(%q) wrote (-want +got):\n%s", tc.terms, diff)
			}
			if diff := cmp.Diff(terms, tc.terms); diff != "" {
				t.Errorf("WriteDF changed its terms argument (-want +got):\n%s", diff)
			}
		})
	}
}
