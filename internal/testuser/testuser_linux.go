package testuser

import (
	"syscall"
	"testing"
)

// As runs f with the effective user and group IDs uid and gid, the real
// and saved IDs staying root's, and then makes the process root again. It
// skips the test, saying why, when not run as root. The whole process
// changes, every goroutine included: a test that calls it must not run in
// parallel with others, and f must not call t.Fatal (files the test
// creates in f belong to uid).
func As(t testing.TB, uid, gid int, f func()) {
	t.Helper()
	if syscall.Geteuid() != 0 {
		t.Skip("acting as another user needs root")
	}
	if err := syscall.Setresgid(-1, gid, -1); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Setresuid(-1, uid, -1); err != nil {
		syscall.Setresgid(-1, 0, -1)
		t.Fatal(err)
	}
	defer func() {
		if err := syscall.Setresuid(-1, 0, -1); err != nil {
			panic(err) // the rest of the run cannot go on as another user
		}
		if err := syscall.Setresgid(-1, 0, -1); err != nil {
			panic(err)
		}
	}()
	f()
}
