package atomicfile

import (
	"os"
	"strconv"
	"testing"
)

func TestOpenFileNumber(t *testing.T) {
	pid := strconv.Itoa(os.Getpid())
	for _, tt := range []struct {
		path string
		fd   int
		ok   bool
	}{
		{"/dev/stdout", 1, true}, {"/dev/stderr", 2, true}, {"/dev/./stdout", 1, true},
		{"/dev/fd/7", 7, true}, {"/proc/self/fd/12", 12, true}, {"/proc/thread-self/fd/3", 3, true},
		{"/proc/" + pid + "/fd/4", 4, true},
		{"/dev/stdin", 0, false}, {"/dev/fd/07", 0, false}, {"/dev/fd/-1", 0, false}, {"/dev/fd/1/x", 0, false},
		{"/proc/1/fd/1", 0, false}, {"dev/stdout", 0, false}, {"/dev/null", 0, false},
	} {
		fd, ok := openFileNumber(tt.path)
		if ok != tt.ok || ok && fd != tt.fd {
			t.Errorf("openFileNumber(%q) = %d, %v, want %d, %v", tt.path, fd, ok, tt.fd, tt.ok)
		}
	}
}
