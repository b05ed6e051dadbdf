#!/usr/bin/env bash
# Installs the Debian documentation packages a corpus manifest names (its
# "package" fields) and prints their versions, which belong with every figure
# measured on the corpus. Run as root on Debian 12; packages already installed
# are left alone, so a second run only prints the versions.
#
#   bash scripts/install-corpus.sh [corpus/dev.json]
set -euo pipefail
manifest=${1:-"$(dirname "$0")/../corpus/dev.json"}
pkgs=$(grep -o '"package"[[:space:]]*:[[:space:]]*"[^"]*"' "$manifest" | sed 's/.*"\([^"]*\)"$/\1/' | sort -u)
if [ -z "$pkgs" ]; then
	echo "install-corpus: no packages named in $manifest" >&2
	exit 1
fi
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "install-corpus: missing packages:$missing (run as root to install them)" >&2
		exit 1
	fi
	echo "install-corpus: installing$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
dpkg-query -W $pkgs
