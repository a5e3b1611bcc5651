#!/usr/bin/env bash
# The real-n8n end-to-end suite: installs both n8n lines into the cache if needed (first time:
# several minutes each), builds and packs the package once, then runs test/e2e in two phases and
# prints the time of every phase and stream:
#
#   1. together: the e2e files of line 1.x, those of line 2.x and the editor browser check, each a
#      stream of its own (its own jest process, ports, folders, n8n processes). Each of them waits
#      on n8n's timers most of its time, so three share the two cores well.
#   2. alone, one line after the other: the files whose promise depends on timing (SOLO_FILES):
#      a worker killed inside a chunk, a restart inside a stored wait, callbacks answered within
#      the gateway's 5 s. They keep the machine to themselves.
#
#   scripts/e2e/run.sh                      # both lines and the browser check
#   MG_E2E_LINES=2 scripts/e2e/run.sh       # one line; extra arguments go to jest (phase 1 and 2)
#   MG_E2E_BROWSER=0 scripts/e2e/run.sh     # without the editor browser check
#   MG_E2E_SERIAL=1 scripts/e2e/run.sh      # every stream one after the other (to compare)
#
# Any failing install, build or test makes it exit non-zero.
set -euo pipefail

cd "$(dirname "$0")/../.."
lines="${MG_E2E_LINES:-1 2}"
lines="${lines//,/ }"

# The files that keep the machine to themselves (phase 2); see docs/development.md.
SOLO_FILES=(dataTableCrash.e2e.test.ts queueMode.e2e.test.ts)
solo_pattern="$(IFS='|'; echo "(${SOLO_FILES[*]//./\\.})\$")"

timings=()
phase_started=0
source scripts/lib/cpu.sh
phase_cpu=''
begin() { phase_started=$SECONDS; phase_cpu="$(cpu_ticks)"; printf '\n=== e2e: %s\n' "$1"; }
cpu_busy() { echo "CPU $(cpu_busy_percent "$phase_cpu" "$(cpu_ticks)") % busy"; }
record() { timings+=("$(printf '%-44s %5d s  %-6s %s' "$1" $((SECONDS - phase_started)) "$2" "$(cpu_busy)")"); }
counts=()
summary() {
	printf '\n=== e2e timings\n'
	printf '  %s\n' "${timings[@]}"
	if ((${#counts[@]})); then
		printf '\n=== e2e tests per line (they may only grow)\n'
		printf '  %s\n' "${counts[@]}"
	fi
}
trap summary EXIT

[[ -x node_modules/.bin/jest ]] || { echo "node_modules is missing: run npm install first" >&2; exit 1; }

for line in $lines; do
	begin "install n8n line $line.x"
	bash scripts/e2e/install-n8n.sh "$line"
	record "install n8n line $line.x" ok
done

# Queue mode (queueMode and dataTableCrash) runs real Redis and Postgres: install when missing.
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
mkdir -p "$MG_E2E_LOG_DIR" "$MG_E2E_RUN_DIR/results"
export MG_E2E_RUN_DIR MG_E2E_LOG_DIR

# One tarball for every file and stream (test/e2e/harness.ts packPackage uses it).
begin 'pack the package'
packed="$(npm pack --silent --ignore-scripts --pack-destination "$MG_E2E_RUN_DIR")"
export MG_E2E_PACKAGE_TARBALL="$MG_E2E_RUN_DIR/$packed"
record 'pack the package' "$packed"

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

# A stream: a command whose output is printed with a prefix naming it, its status and time kept.
declare -A stream_pid stream_started
stream_names=()
start_stream() {
	local name="$1"
	shift
	stream_started[$name]=$SECONDS
	local ended="$MG_E2E_RUN_DIR/results/${name// /-}.ended"
	(
		set -o pipefail
		status=0
		"$@" 2>&1 | sed -u "s/^/[$name] /" || status=$?
		# When it ended (the summary waits for the streams in order, not as they end).
		echo "$SECONDS" >"$ended"
		exit "$status"
	) &
	stream_pid[$name]=$!
	stream_names+=("$name")
	[[ "${MG_E2E_SERIAL:-0}" != 1 ]] || finish_stream "$name"
}
finish_stream() {
	local name="$1" status=0
	[[ -n "${stream_pid[$name]:-}" ]] || return 0
	wait "${stream_pid[$name]}" || status=$?
	unset "stream_pid[$name]"
	local ended_at
	ended_at="$(cat "$MG_E2E_RUN_DIR/results/${name// /-}.ended" 2>/dev/null || echo "$SECONDS")"
	if ((status == 0)); then
		timings+=("$(printf '%-44s %5d s  ok' "  $name" $((ended_at - stream_started[$name])))")
	else
		timings+=("$(printf '%-44s %5d s  FAILED' "  $name" $((ended_at - stream_started[$name])))")
		failed=1
	fi
}
finish_streams() {
	local name
	for name in "${stream_names[@]}"; do finish_stream "$name"; done
	stream_names=()
}

e2e_jest() {
	local line="$1" results="$2"
	shift 2
	MG_E2E_LINES="$line" node_modules/.bin/jest -c jest.e2e.config.js --verbose \
		--json --outputFile="$results" "$@"
}

failed=0
begin 'phase 1: the lines and the browser check together'
for line in $lines; do
	start_stream "e2e $line.x" e2e_jest "$line" "$MG_E2E_RUN_DIR/results/line-$line-together.json" \
		--testPathIgnorePatterns "$solo_pattern" "$@"
done
# The editor in a real browser (headless Chromium), on the same lines. MG_E2E_BROWSER=0 skips it.
if [[ "${MG_E2E_BROWSER:-1}" != 0 ]]; then
	start_stream 'browser check' env MG_E2E_LINES="$lines" bash scripts/e2e/browser-check.sh
fi
finish_streams
record 'phase 1: the lines and the browser check together' "$([[ $failed == 0 ]] && echo ok || echo FAILED)"

begin 'phase 2: the timing-sensitive files, alone'
for line in $lines; do
	start_stream "e2e $line.x alone" e2e_jest "$line" "$MG_E2E_RUN_DIR/results/line-$line-alone.json" \
		"$solo_pattern" "$@"
	finish_stream "e2e $line.x alone"
done
stream_names=()
record 'phase 2: the timing-sensitive files, alone' "$([[ $failed == 0 ]] && echo ok || echo FAILED)"

for line in $lines; do
	counts+=("$(node -e '
		const fs = require("fs");
		const [line, ...files] = process.argv.slice(1);
		let passed = 0, failedTests = 0, total = 0;
		const perFile = [];
		for (const file of files.filter((f) => fs.existsSync(f))) {
			const results = JSON.parse(fs.readFileSync(file, "utf8"));
			passed += results.numPassedTests;
			failedTests += results.numFailedTests;
			total += results.numTotalTests;
			for (const suite of results.testResults)
				perFile.push(`${suite.name.split("/").pop().replace(".e2e.test.ts", "")} ${Math.round((suite.endTime - suite.startTime) / 1000)} s`);
		}
		console.log(`line ${line}.x: ${total} tests, ${passed} passed, ${failedTests} failed (${perFile.join(", ")})`);
	' "$line" "$MG_E2E_RUN_DIR/results/line-$line-together.json" "$MG_E2E_RUN_DIR/results/line-$line-alone.json")")
done

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
