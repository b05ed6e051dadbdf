package eval

import (
	"runtime"
	"slices"
	"testing"
	"unsafe"
	"weak"
)

// TestOwn: the terms a report keeps do not keep alive the words they were
// cut from (the words drawn from a backlink page share one buffer).
func TestOwn(t *testing.T) {
	words := new([1 << 20]byte)
	copy(words[:], "rye sourdough starter")
	gone := weak.Make(words)
	terms := own([]string{unsafe.String(&words[0], 3), unsafe.String(&words[4], 9)})
	words = nil
	runtime.GC()
	runtime.GC()
	if gone.Value() != nil {
		t.Error("the words' buffer is alive after own")
	}
	if want := []string{"rye", "sourdough"}; !slices.Equal(terms, want) {
		t.Errorf("own = %q, want %q", terms, want)
	}
}
