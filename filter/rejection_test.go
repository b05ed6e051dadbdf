package filter

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestOrder checks the order in which Check applies the filters: status
// and file type first, soft 404 last (see Order for why it differs from the
// paper's Table "Pre-Processing Results").
func TestOrder(t *testing.T) {
	want := []string{"status", "filetype", "size", "language", "soft404"}
	if diff := cmp.Diff(want, Order); diff != "" {
		t.Errorf("Order mismatch (-want +got):\n%s", diff)
	}
}

// TestRejectionString checks how a rejection prints in an audit trail.
func TestRejectionString(t *testing.T) {
	tests := []struct {
		name string
		r    *Rejection
		want string
	}{
		{"kept", nil, "kept"},
		{"status", &Rejection{Filter: FilterStatus, Reason: "HTTP 404 Not Found"}, "status: HTTP 404 Not Found"},
		{"empty reason", &Rejection{Filter: FilterSoft404}, "soft404: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.r.String(); got != tt.want {
				t.Errorf("(%#v).String() = %q, want %q", tt.r, got, tt.want)
			}
		})
	}
}
