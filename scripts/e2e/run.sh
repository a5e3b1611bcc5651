#!/usr/bin/env bash
# The real-n8n end-to-end suite: installs both n8n lines into the cache if needed (first time:
# several minutes each), builds the package, then runs test/e2e once per line and prints the time
# of every phase. Any failing install, build or test makes it exit non-zero.
#
#   scripts/e2e/run.sh                 # both lines
#   MG_E2E_LINES=2 scripts/e2e/run.sh  # one line; extra arguments go to jest
#   MG_E2E_BROWSER=0 scripts/e2e/run.sh  # without the editor browser check
set -euo pipefail

cd "$(dirname "$0")/../.."
lines="${MG_E2E_LINES:-1 2}"
lines="${lines//,/ }"

timings=()
phase_started=0
begin() { phase_started=$SECONDS; printf '\n=== e2e: %s\n' "$1"; }
record() { timings+=("$(printf '%-34s %5d s  %s' "$1" $((SECONDS - phase_started)) "$2")"); }
summary() {
	printf '\n=== e2e timings\n'
	printf '  %s\n' "${timings[@]}"
}
trap summary EXIT

[[ -x node_modules/.bin/jest ]] || { echo "node_modules is missing: run npm install first" >&2; exit 1; }

for line in $lines; do
	begin "install n8n line $line.x"
	bash scripts/e2e/install-n8n.sh "$line"
	record "install n8n line $line.x" ok
done

# Queue mode (test/e2e/queueMode.e2e.test.ts) runs real Redis and Postgres: install when missing.
begin 'install redis and postgres'
bash scripts/queue-mode/services.sh install
record 'install redis and postgres' ok

if [[ "${MG_E2E_SKIP_BUILD:-0}" != 1 ]]; then
	begin 'build the package'
	npm run build --silent
	record 'build the package' ok
fi

# Everything n8n writes (user folders, logs) lives in one run folder; on failure it is kept.
MG_E2E_RUN_DIR="$(mktemp -d "${TMPDIR:-/tmp}/mg-e2e-run.XXXXXX")"
MG_E2E_LOG_DIR="$MG_E2E_RUN_DIR/logs"
mkdir -p "$MG_E2E_LOG_DIR"
export MG_E2E_RUN_DIR MG_E2E_LOG_DIR

# Processes of this run still alive: n8n (its N8N_USER_FOLDER is in the run folder) and anything
# it started there (task runners inherit its working directory, the user folder).
leftover_processes() {
	local proc
	for proc in /proc/[0-9]*; do
		if [[ "$(readlink "$proc/cwd" 2>/dev/null)" == "$MG_E2E_RUN_DIR"/* ]] ||
			grep -qsF "N8N_USER_FOLDER=$MG_E2E_RUN_DIR/" "$proc/environ"; then
			echo "${proc#/proc/}"
		fi
	done
}

failed=0
for line in $lines; do
	begin "e2e tests on n8n line $line.x"
	if MG_E2E_LINES="$line" node_modules/.bin/jest -c jest.e2e.config.js --verbose "$@"; then
		record "e2e tests on n8n line $line.x" ok
	else
		record "e2e tests on n8n line $line.x" FAILED
		failed=1
	fi
done

# The editor in a real browser (headless Chromium), on the same lines. MG_E2E_BROWSER=0 skips it.
if [[ "${MG_E2E_BROWSER:-1}" != 0 ]]; then
	begin 'editor browser check'
	if MG_E2E_LINES="$lines" bash scripts/e2e/browser-check.sh; then
		record 'editor browser check' ok
	else
		record 'editor browser check' FAILED
		failed=1
	fi
fi

stray="$(leftover_processes | tr '\n' ' ')"
if [[ -n "${stray// /}" ]]; then
	echo "e2e: processes left behind, killing them: $stray" >&2
	ps -o pid,args -p ${stray// /,} >&2 || true
	kill -9 $stray 2>/dev/null || true
	failed=1
fi

if [[ "$failed" == 0 ]]; then
	rm -rf "$MG_E2E_RUN_DIR"
else
	echo "e2e: FAILED; n8n logs kept in $MG_E2E_LOG_DIR" >&2
fi
exit "$failed"
