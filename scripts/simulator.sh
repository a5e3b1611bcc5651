#!/usr/bin/env bash
# Builds the test sources and runs the Model Gateway simulator standalone ("try it").
# Usage: npm run simulator -- [--port 5680] [--identity-port 5681] [--queued-ms 50] ...
#        (node .build/test/simulator/cli.js --help lists every flag and environment variable)
set -euo pipefail
cd "$(dirname "$0")/.."

# tsc still emits JavaScript when other parts of the tree have type errors, so a broken
# file elsewhere does not stop the simulator from starting.
if ! npx tsc -p tsconfig.test.json; then
	echo "simulator.sh: type errors above (continuing with the emitted JavaScript)" >&2
fi
CLI=.build/test/simulator/cli.js
if [ ! -f "$CLI" ]; then
	echo "simulator.sh: $CLI was not built" >&2
	exit 1
fi
exec node "$CLI" "$@"
