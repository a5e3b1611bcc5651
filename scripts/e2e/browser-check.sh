#!/usr/bin/env bash
# The editor browser check (test/e2e/browser/editor-check.ts): real n8n per line in MG_E2E_LINES,
# every node of the package opened in headless Chromium, screenshots in test-results/screenshots/.
# Installs Chromium (Debian package) if needed; expects n8n installed and the package built
# (scripts/e2e/run.sh does both and then calls this).
set -euo pipefail
cd "$(dirname "$0")/../.."

bash scripts/e2e/install-browser.sh
npx tsc -p tsconfig.test.json || echo 'browser-check: type errors above (continuing with the emitted JavaScript)' >&2
exec node .build/test/e2e/browser/editor-check.js
