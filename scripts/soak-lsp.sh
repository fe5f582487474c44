#!/bin/sh
# Language-server soak (figures for docs/lsp.md): the built binary serves a
# plugin with 20 pages of 1 KB to 2 MB; EDITS full-text changes in bursts,
# each burst followed by a diagnostics pull; then every page is closed.
# Prints the RSS at start, the peak and the RSS after close; fails when the
# peak is over 150 MB or the RSS after close over 1.3 x the start.
# Usage: scripts/soak-lsp.sh [EDITS [BUDGET]]   (EDITS defaults to 10000)
# BUDGET (a Go duration, e.g. 50m) stops the edits early on a machine too
# slow or too loaded for all of them (the figures then say how many were
# made); the figures quoted in docs/lsp.md say which mode they come from.
set -eu
cd "$(dirname "$0")/.."
PLUGIN_LSP_SOAK=${1:-10000} PLUGIN_LSP_SOAK_FOR=${2:-} go test ./internal/lsp -run '^TestSoakEdits$' -v -count 1 -timeout 300m |
	grep --line-buffered -E 'soak|ok|FAIL|panic|timed out'
