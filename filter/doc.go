// Package filter decides which fetched backlink pages are fit to draw a
// lexical signature from, with the five filters of Ware, Klein and Nelson
// (§3.1 "Pre-processing Link Neighborhood"), and defines the Page and
// Fetcher that carry those pages.
//
// # The filters
//
// [Filters.Check] applies them in the order of [Order] and records the first
// that catches a page as a [Rejection], with the filter's name and a reason:
//
//  1. HTTP status ([FilterStatus]): the final status, after redirects, must
//     be 2xx (§3.1 "HTTP Status Codes").
//  2. File type ([FilterFileType]): the page must be HTML. The Content-Type
//     header is trusted when it says something; otherwise the bytes are
//     sniffed as the Unix file command would ([Sniff], [SniffBody]); a
//     text/html header over obviously binary bytes does not make them HTML
//     (§3.1 "Filetypes", Table "Filetypes").
//  3. Size ([FilterSize]): at least [DefaultMinTokens] (50) words after
//     rendering (§3.1 "File size").
//  4. Language ([FilterLanguage]): English, or "English*", a page where
//     English comes close to the top guess, judged by whatlanggo over
//     windows of the first 50 KB of the rendered text ([DetectLanguage];
//     §3.1 "Language").
//  5. Soft 404 ([FilterSoft404]): the page is not what the server shows for
//     any URI, judged by fetching two probe URIs ([ProbeURIs]) and comparing
//     words with [Jaccard] ([IsSoft404]; §3.1 "Soft 404s").
//
// The paper's Table "Pre-Processing Results" lists the filters as Content
// Language, File Type, File Size, HTTP Result code, Soft 404s, and credits a
// page caught by several filters to the first. Check applies status and file
// type first because size and language need a successful HTML body to
// render, and soft 404 last because it alone costs fetches. The pages kept
// are the same in any order; only the credit for a page that several filters
// would reject differs, so Check's counts per filter are not directly
// comparable with the paper's table.
//
// # Language identification
//
// The paper used the Lingua Perl module and its likelihood per language;
// relink uses github.com/abadojack/whatlanggo, which gives only a top
// language and a saturating, on long texts unreliable, confidence.
// [DetectLanguage] documents how windows, votes and a pairwise English test
// stand in for Lingua's likelihoods. Measured on Debian's documentation
// packages (/usr/share/doc/*/html, 4,654 distinct English pages of at least
// 50 words), it rejects 9 English pages (0.2%): tables of contents, module
// indexes and code listings that whatlanggo confidently calls French. Voting
// on the top guess alone rejected 44. The Debian Administrator's Handbook
// translations are partial (whatlanggo finds the expected language in 79% of
// the German windows, 70% of the French and 79% of the Spanish, the rest
// being untranslated English); of their pages it rejects 69% of the German,
// 56% of the French and 70% of the Spanish, and keeps as English* 6%. On
// prose samples in German, French, Spanish, Russian and Japanese
// (testdata/language) it rejects every one. Texts of fewer than 20 words are
// never rejected for language. It took 8 ms per page on average, and at most
// about 13 ms for English and 23 ms for other languages (50 KB of text).
//
// # What the caller must do
//
// Fetch the page (with retries: the paper made five attempts) and pass it
// with its final URI, status, header and body. Give [Filters] a Fetcher for
// the soft 404 probes; without one that filter is skipped. Keep the
// rejections: they are the audit trail of the pipeline, not errors.
//
// # What it does not do
//
// It fetches nothing but the soft 404 probes, and retries nothing. It does
// not render HTML itself: package backlink does, with the same word rule
// ([github.com/linkrot/relink/internal/words]) the rest of relink uses. It
// does not cache verdicts, follow redirects or check robots.txt; a Fetcher
// can do those. It does not look for the link to the missing page, which is
// backlink's job.
package filter
