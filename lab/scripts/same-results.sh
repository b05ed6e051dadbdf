#!/usr/bin/env bash
# Compares the results of two experiment runs, timings aside: summary.json
# without its times (seconds, target_seconds, slowest) and
# targets.jsonl.gz without the targets' costs (cost, costs). Prints the
# differences and exits 1 when there are any, 0 when the results are the
# same. Needs jq.
#
#   bash scripts/same-results.sh DIR1 DIR2
set -euo pipefail
if [ $# -ne 2 ]; then
	sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 2
fi
summary() { jq -S 'del(.seconds, .target_seconds, .slowest)' "$1/summary.json"; }
targets() { gzip -dc "$1/targets.jsonl.gz" | jq -cS 'del(.cost, .costs)'; }
status=0
diff <(summary "$1") <(summary "$2") || status=1
diff <(targets "$1") <(targets "$2") >/dev/null || { echo "targets.jsonl.gz differ: $(diff <(targets "$1") <(targets "$2") | grep -c '^<') lines"; status=1; }
[ $status = 0 ] && echo "same results (timings aside): $1 and $2"
exit $status
