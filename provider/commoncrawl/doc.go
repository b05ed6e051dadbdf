// Package commoncrawl reads the link records of Common Crawl's WAT files, so
// that the links of a public crawl can answer backlink queries for pages
// nobody keeps a copy of.
//
// A WAT file is a WARC file (gzip, one member per record) whose metadata
// records each hold a JSON envelope describing one record of the crawl's
// WARC file. For an HTML response the envelope holds the page's URI and
// fetch time (Envelope."WARC-Header-Metadata": "WARC-Target-URI",
// "WARC-Date"), its HTTP status, its <base href> (Envelope.
// "Payload-Metadata"."HTTP-Response-Metadata"."HTML-Metadata".Head.Base) and
// its links (...HTML-Metadata.Links: objects with a "path" such as
// "A@/href", the "url" as written in the page, and for <a> the anchor
// "text", which Common Crawl's extractor cuts at 128 characters).
//
//	f, err := os.Open("CC-MAIN-...-00000.warc.wat.gz")
//	r, err := commoncrawl.NewReader(f, nil)
//	for {
//		p, err := r.Next()
//		if err == io.EOF {
//			break
//		}
//		// p.URI links to p.Links[i].Target with anchor text p.Links[i].Anchor
//	}
//	fmt.Println(r.Stats())
//
// # Which links
//
// A Page holds the <a href> links of a page (path "A@/href") whose target,
// resolved against the page's <base href> (itself resolved against the
// page URI) or the page URI, is an http or https URI; targets are canonical
// (canon.Canonicalize) and hrefs are cleaned as a browser does (leading and
// trailing spaces and controls cut, tabs and newlines removed), as
// backlink.Outlinks does for a page in hand. Anchor text has its runs of
// white space and control characters turned into single spaces. A page
// linking twice to one target gives two Links; links to the page itself
// (a "#top" fragment) are kept.
//
// Everything else the envelope lists is dropped and counted in
// Page.Dropped and Stats.DroppedLinks: <area href> image-map links, which
// the paper does not count as links (§3.1 "Backlink validation"); IMG, IFRAME,
// EMBED, SOURCE, SCRIPT and LINK URLs and CSS url()s, which a page loads
// rather than a reader follows; FORM actions, which submit rather than link;
// data-href, onclick and background attributes, which a script or style
// interprets and which carry no anchor a reader sees; hrefs that do not
// resolve to an http(s) URI (mailto:, javascript:, tel:); and hrefs or
// anchor texts longer than MaxURLBytes or MaxAnchorBytes, which no crawler
// writes and which would only bloat a store.
//
// # Which records
//
// Only envelopes of HTML responses with a 2xx status (or none recorded)
// become Pages. The others are passed over and counted in Stats.Skipped by
// reason: records that hold no page (warcinfo records, envelopes of
// requests, of metadata records and of revisits, responses that are not
// HTML, error and redirect statuses) and malformed records (JSON that does
// not parse or is not an envelope, invalid UTF-8, a block larger than
// Options.MaxRecordBytes, a page URI that is missing or not http(s)).
// SkipError.Malformed tells the two kinds apart. A malformed record is
// never an error of the Reader, and neither is a corrupt gzip member or a
// broken record header when records follow it: the Reader reports it and
// goes on at the next gzip member that starts a record. Only a WARC stream
// that cannot be read on to its end (a file cut inside its last member)
// ends it with an error.
//
// # What the caller must do
//
// Give the Reader the WAT file as downloaded (gzip or plain); close it
// afterwards. Memory stays bounded whatever the file's size: records are
// read one at a time, each block into one buffer reused across records and
// never larger than Options.MaxRecordBytes, and only the fields listed above
// are kept. A Reader is not safe for concurrent use; Parse is.
//
// # What it does not do
//
// It does not download anything (fetch the files with any HTTP client from
// data.commoncrawl.org), read WET or WARC payloads, read the pre-2013 ARC
// based envelopes ("ARC-Header-Metadata"), follow redirects between
// captures, or deduplicate pages crawled twice: that is for the consumer,
// such as provider/store's IngestWAT.
package commoncrawl
