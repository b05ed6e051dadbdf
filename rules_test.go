package relink_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/linkrot/relink"
)

// TestLearnURLRules learns each kind of migration the benchmark's migrated
// mode makes from two pairs, and applies it to a third URI of the site.
func TestLearnURLRules(t *testing.T) {
	tests := []struct {
		name  string
		pairs map[string]string
		rule  relink.URLRule
		dead  string
		want  string
	}{
		{
			name: "a version segment",
			pairs: map[string]string{
				"https://docs.python.org/3.11/library/functools.html": "https://docs.python.org/3/library/functools.html",
				"https://docs.python.org/3.11/howto/logging.html":     "https://docs.python.org/3/howto/logging.html",
			},
			rule: relink.URLRule{From: "https://docs.python.org/3.11/", To: "https://docs.python.org/3/", Support: 2},
			dead: "https://docs.python.org/3.11/glossary.html",
			want: "https://docs.python.org/3/glossary.html",
		},
		{
			name: "a new host",
			pairs: map[string]string{
				"https://jinja.palletsprojects.com/en/3.1.x/templates": "https://jinja.example.org/en/3.1.x/templates",
				"https://jinja.palletsprojects.com/en/3.1.x/api":       "https://jinja.example.org/en/3.1.x/api",
			},
			rule: relink.URLRule{From: "https://jinja.palletsprojects.com/", To: "https://jinja.example.org/", Support: 2},
			dead: "https://jinja.palletsprojects.com/en/3.1.x/faq",
			want: "https://jinja.example.org/en/3.1.x/faq",
		},
		{
			name: "files to directories",
			pairs: map[string]string{
				"https://git-scm.com/docs/git-log.html":    "https://git-scm.com/docs/git-log",
				"https://git-scm.com/docs/git-commit.html": "https://git-scm.com/docs/git-commit",
			},
			rule: relink.URLRule{From: "https://git-scm.com/", To: "https://git-scm.com/", DropExt: ".html", Support: 2},
			dead: "https://git-scm.com/docs/git-push.html",
			want: "https://git-scm.com/docs/git-push",
		},
		{
			name: "a prefix renamed",
			pairs: map[string]string{
				"https://example.org/doc/a/b.html": "https://example.org/docs/a/b.html",
				"https://example.org/doc/c.html":   "https://example.org/docs/c.html",
			},
			rule: relink.URLRule{From: "https://example.org/doc/", To: "https://example.org/docs/", Support: 2},
			dead: "https://example.org/doc/d/e.html",
			want: "https://example.org/docs/d/e.html",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rules := relink.LearnURLRules(tt.pairs, 0)
			if diff := cmp.Diff([]relink.URLRule{tt.rule}, rules); diff != "" {
				t.Fatalf("rules (-want +got):\n%s", diff)
			}
			got, _, ok := relink.ApplyURLRules(rules, tt.dead)
			if !ok || got != tt.want {
				t.Errorf("ApplyURLRules(%s) = %q, %v; want %q", tt.dead, got, ok, tt.want)
			}
			if _, _, ok := relink.ApplyURLRules(rules, "https://elsewhere.example/"+tt.dead[8:]); ok {
				t.Errorf("a rule applied to another site's URI")
			}
		})
	}
}

// TestLearnURLRulesSupport: one pair teaches nothing, moves to unrelated
// paths teach nothing, and two rules for one prefix with equal support
// cancel out.
func TestLearnURLRulesSupport(t *testing.T) {
	one := map[string]string{"https://a.example/x/p.html": "https://a.example/y/p.html"}
	if rules := relink.LearnURLRules(one, 0); len(rules) != 0 {
		t.Errorf("one pair gave %v", rules)
	}
	relocated := map[string]string{
		"https://a.example/x/p.html": "https://a.example/relocated/1f2e.html",
		"https://a.example/x/q.html": "https://a.example/relocated/9c0d.html",
	}
	if rules := relink.LearnURLRules(relocated, 0); len(rules) != 0 {
		t.Errorf("unrelated paths gave %v", rules)
	}
	split := map[string]string{
		"https://a.example/x/p.html": "https://a.example/y/p.html",
		"https://a.example/x/q.html": "https://a.example/y/q.html",
		"https://a.example/x/r.html": "https://a.example/z/r.html",
		"https://a.example/x/s.html": "https://a.example/z/s.html",
	}
	if rules := relink.LearnURLRules(split, 0); len(rules) != 0 {
		t.Errorf("two rules with equal support gave %v", rules)
	}
	split["https://a.example/x/t.html"] = "https://a.example/z/t.html"
	rules := relink.LearnURLRules(split, 0)
	if len(rules) != 1 || rules[0].To != "https://a.example/z/" || rules[0].Support != 3 {
		t.Errorf("the better supported rule: got %v", rules)
	}
}

func ExampleLearnURLRules() {
	found := map[string]string{ // dead URIs and where they were found
		"https://docs.example.org/2.1/guide/install.html": "https://docs.example.org/latest/guide/install/",
		"https://docs.example.org/2.1/api.html":           "https://docs.example.org/latest/api/",
	}
	rules := relink.LearnURLRules(found, 0)
	for _, r := range rules {
		fmt.Printf("%s → %s (without %q), %d pairs\n", r.From, r.To, r.DropExt, r.Support)
	}
	next, _, _ := relink.ApplyURLRules(rules, "https://docs.example.org/2.1/faq.html")
	fmt.Println(next)
	// Output:
	// https://docs.example.org/2.1/ → https://docs.example.org/latest/ (without ".html"), 2 pairs
	// https://docs.example.org/latest/faq
}
