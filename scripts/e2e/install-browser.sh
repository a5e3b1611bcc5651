#!/usr/bin/env bash
# Installs headless Chromium from Debian packages for the editor browser check
# (test/e2e/browser/editor-check.ts). Idempotent: returns at once when it is already there.
#
#   scripts/e2e/install-browser.sh      # needs root or passwordless sudo on a fresh machine
#
# The check finds the browser through MG_E2E_CHROMIUM (default /usr/bin/chromium).
set -euo pipefail

chromium="${MG_E2E_CHROMIUM:-/usr/bin/chromium}"
log() { printf '[install-browser] %s\n' "$*"; }

if [[ -x "$chromium" ]] && dpkg -s fonts-liberation >/dev/null 2>&1; then
	log "already installed: $("$chromium" --version 2>/dev/null || echo "$chromium")"
	exit 0
fi

as_root=()
if [[ "$(id -u)" != 0 ]]; then
	command -v sudo >/dev/null || { log "need root (or sudo) to apt-get install chromium"; exit 1; }
	as_root=(sudo -n)
fi
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
# fonts-liberation: without a Latin font the editor renders boxes instead of text.
"${as_root[@]}" apt-get install -y -qq --no-install-recommends chromium fonts-liberation
log "installed: $("$chromium" --version)"
