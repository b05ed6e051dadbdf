package release_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/linkrot/relink/lab/release"
)

// TestInstallFromModuleZip does what a user's `go install
// github.com/linkrot/relink/cmd/relink@v1.0.0` does, with the module
// served from a zip of the repository's HEAD in a local proxy directory,
// its dependencies from this machine's module download cache, and a clean
// GOPATH: the installed tool must run and say its version.
func TestInstallFromModuleZip(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the tool from a module zip")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.Command("git", "-C", repo, "rev-parse", "HEAD").Output(); err != nil {
		t.Skipf("not a git work tree: %v", err)
	}
	modcache, err := exec.Command(goCmd, "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	const version = "v1.0.0"
	proxy := t.TempDir()
	if err := release.WriteProxy(proxy, repo, "HEAD", version, time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	gopath := t.TempDir()
	env := append(os.Environ(),
		"GOPATH="+gopath,
		"GOMODCACHE="+filepath.Join(gopath, "pkg", "mod"),
		"GOBIN="+filepath.Join(gopath, "bin"),
		// The release from the local proxy, its dependencies from the
		// module cache's downloads: no network.
		"GOPROXY=file://"+proxy+",file://"+filepath.Join(strings.TrimSpace(string(modcache)), "cache", "download"),
		"GOSUMDB=off",
		"GOFLAGS=-modcacherw",
		"GOWORK=off",
		"GOTOOLCHAIN=local",
	)
	install := exec.Command(goCmd, "install", release.ModulePath+"/cmd/relink@"+version)
	install.Dir = gopath // outside any module
	install.Env = env
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install: %v\n%s", err, out)
	}
	bin := filepath.Join(gopath, "bin", "relink")
	out, err := exec.Command(bin, "-version").CombinedOutput()
	if err != nil {
		t.Fatalf("relink -version: %v\n%s", err, out)
	}
	// A module build records no commit: the release is named by its
	// version (and, where the go command records it, the module's sum).
	if got, want := strings.TrimSpace(string(out)), "relink "+version; !strings.HasPrefix(got, want) {
		t.Errorf("relink -version = %q, want it to start with %q", got, want)
	}
	// The installed tool does its work: the signature of a page read from
	// a file, as in the README.
	page := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(page, []byte(`<html><body><p>Read the <a href="https://example.org/guides/sourdough">sourdough starter guide</a> first.</p></body></html>`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err = exec.Command(bin, "signature", "-target", "https://example.org/guides/sourdough", page+"=https://example.org/blog/").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "sourdough") {
		t.Errorf("relink signature: %v\n%s", err, out)
	}
}
