package filter

import "testing"

// TestCheckStatus checks the HTTP status filter: only 2xx answers are kept
// (§3.1 "HTTP Status Codes", Table "HTTP Status Codes").
func TestCheckStatus(t *testing.T) {
	tests := []struct {
		name   string
		status int
		want   string // "" when kept
	}{
		{"OK", 200, ""},
		{"no content", 204, ""},
		{"partial content", 206, ""},
		{"last 2xx", 299, ""},
		{"not found", 404, "HTTP 404 Not Found"},
		{"forbidden", 403, "HTTP 403 Forbidden"},
		{"server error", 500, "HTTP 500 Internal Server Error"},
		{"unfollowed redirect", 301, "HTTP 301 Moved Permanently"},
		{"informational", 100, "HTTP 100 Continue"},
		{"no status", 0, "HTTP 0"},
		{"non-standard", 599, "HTTP 599"},
		{"negative", -1, "HTTP -1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := checkStatus(&Page{Status: tt.status})
			switch {
			case tt.want == "" && r != nil:
				t.Errorf("checkStatus(%d) = %v, want kept", tt.status, r)
			case tt.want != "" && (r == nil || r.Filter != FilterStatus || r.Reason != tt.want):
				t.Errorf("checkStatus(%d) = %v, want %s: %s", tt.status, r, FilterStatus, tt.want)
			}
		})
	}
}

// TestIsRedirect pins the statuses fetchers follow before the filters see
// the final answer (§3.1 "HTTP Status Codes": status after redirects).
func TestIsRedirect(t *testing.T) {
	tests := []struct {
		name   string
		status int
		want   bool
	}{
		{"moved permanently", 301, true},
		{"found", 302, true},
		{"see other", 303, true},
		{"temporary", 307, true},
		{"permanent", 308, true},
		{"multiple choices", 300, false},
		{"not modified", 304, false},
		{"use proxy", 305, false},
		{"ok", 200, false},
		{"not found", 404, false},
		{"zero", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsRedirect(tt.status); got != tt.want {
				t.Errorf("IsRedirect(%d) = %v, want %v", tt.status, got, tt.want)
			}
		})
	}
}
