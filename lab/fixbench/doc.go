// Package fixbench measures relink fix end to end on a local internet: the
// experiment's moved mode served by lab/localweb, the real relink binary
// run against it with its live clients, as a user runs it against the web.
//
// From a pre-move store (the web before the move, which also serves as the
// archive) and a moved-mode store (the web after it, built by the
// experiment with draw.Moves), Run
//
//  1. draws the experiment's targets with its seed (lab/draw), and as many
//     deleted pages again from the other pages (none linking to a target),
//     which it removes from a copy of the moved-mode store
//     (store.MarkMissing);
//  2. writes a lychee JSON report of their dead links (fail_map: each
//     backlink page of the current web → the dead URLs it links to, status
//     404), sources ordered by the store's backlink rank, so that the first
//     ten sources of a dead link are the store's first ten backlinks;
//  3. serves the copy as the web and the pre-move store as the archive with
//     localweb (in process, rate limits relaxed), and runs relink fix with
//     -fetch web, a live -search engine reached at its real host through
//     -proxy with -ca, -df search (or the store's DF), -archive wayback and
//     -state (with Config.Engine SiteEngine no engine and no key: each dead
//     link's own site is the index, the hosts Config.Sitemaps chooses
//     publishing a dated sitemap; "site+ENGINE" fuses the engine's answers
//     with the site index's; Config.NoArchive leaves -archive out,
//     Config.Rate sets -rate); with Config.KillAfter it kills the run (SIGKILL) once that many
//     dead links are journaled and runs it again with the same -state,
//     checking from localweb's log that no dead link the journal holds was
//     asked for again;
//  4. runs relink fix -store on the copy alone (the store as the web, no
//     proxy), and scores both runs: the share of moved pages found at their
//     new URI, the precision of the answers, the share of deleted pages
//     answered gone, the median and 90th percentile of calls per dead link
//     (also with each host's calls shared by its dead links), the requests
//     each host received and the most within one second, and the wall
//     time.
//
// It needs a relink binary (BuildRelink builds one from the repository)
// and reads the stores without changing them.
package fixbench
