package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/linkrot/relink/internal/atomicfile"
	"github.com/linkrot/relink/provider/dftable"
)

const dfHelp = `
usage: relink df -store FILE|URL [-out FILE] [-min-docs 1] [-source NAME]

Df writes the document frequencies of a whole store as a table: for every
term of the store's full-text index, the number of its pages that hold it,
with the number of pages |D| in the header. find and fix read such a table
with -df table -df-table FILE, in place of a store or a search engine's
hit counts; -df table alone reads the table relink ships, made with
-min-docs 5 from the store of the lab's largest corpus
(lab/corpus/large.json: 53,936 pages of 71 documentation sites).

The table is provider/dftable's format, relink-df/1: UTF-8 text, a header
line of the word relink-df/1, |D| and the source's name separated by tabs,
then one line a term, the term (lowercase, as relink compares words) and
its document frequency separated by a tab, the terms in byte order:

    relink-df/1	4532	store:dev.db
    aardvark	3
    abandon	12

Terms rarer than -min-docs pages are left out (a term missing from a table
counts as in no page), which makes a table of a large store much smaller.
The table is written to -out, replaced whole once complete, or to standard
output; a summary goes to standard error. The store is opened read-only.
`

// dfTableConfig is the df subcommand's command line.
type dfTableConfig struct {
	storePath, out, source string
	minDocs                int
}

func dfFlags() (*flag.FlagSet, *dfTableConfig) {
	var c dfTableConfig
	fs := newFlagSet("df")
	fs.StringVar(&c.storePath, "store", "", "store `FILE` or postgres:// URL to count in, opened read-only (required)")
	fs.StringVar(&c.out, "out", "", "write the table to `FILE` (default standard output)")
	fs.IntVar(&c.minDocs, "min-docs", 1, "leave out the terms of fewer `pages`")
	fs.StringVar(&c.source, "source", "", "the source `name` in the header (default store:NAME, NAME the store's file name or database)")
	return fs, &c
}

func runDF(ctx context.Context, e *env, args []string) error {
	fs, c := dfFlags()
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %s", quoteArg(fs.Arg(0)))
	}
	if c.storePath == "" {
		return usagef("need -store")
	}
	if err := checkBounds(bound{flag: "min-docs", value: c.minDocs, min: 1, meaning: "the fewest pages a term written is in"}); err != nil {
		return err
	}
	if c.source == "" {
		c.source = "store:" + storeLabel(c.storePath)
	}
	s, err := openStore(ctx, c.storePath)
	if err != nil {
		return err
	}
	defer s.Close()
	v, ok := s.(dftable.Vocabulary)
	if !ok {
		return errors.New("the store cannot list its terms") // every openedStore can
	}
	var st dftable.VocabularyStats
	write := func(w io.Writer) error {
		st, err = dftable.WriteVocabulary(ctx, w, v, c.source, int64(c.minDocs))
		return err
	}
	dest := "standard output"
	if c.out == "" {
		err = write(e.stdout)
	} else {
		dest = c.out
		err = atomicfile.Write(c.out, 0o644, write)
	}
	if err != nil {
		if errors.Is(err, dftable.ErrHeader) && st.Docs == 0 {
			return fmt.Errorf("%s holds no pages", storeName(c.storePath))
		}
		return err
	}
	fmt.Fprintf(e.stderr, "df: %d terms of %d pages to %s (%d rarer than %d pages left out, %d the format refuses)\n",
		st.Terms, st.Docs, dest, st.Rare, c.minDocs, st.Unfit)
	return nil
}
