//go:build unix

package store_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// readAsNobody reads the store at path read-only as uid 65534 in a child
// process, with a copy of this test binary in base, or skips the test where
// the system does not let root run a process as another user.
func readAsNobody(t *testing.T, base, path string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	copyExe := filepath.Join(base, "store.test")
	if err := os.WriteFile(copyExe, bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{filepath.Dir(base), base} { // t.TempDir's are 0700
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := child(t, copyExe, "read "+path)
	cmd.Dir = base
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Skipf("cannot run a process as uid 65534 here (%v): the read as another user is untested", err)
	}
	if err != nil || strings.TrimSpace(string(out)) != fmt.Sprintf("pages %d", fixtureStats.Pages) {
		t.Errorf("read-only Open as another user in a directory it cannot write: %v\n%s", err, out)
	}
}
