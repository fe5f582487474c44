#!/usr/bin/env bash
# The extension's part of the suite, on its own: npm ci (when the lock file
# changed), the .vsix archives, the Node tests, then real VS Code. The
# repository's scripts/test.sh runs the same steps with timings.
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

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
npm run --silent package
CI=1 npm test --silent
node --test --test-reporter spec e2e/
