package score

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBucket checks the rows of the paper's Tables 3 and 4 (§4.5 "Measures
// of Success") at every boundary.
func TestBucket(t *testing.T) {
	tests := []struct {
		name string
		rank int
		want string
	}{
		{"first", 1, "1"},
		{"second", 2, "2-10"},
		{"last of first page", 10, "2-10"},
		{"first of second page", 11, "11-100"},
		{"hundredth", 100, "11-100"},
		{"hundred and first", 101, "101-1000"},
		{"thousandth", 1000, "101-1000"},
		{"beyond", 1001, ">1000"},
		{"not found", 0, ">1000"},
		{"negative", -1, ">1000"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Bucket(tc.rank); got != tc.want {
				t.Errorf("Bucket(%d) = %q, want %q", tc.rank, got, tc.want)
			}
		})
	}
}

func TestBucketNames(t *testing.T) {
	want := []string{"1", "2-10", "11-100", "101-1000", ">1000"}
	got := BucketNames()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("BucketNames() mismatch (-want +got):\n%s", diff)
	}
	got[0] = "changed"
	if again := BucketNames(); again[0] != "1" {
		t.Errorf("BucketNames()[0] = %q after the caller changed its copy, want %q", again[0], "1")
	}
}
