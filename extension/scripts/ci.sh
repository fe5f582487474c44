#!/usr/bin/env bash
# Builds the .vsix and runs the extension's tests (Node tests, the wiring
# test against a fresh plugin-lsp build, the headless Chromium page test).
# Called from the repository's .ci/run. Needs Node 20 + npm, Go, and Debian's
# chromium (installed here when missing and we are root).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "extension/scripts/ci.sh: chromium is missing (apt-get install -y chromium)" >&2
    exit 1
  fi
fi

npm ci --no-audit --no-fund
npm run package
npm test
