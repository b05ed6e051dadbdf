package memento_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/provider/memento"
)

// TestMemGator reads the answers of MemGator (github.com/oduwsdl/MemGator,
// main.go: serializeLinks), the self-hosted aggregator that replaces the
// Memento Time Travel service: the description of the mementos around a
// datetime (/api/json/, an alias of /memento/json/), one URI-M a string
// per relation and the relations in the order of the TimeMap, and the JSON
// TimeMap (/timemap/json/), every memento in mementos.list.
func TestMemGator(t *testing.T) {
	f := &fakeService{answers: map[string]string{page: "memgator.json"}, timemaps: map[string]string{page: "memgator-timemap.json"}}
	c := newClient(t, f)
	a, o := f.url, f.url+"/other"

	got, err := c.Lookup(context.Background(), page, date(2010, 2, 1, 0, 0, 0))
	if err != nil {
		t.Fatalf("Lookup: %v", err)
	}
	last := &memento.Memento{Time: date(2011, 6, 30, 12, 0, 0), URIs: []string{o + "/wayback/20110630120000/" + page}}
	want := &memento.Mementos{
		Original:    page,
		First:       &memento.Memento{Time: date(2005, 3, 12, 8, 15, 22), URIs: []string{a + "/web/20050312081522/" + page}},
		Prev:        &memento.Memento{Time: date(2009, 6, 1, 0, 0, 0), URIs: []string{a + "/web/20090601000000/" + page}},
		Closest:     &memento.Memento{Time: date(2010, 2, 20, 10, 10, 10), URIs: []string{a + "/web/20100220101010/" + page}},
		Next:        last,
		Last:        last,
		TimeGate:    f.url + "/timegate/" + page,
		TimeMapJSON: f.url + "/timemap/json/" + page,
		TimeMapLink: f.url + "/timemap/link/" + page,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Lookup (-want +got):\n%s", diff)
	}

	tm, err := c.TimeMap(context.Background(), page)
	if err != nil {
		t.Fatalf("TimeMap: %v", err)
	}
	wantTM := []memento.Memento{*want.First, *want.Prev, *want.Closest, *last}
	if diff := cmp.Diff(wantTM, tm); diff != "" {
		t.Errorf("TimeMap (-want +got):\n%s", diff)
	}

	// MemGator answers 404 "404 page not found" when no archive has one.
	if _, err := c.TimeMap(context.Background(), "http://example.com/never"); !errors.Is(err, memento.ErrNoMemento) {
		t.Errorf("TimeMap(never) = %v, want ErrNoMemento", err)
	}
}

// TestNoBaseURL checks that a Client without BaseURL fails at once with
// ErrNoBaseURL, saying what to run: the Time Travel service it used to
// default to is gone.
func TestNoBaseURL(t *testing.T) {
	c := &memento.Client{}
	ctx := context.Background()
	if _, err := c.Lookup(ctx, page, time.Time{}); !errors.Is(err, memento.ErrNoBaseURL) {
		t.Errorf("Lookup = %v, want ErrNoBaseURL", err)
	}
	if _, err := c.TimeMap(ctx, page); !errors.Is(err, memento.ErrNoBaseURL) {
		t.Errorf("TimeMap = %v, want ErrNoBaseURL", err)
	}
	if _, err := c.Fetch(ctx, page); !errors.Is(err, memento.ErrNoBaseURL) {
		t.Errorf("Fetch = %v, want ErrNoBaseURL", err)
	}
}

// TestParseTimeMap checks TimeMaps that are not as MemGator writes them:
// a bad entry is skipped, not the end of the TimeMap.
func TestParseTimeMap(t *testing.T) {
	tests := []struct {
		name    string
		body    string
		want    int
		wantErr error
	}{
		{"one bad datetime", `{"mementos":{"list":[{"datetime":"yesterday","uri":"http://a/1"},{"datetime":"2010-01-01T00:00:00Z","uri":"http://a/2"}]}}`, 1, nil},
		{"out of order", `{"mementos":{"list":[{"datetime":"2011-01-01T00:00:00Z","uri":"http://a/2"},{"datetime":"2010-01-01T00:00:00Z","uri":"http://a/1"}]}}`, 2, nil},
		{"nothing usable", `{"mementos":{"list":[{"datetime":"2010-01-01T00:00:00Z","uri":"ftp://a/"}]}}`, 0, memento.ErrMalformed},
		{"empty list", `{"mementos":{"list":[]}}`, 0, memento.ErrNoMemento},
		{"description, no list", `{"mementos":{"first":{"datetime":"2010-01-01T00:00:00Z","uri":"http://a/"}}}`, 0, memento.ErrNoMemento},
		{"unescaped quote in a URI-M", "{\"mementos\":{\"list\":[{\"datetime\":\"2010-01-01T00:00:00Z\",\"uri\":\"http://a/\"q\"}]}}", 0, memento.ErrMalformed},
		{"not JSON", "404 page not found", 0, memento.ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := memento.ParseTimeMap([]byte(tt.body))
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) || len(got) != tt.want {
				t.Fatalf("ParseTimeMap(%q) = %v, %v, want %d mementos and %v", tt.body, got, err, tt.want, tt.wantErr)
			}
			for i := 1; i < len(got); i++ {
				if got[i].Time.Before(got[i-1].Time) {
					t.Errorf("ParseTimeMap(%q) not oldest first: %v", tt.body, got)
				}
			}
		})
	}
}
