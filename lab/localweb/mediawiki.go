package localweb

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/linkrot/relink/provider/store"
)

// wikiPath is the path of the MediaWiki Action API.
const wikiPath = "/w/api.php"

// Limits of list=exturlusage, as MediaWiki documents them.
const (
	wikiDefaultLimit = 10
	wikiMaxLimit     = 500
)

// wikiLink is one external link of a wiki page.
type wikiLink struct {
	url    string // canonical target
	scheme string
	host   string // lowercase
	rest   string // path and query
	pageID int
	title  string
}

// wikiIndex is the external links of the store's wiki pages, read on
// first use: the pages of sites whose host or name holds "wiki", or every
// page when there are none. Pages missing in the store's view are left
// out.
type wikiIndex struct {
	st    *store.Store
	once  sync.Once
	err   error
	links []wikiLink
}

// isWiki reports whether p belongs to a wiki.
func isWiki(p store.PageInfo) bool {
	u, err := url.Parse(p.URI)
	return err == nil && strings.Contains(strings.ToLower(u.Hostname()), "wiki") || strings.Contains(strings.ToLower(p.Site), "wiki")
}

// load reads the links once.
func (x *wikiIndex) load() error {
	x.once.Do(func() {
		ctx := context.Background()
		var all, wiki []store.PageInfo
		for p, err := range x.st.Pages(ctx) {
			if err != nil {
				x.err = err
				return
			}
			all = append(all, p)
		}
		for _, p := range all {
			if isWiki(p) {
				wiki = append(wiki, p)
			}
		}
		set := wiki
		if len(set) == 0 {
			set = all
		}
		ids := make(map[string]int, len(all))
		for i, p := range all {
			ids[p.URI] = i + 1
		}
		for _, p := range set {
			if x.st.IsMissing(p.URI) {
				continue
			}
			links, err := x.st.Links(ctx, p.URI)
			if err != nil {
				x.err = err
				return
			}
			seen := make(map[string]bool)
			for _, l := range links {
				if seen[l.URI] || l.Area {
					continue
				}
				seen[l.URI] = true
				u, err := url.Parse(l.URI)
				if err != nil || u.Host == "" {
					continue
				}
				title := p.Title
				if title == "" {
					title = p.URI
				}
				x.links = append(x.links, wikiLink{url: l.URI, scheme: u.Scheme, host: strings.ToLower(u.Hostname()),
					rest: u.EscapedPath() + queryPart(u), pageID: ids[p.URI], title: title})
			}
		}
		sort.Slice(x.links, func(i, j int) bool {
			a, b := x.links[i], x.links[j]
			if ka, kb := reverseHost(a.host)+a.rest, reverseHost(b.host)+b.rest; ka != kb {
				return ka < kb
			}
			if a.scheme != b.scheme {
				return a.scheme < b.scheme
			}
			return a.pageID < b.pageID
		})
	})
	return x.err
}

// queryPart returns "?" and u's query, or "".
func queryPart(u *url.URL) string {
	if u.RawQuery == "" {
		return ""
	}
	return "?" + u.RawQuery
}

// reverseHost writes a host's labels in reverse order, as MediaWiki's
// external link index sorts them.
func reverseHost(h string) string {
	ls := strings.Split(h, ".")
	for i, j := 0, len(ls)-1; i < j; i, j = i+1, j-1 {
		ls[i], ls[j] = ls[j], ls[i]
	}
	return strings.Join(ls, ".") + "."
}

// linkSearch is a euquery pattern as Special:LinkSearch reads it: a host,
// with *. in front for the host and every name below it, and a path
// prefix.
type linkSearch struct {
	protocols []string
	host      string
	wildcard  bool
	prefix    string
	all       bool // no pattern: every link of the protocols
}

// parseLinkSearch reads euquery and euprotocol.
func parseLinkSearch(query, protocol string) linkSearch {
	ls := linkSearch{}
	switch {
	case protocol != "":
		ls.protocols = []string{strings.TrimSuffix(strings.ToLower(protocol), "://")}
	case query != "":
		ls.protocols = []string{"http", "https"}
	}
	if query == "" {
		ls.all = true
		return ls
	}
	if i := strings.Index(query, "://"); i >= 0 {
		query = query[i+3:]
	}
	host, path, _ := strings.Cut(query, "/")
	if p := strings.IndexAny(host, "?#"); p >= 0 {
		host, path = host[:p], host[p:]
	} else if path != "" || strings.HasSuffix(query, "/") {
		path = "/" + path
	}
	host = strings.ToLower(host)
	if strings.HasPrefix(host, "*.") {
		ls.wildcard, host = true, host[2:]
	}
	ls.host = strings.TrimSuffix(host, ".")
	ls.prefix = path
	return ls
}

// matches reports whether l is a link the pattern finds.
func (ls linkSearch) matches(l wikiLink) bool {
	if len(ls.protocols) > 0 {
		ok := false
		for _, p := range ls.protocols {
			ok = ok || l.scheme == p
		}
		if !ok {
			return false
		}
	}
	if ls.all {
		return true
	}
	host := l.host
	if ls.wildcard {
		if host != ls.host && !strings.HasSuffix(host, "."+ls.host) {
			return false
		}
	} else if host != ls.host {
		return false
	}
	return strings.HasPrefix(l.rest, ls.prefix)
}

// wikiError answers MediaWiki's error object, with HTTP 200 and the
// MediaWiki-API-Error header, as the Action API does.
func wikiError(w http.ResponseWriter, fv2 bool, code, info string, extra map[string]any) {
	e := map[string]any{"code": code, "info": info}
	doc := "See https://en.wikipedia.org/w/api.php for API usage. Subscribe to the mediawiki-api-announce mailing list at &lt;https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/&gt; for notice of API deprecations and breaking changes."
	if fv2 {
		e["docref"] = doc
	} else {
		e["*"] = doc
	}
	for k, v := range extra {
		e[k] = v
	}
	w.Header().Set("MediaWiki-API-Error", code)
	writeJSON(w, http.StatusOK, map[string]any{"error": e, "servedby": "mw-api-ext.localweb"})
}

// mediawiki answers the Action API's action=query&list=exturlusage from
// the web store's links: the wiki pages that cite a URL.
func (s *Server) mediawiki(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodPost && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, POST")
		http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if st := s.limits.wiki.take(clientKey(r)); !st.ok {
		w.Header().Set("Retry-After", strconv.FormatInt(seconds(st.reset), 10))
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusTooManyRequests)
		fmt.Fprintln(w, "Too many requests. Please respect the Retry-After header and see https://www.mediawiki.org/wiki/Wikimedia_APIs/Rate_limits")
		return
	}
	if err := r.ParseForm(); err != nil {
		http.Error(w, "400 bad request", http.StatusBadRequest)
		return
	}
	v := r.Form
	fv2 := v.Get("formatversion") == "2" || v.Get("formatversion") == "latest"
	if f := v.Get("format"); f != "json" {
		wikiError(w, fv2, "badvalue", fmt.Sprintf("Unrecognized value for parameter \"format\": %s (this API answers format=json only).", f), nil)
		return
	}
	if ml := v.Get("maxlag"); ml != "" {
		n, err := strconv.Atoi(ml)
		if err != nil {
			wikiError(w, fv2, "badinteger", fmt.Sprintf("Invalid value \"%s\" for integer parameter \"maxlag\".", ml), nil)
			return
		}
		if s.opts.WikiLag > n {
			w.Header().Set("Retry-After", "5")
			w.Header().Set("X-Database-Lag", strconv.Itoa(s.opts.WikiLag))
			wikiError(w, fv2, "maxlag", fmt.Sprintf("Waiting for db-replica.localweb: %d seconds lagged.", s.opts.WikiLag),
				map[string]any{"host": "db-replica.localweb", "lag": s.opts.WikiLag, "type": "db"})
			return
		}
	}
	if a := v.Get("action"); a != "query" {
		wikiError(w, fv2, "badvalue", fmt.Sprintf("Unrecognized value for parameter \"action\": %s.", a), nil)
		return
	}
	if l := v.Get("list"); l != "exturlusage" {
		wikiError(w, fv2, "badvalue", fmt.Sprintf("Unrecognized value for parameter \"list\": %s (this API answers list=exturlusage only).", l), nil)
		return
	}
	warnings := []string{}
	limit := wikiDefaultLimit
	switch l := v.Get("eulimit"); l {
	case "":
	case "max":
		limit = wikiMaxLimit
	default:
		n, err := strconv.Atoi(l)
		if err != nil {
			wikiError(w, fv2, "badinteger", fmt.Sprintf("Invalid value \"%s\" for integer parameter \"eulimit\".", l), nil)
			return
		}
		limit = n
		if n > wikiMaxLimit {
			limit = wikiMaxLimit
			warnings = append(warnings, fmt.Sprintf("\"eulimit\" may not be over %d (set to %d) for users.", wikiMaxLimit, n))
		}
		if n < 1 {
			limit = 1
			warnings = append(warnings, fmt.Sprintf("\"eulimit\" may not be less than 1 (set to %d).", n))
		}
	}
	offset := 0
	if c := v.Get("eucontinue"); c != "" {
		n, err := strconv.Atoi(c)
		if err != nil || n < 0 {
			wikiError(w, fv2, "badcontinue", "Invalid continue param. You should pass the original value returned by the previous query.", nil)
			return
		}
		offset = n
	}
	props := map[string]bool{"ids": true, "title": true, "url": true}
	if p, ok := v["euprop"]; ok {
		props = map[string]bool{}
		for _, x := range strings.Split(p[0], "|") {
			props[x] = true
		}
	}
	nsOK := true
	if ns := v.Get("eunamespace"); ns != "" && ns != "*" {
		nsOK = false
		for _, x := range strings.Split(ns, "|") {
			nsOK = nsOK || x == "0"
		}
	}
	if err := s.index.load(); err != nil {
		s.errorLog().Printf("localweb: wiki links: %v", err)
		wikiError(w, fv2, "internal_api_error_DBQueryError", "A database query error has occurred.", nil)
		return
	}
	ls := parseLinkSearch(v.Get("euquery"), v.Get("euprotocol"))
	var found []wikiLink
	if nsOK {
		for _, l := range s.index.links {
			if ls.matches(l) {
				found = append(found, l)
			}
		}
	}
	out := map[string]any{}
	items := []map[string]any{}
	for _, l := range found[min(offset, len(found)):min(offset+limit, len(found))] {
		it := map[string]any{}
		if props["ids"] {
			it["pageid"] = l.pageID
		}
		if props["title"] {
			it["ns"] = 0
			it["title"] = l.title
		}
		if props["url"] {
			it["url"] = l.url
		}
		items = append(items, it)
	}
	if offset+limit < len(found) {
		out["continue"] = map[string]string{"eucontinue": strconv.Itoa(offset + limit), "continue": "-||"}
	}
	if fv2 {
		out["batchcomplete"] = true
	} else {
		out["batchcomplete"] = ""
	}
	if len(warnings) > 0 {
		msg := strings.Join(warnings, "\n")
		if fv2 {
			out["warnings"] = map[string]any{"exturlusage": map[string]string{"warnings": msg}}
		} else {
			out["warnings"] = map[string]any{"exturlusage": map[string]string{"*": msg}}
		}
	}
	out["query"] = map[string]any{"exturlusage": items}
	writeJSON(w, http.StatusOK, out)
}
