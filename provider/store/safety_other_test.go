//go:build !unix

package store_test

import "testing"

// readAsNobody would read the store as another user; only Unix systems
// give a process another user id here.
func readAsNobody(t *testing.T, base, path string) {
	t.Skip("reading as another user is tested on Unix only")
}
