package marginalia

import (
	"net/url"
	"strconv"

	"github.com/linkrot/relink/provider/searchapi"
)

// engine describes Marginalia's search API: the key in the KeyHeader
// header (PublicKey is no secret), query, count (1 to MaxCount) and page
// (1 first), no OR operator.
var engine = &searchapi.Engine[response]{
	Service:   "marginalia",
	BaseURL:   DefaultBaseURL,
	KeyHeader: KeyHeader,
	KeyEnv:    KeyEnv,
	Public:    PublicKey,
	Params: func(q string, p searchapi.Page) url.Values {
		return url.Values{"query": {q}, "count": {strconv.Itoa(p.Count)}, "page": {strconv.Itoa(p.N + 1)}}
	},
	Paging: searchapi.Paging{By: searchapi.ByPage, Size: MaxCount, Max: MaxResults},
	Check:  searchapi.RefuseOR,
	Read:   read,
}

// response is the part of Marginalia's answer a Client reads.
type response struct {
	Query   string `json:"query"`
	License string `json:"license"`
	Results []struct {
		URL         string `json:"url"`
		Title       string `json:"title"`
		Description string `json:"description"`
	} `json:"results"`
}

// read turns an answer into hits; a page shorter than asked for is the
// last (Marginalia says nothing of further pages).
func read(r *response, p searchapi.Page) (searchapi.Answer, error) {
	ans := searchapi.Answer{Last: len(r.Results) < p.Count}
	for _, res := range r.Results {
		ans.Hits = append(ans.Hits, searchapi.Hit{URL: res.URL, Title: res.Title})
	}
	return ans, nil
}
