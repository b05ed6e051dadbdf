package useragent_test

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/linkrot/relink/internal/useragent"
)

// TestVersionIsTheChangelogs checks that the User-Agent names the newest
// release of the CHANGELOG, its first "## [X.Y.Z]" heading.
func TestVersionIsTheChangelogs(t *testing.T) {
	f, err := os.Open("../../CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "## [")
		if !ok {
			continue
		}
		v, _, _ := strings.Cut(rest, "]")
		if v == "Unreleased" {
			continue
		}
		if v != useragent.Version {
			t.Errorf("useragent.Version = %q, the CHANGELOG's newest release is %q", useragent.Version, v)
		}
		return
	}
	t.Fatalf("no release heading in CHANGELOG.md (%v)", sc.Err())
}

func Example() {
	fmt.Println(strings.HasPrefix(useragent.Default, "relink/"+useragent.Version+" "))
	// Output: true
}
