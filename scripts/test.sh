#!/usr/bin/env bash
# Runs relink's checks: formatting, go vet, and every test with the race
# detector. On a Debian machine where it runs as root, it first installs the
# one small real documentation package that the store's tests ingest
# (python-click-doc); elsewhere those tests skip themselves.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null &&
	! dpkg-query -W -f='${Status}' python-click-doc 2>/dev/null | grep -q 'install ok installed'; then
	echo "installing python-click-doc for the store's real-corpus test" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends python-click-doc >/dev/null
fi

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change:" >&2
	echo "$unformatted" >&2
	exit 1
fi
go vet ./...
go test -race -count=1 "$@" ./...
