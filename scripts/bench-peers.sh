#!/bin/sh
# Side-by-side: the same small tool (parse the input, one canned fetch the
# host answers asynchronously, one log line, a JSON result) in a fresh
# sandbox per call, in
#   ours-sandbox   our sandbox layer (a new wasm instance per call)
#   ours-runner    our whole runner.Run (fixtures, broker, record) of the example plugin's lookupBook
#   ours-lsp       the same run as an editor asks for it: plugin.runTool over stdio to `plugin-lsp serve`
#   ours-lsp-null  a request of the same path that runs nothing: the floor of a stdio round trip
#   qjs-runtime    quickjs-emscripten, a new QuickJS runtime per call in one wasm instance
#   qjs-instance   quickjs-emscripten, a new wasm instance per call (module compiled once)
#   node-vm        Node's vm.createContext per call
# Each round starts every one of them once, in a new process, in turn (the
# order rotates), so that machine noise hits all alike; each process makes
# 20 warm-up calls, CALLS paced calls (5 ms pause before each) and CALLS
# back-to-back calls. Printed: the medians over the rounds of each round's
# paced p50/p95, back-to-back p50 and CPU time per back-to-back call, and
# the ratios to qjs-runtime.
# Usage: scripts/bench-peers.sh [ROUNDS [CALLS]]   (defaults 5, 200; BENCH_MODES
# chooses the modes, qjs-runtime among them for the ratios)
# Needs Go and Node (npm ci installs quickjs-emscripten from the lock file).
set -eu
cd "$(dirname "$0")/.."
rounds=${1:-5}
calls=${2:-200}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd scripts/bench-peers && npm ci --no-audit --no-fund --silent)
go build -o "$tmp/ours" ./scripts/bench-peers/ours
go build -o "$tmp/plugin-lsp" ./cmd/plugin-lsp
export PLUGIN_LSP_BIN="$tmp/plugin-lsp"
export PLUGIN_LSP_BENCH_CACHE="$tmp/cache"
"$tmp/ours" sandbox 1 >/dev/null # fills the compiled-module cache
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //') x $(nproc)"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
modes=${BENCH_MODES:-"ours-sandbox ours-runner ours-lsp ours-lsp-null qjs-runtime qjs-instance node-vm"}
i=1
while [ "$i" -le "$rounds" ]; do
	# rotate the order by the round number
	set -- $modes
	k=1
	while [ "$k" -lt "$i" ]; do
		first=$1
		shift
		set -- "$@" "$first"
		k=$((k + 1))
	done
	for m in "$@"; do
		case $m in
		ours-*) "$tmp/ours" "${m#ours-}" "$calls" >>"$tmp/results" ;;
		*) node scripts/bench-peers/peers.mjs "$m" "$calls" >>"$tmp/results" ;;
		esac
	done
	i=$((i + 1))
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
node scripts/bench-peers/summary.mjs <"$tmp/results"
