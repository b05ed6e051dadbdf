#!/usr/bin/env bash
# Runs the experiment at scale: the same targets, drawn from the development
# corpus, inside three indexes that nest (lab/corpus/dev.json, about 4,500
# pages; mid.json, about 20,000; large.json, about 54,000), in the paper's
# mode, and compares them by index size:
#
#   1. installs the packages of the large corpus if any is missing
#      (scripts/install-corpus.sh; this step needs root),
#   2. builds the three stores if they do not hold their corpus yet (the
#      large one takes several minutes),
#   3. runs the paper's grid and the project's methods on N targets (1000)
#      drawn with seed S from dev's sites (experiment -draw) in each store,
#      measuring each run's wall time, CPU time and peak memory,
#   4. writes the table and figure of mean nDCG by index size (cmd/bysize)
#      and each run's summary into results/scale.
#
#   bash scripts/scale.sh [-n TARGETS] [-s SEED] [-o DIR] [-d STOREDIR]
#
# The stores go to ~/.cache/relink/scale-{dev,mid,large}.db (about 1.2 GB in
# all), outside the repository; each run's full output, targets.jsonl
# included (tens of MB), stays in a temporary directory that is removed.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=1000
seed=1
out=results/scale
stores=${XDG_CACHE_HOME:-$HOME/.cache}/relink
while getopts "n:s:o:d:h" opt; do
	case $opt in
	n) targets=$OPTARG ;;
	s) seed=$OPTARG ;;
	o) out=$OPTARG ;;
	d) stores=$OPTARG ;;
	*)
		sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
		exit 2
		;;
	esac
done

if ! bash scripts/install-corpus.sh corpus/large.json >/dev/null; then
	echo "scale: the corpus is not installed; as root, run: bash scripts/install-corpus.sh corpus/large.json" >&2
	exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd .. && go build -o "$tmp/relink" ./cmd/relink)
go build -o "$tmp/experiment" ./cmd/experiment
go build -o "$tmp/bysize" ./cmd/bysize
mkdir -p "$stores" "$out"
bash scripts/install-corpus.sh corpus/large.json >"$out/versions.txt"

runs=()
for corpus in dev mid large; do
	store=$stores/scale-$corpus.db
	"$tmp/relink" corpus -manifest "corpus/$corpus.json" -store "$store" >"$tmp/$corpus-store.txt"
	cat "$tmp/$corpus-store.txt"
	run=$tmp/run-$corpus
	cmd=("$tmp/experiment" -store "$store" -draw corpus/dev.json -targets "$targets" -seed "$seed" -modes paper -out "$run")
	/usr/bin/time -v -o "$tmp/$corpus-resources.txt" "${cmd[@]}" >/dev/null
	mkdir -p "$out/$corpus"
	cp "$run/summary.json" "$run/tables.md" "$run/strata.md" "$run/versions.txt" "$out/$corpus/"
	cp "$tmp/$corpus-resources.txt" "$out/$corpus/resources.txt"
	cp "$tmp/$corpus-store.txt" "$out/$corpus/store.txt"
	runs+=("$corpus=$run")
done
"$tmp/bysize" -out "$out" "${runs[@]}"
