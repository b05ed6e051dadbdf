package store

import (
	"strconv"
	"testing"

	"github.com/linkrot/relink/lexsig"
)

// results returns n results.
func results(n int) []lexsig.Result {
	out := make([]lexsig.Result, n)
	for i := range out {
		out[i] = lexsig.Result{Rank: i + 1, URI: "https://e.example/" + strconv.Itoa(i)}
	}
	return out
}

func TestQueryCache(t *testing.T) {
	c := newQueryCache(10)
	c.put("a", results(4))
	c.put("b", results(4))
	if _, ok := c.get("a"); !ok { // a is now the most recently used
		t.Fatal("a not cached")
	}
	c.put("c", results(4)) // 12 > 10: b, the least recently used, goes
	for key, want := range map[string]bool{"a": true, "b": false, "c": true} {
		if _, ok := c.get(key); ok != want {
			t.Errorf("after evicting, get(%q) found = %v, want %v", key, ok, want)
		}
	}
	c.put("huge", results(11))
	if _, ok := c.get("huge"); ok {
		t.Error("an answer larger than the cache was cached")
	}
	c.put("empty", nil)
	got, ok := c.get("empty")
	if !ok || len(got) != 0 {
		t.Errorf("get(empty) = %v, %v, want a cached empty answer", got, ok)
	}
	got, _ = c.get("a")
	got[0].URI = "changed"
	if again, _ := c.get("a"); again[0].URI == "changed" {
		t.Error("a caller's change to an answer reached the cache")
	}
	c.clear()
	if _, ok := c.get("a"); ok || c.held != 0 {
		t.Errorf("after clear: a cached = %v, held = %d", ok, c.held)
	}
	var none *queryCache
	none.put("a", results(1))
	if _, ok := none.get("a"); ok {
		t.Error("a nil cache cached an answer")
	}
}
