// Package warc reads and writes WARC files (ISO 28500, WARC/1.0 and
// WARC/1.1) and replays the HTTP responses they hold as a filter.Fetcher,
// so that a crawl on disk can stand in for the live web when relink fetches
// backlink pages (the paper, §3.1, fetched them live).
//
// # Reading and writing
//
// Reader reads records one after another from a plain or gzip file (one
// gzip member per record, or a plain WARC compressed whole); each Record
// carries its ordered Header, its byte Offset in the file and a Body
// bounded by Content-Length (or, for the records of unknown length that
// pywb's live-web recorder writes, without Content-Length or with -1, by
// the end of the gzip member or the next record). ReadResponse parses the HTTP response in a
// response record's block with net/http, and DecodeBody undoes its
// Content-Encoding with a size bound. Writer writes records, plain or
// gzip, and WriteResponse builds a response record from a status, header
// and body; tests use it to make fixture files.
//
// # Replaying
//
// Open (or NewArchive) reads WARC files once and indexes their response
// and resource records by canonical target URI (canon.Canonicalize),
// keeping the latest capture of each; a malformed record is skipped, the
// Reader resynchronized at the next record, and the skip recorded
// (Archive.Skipped). Archive.Fetch replays a capture:
// it follows redirects within the archive, undoes chunked and gzip
// codings, and answers 404 for a URI the archive does not hold.
//
// # What the caller must do
//
// Read a Record's Body before the next call to Reader.Next, which discards
// what is left of it. Keep the files given to Open in place and unchanged
// while the Archive is used, and write gzip files with one member per
// record (as Writer does) so that a replay decompresses its record alone.
// Treat the errors: malformed input gives a *FormatError with the offset
// of the record at fault (wrapping ErrTruncated when the file ends inside
// a record, and naming a Content-Length that runs into the next gzip
// member's record). Record it as a rejection and call Reader.Resync to go
// on at the next record (the next gzip member that starts one, or the next
// version line of a plain file), so that one corrupt member or record does
// not cost the rest of the file. No input makes the package panic or allocate beyond its
// bounds: WARC and HTTP headers are bounded by MaxHeaderBytes, blocks are
// streamed whatever their Content-Length, and decoded bodies are bounded by
// the limit given to DecodeBody or Archive.MaxBody.
//
// # What it does not do
//
// It does not verify WARC-Block-Digest or WARC-Payload-Digest, read ARC
// files or zstd-compressed WARCs, or serve or read CDX indexes. It does not
// resolve revisit records to the capture they refer to: the Archive skips
// them, and ReadResponse returns their HTTP headers as recorded. It does
// not reassemble segmented (continuation) records. It never touches the
// network.
package warc
