package backlink

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/linkrot/relink/canon"
)

// graph is a fake backlink provider: for each canonical URI, the pages
// linking to it, best first.
type graph map[string][]string

// provider returns a Provider answering from g; it fails the test when
// asked about a URI that is not canonical (the Provider contract).
func (g graph) provider(t *testing.T) Provider {
	return ProviderFunc(func(ctx context.Context, uri string, limit int) ([]Backlink, error) {
		if c, err := canon.Canonicalize(uri); err != nil || c != uri {
			t.Errorf("provider asked about %q, which is not canonical", uri)
		}
		var out []Backlink
		for i, u := range g[uri] {
			out = append(out, Backlink{URI: u, Rank: i + 1, Level: 1})
		}
		return out, nil
	})
}

// TestNeighborhood checks the depth-2 walk of the paper's §3.2 "Backlink
// Depth": level 1 in provider order, level 2 after it, deduplicated by
// canonical URI, without the target, ranks renumbered per level.
func TestNeighborhood(t *testing.T) {
	g := graph{
		"http://t.example/missing": {"http://a.example/1", "http://b.example/2", "HTTP://A.example:80/1#dup", "http://t.example/missing/", "http://c.example/3"},
		"http://a.example/1":       {"http://d.example/4", "http://b.example/2", "http://e.example/5"},
		"http://b.example/2":       {"http://e.example/5/", "http://f.example/6", "not a uri", "http://t.example/missing"},
		"http://c.example/3":       {"http://g.example/7"},
		"http://d.example/4":       {"http://h.example/8"},
		"http://g.example/7":       {"http://a.example/1", "http://i.example/9"},
	}
	tests := []struct {
		name         string
		target       string
		depth, limit int
		want         []Backlink
	}{
		{"level 1", "http://t.example/missing", 1, 10, []Backlink{
			{URI: "http://a.example/1", Rank: 1, Level: 1, Via: "http://t.example/missing"},
			{URI: "http://b.example/2", Rank: 2, Level: 1, Via: "http://t.example/missing"},
			{URI: "http://c.example/3", Rank: 3, Level: 1, Via: "http://t.example/missing"},
		}},
		{"depth below 1 reads as 1", "http://t.example/missing", 0, 10, []Backlink{
			{URI: "http://a.example/1", Rank: 1, Level: 1, Via: "http://t.example/missing"},
			{URI: "http://b.example/2", Rank: 2, Level: 1, Via: "http://t.example/missing"},
			{URI: "http://c.example/3", Rank: 3, Level: 1, Via: "http://t.example/missing"},
		}},
		{"levels 1 and 2", "HTTP://t.example/missing#x", 2, 10, []Backlink{
			{URI: "http://a.example/1", Rank: 1, Level: 1, Via: "http://t.example/missing"},
			{URI: "http://b.example/2", Rank: 2, Level: 1, Via: "http://t.example/missing"},
			{URI: "http://c.example/3", Rank: 3, Level: 1, Via: "http://t.example/missing"},
			{URI: "http://d.example/4", Rank: 1, Level: 2, Via: "http://a.example/1"},
			{URI: "http://e.example/5", Rank: 2, Level: 2, Via: "http://a.example/1"},
			{URI: "http://f.example/6", Rank: 3, Level: 2, Via: "http://b.example/2"},
			{URI: "http://g.example/7", Rank: 4, Level: 2, Via: "http://c.example/3"},
		}},
		{"limit cuts each answer", "http://t.example/missing", 2, 2, []Backlink{
			{URI: "http://a.example/1", Rank: 1, Level: 1, Via: "http://t.example/missing"},
			{URI: "http://b.example/2", Rank: 2, Level: 1, Via: "http://t.example/missing"},
			{URI: "http://d.example/4", Rank: 1, Level: 2, Via: "http://a.example/1"},
			{URI: "http://e.example/5/", Rank: 2, Level: 2, Via: "http://b.example/2"},
			{URI: "http://f.example/6", Rank: 3, Level: 2, Via: "http://b.example/2"},
		}},
		{"depth 3", "http://t.example/missing", 3, 10, []Backlink{
			{URI: "http://a.example/1", Rank: 1, Level: 1, Via: "http://t.example/missing"},
			{URI: "http://b.example/2", Rank: 2, Level: 1, Via: "http://t.example/missing"},
			{URI: "http://c.example/3", Rank: 3, Level: 1, Via: "http://t.example/missing"},
			{URI: "http://d.example/4", Rank: 1, Level: 2, Via: "http://a.example/1"},
			{URI: "http://e.example/5", Rank: 2, Level: 2, Via: "http://a.example/1"},
			{URI: "http://f.example/6", Rank: 3, Level: 2, Via: "http://b.example/2"},
			{URI: "http://g.example/7", Rank: 4, Level: 2, Via: "http://c.example/3"},
			{URI: "http://h.example/8", Rank: 1, Level: 3, Via: "http://d.example/4"},
			{URI: "http://i.example/9", Rank: 2, Level: 3, Via: "http://g.example/7"},
		}},
		{"nobody links", "http://nowhere.example/", 2, 10, []Backlink{}},
		{"limit 0", "http://t.example/missing", 2, 0, []Backlink{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Neighborhood(context.Background(), g.provider(t), tt.target, tt.depth, tt.limit)
			if err != nil {
				t.Fatalf("Neighborhood(%q, %d, %d) error: %v", tt.target, tt.depth, tt.limit, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Neighborhood(%q, %d, %d) (-want +got):\n%s", tt.target, tt.depth, tt.limit, diff)
			}
		})
	}
}

// TestNeighborhoodConcurrency checks that level-2 queries overlap, never
// more than MaxConcurrentQueries at once, and that the order stays the
// provider's whatever order the answers arrive in.
func TestNeighborhoodConcurrency(t *testing.T) {
	const pages = 12
	var inFlight, peak atomic.Int32
	p := ProviderFunc(func(ctx context.Context, uri string, limit int) ([]Backlink, error) {
		if uri == "http://t.example" {
			var out []Backlink
			for i := range pages {
				out = append(out, Backlink{URI: "http://l1.example/" + string(rune('a'+i)), Rank: i + 1, Level: 1})
			}
			return out, nil
		}
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			old := peak.Load()
			if n <= old || peak.CompareAndSwap(old, n) {
				break
			}
		}
		// Later pages answer sooner, so arrival order is reversed.
		time.Sleep(time.Duration(pages-int(uri[len(uri)-1]-'a')) * time.Millisecond)
		return []Backlink{{URI: uri + "/in", Rank: 1, Level: 1}}, nil
	})
	got, err := Neighborhood(context.Background(), p, "http://t.example", 2, 100)
	if err != nil {
		t.Fatalf("Neighborhood error: %v", err)
	}
	if len(got) != 2*pages {
		t.Fatalf("Neighborhood returned %d pages, want %d", len(got), 2*pages)
	}
	for i := range pages {
		parent := "http://l1.example/" + string(rune('a'+i))
		want := Backlink{URI: parent + "/in", Rank: i + 1, Level: 2, Via: parent}
		if diff := cmp.Diff(want, got[pages+i]); diff != "" {
			t.Errorf("level-2 page %d (-want +got):\n%s", i, diff)
		}
	}
	if p := peak.Load(); p > MaxConcurrentQueries || p < 2 {
		t.Errorf("peak concurrent queries = %d, want between 2 and %d", p, MaxConcurrentQueries)
	}
}

// TestNeighborhoodErrors checks provider failures, cancellation and a bad
// target.
func TestNeighborhoodErrors(t *testing.T) {
	errDown := errors.New("search engine down")
	level1 := []Backlink{{URI: "http://a.example/", Rank: 1, Level: 1}, {URI: "http://b.example/", Rank: 2, Level: 1}}

	t.Run("level 1 failure", func(t *testing.T) {
		p := ProviderFunc(func(ctx context.Context, uri string, limit int) ([]Backlink, error) {
			return nil, errDown
		})
		_, err := Neighborhood(context.Background(), p, "http://t.example/", 2, 10)
		if !errors.Is(err, errDown) {
			t.Errorf("Neighborhood error = %v, want %v", err, errDown)
		}
	})
	t.Run("level 2 failure", func(t *testing.T) {
		p := ProviderFunc(func(ctx context.Context, uri string, limit int) ([]Backlink, error) {
			switch uri {
			case "http://t.example":
				return level1, nil
			case "http://b.example":
				return nil, errDown
			}
			<-ctx.Done() // the other query waits until the walk gives up
			return nil, ctx.Err()
		})
		_, err := Neighborhood(context.Background(), p, "http://t.example/", 2, 10)
		if !errors.Is(err, errDown) {
			t.Errorf("Neighborhood error = %v, want %v", err, errDown)
		}
	})
	t.Run("cancelled before", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		called := false
		p := ProviderFunc(func(ctx context.Context, uri string, limit int) ([]Backlink, error) {
			called = true
			return level1, nil
		})
		_, err := Neighborhood(ctx, p, "http://t.example/", 2, 10)
		if !errors.Is(err, context.Canceled) || called {
			t.Errorf("Neighborhood on a cancelled context = %v (provider called: %v), want %v and no call", err, called, context.Canceled)
		}
	})
	t.Run("cancelled during, provider ignores ctx", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		release := make(chan struct{})
		defer close(release)
		var once sync.Once
		p := ProviderFunc(func(_ context.Context, uri string, limit int) ([]Backlink, error) {
			if uri == "http://t.example" {
				return level1, nil
			}
			once.Do(cancel)
			<-release // a provider that does not watch ctx
			return nil, nil
		})
		done := make(chan error, 1)
		go func() {
			_, err := Neighborhood(ctx, p, "http://t.example/", 2, 10)
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("Neighborhood error = %v, want %v", err, context.Canceled)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("Neighborhood did not return after cancellation")
		}
	})
	t.Run("deadline", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		p := ProviderFunc(func(ctx context.Context, uri string, limit int) ([]Backlink, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})
		_, err := Neighborhood(ctx, p, "http://t.example/", 1, 10)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Neighborhood error = %v, want %v", err, context.DeadlineExceeded)
		}
	})
	t.Run("bad target", func(t *testing.T) {
		p := ProviderFunc(func(ctx context.Context, uri string, limit int) ([]Backlink, error) {
			t.Error("provider called for a bad target")
			return nil, nil
		})
		_, err := Neighborhood(context.Background(), p, "/relative", 1, 10)
		if !errors.Is(err, ErrBadURI) || !errors.Is(err, canon.ErrNotAbsolute) {
			t.Errorf("Neighborhood error = %v, want %v and %v", err, ErrBadURI, canon.ErrNotAbsolute)
		}
	})
}
