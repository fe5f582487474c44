#!/bin/sh
# Runner figures for docs/sandbox.md: RSS and goroutines across 10,000 runs
# in one process, then the benchmarks (-count 5; report the medians).
# Usage: scripts/bench-runner.sh [RUNS]   (RUNS defaults to 10000)
#        scripts/bench-runner.sh compare REV [ROUNDS]
#   compare: the warm / back-to-back / parallel benchmarks of commit REV and
#   of the work tree, interleaved round by round (ROUNDS, default 5; 200
#   runs each), so that a machine shared with other jobs slows both alike.
#   Report the medians of the rounds.
set -eu
cd "$(dirname "$0")/.."
if [ "${1:-}" = compare ]; then
	rev=${2:?usage: scripts/bench-runner.sh compare REV [ROUNDS]}
	rounds=${3:-5}
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	mkdir "$tmp/old" "$tmp/cache"
	git archive "$rev" | tar -x -C "$tmp/old"
	(cd "$tmp/old" && go test -c -o "$tmp/old.test" ./internal/runner)
	go test -c -o "$tmp/new.test" ./internal/runner
	i=1
	while [ "$i" -le "$rounds" ]; do
		for v in old new; do
			dir=runner
			[ "$v" = old ] && dir="$tmp/old/runner"
			(cd "$dir" && PLUGIN_LSP_TEST_CACHE=$tmp/cache "$tmp/$v.test" -test.run '^$' \
				-test.bench 'RunWarm$|RunBackToBack|RunParallel' -test.benchtime 200x) |
				grep '^Benchmark' | sed "s/^/$v round $i: /"
		done
		i=$((i + 1))
	done
	exit 0
fi
runs=${1:-10000}
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
echo "== soak: $runs runs in one process (RSS, goroutines)"
PLUGIN_LSP_SOAK=$runs PLUGIN_LSP_SOAK_POISON=40 PLUGIN_LSP_TEST_CACHE=$cache \
	go test ./internal/runner/sandbox -run "^TestSoak" -v -count 1 -timeout 60m | grep -E 'soak_test|ok|FAIL'
echo "== benchmarks (medians of 5)"
PLUGIN_LSP_TEST_CACHE=$cache go test ./internal/runner -run '^$' -bench . -benchtime 200x -count 5 -timeout 60m | grep -E '^Benchmark|ok|FAIL'
