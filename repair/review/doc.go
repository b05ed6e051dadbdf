// Package review serves a local web page on which a person reviews the
// repairs relink fix proposes, one dead link at a time, and decides:
// accept the proposed new URI, reject it, or accept another candidate.
// The decisions are saved at once to a decisions file (repair.Decisions),
// which relink fix -rewrite DIR -decisions FILE applies on its own.
//
// It is a package, not a part of the command, so that a program that
// repairs links with the library (a wiki bot, a documentation build) can
// put the same page in front of its own people: Server is an
// http.Handler.
//
//	token := review.NewToken()
//	srv, err := review.New(results, review.Options{Token: token, State: "decisions.json"})
//	ln, err := net.Listen("tcp", "127.0.0.1:0")
//	go http.Serve(ln, srv)
//	fmt.Printf("http://%s/?token=%s\n", ln.Addr(), token)
//
// # The page
//
// A table of the dead links, sortable by verdict and by confidence, with
// the new URI proposed and the counts of accepted, rejected and open
// ones; a chart (SVG drawn on the server) of how many links fall at each
// confidence, by verdict; and for the selected link its evidence: the
// backlinks kept with their anchor texts marked in the words around them,
// the backlinks not used and why, the queries sent, the first nine
// candidates with title and snippet, the evidence behind the verdict, and
// the archived copy's title and first paragraph beside the chosen
// candidate's. The table shows Options.PageSize links a page (100 by
// default), with links to the pages before and after: a request makes the
// HTML of one page only, so that its memory does not grow with the
// results (one page of 5,000 results was 210 MB). Everything works by
// mouse, and by keyboard alone: j and k move (past a page's last row, to
// the next page), a accepts, r rejects, 1 to 9 accept that candidate, u
// undoes. The
// page is server-rendered from html/template; its one script and style
// sheet are embedded in the binary, so it loads nothing from elsewhere
// and works offline (and, without the script, by links and forms).
//
// # Security
//
// Everything shown comes from web pages and is treated as hostile: it is
// escaped by html/template in every context, a URI that is not an http or
// https URL is never made a link (it is shown as text) and is never
// accepted, and the Content-Security-Policy allows the page's own script
// file and nothing inline. Every request must carry the token (the URL's
// token parameter, then a cookie); a POST, the only requests that change
// anything, must carry it in its form or the X-Relink-Token header, and
// requests whose Host is not a loopback address or localhost (DNS
// rebinding) or whose Origin is another site's are refused with 403.
//
// # What the caller must do
//
// Listen on loopback only, and give Options a token from NewToken; print
// the URL with it for the person. Serve until done, then Shutdown.
//
// # What it does not do
//
// It does not rewrite files (fix -decisions does), fetch the candidates
// or look for more: it shows what the results hold. It keeps one state
// file for one server: two servers on one file overwrite each other's
// decisions.
package review
