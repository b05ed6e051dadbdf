package main

import (
	"strings"
	"testing"

	"github.com/linkrot/relink/repair"
)

// TestFixNoOrEngine runs the default method against engines without an
// OR operator (Marginalia, Mojeek): its disjunctive query, which they
// cannot express, finds nothing, and the other queries still decide the
// verdict, where the refused query used to make every dead link unknown.
func TestFixNoOrEngine(t *testing.T) {
	for _, tt := range []struct {
		engine string
		args   []string
	}{
		{"marginalia", nil},
		{"mojeek", []string{"-key", "k"}},
	} {
		t.Run(tt.engine, func(t *testing.T) {
			clearEnv(t)
			srv, _ := liveFixSite(t)
			engine := newFakeSearch(t, tt.engine)
			db := buildFixStore(t, srv.URL+"/")
			in := srv.URL + "/guides/sourdough-starter.html\n"
			args := append([]string{"-store", db, "-fetch", "web", "-allow-private", "-search", tt.engine, "-search-url", engine.URL, "-rate", "inf"}, tt.args...)
			got, _ := fixResults(t, in, args...)
			if len(got) != 1 || got[0].Verdict == repair.Unknown {
				t.Fatalf("results %+v, want a verdict", got)
			}
			var or bool
			for _, q := range got[0].Queries {
				or = or || strings.Contains(q, " OR ")
			}
			if !or || engine.requests.Load() == 0 {
				t.Errorf("queries %q, %d requests: want the OR query among them, and the others sent", got[0].Queries, engine.requests.Load())
			}
			engine.mu.Lock()
			defer engine.mu.Unlock()
			for _, q := range engine.queries {
				if strings.Contains(q, " OR ") {
					t.Errorf("the engine was sent %q", q)
				}
			}
		})
	}
}
