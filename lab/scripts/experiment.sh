#!/usr/bin/env bash
# Reproduces the paper's experiment on the development corpus, end to end:
#
#   1. installs the corpus's Debian documentation packages if any is missing
#      (scripts/install-corpus.sh; this step needs root),
#   2. builds the store from the manifest if it does not hold it yet,
#   3. runs the full grid (radius x depth x backlinks x signature size, with
#      and without navigation links) on 300 targets drawn with seed 1,
#   4. writes the results into results/dev-seed1 and prints the reproduced
#      Table 4 beside the paper's, the paper's findings checked one by one,
#      the times and the peak memory;
#   5. repairs the targets' dead links as a user would: a lychee report of
#      them (their backlink pages as sources, cmd/fixbench -report) given to
#      relink fix -store with the moved mode's store as the web, and prints
#      fix's summary (no network: the store serves pages and search).
#
#   bash scripts/experiment.sh [-n TARGETS] [-s SEED] [-o DIR] [-m MANIFEST] [-d STORE]
#
# The environment variables TARGETS, SEED, OUT, MANIFEST and STORE set the
# same things. The store defaults to ~/.cache/relink/dev.db (about 110 MB),
# outside the repository. Needs Go 1.26 and, for step 1, a Debian 12 system.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=${TARGETS:-300}
seed=${SEED:-1}
out=${OUT:-results/dev-seed1}
manifest=${MANIFEST:-corpus/dev.json}
store=${STORE:-${XDG_CACHE_HOME:-$HOME/.cache}/relink/dev.db}
while getopts "n:s:o:m:d:h" opt; do
	case $opt in
	n) targets=$OPTARG ;;
	s) seed=$OPTARG ;;
	o) out=$OPTARG ;;
	m) manifest=$OPTARG ;;
	d) store=$OPTARG ;;
	*)
		sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
		exit 2
		;;
	esac
done

if ! command -v go >/dev/null; then
	echo "experiment: Go 1.26 is needed (https://go.dev/dl/)" >&2
	exit 1
fi

# 1. The corpus: its packages, installed if missing, and their versions.
if command -v dpkg-query >/dev/null; then
	if ! bash scripts/install-corpus.sh "$manifest" >/dev/null; then
		echo "experiment: the corpus is not installed; as root, run: bash scripts/install-corpus.sh $manifest" >&2
		exit 1
	fi
else
	echo "experiment: not a Debian system: the corpus cannot be installed here; using the store $store as it is" >&2
fi

# 2-4. The store, the grid and the results. /usr/bin/time, when present,
# measures the wall time and the peak memory (resident set size).
mkdir -p "$(dirname "$store")" "$out"
bindir=$(mktemp -d)
bin=$bindir/experiment
trap 'rm -rf "$bindir"' EXIT
go build -o "$bin" ./cmd/experiment
cmd=("$bin" -corpus "$manifest" -store "$store" -targets "$targets" -seed "$seed" -out "$out")
if [ -x /usr/bin/time ]; then
	/usr/bin/time -v -o "$out/resources.txt" "${cmd[@]}"
	wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$out/resources.txt")
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$out/resources.txt")
	echo "wall time $wall, peak resident memory $((rss / 1024)) MB ($out/resources.txt)"
else
	"${cmd[@]}"
fi

# 5. The repair run: relink fix over the moved targets' dead links, with
# the moved mode's store (built in step 3) as the web.
if [ -f "$store.moved" ]; then
	go build -o "$bindir/fixbench" ./cmd/fixbench
	(cd .. && go build -o "$bindir/relink" ./cmd/relink)
	"$bindir/fixbench" -before "$store" -after "$store.moved" -targets "$targets" -seed "$seed" -report "$bindir/lychee.json"
	"$bindir/relink" fix -store "$store.moved" -in "$bindir/lychee.json" -out "$bindir/repairs.jsonl"
else
	echo "experiment: no moved-mode store ($store.moved): the repair run is skipped" >&2
fi
