#!/usr/bin/env bash
# `npm run docs:screenshots`: the one command that changes the pictures the README and docs/ show
# (docs/readme/screenshots/). It runs the editor browser check on n8n 2.x, the line the pictures
# show (README_LINE in test/e2e/browser/editor-check.ts), and copies the pictures the check took
# there once it passes. `npm test` takes the same pictures into test-results/readme-screenshots/
# only, so a test run leaves the tree as it found it; run this when the nodes' look changed and
# commit what it changed.
set -euo pipefail
cd "$(dirname "$0")/../.."

# The browser check expects n8n installed and the package built (as scripts/e2e/run.sh does).
bash scripts/e2e/install-n8n.sh 2
npm run build --silent
MG_E2E_LINES=2 MG_E2E_UPDATE_DOCS_SCREENSHOTS=1 bash scripts/e2e/browser-check.sh

# Which pictures changed, to look at and commit.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git status --short -- docs/readme/screenshots/
fi
