package localweb

import (
	"crypto/sha1"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/linkrot/relink/lexsig"
)

// Paths of the search APIs on their hosts.
const (
	bravePath  = "/res/v1/web/search"
	googlePath = "/customsearch/v1"
)

// Brave's documented limits on a request.
const (
	braveMaxCount  = 20
	braveMaxOffset = 9
	braveMaxQuery  = 400
	braveMaxWords  = 50
)

// writeJSON answers status with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, "500 internal server error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)+1))
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// getOnly answers 405 to a method other than GET and HEAD and reports
// whether the request may go on.
func getOnly(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return true
	}
	w.Header().Set("Allow", "GET, HEAD")
	http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
	return false
}

// intParam reads the integer parameter name of v: def when it is absent,
// ok false when it is not an integer.
func intParam(v url.Values, name string, def int) (int, bool) {
	s := v.Get(name)
	if s == "" {
		return def, true
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	return n, err == nil
}

// requestID returns an id for an error answer, derived from the request.
func requestID(r *http.Request) string {
	sum := sha1.Sum([]byte(r.RemoteAddr + r.URL.String() + time.Now().String()))
	return fmt.Sprintf("%x-%x-%x-%x-%x", sum[0:4], sum[4:6], sum[6:8], sum[8:10], sum[10:16])
}

// --- Brave ---------------------------------------------------------------

// braveError answers Brave's ErrorResponse.
func braveError(w http.ResponseWriter, r *http.Request, status int, code, detail string, meta map[string]any) {
	if meta == nil {
		meta = map[string]any{}
	}
	writeJSON(w, status, map[string]any{
		"type": "ErrorResponse",
		"error": map[string]any{
			"id": requestID(r), "status": status, "code": code, "detail": detail, "meta": meta,
		},
		"time": time.Now().Unix(),
	})
}

// braveRateHeaders sets Brave's X-RateLimit-* headers for the plan's two
// windows.
func braveRateHeaders(h http.Header, sec, month state) {
	if sec.limit < 0 || month.limit < 0 {
		return
	}
	h.Set("X-RateLimit-Limit", fmt.Sprintf("%d, %d", sec.limit, month.limit))
	h.Set("X-RateLimit-Policy", fmt.Sprintf("%d;w=%d, %d;w=%d", sec.limit, seconds(sec.window), month.limit, seconds(month.window)))
	h.Set("X-RateLimit-Remaining", fmt.Sprintf("%d, %d", sec.remaining, month.remaining))
	h.Set("X-RateLimit-Reset", fmt.Sprintf("%d, %d", seconds(sec.reset), seconds(month.reset)))
}

// brave answers Brave's web search.
func (s *Server) brave(w http.ResponseWriter, r *http.Request) {
	if !getOnly(w, r) {
		return
	}
	v := r.URL.Query()
	key := r.Header.Get("X-Subscription-Token")
	if key == "" {
		braveError(w, r, http.StatusUnprocessableEntity, "VALIDATION", "Unable to validate request parameter(s)",
			map[string]any{"errors": []map[string]any{{"type": "missing", "loc": []string{"header", "x-subscription-token"}, "msg": "Field required"}}})
		return
	}
	q := v.Get("q")
	count, ok1 := intParam(v, "count", braveMaxCount)
	offset, ok2 := intParam(v, "offset", 0)
	switch {
	case strings.TrimSpace(q) == "":
		braveValidation(w, r, "q", "Field required")
		return
	case utf8.RuneCountInString(q) > braveMaxQuery || len(strings.Fields(q)) > braveMaxWords:
		braveValidation(w, r, "q", fmt.Sprintf("String should have at most %d characters and %d words", braveMaxQuery, braveMaxWords))
		return
	case !ok1 || count < 1 || count > braveMaxCount:
		braveValidation(w, r, "count", fmt.Sprintf("Input should be less than or equal to %d", braveMaxCount))
		return
	case !ok2 || offset < 0 || offset > braveMaxOffset:
		braveValidation(w, r, "offset", fmt.Sprintf("Input should be less than or equal to %d", braveMaxOffset))
		return
	}
	sec, month := s.limits.brave.peek(key), s.limits.braveMonth.peek(key)
	if !sec.ok || !month.ok {
		braveRateHeaders(w.Header(), sec, month)
		code, detail := "RATE_LIMITED", "Request rate limit exceeded for plan."
		if !month.ok {
			code, detail = "QUOTA_LIMITED", "Request quota limit exceeded for plan."
		}
		braveError(w, r, http.StatusTooManyRequests, code, detail, map[string]any{
			"plan": "Free", "rate_limit": sec.limit, "rate_current": sec.limit - sec.remaining,
			"quota_limit": month.limit, "quota_current": month.limit - month.remaining, "component": "rate_limiter",
		})
		return
	}
	results, pq, err := s.search(r.Context(), q)
	if err != nil {
		s.searchFailed(w, err, func(msg string) { braveValidation(w, r, "q", msg) })
		return
	}
	// Only successful requests are counted (and billed).
	sec, month = s.limits.brave.take(key), s.limits.braveMonth.take(key)
	braveRateHeaders(w.Header(), sec, month)
	from := offset * count
	hs := s.hits(r.Context(), results, pq, from, from+count)
	more := from+count < len(results) && offset < braveMaxOffset
	type metaURL struct {
		Scheme   string `json:"scheme"`
		Netloc   string `json:"netloc"`
		Hostname string `json:"hostname"`
		Favicon  string `json:"favicon"`
		Path     string `json:"path"`
	}
	type result struct {
		Title          string  `json:"title"`
		URL            string  `json:"url"`
		IsSourceLocal  bool    `json:"is_source_local"`
		IsSourceBoth   bool    `json:"is_source_both"`
		Description    string  `json:"description"`
		Language       string  `json:"language"`
		FamilyFriendly bool    `json:"family_friendly"`
		Type           string  `json:"type"`
		Subtype        string  `json:"subtype"`
		IsLive         bool    `json:"is_live"`
		MetaURL        metaURL `json:"meta_url"`
	}
	out := map[string]any{
		"type": "search",
		"query": map[string]any{
			"original": q, "show_strict_warning": false, "is_navigational": false, "is_news_breaking": false,
			"spellcheck_off": true, "country": "us", "bad_results": false, "should_fallback": false,
			"postal_code": "", "city": "", "header_country": "", "more_results_available": more, "state": "",
		},
	}
	if len(hs) > 0 {
		var rs []result
		var main []map[string]any
		for i, h := range hs {
			u, _ := url.Parse(h.URL)
			mu := metaURL{}
			if u != nil {
				mu = metaURL{Scheme: u.Scheme, Netloc: u.Host, Hostname: u.Hostname(), Path: braveCrumbs(u.Path)}
			}
			rs = append(rs, result{Title: h.Title, URL: h.URL, Description: h.highlight("<strong>", "</strong>"),
				Language: "en", FamilyFriendly: true, Type: "search_result", Subtype: "generic", MetaURL: mu})
			main = append(main, map[string]any{"type": "web", "index": i, "all": false})
		}
		out["mixed"] = map[string]any{"type": "mixed", "main": main, "top": []any{}, "side": []any{}}
		out["web"] = map[string]any{"type": "search", "results": rs, "family_friendly": true}
	}
	writeJSON(w, http.StatusOK, out)
}

// braveCrumbs writes a path as Brave's meta_url.path does: "› a › b".
func braveCrumbs(p string) string {
	var parts []string
	for _, seg := range strings.Split(p, "/") {
		if seg != "" {
			parts = append(parts, seg)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "› " + strings.Join(parts, " › ")
}

// braveValidation answers Brave's 422 VALIDATION error for a query
// parameter.
func braveValidation(w http.ResponseWriter, r *http.Request, param, msg string) {
	braveError(w, r, http.StatusUnprocessableEntity, "VALIDATION", "Unable to validate request parameter(s)",
		map[string]any{"errors": []map[string]any{{"type": "value_error", "loc": []string{"query", param}, "msg": msg}}})
}

// searchFailed answers a search that failed: bad, a bad query's answer,
// for errQuery; 500 otherwise.
func (s *Server) searchFailed(w http.ResponseWriter, err error, bad func(msg string)) {
	if errors.Is(err, errQuery) {
		bad(err.Error())
		return
	}
	s.errorLog().Printf("localweb: search: %v", err)
	http.Error(w, "500 internal server error", http.StatusInternalServerError)
}

// --- Google --------------------------------------------------------------

// googleError answers the Google APIs' error object, with details when
// there are any.
func googleError(w http.ResponseWriter, status int, apiStatus, reason, msg string, details ...map[string]any) {
	e := map[string]any{
		"code": status, "message": msg,
		"errors": []map[string]any{{"message": msg, "domain": "global", "reason": reason}},
		"status": apiStatus,
	}
	if len(details) > 0 {
		e["details"] = details
	}
	writeJSON(w, status, map[string]any{"error": e})
}

// googleQuota answers a spent quota of the Custom Search JSON API as
// recorded: 429 RESOURCE_EXHAUSTED naming the limit, with an ErrorInfo
// naming its quota_limit and a link to ask for more.
func googleQuota(w http.ResponseWriter, limit, quotaLimit string, value int) {
	googleError(w, http.StatusTooManyRequests, "RESOURCE_EXHAUSTED", "rateLimitExceeded",
		"Quota exceeded for quota metric 'Queries' and limit '"+limit+"' of service 'customsearch.googleapis.com' for consumer 'project_number:000000000000'.",
		map[string]any{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "RATE_LIMIT_EXCEEDED", "domain": "googleapis.com",
			"metadata": map[string]any{"quota_location": "global", "service": "customsearch.googleapis.com", "consumer": "projects/000000000000",
				"quota_limit_value": strconv.Itoa(value), "quota_metric": "customsearch.googleapis.com/requests", "quota_limit": quotaLimit}},
		map[string]any{"@type": "type.googleapis.com/google.rpc.Help",
			"links": []any{map[string]any{"description": "Request a higher quota limit.", "url": "https://cloud.google.com/docs/quotas/help/request_increase"}}})
}

// google answers the Custom Search JSON API.
func (s *Server) google(w http.ResponseWriter, r *http.Request) {
	if !getOnly(w, r) {
		return
	}
	v := r.URL.Query()
	key, cx, q := v.Get("key"), v.Get("cx"), v.Get("q")
	if key == "" {
		googleError(w, http.StatusForbidden, "PERMISSION_DENIED", "forbidden", "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.")
		return
	}
	num, ok1 := intParam(v, "num", 10)
	start, ok2 := intParam(v, "start", 1)
	if cx == "" || q == "" || len(q) > MaxQueryBytes || !ok1 || !ok2 || num < 1 || num > 10 || start < 1 || start+num-1 > 100 {
		googleError(w, http.StatusBadRequest, "INVALID_ARGUMENT", "badRequest", "Request contains an invalid argument.")
		return
	}
	if st := s.limits.google.take(key); !st.ok {
		googleQuota(w, "Queries per minute per user", "DefaultPerMinutePerUser", st.limit)
		return
	}
	if st := s.limits.googleDay.take(key); !st.ok {
		googleQuota(w, "Queries per day", "DefaultPerDayPerProject", st.limit)
		return
	}
	// Google reads the first 32 words and ignores the rest.
	if ws := strings.Fields(q); len(ws) > 32 {
		q = strings.Join(ws[:32], " ")
	}
	began := time.Now()
	results, pq, err := s.search(r.Context(), q)
	if err != nil {
		s.searchFailed(w, err, func(string) {
			googleError(w, http.StatusBadRequest, "INVALID_ARGUMENT", "badRequest", "Request contains an invalid argument.")
		})
		return
	}
	total := len(results)
	hs := s.hits(r.Context(), results, pq, start-1, start-1+num)
	request := func(startIndex int) map[string]any {
		return map[string]any{
			"title": "Google Custom Search - " + q, "totalResults": strconv.Itoa(total), "searchTerms": q,
			"count": num, "startIndex": startIndex, "inputEncoding": "utf8", "outputEncoding": "utf8", "safe": "off", "cx": cx,
		}
	}
	queries := map[string]any{"request": []any{request(start)}}
	if next := start + num; next <= total && next <= 100 {
		queries["nextPage"] = []any{request(next)}
	}
	if start > 1 {
		queries["previousPage"] = []any{request(max(1, start-num))}
	}
	took := time.Since(began).Seconds()
	out := map[string]any{
		"kind": "customsearch#search",
		"url": map[string]any{"type": "application/json",
			"template": "https://www.googleapis.com/customsearch/v1?q={searchTerms}&num={count?}&start={startIndex?}&lr={language?}&safe={safe?}&cx={cx?}&sort={sort?}&filter={filter?}&gl={gl?}&cr={cr?}&googlehost={googleHost?}&c2coff={disableCnTwTranslation?}&hq={hq?}&hl={hl?}&siteSearch={siteSearch?}&siteSearchFilter={siteSearchFilter?}&exactTerms={exactTerms?}&excludeTerms={excludeTerms?}&linkSite={linkSite?}&orTerms={orTerms?}&dateRestrict={dateRestrict?}&lowRange={lowRange?}&highRange={highRange?}&searchType={searchType}&fileType={fileType?}&rights={rights?}&imgSize={imgSize?}&imgType={imgType?}&imgColorType={imgColorType?}&imgDominantColor={imgDominantColor?}&alt=json"},
		"queries": queries,
		"context": map[string]any{"title": "localweb"},
		"searchInformation": map[string]any{
			"searchTime": took, "formattedSearchTime": fmt.Sprintf("%.2f", took),
			"totalResults": strconv.Itoa(total), "formattedTotalResults": groupThousands(total),
		},
	}
	if len(hs) > 0 {
		var items []map[string]any
		for _, h := range hs {
			display := h.URL
			if u, err := url.Parse(h.URL); err == nil {
				display = u.Host
			}
			items = append(items, map[string]any{
				"kind": "customsearch#result", "title": h.Title, "htmlTitle": htmlEscape(h.Title),
				"link": h.URL, "displayLink": display, "snippet": h.Snippet, "htmlSnippet": h.highlight("<b>", "</b>"),
				"formattedUrl": h.URL, "htmlFormattedUrl": htmlEscape(h.URL),
			})
		}
		out["items"] = items
	}
	writeJSON(w, http.StatusOK, out)
}

// groupThousands writes n with commas between groups of three digits.
func groupThousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// --- Mojeek --------------------------------------------------------------

// mojeekStatus answers Mojeek's envelope with a status other than OK,
// with HTTP 200 as Mojeek does.
func mojeekStatus(w http.ResponseWriter, status string) {
	writeJSON(w, http.StatusOK, map[string]any{"response": map[string]any{"status": status}})
}

// mojeek answers Mojeek's search API.
func (s *Server) mojeek(w http.ResponseWriter, r *http.Request) {
	if !getOnly(w, r) {
		return
	}
	v := r.URL.Query()
	if f := v.Get("fmt"); f != "json" {
		http.Error(w, "localweb: only fmt=json is served (Mojeek's default is XML)", http.StatusNotImplemented)
		return
	}
	key := v.Get("api_key")
	if key == "" {
		mojeekStatus(w, "ERROR: Invalid API key")
		return
	}
	q := v.Get("q")
	start, ok1 := intParam(v, "s", 1)
	t, ok2 := intParam(v, "t", 10)
	if strings.TrimSpace(q) == "" || !ok1 || !ok2 || start < 1 || t < 1 {
		mojeekStatus(w, "ERROR: Invalid query parameters")
		return
	}
	if st := s.limits.mojeekDay.take(key); !st.ok {
		mojeekStatus(w, "ERROR: Daily Limit Reached")
		return
	}
	began := time.Now()
	results, pq, err := s.search(r.Context(), q)
	if err != nil {
		s.searchFailed(w, err, func(msg string) { mojeekStatus(w, "ERROR: "+msg) })
		return
	}
	hs := s.hits(r.Context(), results, pq, start-1, start-1+t)
	var words []map[string]any
	for _, wd := range pq.words {
		df, _ := s.web.DocFreq(r.Context(), wd)
		words = append(words, map[string]any{"full": wd, "stem": wd, "plus": 1, "hits": df})
	}
	var rs []map[string]any
	for _, h := range hs {
		rs = append(rs, map[string]any{"url": h.URL, "title": h.Title, "desc": h.Snippet})
	}
	if rs == nil {
		rs = []map[string]any{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"response": map[string]any{
		"status": "OK",
		"head": map[string]any{
			"query": q, "nword": len(pq.words), "words": words, "timer": time.Since(began).Seconds(),
			"start": start, "return": len(rs), "exact": true, "results": len(results), "rankm": 0, "dups": 0, "more": 0,
		},
		"results": rs,
	}})
}

// --- Marginalia ----------------------------------------------------------

// marginaliaPublicKey is the key Marginalia leaves open for trying the API.
const marginaliaPublicKey = "public"

// marginalia answers Marginalia's search API (api2).
func (s *Server) marginalia(w http.ResponseWriter, r *http.Request) {
	if !getOnly(w, r) {
		return
	}
	key := r.Header.Get("API-Key")
	if key == "" {
		http.Error(w, "API key required (the API-Key header; \"public\" for trying the API)", http.StatusUnauthorized)
		return
	}
	lim := s.limits.marginalia
	if key == marginaliaPublicKey {
		lim = s.limits.marginaliaPublic
	}
	// The API server checks the minute's limit, then the day's, and
	// names no wait for either (ApiV2.search).
	if st := lim.take(key); !st.ok {
		marginaliaRefusal(w, nil, "QPM Limit Exceeded")
		return
	}
	day := s.limits.marginaliaDay.take(key)
	if !day.ok {
		marginaliaRefusal(w, map[string]string{"API-Remaining-Daily-Capacity": "0", "API-Event-Type": "OverLimitBlock"}, "Daily Limit Exceeded")
		return
	}
	v := r.URL.Query()
	q := v.Get("query")
	count, ok1 := intParam(v, "count", 20)
	page, ok2 := intParam(v, "page", 1)
	perDomain, ok3 := intParam(v, "dc", 2)
	if strings.TrimSpace(q) == "" || !ok1 || !ok2 || !ok3 || page < 1 {
		http.Error(w, "Bad Request", http.StatusBadRequest)
		return
	}
	count = min(max(count, 1), 100)
	results, pq, err := s.search(r.Context(), q)
	if err != nil {
		s.searchFailed(w, err, func(string) { http.Error(w, "Bad Request", http.StatusBadRequest) })
		return
	}
	results = perDomainAtMost(results, min(max(perDomain, 1), 100))
	from := (page - 1) * count
	hs := s.hits(r.Context(), results, pq, from, from+count)
	rs := []map[string]any{}
	for _, h := range hs {
		rs = append(rs, map[string]any{"url": h.URL, "title": h.Title, "description": h.Snippet,
			"quality": -h.Score, "format": "HTML5", "details": ""})
	}
	remaining := "2147483647" // a key without a daily limit
	if day.remaining >= 0 {
		remaining = strconv.Itoa(day.remaining)
	}
	w.Header().Set("API-Remaining-Daily-Capacity", remaining)
	w.Header().Set("API-Event-Type", "UnderLimit")
	writeJSON(w, http.StatusOK, map[string]any{"license": "CC-BY-NC-SA 4.0", "query": q, "page": page, "results": rs})
}

// marginaliaRefusal answers a spent limit as Marginalia's API server does:
// 429, the header given, and a bare text body.
func marginaliaRefusal(w http.ResponseWriter, header map[string]string, body string) {
	for k, v := range header {
		w.Header().Set(k, v)
	}
	w.Header().Set("Content-Type", "text/plain")
	w.WriteHeader(http.StatusTooManyRequests)
	io.WriteString(w, body)
}

// perDomainAtMost keeps, in order, at most n results of each host: what
// Marginalia's dc parameter asks (2 when left out).
func perDomainAtMost(results []lexsig.Result, n int) []lexsig.Result {
	seen := make(map[string]int)
	out := results[:0:0]
	for _, r := range results {
		host := r.URI
		if u, err := url.Parse(r.URI); err == nil {
			host = strings.ToLower(u.Hostname())
		}
		if seen[host] < n {
			seen[host]++
			out = append(out, r)
		}
	}
	return out
}

// --- SearXNG -------------------------------------------------------------

// searxngPageSize is how many results a page of the instance holds.
const searxngPageSize = 10

// searxngBots is the limiter's regular expression of bot User-Agents
// (searx/botdetection/http_user_agent.py), matched at the start.
var searxngBots = regexp.MustCompile(`^(unknown|[Cc][Uu][Rr][Ll]|[wW]get|Scrapy|splash|JavaFX|FeedFetcher|python-requests|Go-http-client|Java|Jakarta|okhttp|HttpClient|Jersey|Python|libwww-perl|Ruby|SynHttpClient|UniversalFeedParser|Googlebot|GoogleImageProxy|bingbot|Baiduspider|yacybot|YandexMobileBot|YandexBot|Yahoo! Slurp|MJ12bot|AhrefsBot|archive.org_bot|msnbot|SeznamBot|linkdexbot|Netvibes|SMTBot|zgrab|James BOT|Sogou|Abonti|Pixray|Spinn3r|SemrushBot|Exabot|ZmEu|BLEXBot|bitlybot|HeadlessChrome|.*PetalBot.*)`)

// searxngBot reports why the limiter's header checks take r for a bot,
// or "".
func searxngBot(r *http.Request) string {
	ua := r.Header.Get("User-Agent")
	if ua == "" {
		ua = "unknown"
	}
	if searxngBots.MatchString(ua) {
		return "bot detected, HTTP header User-Agent: " + ua
	}
	html := false
	for _, a := range strings.Split(r.Header.Get("Accept"), ",") {
		mt, _, _ := strings.Cut(strings.TrimSpace(a), ";")
		if mt = strings.TrimSpace(mt); mt == "text/html" || mt == "text/*" || mt == "*/*" {
			html = true
		}
	}
	if !html {
		return "HTTP header Accept did not contain text/html"
	}
	enc := false
	for _, e := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		if e = strings.TrimSpace(e); e == "gzip" || e == "deflate" {
			enc = true
		}
	}
	if !enc {
		return "HTTP header Accept-Encoding did not contain gzip nor deflate"
	}
	if strings.TrimSpace(r.Header.Get("Accept-Language")) == "" {
		return "HTTP header Accept-Language is empty"
	}
	return ""
}

// searxngTooMany answers the limiter's 429.
func searxngTooMany(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusTooManyRequests)
	fmt.Fprint(w, "Too Many Requests")
}

// searxng answers a SearXNG instance's /search, with its limiter on
// unless the Server is relaxed.
func (s *Server) searxng(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodPost && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, POST")
		http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if err := r.ParseForm(); err != nil {
		http.Error(w, "400 bad request", http.StatusBadRequest)
		return
	}
	v := r.Form
	format := v.Get("format")
	if format == "" {
		format = "html"
	}
	if !s.opts.Relaxed {
		if searxngBot(r) != "" {
			searxngTooMany(w)
			return
		}
		ip := clientKey(r)
		if format != "html" && !s.limits.searxngAPI.take(ip).ok ||
			!s.limits.searxngBurst.take(ip).ok || !s.limits.searxngLong.take(ip).ok {
			searxngTooMany(w)
			return
		}
	}
	switch format {
	case "json", "html":
	case "csv", "rss":
		http.Error(w, "Forbidden", http.StatusForbidden) // not among the instance's search.formats
		return
	default:
		http.Error(w, "Bad Request: invalid format", http.StatusBadRequest)
		return
	}
	q := v.Get("q")
	pageno, ok := intParam(v, "pageno", 1)
	if !ok || pageno < 1 {
		pageno = 1
	}
	var results []hit
	if strings.TrimSpace(q) != "" {
		rs, pq, err := s.search(r.Context(), q)
		if err != nil && !errors.Is(err, errQuery) {
			s.searchFailed(w, err, nil)
			return
		}
		from := (pageno - 1) * searxngPageSize
		results = s.hits(r.Context(), rs, pq, from, from+searxngPageSize)
	}
	if format == "html" {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!DOCTYPE html>\n<html><head><title>%s - SearXNG</title></head><body>\n", htmlEscape(q))
		for _, h := range results {
			fmt.Fprintf(w, "<article class=\"result\"><h3><a href=\"%s\">%s</a></h3><p class=\"content\">%s</p></article>\n",
				htmlEscape(h.URL), htmlEscape(h.Title), htmlEscape(h.Snippet))
		}
		fmt.Fprint(w, "</body></html>\n")
		return
	}
	rs := []map[string]any{}
	for i, h := range results {
		parsed := []string{"", "", "", "", "", ""}
		if u, err := url.Parse(h.URL); err == nil {
			parsed = []string{u.Scheme, u.Host, u.EscapedPath(), "", u.RawQuery, u.Fragment}
		}
		rs = append(rs, map[string]any{
			"url": h.URL, "title": h.Title, "content": h.Snippet, "thumbnail": "", "engine": "localweb",
			"template": "default.html", "parsed_url": parsed, "img_src": "", "priority": "",
			"engines": []string{"localweb"}, "positions": []int{(pageno-1)*searxngPageSize + i + 1},
			"score": h.Score, "category": "general", "publishedDate": nil,
		})
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"query": q, "results": rs, "answers": []any{}, "corrections": []any{}, "infoboxes": []any{},
		"suggestions": []any{}, "unresponsive_engines": []any{},
	})
}
