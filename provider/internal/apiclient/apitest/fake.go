package apitest

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/linkrot/relink/lexsig"
)

// Fake describes a search API's documented behaviour as data, the way an
// Engine describes it to the client, so that one handler serves every
// engine's tests: where the key is, which results a request asks for, and
// the JSON an answer holds.
type Fake struct {
	// Key reads the key from a request; nil means the API takes none.
	Key func(r *http.Request) string
	// WrongKey is the answer to a request without the right key.
	WrongKey Canned
	// Page reads which results r asks for: the index in the corpus of
	// the first (0 for rank 1) and how many. ok false (parameters the
	// API would refuse) is answered with BadRequest.
	Page func(r *http.Request) (first, count int, ok bool)
	// BadRequest is the answer to a request Page refuses.
	BadRequest Canned
	// Answer returns the documented answer, to be encoded as JSON, to r:
	// results are the ones asked for, total is the size of the corpus, and
	// more says that results follow them.
	Answer func(r *http.Request, results []lexsig.Result, total int, more bool) any
}

// Canned is a fixed answer.
type Canned struct {
	Status int
	Body   string
}

// Handler answers from corpus as f describes, refusing requests without
// key; it is a Suite's Handler.
func (f Fake) Handler(corpus []lexsig.Result, key string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if f.Key != nil && f.Key(r) != key {
			f.WrongKey.serve(w)
			return
		}
		first, count, ok := f.Page(r)
		if !ok || first < 0 || count < 0 {
			f.BadRequest.serve(w)
			return
		}
		end := min(first+count, len(corpus))
		first = min(first, end)
		if err := json.NewEncoder(w).Encode(f.Answer(r, corpus[first:end], len(corpus), end < len(corpus))); err != nil {
			panic(err) // the test's own answer cannot be encoded: a bug in the test
		}
	})
}

func (c Canned) serve(w http.ResponseWriter) {
	w.WriteHeader(c.Status)
	fmt.Fprint(w, c.Body)
}

// URLTitles returns results as most APIs list them: objects of url and
// title, and a description.
func URLTitles(results []lexsig.Result) []map[string]string {
	out := []map[string]string{}
	for _, r := range results {
		out = append(out, map[string]string{"url": r.URI, "title": r.Title, "description": "about " + r.Title})
	}
	return out
}
