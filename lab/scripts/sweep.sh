#!/usr/bin/env bash
# Fits the judge (the root's judge.json) on every corpus and checks it on
# sites it never saw:
#
#   1. installs each corpus's Debian documentation packages if any is
#      missing (scripts/install-corpus.sh; needs root),
#   2. runs the experiment on each corpus (its store built if needed) with
#      only the default methods (relink.Default, and the same judged by the
#      archived title too) in the moved, migrated, edited and deleted modes:
#      the experiment's own answers, per target, with the judge's signals
#      (targets.jsonl.gz), into DIR/CORPUS,
#   3. runs cmd/fit over them: leave one site out, the threshold for
#      precision 0.99, the model fitted on every site written to
#      ../judge.json with its provenance, and the figures to results/judge.
#
#   bash scripts/sweep.sh [-n TARGETS] [-s SEED] [-o DIR] [-c "CORPUS ..."]
#
# Defaults: 300 targets, seed 1, DIR a temporary directory (removed), and
# the corpora dev holdout holdout2 holdout3 holdout4. The stores are
# ~/.cache/relink/CORPUS.db. After a new fit, set relink.DefaultThreshold
# to the model's threshold (TestDefaultThreshold says when they differ).
set -euo pipefail
cd "$(dirname "$0")/.."

targets=300
seed=1
dir=""
corpora="dev holdout holdout2 holdout3 holdout4"
while getopts "n:s:o:c:h" opt; do
	case $opt in
	n) targets=$OPTARG ;;
	s) seed=$OPTARG ;;
	o) dir=$OPTARG ;;
	c) corpora=$OPTARG ;;
	*)
		sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
		exit 2
		;;
	esac
done
if [ -z "$dir" ]; then
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
fi
stores=${XDG_CACHE_HOME:-$HOME/.cache}/relink
mkdir -p "$stores" "$dir"
go build -o "$dir/experiment" ./cmd/experiment
go build -o "$dir/fit" ./cmd/fit
methods=moved-link+rerank,moved-link+rerank+archive-check
runs=()
for c in $corpora; do
	if command -v dpkg-query >/dev/null; then
		bash scripts/install-corpus.sh "corpus/$c.json" >/dev/null
	fi
	echo "sweep: $c" >&2
	"$dir/experiment" -corpus "corpus/$c.json" -store "$stores/$c.db" -targets "$targets" -seed "$seed" \
		-methods "$methods" -modes moved,migrated,edited,deleted -out "$dir/$c" >"$dir/$c.log" 2>&1 ||
		{ tail -20 "$dir/$c.log" >&2; exit 1; }
	runs+=("$dir/$c")
done
"$dir/fit" -ablate -model ../judge.json -out results/judge "${runs[@]}"
