package dftable_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/provider/dftable"
)

// vocab is a Vocabulary of fixed rows.
type vocab struct {
	docs  int64
	terms []string
	freqs []int64
	err   error // returned after the rows
}

func (v vocab) Docs(context.Context) (int64, error) { return v.docs, nil }

func (v vocab) Terms(_ context.Context, fn func(string, int64) error) error {
	for i, t := range v.terms {
		if err := fn(t, v.freqs[i]); err != nil {
			return err
		}
	}
	return v.err
}

// TestWriteVocabulary checks the table of a whole vocabulary: rare terms
// and terms the format refuses left out and counted, and the errors of a
// vocabulary out of order, of a failing one and of one with no documents.
func TestWriteVocabulary(t *testing.T) {
	ctx := context.Background()
	v := vocab{docs: 10, terms: []string{"alpha", "beta", "Gamma", "delta", "tab\tterm"}, freqs: []int64{3, 1, 4, 2, 5}}
	var buf bytes.Buffer
	st, err := dftable.WriteVocabulary(ctx, &buf, v, "test", 2)
	if err != nil {
		t.Fatal(err)
	}
	want := "relink-df/1\t10\ttest\nalpha\t3\ndelta\t2\n"
	if diff := cmp.Diff(want, buf.String()); diff != "" {
		t.Errorf("table (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(dftable.VocabularyStats{Docs: 10, Terms: 2, Rare: 1, Unfit: 2}, st); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}

	failing := errors.New("disk on fire")
	for _, tt := range []struct {
		name string
		v    vocab
		want error
	}{
		{"out of order", vocab{docs: 5, terms: []string{"b", "a"}, freqs: []int64{1, 1}}, dftable.ErrOrder},
		{"repeated", vocab{docs: 5, terms: []string{"a", "a"}, freqs: []int64{1, 1}}, dftable.ErrOrder},
		{"failing", vocab{docs: 5, terms: []string{"a"}, freqs: []int64{1}, err: failing}, failing},
		{"no documents", vocab{}, dftable.ErrHeader},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := dftable.WriteVocabulary(ctx, &bytes.Buffer{}, tt.v, "test", 1); !errors.Is(err, tt.want) {
				t.Errorf("error %v, want %v", err, tt.want)
			}
		})
	}
}

// ExampleWriteVocabulary writes the table of a whole collection (a store
// is a Vocabulary), leaving out the terms of a single document.
func ExampleWriteVocabulary() {
	v := vocab{docs: 4532, terms: []string{"aardvark", "abandon", "zygote"}, freqs: []int64{3, 12, 1}}
	st, err := dftable.WriteVocabulary(context.Background(), os.Stdout, v, "store:dev.db", 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d terms written, %d rare left out\n", st.Terms, st.Rare)
	// Output:
	// relink-df/1	4532	store:dev.db
	// aardvark	3
	// abandon	12
	// 2 terms written, 1 rare left out
}
