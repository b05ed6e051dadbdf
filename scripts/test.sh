#!/usr/bin/env bash
# Runs relink's checks on every module of the repository (the library at the
# root and the lab in lab/): formatting, the API record (api/ is what
# scripts/api.sh makes of the code), go vet, staticcheck, every test with
# the race detector, the equivalence test of the lab (the experiment measures
# exactly what Finder runs) without it, and every fuzz target briefly on its
# seed corpus and 300 new inputs.
#
# On a Debian machine where it runs as root, it first installs the four small
# real documentation packages that the store's and the lab's tests read
# (Click, Flask, Werkzeug, Jinja), and Chromium, in which the lab's
# end-to-end test of relink review runs (lab/cmd/reviewshot). Elsewhere
# those tests skip themselves.
#
# It runs a throwaway PostgreSQL server for the tests of the PostgreSQL
# store (scripts/pg.sh: a cluster in a temporary directory on a loopback
# port, installed from Debian's packages when missing and possible) and
# stops it at the end. Where the server could be started the tests that
# need it must run (RELINK_REQUIRE_POSTGRES), not skip; RELINK_TEST_POSTGRES
# set beforehand names a server to use instead.
#
#   bash scripts/test.sh            # everything
#   FUZZTIME=0 bash scripts/test.sh     # no fuzzing beyond the seed corpora
#   FUZZTIME=30s bash scripts/test.sh   # longer fuzzing (the default is 300 new inputs a target:
#                                        # a count, not a time, so a loaded machine does the same work)
set -euo pipefail
cd "$(dirname "$0")/.."

fuzztime=${FUZZTIME:-300x}
staticcheck=honnef.co/go/tools/cmd/staticcheck@v0.8.2
corpus="python-click-doc python-flask-doc python-werkzeug-doc python-jinja2-doc"

missing=""
for p in $corpus chromium; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -n "$missing" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	echo "installing$missing for the real-corpus and browser tests" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
	missing=""
fi
# Where the corpus and the browser could be installed, the lab's equivalence
# test and the browser test must run, not skip.
case " $missing " in *" chromium "*) ;; *) export RELINK_REQUIRE_BROWSER=1 ;; esac
missing=${missing/ chromium/}
[ -n "$missing" ] || export RELINK_REQUIRE_CORPUS=1

if [ -z "${RELINK_TEST_POSTGRES:-}" ]; then
	if pgenv=$(bash scripts/pg.sh start); then
		eval "$pgenv"
		trap 'bash scripts/pg.sh stop "$RELINK_PG_DIR"' EXIT
		export RELINK_REQUIRE_POSTGRES=1
	else
		echo "no PostgreSQL server: the PostgreSQL store's tests skip" >&2
	fi
else
	export RELINK_REQUIRE_POSTGRES=1
fi
export RELINK_TEST_POSTGRES=${RELINK_TEST_POSTGRES:-}

unformatted=$(gofmt -l $(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))
if [ -n "$unformatted" ]; then
	echo "gofmt would change:" >&2
	echo "$unformatted" >&2
	exit 1
fi

echo "== the API record (api/) is the code's" >&2
bash scripts/api.sh -check

for mod in . lab; do
	echo "== $mod: vet, staticcheck, tests (at ${SECONDS}s)" >&2
	(cd "$mod" && go vet ./... && go run "$staticcheck" ./... && go test -race -count=1 "$@" ./...)
done

echo "== lab: the experiment's ranks equal Finder.Find's (at ${SECONDS}s)" >&2
(cd lab && go test -count=1 -run '^TestEvaluateIsFind$' -v ./eval/ | grep -E '^(---|ok|FAIL|\s+equivalence_test)')

if [ "$fuzztime" != 0 ]; then
	echo "== fuzz targets, $fuzztime each (x: inputs) (at ${SECONDS}s)" >&2
	# Each package's fuzzing test binary is built once (go test -c -fuzz)
	# and run for each of its targets from the package's directory (where
	# testdata/fuzz holds the seed corpus), with a fuzz cache of its own:
	# what go test -fuzz does, less a build and link per target.
	fuzzdir=$(mktemp -d)
	n=0
	for dir in $(git ls-files '*_test.go' | xargs grep -l '^func Fuzz' | xargs -n1 dirname | sort -u); do
		mod=.
		pkg=./$dir
		case $dir in lab/*) mod=lab pkg=./${dir#lab/} ;; esac
		bin=$fuzzdir/$(echo "$dir" | tr / _).test
		(cd "$mod" && go test -c -fuzz=. -o "$bin" "$pkg") || {
			echo "fuzz: building $dir's tests failed" >&2
			exit 1
		}
		for target in $(cat "$dir"/*_test.go | grep -o '^func Fuzz[A-Za-z0-9_]*' | sed 's/^func //'); do
			(cd "$dir" && "$bin" -test.run '^$' -test.fuzz "^$target\$" -test.fuzztime "$fuzztime" \
				-test.fuzzcachedir "$fuzzdir/cache/$dir/$target" >/tmp/relink-fuzz.log 2>&1) || {
				echo "fuzz $target ($dir) failed:" >&2
				tail -20 /tmp/relink-fuzz.log >&2
				exit 1
			}
			n=$((n + 1))
		done
	done
	rm -rf "$fuzzdir"
	echo "fuzzed $n targets" >&2
fi
echo "== done in ${SECONDS}s" >&2
