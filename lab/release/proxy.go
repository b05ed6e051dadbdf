package release

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

// ModulePath is the library's module path, the module a release tags.
const ModulePath = "github.com/linkrot/relink"

// WriteProxy writes into dir the proxy files of the module at repo's root
// (a git work tree) as the commit rev holds it, under version: the
// version list, its .info, .mod and .zip, as GOPROXY=file://dir serves
// them. The zip holds what the Go command puts in a module zip: the
// committed files of the module, without nested modules (lab/) and within
// the module zip's limits (golang.org/x/mod/zip). The .info's Time is the
// time given.
func WriteProxy(dir, repo, rev, version string, at time.Time) error {
	mv := module.Version{Path: ModulePath, Version: version}
	if err := module.Check(mv.Path, mv.Version); err != nil {
		return err
	}
	escaped, err := module.EscapePath(mv.Path)
	if err != nil {
		return err
	}
	v := filepath.Join(dir, filepath.FromSlash(escaped), "@v")
	if err := os.MkdirAll(v, 0o755); err != nil {
		return err
	}
	gomod, err := exec.Command("git", "-C", repo, "show", rev+":go.mod").Output()
	if err != nil {
		return fmt.Errorf("release: go.mod at %s: %w", rev, err)
	}
	info, err := json.Marshal(struct {
		Version string
		Time    time.Time
	}{version, at.UTC()})
	if err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(v, version+".zip"))
	if err != nil {
		return err
	}
	if err := zip.CreateFromVCS(f, mv, repo, rev, ""); err != nil {
		f.Close()
		return fmt.Errorf("release: module zip of %s at %s: %w", repo, rev, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	for name, data := range map[string][]byte{
		"list":            []byte(version + "\n"),
		version + ".info": info,
		version + ".mod":  gomod,
	} {
		if err := os.WriteFile(filepath.Join(v, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
