package review_test

import (
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/linkrot/relink/repair"
	"github.com/linkrot/relink/repair/review"
)

func ExampleServer() {
	dir, err := os.MkdirTemp("", "review")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	state := filepath.Join(dir, "decisions.json")

	results := []repair.Result{{
		Dead: "https://old.example/guide.html", Verdict: repair.Gone, Confidence: 0.6,
		Candidates: []repair.Candidate{
			{URI: "https://new.example/intro/", Title: "Introduction"},
			{URI: "https://new.example/guide/", Title: "The guide"},
		},
	}}
	token := review.NewToken()
	srv, err := review.New(results, review.Options{Token: token, State: state})
	if err != nil {
		log.Fatal(err)
	}
	// A real program serves srv on a loopback listener and prints
	// http://127.0.0.1:PORT/?token=... for the person.
	page := httptest.NewRecorder()
	srv.ServeHTTP(page, httptest.NewRequest("GET", "http://127.0.0.1:8080/?token="+url.QueryEscape(token), nil))
	fmt.Println(page.Code, strings.Contains(page.Body.String(), "The guide"))

	// The person picks the second candidate: the page posts this.
	form := url.Values{"token": {token}, "id": {"0"}, "decision": {"accept"}, "uri": {"https://new.example/guide/"}}
	req := httptest.NewRequest("POST", "http://127.0.0.1:8080/decide", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	srv.ServeHTTP(httptest.NewRecorder(), req)

	// The state file is what relink fix -decisions reads.
	b, err := os.ReadFile(state)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(b))

	noToken := httptest.NewRecorder()
	srv.ServeHTTP(noToken, httptest.NewRequest("GET", "http://127.0.0.1:8080/", nil))
	fmt.Println(noToken.Code == http.StatusForbidden)
	// Output:
	// 200 true
	// {"decisions": [
	//   {"dead":"https://old.example/guide.html","uri":"https://new.example/guide/","decision":"accept"}
	// ]}
	// true
}
