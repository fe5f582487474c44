#!/bin/sh
# Runner figures for docs/sandbox.md: RSS and goroutines across 10,000 runs
# in one process, then the benchmarks (-count 5; report the medians).
# Usage: scripts/bench-runner.sh [RUNS]   (RUNS defaults to 10000)
set -eu
cd "$(dirname "$0")/.."
runs=${1:-10000}
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
echo "== soak: $runs runs in one process (RSS, goroutines)"
PLUGIN_LSP_SOAK=$runs PLUGIN_LSP_SOAK_POISON=40 PLUGIN_LSP_TEST_CACHE=$cache \
	go test ./runner/sandbox -run "^TestSoak" -v -count 1 -timeout 60m | grep -E 'soak_test|ok|FAIL'
echo "== benchmarks (medians of 5)"
PLUGIN_LSP_TEST_CACHE=$cache go test ./runner -run '^$' -bench . -benchtime 200x -count 5 -timeout 60m | grep -E '^Benchmark|ok|FAIL'
