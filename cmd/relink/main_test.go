package main

import (
	"errors"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
)

// TestHelp checks that help goes to stdout with exit 0: the list of
// subcommands, and each subcommand's usage and flags, however asked for.
func TestHelp(t *testing.T) {
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"help"}, []string{"relink SUBCOMMAND", "corpus", "find", "signature", "soft404"}},
		{[]string{"-h"}, []string{"relink SUBCOMMAND"}},
		{[]string{"help", "find"}, []string{"usage: relink find", "-keep-missing", "-keep-backlinks", "-method", "best (the default"}},
		{[]string{"find", "-h"}, []string{"usage: relink find", "-exclude-nav"}},
		{[]string{"help", "corpus"}, []string{"usage: relink corpus", "-manifest"}},
		{[]string{"signature", "-help"}, []string{"usage: relink signature", "-target"}},
		{[]string{"help", "soft404"}, []string{"usage: relink soft404", "-allow-private"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			r := runArgs(t, tt.args...)
			if r.code != exitOK || r.stderr != "" {
				t.Errorf("exit %d, stderr %q; want 0 and nothing", r.code, r.stderr)
			}
			for _, want := range tt.want {
				if !strings.Contains(r.stdout, want) {
					t.Errorf("help lacks %q:\n%s", want, r.stdout)
				}
			}
		})
	}
}

// TestVersion checks -version: "(devel)" in a test binary, which has no
// module version.
func TestVersion(t *testing.T) {
	for _, arg := range []string{"-version", "--version", "version"} {
		r := runArgs(t, arg)
		if r.code != exitOK || r.stdout != "relink (devel)\n" {
			t.Errorf("relink %s: exit %d, stdout %q; want 0 and %q", arg, r.code, r.stdout, "relink (devel)\n")
		}
	}
}

// TestVersionOf checks the version string made from build information:
// the module version, and the commit when the build recorded one.
func TestVersionOf(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs.revision", Value: "8fb7913a0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f"}}
	tests := []struct {
		name string
		info debug.BuildInfo
		want string
	}{
		{"go install @version", debug.BuildInfo{Main: debug.Module{Version: "v1.0.0"}}, "v1.0.0"},
		{"test binary", debug.BuildInfo{}, "(devel)"},
		{"work tree at a tag", debug.BuildInfo{Main: debug.Module{Version: "v1.0.0"}, Settings: rev}, "v1.0.0 commit 8fb7913a0c1d"},
		{"modified work tree", debug.BuildInfo{Main: debug.Module{Version: "v1.0.1-0.20261202083000-8fb7913a0c1d+dirty"},
			Settings: append(slices.Clone(rev), debug.BuildSetting{Key: "vcs.modified", Value: "true"})},
			"v1.0.1-0.20261202083000-8fb7913a0c1d+dirty commit 8fb7913a0c1d with uncommitted changes"},
		{"short revision", debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}}}, "(devel) commit abc"},
		{"go install @version with its sum", debug.BuildInfo{Main: debug.Module{Version: "v1.0.0", Sum: "h1:abc="}}, "v1.0.0 sum h1:abc="},
		{"go install @commit", debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261202083000-8fb7913a0c1d", Sum: "h1:abc="}},
			"v0.0.0-20261202083000-8fb7913a0c1d commit 8fb7913a0c1d"},
		{"go install @commit after a tag", debug.BuildInfo{Main: debug.Module{Version: "v1.0.1-0.20261202083000-8fb7913a0c1d"}},
			"v1.0.1-0.20261202083000-8fb7913a0c1d commit 8fb7913a0c1d"},
		{"a prerelease, no pseudo-version", debug.BuildInfo{Main: debug.Module{Version: "v1.1.0-rc.1"}}, "v1.1.0-rc.1"},
	}
	for _, tt := range tests {
		if got := versionOf(&tt.info); got != tt.want {
			t.Errorf("%s: versionOf = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestOneLine checks that messages printed on stderr stay on one line and
// bounded.
func TestOneLine(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "store x.db does not exist", "store x.db does not exist"},
		{"line breaks", "a\nb\r\nc", "a b  c"},
		{"escape", "a\x1b[2Jb", "a [2Jb"},
		{"invalid UTF-8", "a\xffb", "a b"},
		{"long", strings.Repeat("x", 3000), strings.Repeat("x", maxLine/2) + " … " + strings.Repeat("x", maxLine/2)},
	}
	for _, tt := range tests {
		if got := oneLine(tt.in); got != tt.want {
			t.Errorf("%s: oneLine(%.40q) = %.60q, want %.60q", tt.name, tt.in, got, tt.want)
		}
	}
}

// TestBinary builds the command once and checks its exit codes as a shell
// sees them: done, failure, bad usage.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := filepath.Join(t.TempDir(), "relink")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	db := buildStore(t)
	tests := []struct {
		args []string
		code int
	}{
		{[]string{"-version"}, exitOK},
		{[]string{"find", "-store", db, "-method", "paper", target}, exitOK},
		{[]string{"find", "-store", filepath.Join(t.TempDir(), "none.db"), target}, exitFailure},
		{[]string{"find", "-store", db, "-depth", "99", target}, exitUsage},
		{[]string{"nope"}, exitUsage},
	}
	for _, tt := range tests {
		cmd := exec.Command(bin, tt.args...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		code := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != tt.code {
			t.Errorf("relink %q: exit %d, want %d (stderr %q)", tt.args, code, tt.code, stderr.String())
		}
		if code != exitOK {
			checkOneLine(t, stderr.String())
		}
	}
}
