package apiclient_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"golang.org/x/time/rate"

	"github.com/linkrot/relink/provider/internal/apiclient"
)

func ExampleClient_GetJSON() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("key") != "k-123" {
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprint(w, `{"error":"invalid key"}`)
			return
		}
		fmt.Fprint(w, `{"hits": 42}`)
	}))
	defer srv.Close()

	c := &apiclient.Client{Service: "demo", Transport: apiclient.Transport{Rate: rate.Inf}, Secrets: []string{"key"}}
	for _, key := range []string{"k-123", "wrong-key"} {
		req, err := http.NewRequest(http.MethodGet, srv.URL+"/count?q=relink&key="+key, nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		var answer struct{ Hits int64 }
		err = c.GetJSON(context.Background(), req, &answer)
		var se *apiclient.StatusError
		switch {
		case errors.Is(err, apiclient.ErrUnauthorized) && errors.As(err, &se):
			fmt.Println("refused:", se)
		case err != nil:
			fmt.Println(err)
		default:
			fmt.Println("hits:", answer.Hits)
		}
	}
	// Output:
	// hits: 42
	// refused: HTTP 403 Forbidden: {"error":"invalid key"}
}

func ExampleClient_GetBytes() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><title>Archived</title></html>")
	}))
	defer srv.Close()

	c := &apiclient.Client{Service: "archive", Transport: apiclient.Transport{Rate: rate.Inf, Backoff: time.Millisecond}, MaxBody: 16}
	req, err := http.NewRequest(http.MethodGet, srv.URL+"/web/2008/http://example.com/", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	resp, err := c.GetBytes(context.Background(), req)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d %q truncated=%v\n", resp.Status, resp.Body, resp.Truncated)
	// Output:
	// 200 "<html><title>Arc" truncated=true
}
