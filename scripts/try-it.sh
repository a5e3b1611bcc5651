#!/usr/bin/env bash
# "Try it": on a fresh clone, installs what is needed (npm install, n8n into the cache outside the
# source tree), builds, and runs the gateway simulator plus real n8n with this package installed,
# the simulator credentials and every example workflow that works on that n8n line imported
# (EXAMPLE_LINES in test/e2e/examples.ts). Prints the editor URL and login; Ctrl-C stops both.
#
#   npm run try-it                       # n8n 2.x on http://127.0.0.1:5678, simulator on 5680/5681
#   TRY_IT_N8N_PORT=5690 npm run try-it  # other ports: TRY_IT_N8N_PORT, SIM_PORT, SIM_IDENTITY_PORT
#   TRY_IT_N8N_LINE=1 npm run try-it     # n8n 1.x on Node 20 instead
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n=== try-it: %s\n' "$*"; }

# `npm install` follows package-lock.json (npm 11's `ci` rejects it: see scripts/test-all.sh).
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
	step 'installing the project (npm install from package-lock.json)'
	npm install --no-audit --no-fund
fi

# 2.x, the current n8n line, unless 1.x is asked for; exported so that try-it.js starts the line
# installed here even if its own default ever differs.
export TRY_IT_N8N_LINE="${TRY_IT_N8N_LINE:-2}"
line="$TRY_IT_N8N_LINE"
step "installing n8n line $line.x (first time: a few minutes)"
bash scripts/e2e/install-n8n.sh "$line"

step 'building the package'
npm run build --silent
# tsc still emits JavaScript when an unrelated test file has type errors; the try-it entry point
# is checked by the test command.
npx tsc -p tsconfig.test.json || echo 'try-it: type errors above (continuing with the emitted JavaScript)' >&2

step 'starting the simulator and n8n'
exec node .build/test/e2e/try-it.js
