package review

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/linkrot/relink/repair"
)

// Options configure a Server.
type Options struct {
	// Token is the secret every request must carry (NewToken makes one);
	// it must be at least MinToken bytes.
	Token string
	// State is the path of the decisions file (repair.Decisions): read
	// when it exists, and written whole at each decision. "" keeps the
	// decisions in memory only.
	State string
	// Threshold, when above 0, is drawn on the chart of confidences: the
	// confidence at or above which relink fix called a link moved.
	Threshold float64
	// PageSize is how many dead links a page shows; 0 means
	// DefaultPageSize.
	PageSize int
}

// DefaultPageSize is how many dead links a page shows by default: each
// brings its evidence (contexts, candidates, the archived copy), so that
// a page of 5,000 results took 165 MB.
const DefaultPageSize = 100

// MinToken is the least length of Options.Token, in bytes.
const MinToken = 16

// Errors of New.
var (
	// ErrToken is the error of an Options.Token shorter than MinToken.
	ErrToken = errors.New("review: token too short")
)

// Server serves the review page of a list of results. It is safe for
// concurrent use; its decisions are written to the state file before a
// request that made them is answered.
type Server struct {
	results []repair.Result
	opts    Options
	cookie  string // the name of the cookie that carries the token
	mux     *http.ServeMux

	mu    sync.Mutex
	state *state
}

// New returns the Server of results (the output of relink fix, as
// repair.ReadResults reads it), reading the decisions already in
// opts.State. A state file that is not a decisions file is an error
// matching repair.ErrDecisions; it is left as it is.
func New(results []repair.Result, opts Options) (*Server, error) {
	if len(opts.Token) < MinToken {
		return nil, fmt.Errorf("%w: %d bytes, want at least %d", ErrToken, len(opts.Token), MinToken)
	}
	st, err := loadState(opts.State, results)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(opts.Token))
	s := &Server{results: results, opts: opts, state: st,
		// Cookies ignore ports: two reviews on one machine need two names.
		cookie: "relink-review-" + hex.EncodeToString(sum[:6]),
		mux:    http.NewServeMux()}
	s.mux.HandleFunc("GET /{$}", s.page)
	s.mux.HandleFunc("GET /static/{file}", s.static)
	s.mux.HandleFunc("POST /decide", s.decide)
	return s, nil
}

// NewToken returns a random token: 256 bits of crypto/rand, as 52
// characters of base32.
func NewToken() string {
	return rand.Text() + rand.Text()
}

// Decisions returns the decisions made so far, as the state file holds
// them.
func (s *Server) Decisions() *repair.Decisions {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state.decisions()
}

// ServeHTTP answers a request of the page. It refuses (403) a request
// without the token (the query's token, the cookie set at the first
// visit, or for a POST the form's token field or the X-Relink-Token
// header, which a POST must carry), and one whose Host is not a loopback
// address or localhost (a DNS rebinding page's) or whose Origin is not
// the page's own.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "+
		"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer") // the token is in the URL
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cache-Control", "no-store")
	if !loopbackHost(r.Host) {
		http.Error(w, "forbidden: not a loopback host", http.StatusForbidden)
		return
	}
	if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host {
		http.Error(w, "forbidden: another origin", http.StatusForbidden)
		return
	}
	if !s.authorized(w, r) {
		http.Error(w, "forbidden: no valid token (open the URL relink review printed)", http.StatusForbidden)
		return
	}
	if r.Method == http.MethodGet && r.URL.Query().Get("token") != "" {
		http.SetCookie(w, &http.Cookie{Name: s.cookie, Value: s.opts.Token, Path: "/",
			HttpOnly: true, SameSite: http.SameSiteStrictMode})
	}
	s.mux.ServeHTTP(w, r)
}

// authorized reports whether r carries the token where it must.
func (s *Server) authorized(w http.ResponseWriter, r *http.Request) bool {
	if r.Method == http.MethodPost {
		r.Body = http.MaxBytesReader(w, r.Body, maxForm)
		return s.valid(r.Header.Get("X-Relink-Token")) || s.valid(r.PostFormValue("token"))
	}
	if s.valid(r.URL.Query().Get("token")) {
		return true
	}
	c, err := r.Cookie(s.cookie)
	return err == nil && s.valid(c.Value)
}

// maxForm bounds the body of a POST.
const maxForm = 64 << 10

// valid compares a token in constant time.
func (s *Server) valid(token string) bool {
	return token != "" && subtle.ConstantTimeCompare([]byte(token), []byte(s.opts.Token)) == 1
}

// loopbackHost reports whether a Host header names a loopback address or
// localhost: a page whose name was rebound to 127.0.0.1 sends its own
// name.
func loopbackHost(host string) bool {
	h, _, err := net.SplitHostPort(host)
	if err != nil {
		h = strings.Trim(host, "[]")
	}
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// decide records one decision: the form's id (a result's index), decision
// (accept, reject or clear) and, for accept, uri (the result's URI or one
// of its candidates', a web URL). A script asking for JSON gets the
// row's new state and the counts; a form gets a redirect to the next row.
func (s *Server) decide(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.Atoi(r.PostFormValue("id"))
	if err != nil || id < 0 || id >= len(s.results) {
		http.Error(w, "bad id", http.StatusBadRequest)
		return
	}
	res := s.results[id]
	ruling := r.PostFormValue("decision")
	x := repair.Decision{Dead: res.Dead, Decision: repair.Ruling(ruling)}
	switch x.Decision {
	case repair.Accept:
		x.URI = r.PostFormValue("uri")
		if x.URI == "" {
			x.URI = res.URI
		}
		if !offered(res, x.URI) || !webURL(x.URI) {
			http.Error(w, "uri: not a web URL this result offers", http.StatusBadRequest)
			return
		}
	case repair.Reject:
		x.URI = res.URI
	case "clear":
	default:
		http.Error(w, "decision: want accept, reject or clear", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	err = s.state.set(res.Dead, x, ruling == "clear")
	var c counts
	if err == nil {
		c = s.counts()
	}
	s.mu.Unlock()
	if err != nil {
		http.Error(w, "the state file could not be written: "+err.Error(), http.StatusInternalServerError)
		return
	}
	if strings.Contains(r.Header.Get("Accept"), "application/json") {
		w.Header().Set("Content-Type", "application/json")
		if ruling == "clear" {
			x.Decision = ""
		}
		json.NewEncoder(w).Encode(struct {
			ID       int    `json:"id"`
			Decision string `json:"decision"`
			URI      string `json:"uri"`
			Counts   counts `json:"counts"`
		}{id, string(x.Decision), x.URI, c})
		return
	}
	q := url.Values{}
	if v := r.PostFormValue("sort"); v != "" {
		q.Set("sort", v)
	}
	q.Set("sel", strconv.Itoa(s.next(id, r.PostFormValue("sort"))))
	http.Redirect(w, r, "/?"+q.Encode(), http.StatusSeeOther)
}

// offered reports whether uri is the URI of res or of one of its
// candidates.
func offered(res repair.Result, uri string) bool {
	if uri == res.URI {
		return true
	}
	for _, c := range res.Candidates {
		if c.URI == uri {
			return true
		}
	}
	return false
}

// webURL reports whether u is an absolute http or https URL with a host:
// the only URIs the page makes links of, and the only ones accepted.
func webURL(u string) bool {
	p, err := url.Parse(u)
	return err == nil && (p.Scheme == "http" || p.Scheme == "https") && p.Host != ""
}
