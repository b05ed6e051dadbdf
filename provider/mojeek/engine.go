package mojeek

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/linkrot/relink/provider/internal/apiclient"
)

// engine describes Mojeek's search API for pages of size results: the key
// in the KeyParam parameter, fmt=json, s (1 first) and t, no OR operator.
func engine(size int) *apiclient.Engine[envelope] {
	return &apiclient.Engine[envelope]{
		Service:  "mojeek",
		KeyParam: KeyParam,
		Params: func(q string, p apiclient.Page) url.Values {
			return url.Values{"q": {q}, "fmt": {"json"}, "s": {strconv.Itoa(p.Start)}, "t": {strconv.Itoa(p.Count)}}
		},
		Paging: apiclient.Paging{By: apiclient.ByStart, Size: size, Max: MaxResults},
		Check:  apiclient.RefuseOR,
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
func read(env *envelope, p apiclient.Page) (apiclient.Answer, error) {
	r := env.Response
	if r == nil {
		return apiclient.Answer{}, fmt.Errorf("%w: no \"response\" object", ErrMalformed)
	}
	if r.Status != "OK" {
		return apiclient.Answer{}, statusError(r.Status)
	}
	ans := apiclient.Answer{Total: r.Head.Results, Last: int64(p.Start-1+len(r.Results)) >= r.Head.Results}
	for _, res := range r.Results {
		ans.Hits = append(ans.Hits, apiclient.Hit{URL: res.URL, Title: res.Title})
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
		return fmt.Errorf("%w: %w: %q", ErrStatus, ErrRateLimited, status)
	case strings.Contains(lower, "key"):
		return fmt.Errorf("%w: %w: %q", ErrStatus, ErrUnauthorized, status)
	}
	return fmt.Errorf("%w: %q", ErrStatus, status)
}
