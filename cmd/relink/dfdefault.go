package main

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"fmt"

	"github.com/linkrot/relink/lexsig"
	"github.com/linkrot/relink/provider/dftable"
)

// defaultDFGzip is the document frequency table relink ships: -df table
// without -df-table reads it. It was made by relink df from the store of
// lab/corpus/large.json, the largest corpus of the lab (53,936 pages of
// 71 documentation sites from Debian's packages, 61,469 terms in at least
// 5 pages; 283 kB), with
//
//	relink df -store large.db -min-docs 5 -source lab/corpus/large.json | gzip -9 -n
//
// A term it lacks counts as in no page: rarer than any it holds.
//
//go:embed default-df.tsv.gz
var defaultDFGzip []byte

// defaultDFName names the shipped table where a source is named.
const defaultDFName = "relink's default table"

// defaultDF returns the shipped table and its header.
func defaultDF() (*lexsig.MemDF, dftable.Header, error) {
	zr, err := gzip.NewReader(bytes.NewReader(defaultDFGzip))
	if err != nil {
		return nil, dftable.Header{}, fmt.Errorf("%s: %w", defaultDFName, err)
	}
	defer zr.Close()
	mem, h, err := dftable.Read(zr)
	if err != nil {
		return nil, dftable.Header{}, fmt.Errorf("%s: %w", defaultDFName, err)
	}
	return mem, h, nil
}
