// Package ingest is the part of relink's stores that does not depend on
// the database: it turns a corpus manifest, a directory, WARC files and
// WAT files into the rows a store writes (pages with their compressed
// bodies, links and index text, redirects, skips with their reasons, and
// the progress through each input that lets an interrupted ingest
// resume), and turns stored rows back into the answers of Fetch. Package
// provider/store (SQLite) and package provider/postgres share it, so that
// both stores hold the same pages, links and words for the same input;
// only their writers (a Sink) and their queries differ.
//
// Run reads and parses on worker goroutines and hands the items to the
// Sink in input order, one batch at a time. The package does not open,
// lock or query a database, and it keeps no state between ingests: the
// caller passes the outcomes an earlier ingest recorded (the prior map),
// and the Sink records new ones.
package ingest
