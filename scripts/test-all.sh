#!/usr/bin/env bash
# The one test command (`npm test`): on a fresh clone it installs, builds, lints, type-checks
# and runs every test — unit, in-process engine, and real n8n end to end (both n8n lines).
#
# On a fresh machine it also installs what the end-to-end suite needs: both n8n lines into
# ~/.cache/n8n-nodes-model-gateway, and with apt-get (root) Redis, Postgres and Chromium. Those
# installs start first, in the background, and run beside the static checks and the unit tests.
set -euo pipefail
cd "$(dirname "$0")/.."

phase() { printf '\n==== %s\n' "$*"; }
started=$SECONDS
timings=()
phase_started=$SECONDS
# How busy both cores were in each phase (cpu_ticks, cpu_busy_percent).
source scripts/lib/cpu.sh
timed() {
	local name="$1" before
	shift
	phase "$name"
	phase_started=$SECONDS
	before="$(cpu_ticks)"
	"$@"
	timings+=("$(printf '%-30s %5d s  CPU %3d %% busy' "$name" $((SECONDS - phase_started)) \
		"$(cpu_busy_percent "$before" "$(cpu_ticks)")")")
}
summary() {
	printf '\n==== phase times\n'
	printf '  %s\n' "${timings[@]}"
	rm -f "${install_log:-/nonexistent}"*
}
trap summary EXIT

# The installs the end-to-end suite needs, in the background: each is instant once done (a
# marker, a package check), so on a machine that has them this costs nothing.
install_log="$(mktemp "${TMPDIR:-/tmp}/mg-installs.XXXXXX.log")"
# The two n8n lines at once (each is half downloads, half native builds); apt-get one at a time.
(
	set -e
	bash scripts/e2e/install-n8n.sh 2 >"$install_log.n8n-2" 2>&1 &
	n8n_2=$!
	bash scripts/e2e/install-n8n.sh 1 >"$install_log.n8n-1" 2>&1 &
	n8n_1=$!
	status=0
	bash scripts/queue-mode/services.sh install || status=1
	bash scripts/e2e/install-browser.sh || status=1
	wait "$n8n_2" || status=1
	wait "$n8n_1" || status=1
	cat "$install_log.n8n-2" "$install_log.n8n-1"
	exit "$status"
) >"$install_log" 2>&1 &
installs_pid=$!
installs_started=$SECONDS

# Install (again) only when package-lock.json is newer than what node_modules holds. `npm install`
# rather than `npm ci`: npm 11 rejects this lock in `ci` ("Missing: @unrs/resolver-binding-…")
# because it leaves other platforms' optional bindings out of it; `install` follows the lock.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
	# --prefer-offline: what npm's cache already holds is not asked of the registry again.
	timed "npm install" npm install --no-audit --no-fund --prefer-offline
fi

timed "build" npm run build
# Lint (n8n community node rules, inline configuration off as n8n's scanner runs it); the tarball
# n8n loads and n8n's verification scanner; the GitHub workflows and version names; every docs
# link; Prettier. Each is short and single-threaded: two at a time.
static_checks() {
	local pids=() names=() status=0 i
	run_check() {
		names+=("$1")
		shift
		"$@" >"$install_log.check-${#names[@]}" 2>&1 &
		pids+=($!)
	}
	run_check "lint" npm run lint
	run_check "package: tarball and n8n's scanner" npm run check:package
	for i in "${!pids[@]}"; do
		if wait "${pids[$i]}"; then echo "ok: ${names[$i]}"; else echo "FAILED: ${names[$i]}"; status=1; fi
		cat "$install_log.check-$((i + 1))"
	done
	pids=() names=()
	run_check "release: workflows and version names" npm run check:release
	run_check "docs: links and anchors" node scripts/docs/check-links.mjs
	run_check "formatting (Prettier)" npm run format:check
	for i in "${!pids[@]}"; do
		if wait "${pids[$i]}"; then echo "ok: ${names[$i]}"; else echo "FAILED: ${names[$i]}"; status=1; fi
		cat "$install_log.check-$((i + 1))"
	done
	return "$status"
}
timed "static checks" static_checks
# Type-check sources and tests, and emit them to .build/ (the browser check runs from there).
timed "type-check (emits .build/)" npx tsc -p tsconfig.test.json
timed "unit and engine tests" npx jest --ci --coverage

phase "installs for the end-to-end suite (started $((SECONDS - installs_started)) s ago)"
phase_started=$SECONDS
if ! wait "$installs_pid"; then
	cat "$install_log"
	echo "installs failed (log above)" >&2
	exit 1
fi
cat "$install_log"
timings+=("$(printf '%-30s %5d s (waited)' "installs" $((SECONDS - phase_started)))")

timed "real n8n end to end" env MG_E2E_SKIP_BUILD=1 MG_E2E_SKIP_TSC=1 bash scripts/e2e/run.sh

phase "all tests passed in $((SECONDS - started)) s"
