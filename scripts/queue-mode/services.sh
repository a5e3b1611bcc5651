#!/usr/bin/env bash
# Redis and Postgres for n8n's queue mode, throw-away and loopback only: what the end-to-end
# suite (test/e2e/queueMode.ts) and a developer trying queue mode by hand need.
#
#   scripts/queue-mode/services.sh install   # apt-get redis-server / postgresql when missing
#   scripts/queue-mode/services.sh run       # start both, print n8n's settings, run until stopped
#
# `run` keeps its data in a temporary folder (MG_QUEUE_DIR, default: a new folder under
# ${TMPDIR:-/tmp}), listens on 127.0.0.1 only, on MG_REDIS_PORT / MG_POSTGRES_PORT (default: free
# ports), creates the database and user n8n uses, writes `<dir>/ready.env` when both accept
# connections, and stays in the foreground. On SIGTERM, SIGINT, SIGHUP, a closed stdin (with
# MG_QUEUE_STOP_ON_STDIN_CLOSE=1) or any failure it stops both servers, waits for them to exit,
# and removes the folder: no process and no data is left behind.
set -euo pipefail

PG_DATABASE="${MG_POSTGRES_DATABASE:-n8n}"
PG_USER="${MG_POSTGRES_USER:-n8n}"
PG_PASSWORD="${MG_POSTGRES_PASSWORD:-n8n-queue-e2e}"

log() { printf '[queue-mode] %s\n' "$*" >&2; }
die() {
	log "$*"
	exit 1
}

# Postgres binaries: the Debian package puts them under /usr/lib/postgresql/<major>/bin (not on
# PATH); some images link them into /usr/local/bin.
find_pg_bin() {
	local dir
	for dir in "${MG_POSTGRES_BIN:-}" /usr/lib/postgresql/*/bin /usr/local/bin /usr/bin; do
		[[ -n "$dir" && -x "$dir/postgres" && -x "$dir/initdb" ]] && {
			# /usr/local/bin links into the Debian folder; psql may live elsewhere on PATH.
			echo "$dir"
			return 0
		}
	done
	return 1
}

install_services() {
	local missing=()
	command -v redis-server >/dev/null || missing+=(redis-server)
	find_pg_bin >/dev/null || missing+=(postgresql)
	command -v psql >/dev/null || missing+=(postgresql-client)
	if ((${#missing[@]} == 0)); then
		log "redis-server and postgres are installed"
		return 0
	fi
	[[ "$(id -u)" == 0 ]] || die "missing ${missing[*]}: install them (apt-get install ${missing[*]}) or run this as root"
	log "installing ${missing[*]} (apt-get)"
	export DEBIAN_FRONTEND=noninteractive
	# The packages' own services are not wanted: this script starts its own servers.
	if [[ ! -e /usr/sbin/policy-rc.d ]]; then
		printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
		chmod +x /usr/sbin/policy-rc.d
		trap 'rm -f /usr/sbin/policy-rc.d' RETURN
	fi
	apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null ||
		{ apt-get update >/dev/null && apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null; }
	command -v redis-server >/dev/null && find_pg_bin >/dev/null || die "install failed"
}

port_is_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Below the kernel's ephemeral range (32768 up), which it never hands out by itself; the suite
# passes ports it reserved (test/e2e/ports.ts) instead.
free_port() {
	local port
	for _ in $(seq 1 200); do
		port=$((11000 + RANDOM % 21000))
		port_is_free "$port" && { echo "$port"; return 0; }
	done
	die "no free port found"
}

# Postgres refuses to run as root: as root, its programs run as the `postgres` user (setpriv
# execs, so a background job's $! is the server itself).
AS_PG_OWNER=()
[[ "$(id -u)" != 0 ]] || AS_PG_OWNER=(setpriv --reuid=postgres --regid=postgres --init-groups --)

run_services() {
	install_services
	local pg_bin
	pg_bin="$(find_pg_bin)"
	local dir="${MG_QUEUE_DIR:-}"
	[[ -n "$dir" ]] || dir="$(mktemp -d "${TMPDIR:-/tmp}/mg-queue.XXXXXX")"
	mkdir -p "$dir"
	local redis_port="${MG_REDIS_PORT:-$(free_port)}"
	local pg_port="${MG_POSTGRES_PORT:-$(free_port)}"
	port_is_free "$redis_port" || die "port $redis_port is taken"
	port_is_free "$pg_port" || die "port $pg_port is taken"

	local redis_pid='' pg_pid='' stdin_pid='' stopping=0
	cleanup() {
		local status=$?
		((stopping)) && return
		stopping=1
		trap - EXIT INT TERM HUP
		# SIGINT is Postgres's "fast" shutdown (SIGTERM would wait for n8n's connections to close).
		[[ -z "$pg_pid" ]] || kill -INT "$pg_pid" 2>/dev/null || true
		[[ -z "$redis_pid" ]] || kill -TERM "$redis_pid" 2>/dev/null || true
		local waited=0
		while { [[ -n "$pg_pid" ]] && kill -0 "$pg_pid" 2>/dev/null; } ||
			{ [[ -n "$redis_pid" ]] && kill -0 "$redis_pid" 2>/dev/null; }; do
			((waited++ < 100)) || {
				log "servers did not stop in 10 s: killing them"
				kill -KILL $pg_pid $redis_pid 2>/dev/null || true
				break
			}
			sleep 0.1
		done
		wait 2>/dev/null || true
		[[ -z "$stdin_pid" ]] || kill "$stdin_pid" 2>/dev/null || true
		[[ "${MG_QUEUE_KEEP_DIR:-0}" == 1 ]] || rm -rf "$dir"
		log "stopped"
		exit "$status"
	}
	trap cleanup EXIT
	trap 'exit 143' TERM
	trap 'exit 130' INT
	trap 'exit 129' HUP

	# Redis: no persistence (a test run's queue is worth nothing afterwards), loopback only.
	mkdir -p "$dir/redis"
	redis-server --bind 127.0.0.1 --port "$redis_port" --protected-mode yes --dir "$dir/redis" \
		--save '' --appendonly no --daemonize no --logfile "$dir/redis/redis.log" &
	redis_pid=$!

	# Postgres: a fresh cluster, durability off (throw-away data), TCP on 127.0.0.1 only, the
	# socket inside the folder.
	mkdir -p "$dir/postgres"
	if [[ "$(id -u)" == 0 ]]; then
		id postgres >/dev/null 2>&1 || die "no 'postgres' user to run Postgres as (install postgresql)"
		chown postgres: "$dir/postgres"
		# The folder chain must be traversable for that user (mktemp makes 0700 folders).
		local up="$dir"
		while [[ "$up" != / ]]; do
			[[ "$(stat -c %U "$up")" == root ]] && chmod o+x "$up"
			up="$(dirname "$up")"
		done
	fi
	"${AS_PG_OWNER[@]}" "$pg_bin/initdb" -D "$dir/postgres/data" -U postgres -E UTF8 --locale=C \
		--auth-local=trust --auth-host=scram-sha-256 --no-sync >"$dir/postgres/initdb.log" 2>&1 ||
		{ cat "$dir/postgres/initdb.log" >&2; die "initdb failed"; }
	"${AS_PG_OWNER[@]}" "$pg_bin/postgres" -D "$dir/postgres/data" -h 127.0.0.1 -p "$pg_port" \
		-k "$dir/postgres" -c fsync=off -c synchronous_commit=off -c full_page_writes=off \
		-c max_connections=200 -c logging_collector=off >"$dir/postgres/postgres.log" 2>&1 &
	pg_pid=$!

	local psql=(psql -X -q -v ON_ERROR_STOP=1 -h "$dir/postgres" -p "$pg_port" -U postgres)
	local waited=0
	until redis-cli -h 127.0.0.1 -p "$redis_port" ping 2>/dev/null | grep -q PONG &&
		"${psql[@]}" -d postgres -c 'select 1' >/dev/null 2>&1; do
		kill -0 "$redis_pid" 2>/dev/null || die "redis-server exited: $(tail -5 "$dir/redis/redis.log")"
		kill -0 "$pg_pid" 2>/dev/null || die "postgres exited: $(tail -5 "$dir/postgres/postgres.log")"
		((waited++ < 300)) || die "servers not ready after 30 s"
		sleep 0.1
	done
	"${psql[@]}" -d postgres -c "CREATE ROLE \"$PG_USER\" LOGIN PASSWORD '$PG_PASSWORD'" \
		-c "CREATE DATABASE \"$PG_DATABASE\" OWNER \"$PG_USER\""

	cat >"$dir/ready.env.tmp" <<-EOF
		QUEUE_BULL_REDIS_HOST=127.0.0.1
		QUEUE_BULL_REDIS_PORT=$redis_port
		DB_TYPE=postgresdb
		DB_POSTGRESDB_HOST=127.0.0.1
		DB_POSTGRESDB_PORT=$pg_port
		DB_POSTGRESDB_DATABASE=$PG_DATABASE
		DB_POSTGRESDB_USER=$PG_USER
		DB_POSTGRESDB_PASSWORD=$PG_PASSWORD
	EOF
	mv "$dir/ready.env.tmp" "$dir/ready.env"
	log "ready in $dir: redis 127.0.0.1:$redis_port, postgres 127.0.0.1:$pg_port (database $PG_DATABASE, user $PG_USER)"
	cat "$dir/ready.env"

	# Waiting in `wait` (not in a foreground command) lets the signal traps run at once.
	local watched=("$redis_pid" "$pg_pid") finished=''
	if [[ "${MG_QUEUE_STOP_ON_STDIN_CLOSE:-0}" == 1 ]]; then
		# Stop when whoever started us goes away (its end of our stdin closes).
		cat >/dev/null &
		stdin_pid=$!
		watched+=("$stdin_pid")
	fi
	wait -n -p finished "${watched[@]}" || true
	[[ -n "$stdin_pid" && "$finished" == "$stdin_pid" ]] && exit 0
	die "a server exited unexpectedly (pid $finished)"
}

case "${1:-}" in
	install) install_services ;;
	run) run_services ;;
	*)
		echo "usage: $0 install|run" >&2
		exit 2
		;;
esac
