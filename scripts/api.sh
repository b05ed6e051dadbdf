#!/usr/bin/env bash
# Writes the record of relink's API: `go doc -all` of every package of the
# root module (the library, the providers, the internal packages and the
# commands; not the lab, a module of its own) into api/, one file a
# package named after its directory: api/relink.txt for the root package,
# api/provider/store.txt for provider/store. The files are committed, so
# that a change to an exported name, a signature or a doc comment shows in
# review as a diff of api/. scripts/test.sh runs it with -check.
#
#   bash scripts/api.sh          # write api/ anew from the code
#   bash scripts/api.sh -check   # exit 1, with the diff, when api/ is not the code's
#
# The record is made for linux/amd64 without cgo whatever the machine, so
# that it does not depend on where it runs; `go doc`'s layout may change
# with the Go version (go.mod's go line names the one it was made with).
set -euo pipefail
cd "$(dirname "$0")/.."

check=false
case "${1:-}" in
-check) check=true ;;
"") ;;
*) echo "usage: bash scripts/api.sh [-check]" >&2; exit 2 ;;
esac

export GOOS=linux GOARCH=amd64 CGO_ENABLED=0 GOWORK=off
module=$(go list -m)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# One line a package: its import path and the record's file.
go list ./... | LC_ALL=C sort | while read -r pkg; do
	rel=${pkg#"$module"}
	rel=${rel#/}
	echo "$pkg ${rel:-relink}.txt"
done >"$out/.list"

# go doc takes about a second a package; two at a time.
# shellcheck disable=SC2016
xargs -P 2 -L 1 sh -c 'mkdir -p "$(dirname "$0/$2")" && go doc -all "$1" >"$0/$2"' "$out" <"$out/.list"
rm "$out/.list"

if $check; then
	if ! diff -r -u api "$out" >&2; then
		echo "api/ is not the API of the code: run bash scripts/api.sh and commit api/ (its diff is the change's API change)" >&2
		exit 1
	fi
	exit 0
fi
rm -rf api
mkdir api
cp -R "$out"/. api/
echo "wrote api/: $(find api -name '*.txt' | wc -l) packages" >&2
