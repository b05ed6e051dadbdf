// Package cache keeps the answers of slow remote services in a directory
// on disk, shared by runs and by processes, for a limited time: pages
// fetched, search answers, backlink lists, and which hosts answer a
// random path with a plain error (their soft-404 verdict). It is relink
// fix's and relink find's persistent cache, so that a second run over
// the same dead links sends few requests.
//
//	d := cache.New(dir, 30*24*time.Hour)
//	pages := &cache.Fetcher{Dir: d, Fetcher: liveWeb}       // a filter.Fetcher
//	search := &cache.Searcher{Dir: d, Name: "brave", Searcher: brave} // a lexsig.Searcher
//
// # Contract
//
// A Dir holds records, each a key, a value and the time it was stored.
// Get returns a record younger than the Dir's MaxAge; an older one is a
// miss (and is replaced by the next Put). A record file that is cut
// short, altered, or not a record at all is a miss too, counted in
// Stats.Corrupt: a damaged cache costs requests, never a panic or a
// wrong answer.
//
// A Dir is safe for concurrent use, and several processes may use one
// directory at once: each record is a file of its own, written to a
// temporary name and renamed into place, so a reader sees a whole old
// record or a whole new one. Two writers of one key leave one of their
// records. Files are not synced to disk: after a power failure a record
// may be damaged, which reads as a miss.
//
// The decorators (Fetcher, Searcher, Backlinks, Probes, Robots, DF) keep
// their records in any Records: a Dir, or a table that workers on many
// machines share (provider/pgqueue's Records, which relink worker uses).
// They keep only answers that would be the same if asked again: a page
// with a status worth a retry (408, 429, 5xx), an error of any kind, or a
// page body above Fetcher.MaxBody is passed on and not kept. A failure to
// write a record is counted (a Dir's Stats.WriteErrors) and otherwise
// ignored: the answer is still returned.
//
// # What the caller must do
//
// Name each service's answers apart (Searcher.Name, Backlinks.Name,
// Fetcher.Kind): a cache shared by two engines must not answer one's
// query with the other's results. Choose MaxAge for how fast the answers
// go stale; DefaultMaxAge is 30 days. Open the directory with Open,
// which refuses one that another user could write (a record planted
// there would be an answer), rather than New, which trusts it. Call
// Prune to remove expired records and bound the directory's size
// (relink does on start, with -cache-max).
//
// A kept page that came from a URI that is not http(s) is never used.
//
// # What it does not do
//
// It does not remove expired files or bound the size by itself (Prune
// does, when called), join concurrent misses of one key into one
// request, or keep anything in memory. relink fix keeps document
// frequencies in their own cache, provider/dfcache, whose values are kept
// by source name and batched in one file; DF is for records shared by
// workers.
package cache
