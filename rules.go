package relink

import (
	"cmp"
	"net/url"
	"slices"
	"strings"
)

// URLRule rewrites the dead URIs of a site as a migration moved them: a
// site that reorganises moves its pages by a rule (a new host, a version
// segment replaced, a path prefix renamed, pages served as directories
// instead of files), so the pairs of old and new URIs that were found with
// confidence teach the rule, and one fetch checks it on each of the site's
// other dead URIs (FABLE, IMC 2023, learns such patterns). LearnURLRules
// learns them.
type URLRule struct {
	// From is the prefix of the old URIs the rule rewrites: a scheme, a
	// host and the path up to a "/".
	From string
	// To replaces From.
	To string
	// DropExt, when not "", is the file extension (".html") the old URIs
	// end with and the new ones lack: the site now serves its pages as
	// directories.
	DropExt string
	// Support is how many of the pairs learned from follow the rule.
	Support int
}

// Apply returns the new URI of uri under the rule, and whether the rule
// applies to it.
func (r URLRule) Apply(uri string) (string, bool) {
	rest, ok := strings.CutPrefix(uri, r.From)
	if !ok || rest == "" {
		return "", false
	}
	if r.DropExt != "" {
		if rest, ok = strings.CutSuffix(rest, r.DropExt); !ok {
			return "", false
		}
	}
	return r.To + rest, true
}

// DefaultRuleSupport is the fewest pairs that must follow a rule for
// LearnURLRules to keep it: one pair fits many rules.
const DefaultRuleSupport = 2

// LearnURLRules learns rewrite rules from pairs of old and new URIs (old
// → new, as canonical URIs), keeping those that at least minSupport pairs
// follow (zero means DefaultRuleSupport), most supported first. Each pair
// gives the rule that keeps the most of the path's last segments the same
// (the part of the site below the moved prefix); an old URI ending in
// ".html" or ".htm" whose new URI does not is also read as a move to
// directories. Where two rules rewrite the same prefix differently, the
// better supported one is kept, and neither on a tie.
func LearnURLRules(pairs map[string]string, minSupport int) []URLRule {
	if minSupport <= 0 {
		minSupport = DefaultRuleSupport
	}
	type key struct{ from, to, ext string }
	support := map[key]int{}
	for old, new := range pairs {
		if r, ok := ruleOf(old, new); ok {
			support[key{r.From, r.To, r.DropExt}]++
		}
	}
	var rules []URLRule
	for k, n := range support {
		if n >= minSupport {
			rules = append(rules, URLRule{From: k.from, To: k.to, DropExt: k.ext, Support: n})
		}
	}
	slices.SortFunc(rules, func(a, b URLRule) int {
		return cmp.Or(cmp.Compare(b.Support, a.Support), cmp.Compare(len(b.From), len(a.From)),
			strings.Compare(a.From, b.From), strings.Compare(a.To, b.To), strings.Compare(a.DropExt, b.DropExt))
	})
	// One rule per prefix: the best supported, none on a tie.
	var out []URLRule
	for i, r := range rules {
		rival := slices.ContainsFunc(rules, func(o URLRule) bool {
			return o != r && o.From == r.From && o.DropExt == r.DropExt && o.Support == r.Support
		})
		first := !slices.ContainsFunc(rules[:i], func(o URLRule) bool { return o.From == r.From && o.DropExt == r.DropExt })
		if first && !rival {
			out = append(out, r)
		}
	}
	return out
}

// ApplyURLRules returns the new URI of uri under the first of rules that
// applies to it (LearnURLRules orders them best first).
func ApplyURLRules(rules []URLRule, uri string) (string, URLRule, bool) {
	for _, r := range rules {
		if u, ok := r.Apply(uri); ok {
			return u, r, true
		}
	}
	return "", URLRule{}, false
}

// ruleOf returns the rule one pair follows: the one that keeps the most
// trailing path segments, reading a dropped ".html" or ".htm" as a move to
// directories.
func ruleOf(old, new string) (URLRule, bool) {
	best, found := URLRule{}, false
	bestKept := 0
	try := func(oldPath, ext string, o, n *url.URL, newPath string) {
		oseg, nseg := strings.Split(oldPath, "/"), strings.Split(newPath, "/") // segments
		k := 0
		for k < len(oseg)-1 && k < len(nseg)-1 && oseg[len(oseg)-1-k] == nseg[len(nseg)-1-k] && oseg[len(oseg)-1-k] != "" {
			k++
		}
		if k == 0 || k <= bestKept {
			return
		}
		from := o.Scheme + "://" + o.Host + strings.Join(oseg[:len(oseg)-k], "/") + "/"
		to := n.Scheme + "://" + n.Host + strings.Join(nseg[:len(nseg)-k], "/") + "/"
		if from == to && ext == "" {
			return
		}
		best, found, bestKept = URLRule{From: from, To: to, DropExt: ext}, true, k
	}
	o, err := url.Parse(old)
	if err != nil || o.RawQuery != "" || o.Host == "" {
		return best, false
	}
	n, err := url.Parse(new)
	if err != nil || n.RawQuery != "" || n.Host == "" {
		return best, false
	}
	op, np := strings.TrimSuffix(o.EscapedPath(), "/"), strings.TrimSuffix(n.EscapedPath(), "/")
	try(op, "", o, n, np)
	for _, ext := range pageTypes {
		if s, ok := strings.CutSuffix(op, ext); ok && !strings.HasSuffix(np, ext) {
			try(s, ext, o, n, np)
		}
	}
	return best, found
}
