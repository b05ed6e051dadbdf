package backlink

import (
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRadiusString checks the names of the paper's figures (§3.2
// "Radius": anchor, ±5, ±10, whole page) and of other radii.
func TestRadiusString(t *testing.T) {
	tests := []struct {
		r    Radius
		want string
	}{
		{Anchor, "anchor"},
		{5, "five"},
		{10, "ten"},
		{Page, "page"},
		{1, "r1"},
		{20, "r20"},
		{1000, "r1000"},
		{math.MaxInt, "r" + strconv.Itoa(math.MaxInt)},
		{-2, "Radius(-2)"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.r.String(), "Radius(%d).String()", int(tt.r))
	}
}

func TestParseRadius(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Radius
		bad  bool
	}{
		{name: "anchor", in: "anchor", want: Anchor},
		{name: "five", in: "five", want: 5},
		{name: "ten", in: "ten", want: 10},
		{name: "page", in: "page", want: Page},
		{name: "case and space", in: " Ten\n", want: 10},
		{name: "rN", in: "r20", want: 20},
		{name: "rN upper case", in: "R7", want: 7},
		{name: "rN of a paper radius", in: "r5", want: 5},
		{name: "r0", in: "r0", want: Anchor},
		{name: "number", in: "5", want: 5},
		{name: "zero", in: "0", want: Anchor},
		{name: "plus sign", in: "+3", want: 3},
		{name: "minus one is the page", in: "-1", want: Page},
		{name: "largest int", in: strconv.Itoa(math.MaxInt), want: math.MaxInt},
		{name: "below page", in: "-2", bad: true},
		{name: "r below page", in: "r-1", bad: true},
		{name: "r with sign", in: "r+5", bad: true},
		{name: "r alone", in: "r", bad: true},
		{name: "r with space", in: "r 5", bad: true},
		{name: "invalid radius name", in: "Radius(-2)", bad: true},
		{name: "overflow", in: "99999999999999999999", bad: true},
		{name: "r overflow", in: "r99999999999999999999", bad: true},
		{name: "word", in: "wide", bad: true},
		{name: "empty", in: "", bad: true},
		{name: "fraction", in: "2.5", bad: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseRadius(tt.in)
			if tt.bad {
				require.ErrorIs(t, err, ErrBadRadius)
				assert.Contains(t, err.Error(), strconv.Quote(tt.in))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// FuzzRadius checks that every valid radius round-trips through its name
// and its number, and that no radius below Page parses.
func FuzzRadius(f *testing.F) {
	for _, n := range []int64{-3, -2, -1, 0, 1, 5, 10, 20, 1000, math.MaxInt64, math.MinInt64} {
		f.Add(n)
	}
	f.Fuzz(func(t *testing.T, n int64) {
		if int64(int(n)) != n {
			t.Skip("not an int on this platform")
		}
		r := Radius(n)
		for _, s := range []string{r.String(), strconv.FormatInt(n, 10)} {
			got, err := ParseRadius(s)
			if r < Page {
				if err == nil {
					t.Fatalf("ParseRadius(%q) = %d, want an error for a radius below Page", s, got)
				}
				continue
			}
			if err != nil || got != r {
				t.Fatalf("ParseRadius(%q) = %d, %v, want %d", s, got, err, r)
			}
		}
	})
}

// FuzzParseRadius checks that ParseRadius never panics, fails only with
// ErrBadRadius, and that what it accepts is a valid radius whose name
// reads back to it.
func FuzzParseRadius(f *testing.F) {
	for _, s := range []string{"anchor", "five", "ten", "page", "r20", "5", "-1", "-2", "r-1", "wide", "", "r", "+7", "R0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRadius(s)
		if err != nil {
			require.ErrorIs(t, err, ErrBadRadius)
			return
		}
		if r < Page {
			t.Fatalf("ParseRadius(%q) = %d, below Page", s, r)
		}
		back, err := ParseRadius(r.String())
		if err != nil || back != r {
			t.Fatalf("ParseRadius(%q) = %d, but ParseRadius(%q) = %d, %v", s, r, r.String(), back, err)
		}
	})
}
