// Package dftable reads and writes tables of document frequencies: plain
// text files that hold the DF of each term in a collection and the
// collection's size |D|, so that the DF values of an experiment (a
// search engine's hit counts, as the paper took from Yahoo!, §2.1 "TFIDF",
// or the counts of a local corpus) can be kept, shared, diffed and loaded
// into a lexsig.DF.
//
// # Format
//
// A table is UTF-8 text of lines each ending with a newline ("\n", no
// carriage return), the last one included. The first line is the header:
// the word relink-df/1 (Magic), |D| and the name of the source, separated by
// tabs. Every other line is a term and its document frequency, separated by
// one tab:
//
//	relink-df/1	20000000000	yahoo-2009
//	archive	9250000
//	lexical	2100000
//	signature	9800000
//
// Numbers are written in canonical decimal: digits only, no sign, no leading
// zero; |D| is positive, a frequency at least 0. A frequency may exceed |D|,
// as a search engine's estimates sometimes do. Terms are not empty, are
// valid UTF-8 without control characters, are lowercase as lexsig.Normalize
// makes them, and come in strictly increasing byte order, so a term appears
// once and two tables can be merged or compared line by line. There are no
// comments and no blank lines. A line is at most MaxLineBytes long.
//
// Because there is one way to write each table, a table read and written
// again is byte for byte the same file.
//
// # Reading and writing
//
// Read loads a table into a lexsig.MemDF; Reader streams one line at a time
// for tables too large for memory. Reading is strict: the first line that
// breaks a rule stops it with a *LineError naming the line (errors.Is tells
// which rule: ErrHeader, ErrSyntax, ErrLineTooLong, ErrTerm, ErrNumber,
// ErrOrder). Write and Writer write a table from sorted terms and check the
// same rules; WriteDF writes one from any lexsig.DF and a list of terms,
// sorting them itself; WriteVocabulary writes the whole vocabulary of a
// collection that can list it (a Vocabulary: provider/store and
// provider/postgres are), which relink df does.
//
// # What it does not do
//
// It does not count frequencies (lexsig.MemDF.AddDocument and package store
// do), normalize or stem terms, compress files, or merge tables.
package dftable
