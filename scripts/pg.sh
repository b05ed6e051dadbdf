#!/usr/bin/env bash
# Runs a throwaway PostgreSQL server for relink's tests: a cluster in a
# temporary directory, owned by an unprivileged user, listening on a free
# port of 127.0.0.1 (and on a socket in the directory), with a random
# password. When no PostgreSQL is installed and the script runs as root on
# Debian, it installs the distribution's (apt-get install postgresql).
#
#   eval "$(bash scripts/pg.sh start)"   # exports RELINK_TEST_POSTGRES (a DSN) and RELINK_PG_DIR
#   bash scripts/pg.sh stop "$RELINK_PG_DIR"
#   bash scripts/pg.sh run CMD ARGS...   # start, run CMD with RELINK_TEST_POSTGRES set, stop
#
# The DSN holds the password: the script prints it only on standard output
# for eval, never in its messages. PG_FSYNC=on keeps fsync on (for
# measurements); by default the cluster trades durability for speed
# (fsync, full_page_writes and synchronous_commit off), as a test cluster
# may.
set -euo pipefail

pgbin() {
	local d
	for d in /usr/lib/postgresql/*/bin; do
		if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && [ -x "$d/postgres" ]; then
			echo "$d"
		fi
	done | sort -V | tail -1
}

install() {
	if [ -n "$(pgbin)" ]; then
		return 0
	fi
	if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
		echo "pg.sh: PostgreSQL is not installed and cannot be installed here (needs root and apt-get)" >&2
		return 1
	fi
	echo "pg.sh: installing PostgreSQL (apt-get install postgresql)" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >&2
	apt-get install -y -qq --no-install-recommends postgresql >/dev/null
	[ -n "$(pgbin)" ]
}

# as runs a command as the cluster's owner: the caller when it is not root
# (the postgres server refuses to run as root), else nobody.
as() {
	if [ "$(id -u)" = 0 ]; then
		runuser -u nobody -- "$@"
	else
		"$@"
	fi
}

freeport() {
	local p
	for _ in $(seq 1 50); do
		p=$((20000 + RANDOM % 30000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

start() {
	install || return 1
	local bin dir port pw
	bin=$(pgbin)
	dir=$(mktemp -d /tmp/relink-pg.XXXXXX)
	chmod 0755 "$dir"
	pw=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
	printf '%s\n' "$pw" >"$dir/pwfile"
	if [ "$(id -u)" = 0 ]; then
		chown nobody "$dir" "$dir/pwfile"
	fi
	chmod 0600 "$dir/pwfile"
	as "$bin/initdb" -D "$dir/data" -U relink --pwfile="$dir/pwfile" -A scram-sha-256 -E UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 || {
		cat "$dir/initdb.log" >&2
		return 1
	}
	rm -f "$dir/pwfile"
	local fsync=off
	[ "${PG_FSYNC:-off}" = on ] && fsync=on
	for _ in 1 2 3 4 5; do
		port=$(freeport)
		if as "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start -o \
			"-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$dir -c fsync=$fsync -c full_page_writes=$fsync -c synchronous_commit=$fsync -c max_connections=100 -c shared_buffers=128MB" >/dev/null 2>&1; then
			echo "export RELINK_PG_DIR=$dir"
			echo "export RELINK_TEST_POSTGRES='postgres://relink:$pw@127.0.0.1:$port/postgres?sslmode=disable'"
			echo "pg.sh: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port, data in $dir" >&2
			return 0
		fi
	done
	cat "$dir/server.log" >&2 || true
	return 1
}

stop() {
	local dir=${1:?usage: pg.sh stop DIR}
	case $dir in /tmp/relink-pg.*) ;; *)
		echo "pg.sh: $dir is not a cluster directory of pg.sh" >&2
		return 1
		;;
	esac
	if [ -d "$dir/data" ]; then
		as "$(pgbin)/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
	fi
	rm -rf "$dir"
}

case ${1:-} in
start) start ;;
stop) stop "${2:-}" ;;
run)
	shift
	eval "$(start)"
	trap 'stop "$RELINK_PG_DIR"' EXIT
	"$@"
	;;
*)
	echo "usage: pg.sh start | stop DIR | run CMD ARGS..." >&2
	exit 2
	;;
esac
