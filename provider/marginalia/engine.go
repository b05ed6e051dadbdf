package marginalia

import (
	"net/url"
	"strconv"

	"github.com/linkrot/relink/provider/internal/apiclient"
)

// engine describes Marginalia's search API: the key in the KeyHeader
// header (PublicKey is no secret), query, count (1 to MaxCount) and page
// (1 first), no OR operator.
var engine = &apiclient.Engine[response]{
	Service:   "marginalia",
	KeyHeader: KeyHeader,
	Public:    PublicKey,
	Params: func(q string, p apiclient.Page) url.Values {
		return url.Values{"query": {q}, "count": {strconv.Itoa(p.Count)}, "page": {strconv.Itoa(p.N + 1)}}
	},
	Paging: apiclient.Paging{By: apiclient.ByPage, Size: MaxCount, Max: MaxResults},
	Check:  apiclient.RefuseOR,
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
func read(r *response, p apiclient.Page) (apiclient.Answer, error) {
	ans := apiclient.Answer{Last: len(r.Results) < p.Count}
	for _, res := range r.Results {
		ans.Hits = append(ans.Hits, apiclient.Hit{URL: res.URL, Title: res.Title})
	}
	return ans, nil
}
