package searchapi_test

import (
	"fmt"
	"testing"

	"github.com/linkrot/relink/provider/searchapi"
)

// options is an engine's Options as FormatOptions sees them.
type options struct {
	Key      string
	BaseURL  string
	PageSize int
	Engines  string
	searchapi.Transport
	hidden string
}

func (o options) Format(f fmt.State, verb rune) { searchapi.FormatOptions(f, o, "public") }

func TestFormatOptions(t *testing.T) {
	tests := []struct {
		name string
		o    options
		want string
	}{
		{"key hidden", options{Key: "s3cret", PageSize: 20}, `searchapi_test.options{Key: REDACTED, BaseURL: "", PageSize: 20, Engines: ""}`},
		{"no key", options{Engines: "brave"}, `searchapi_test.options{Key: , BaseURL: "", PageSize: 0, Engines: "brave"}`},
		{"public key shown", options{Key: "public"}, `searchapi_test.options{Key: public, BaseURL: "", PageSize: 0, Engines: ""}`},
		{"password hidden", options{BaseURL: "https://me:s3cret@example.org/x"}, `searchapi_test.options{Key: , BaseURL: "https://me:xxxxx@example.org/x", PageSize: 0, Engines: ""}`},
		{"no URL", options{BaseURL: "http://me:s3cret@%zz"}, `searchapi_test.options{Key: , BaseURL: "(not a URL)", PageSize: 0, Engines: ""}`},
		{"transport and unexported fields left out", options{Transport: searchapi.Transport{UserAgent: "ua"}, hidden: "s3cret"}, `searchapi_test.options{Key: , BaseURL: "", PageSize: 0, Engines: ""}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%x"} {
				if got := fmt.Sprintf(verb, tt.o); got != tt.want {
					t.Errorf("Sprintf(%q) = %q, want %q", verb, got, tt.want)
				}
			}
		})
	}
}
