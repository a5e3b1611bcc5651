#!/usr/bin/env bash
# The one test command (`npm test`): on a fresh clone it installs, builds, lints, type-checks
# and runs every test — unit, in-process engine, and real n8n end to end (both n8n lines).
set -euo pipefail
cd "$(dirname "$0")/.."

phase() { printf '\n==== %s\n' "$*"; }
started=$SECONDS

# Install (again) only when package-lock.json is newer than what node_modules holds. `npm install`
# rather than `npm ci`: npm 11 rejects this lock in `ci` ("Missing: @unrs/resolver-binding-…")
# because it leaves other platforms' optional bindings out of it; `install` follows the lock.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
	phase "npm install (from package-lock.json)"
	npm install --no-audit --no-fund
fi

phase "build"
npm run build
phase "lint (n8n community node rules, inline configuration off as n8n's scanner runs it)"
npm run lint
phase "package: the tarball n8n loads, and n8n's verification scanner on the source and the tarball"
npm run check:package
phase "release: the GitHub workflows (actionlint), and the version names agree"
npm run check:release
phase "docs: every link and anchor resolves"
node scripts/docs/check-links.mjs
phase "formatting (Prettier, as in n8n-nodes-starter)"
npm run format:check
phase "type-check (sources and tests)"
npm run typecheck
phase "unit and engine tests"
npx jest --ci --coverage
phase "real n8n end to end"
MG_E2E_SKIP_BUILD=1 bash scripts/e2e/run.sh

phase "all tests passed in $((SECONDS - started)) s"
