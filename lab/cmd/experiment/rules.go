package main

import (
	"cmp"
	"context"

	"github.com/linkrot/relink"
	"github.com/linkrot/relink/canon"
	"github.com/linkrot/relink/filter"
	"github.com/linkrot/relink/score"
)

// The names of the URL-rule methods in the modes' reports.
var (
	// rulesMethod answers a target with the rewrite rules learned from
	// the other targets' confident answers (relink.LearnURLRules), checked
	// with one fetch.
	rulesMethod = "url-rules"
	// defaultRulesMethod is the default method's answer where it gave
	// one, and rulesMethod's elsewhere: what a bulk repair does.
	defaultRulesMethod = relink.Default().Name() + "+url-rules"
)

// addURLRules scores the URL-rule methods in run's report. For each
// target, the rules are learned from the confident answers of the default
// method on every other target (leave one out, as a bulk repair learns
// from the links it already repaired), applied to the target's URI, and
// the URI they give is fetched once from web: an answer when it answers
// 2xx, right when it is the page's (answer of the target).
func addURLRules(ctx context.Context, run *modeRun, targets []string, answer func(string) string, web filter.Fetcher, threshold float64) error {
	threshold = cmp.Or(threshold, relink.DefaultThreshold)
	def := relink.Default().Name()
	found := map[string]string{}
	for i, t := range targets {
		mr := run.report.Targets[i].Methods[def]
		if mr.First != "" && len(mr.Confidences) > 0 && mr.Confidences[0] >= threshold {
			found[t] = mr.First
		}
	}
	tab := run.report.Table
	fetches := 0
	for _, m := range []string{rulesMethod, defaultRulesMethod} {
		tab.Describe(m, score.MethodInfo{Threshold: threshold})
	}
	for i, t := range targets {
		want, err := canon.Canonicalize(answer(t))
		if err != nil {
			want = "\x00never"
		}
		others := make(map[string]string, len(found))
		for k, v := range found {
			if k != t {
				others[k] = v
			}
		}
		guess, _, ok := relink.ApplyURLRules(relink.LearnURLRules(others, 0), t)
		if ok {
			fetches++
			p, err := web.Fetch(ctx, guess)
			if ctx.Err() != nil {
				return ctx.Err()
			}
			ok = err == nil && p != nil && filter.IsSuccess(p.Status)
		}
		right := false
		if ok {
			c, err := canon.Canonicalize(guess)
			right = err == nil && c == want
		}
		tab.Add(rulesMethod, 0, rank1(right))
		tab.AddAnswer(rulesMethod, 0, ok, right)

		mr := run.report.Targets[i].Methods[def]
		if first, confident := found[t]; confident {
			c, err := canon.Canonicalize(first)
			r := err == nil && c == want
			tab.Add(defaultRulesMethod, 0, mr.Ranks[0])
			tab.AddAnswer(defaultRulesMethod, 0, true, r)
			continue
		}
		if ok {
			tab.Add(defaultRulesMethod, 0, rank1(right))
		} else {
			tab.Add(defaultRulesMethod, 0, mr.Ranks[0])
		}
		tab.AddAnswer(defaultRulesMethod, 0, ok, right)
	}
	// What the methods cost: the rules' one fetch where they applied, on
	// top of the default method's cost for the combination.
	n := float64(max(1, len(targets)))
	c := score.Cost{Fetches: float64(fetches) / n}
	run.report.Costs[rulesMethod] = c
	d := run.report.Costs[def]
	d.Fetches += c.Fetches
	run.report.Costs[defaultRulesMethod] = d
	return nil
}

// rank1 is the rank of an answer that is right or not: 1, or 0 (not found).
func rank1(right bool) int {
	if right {
		return 1
	}
	return 0
}
