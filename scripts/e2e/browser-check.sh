#!/usr/bin/env bash
# The editor browser check (test/e2e/browser/editor-check.ts): real n8n per line in MG_E2E_LINES,
# every node of the package opened in headless Chromium, screenshots in test-results/screenshots/;
# on n8n 2.x also the README's screenshots, in test-results/readme-screenshots/ (they reach
# docs/readme/screenshots/ only through `npm run docs:screenshots`, which sets
# MG_E2E_UPDATE_DOCS_SCREENSHOTS=1: a test run must not change tracked files).
# Installs Chromium (Debian package) if needed; expects n8n installed and the package built
# (scripts/e2e/run.sh does both and then calls this).
set -euo pipefail
cd "$(dirname "$0")/../.."

bash scripts/e2e/install-browser.sh
# A type error stops the check: the emitted JavaScript of code that does not type-check is not
# what we mean to test. `npm test` has just type-checked and emitted .build/ (MG_E2E_SKIP_TSC=1).
if [[ "${MG_E2E_SKIP_TSC:-0}" != 1 ]] && ! npx tsc -p tsconfig.test.json; then
	echo 'browser-check: type errors above; fix them first (npm run typecheck)' >&2
	exit 1
fi
exec node .build/test/e2e/browser/editor-check.js
