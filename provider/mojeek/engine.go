package mojeek

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/linkrot/relink/provider/searchapi"
)

// engine describes Mojeek's search API for pages of size results (zero
// or less means DefaultPageSize): the key in the KeyParam parameter,
// fmt=json, s (1 first) and t, no OR operator.
func engine(size int) *searchapi.Engine[envelope] {
	if size <= 0 {
		size = DefaultPageSize
	}
	return &searchapi.Engine[envelope]{
		Service:  "mojeek",
		BaseURL:  DefaultBaseURL,
		KeyParam: KeyParam,
		KeyEnv:   KeyEnv,
		Params: func(q string, p searchapi.Page) url.Values {
			return url.Values{"q": {q}, "fmt": {"json"}, "s": {strconv.Itoa(p.Start)}, "t": {strconv.Itoa(p.Count)}}
		},
		Paging: searchapi.Paging{By: searchapi.ByStart, Size: size, Max: MaxResults},
		Check:  searchapi.RefuseOR,
		Read:   read,
	}
}

// envelope is Mojeek's answer: everything is inside "response".
type envelope struct {
	Response *answer `json:"response"`
}

// answer is the part of Mojeek's response object a Client reads.
type answer struct {
	Status string `json:"status"`
	Head   struct {
		Results int64 `json:"results"`
	} `json:"head"`
	Results []struct {
		URL   string `json:"url"`
		Title string `json:"title"`
		Desc  string `json:"desc"`
	} `json:"results"`
}

// read checks response.status and turns the answer into hits; the page is
// the last when it reaches head.results, the total count, which is also
// the hit count.
func read(env *envelope, p searchapi.Page) (searchapi.Answer, error) {
	r := env.Response
	if r == nil {
		return searchapi.Answer{}, fmt.Errorf("%w: no \"response\" object", searchapi.ErrMalformed)
	}
	if r.Status != "OK" {
		return searchapi.Answer{}, statusError(r.Status)
	}
	ans := searchapi.Answer{Total: r.Head.Results, Last: int64(p.Start-1+len(r.Results)) >= r.Head.Results}
	for _, res := range r.Results {
		ans.Hits = append(ans.Hits, searchapi.Hit{URL: res.URL, Title: res.Title})
	}
	return ans, nil
}

// statusError returns the error for a response.status other than OK,
// quoting at most 200 bytes of it (the Searcher redacts the key).
func statusError(status string) error {
	if len(status) > 200 {
		status = status[:200] + "…"
	}
	lower := strings.ToLower(status)
	switch {
	case strings.Contains(lower, "limit"):
		return fmt.Errorf("%w: %w: %q", ErrStatus, searchapi.ErrRateLimited, status)
	case strings.Contains(lower, "key"):
		return fmt.Errorf("%w: %w: %q", ErrStatus, searchapi.ErrUnauthorized, status)
	}
	return fmt.Errorf("%w: %q", ErrStatus, status)
}
