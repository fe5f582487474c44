#!/bin/sh
# The straight-line hostile corpus (internal/runner/testdata/straightline)
# through the real CLI: `plugin-lsp run --timeout 1s` of every tool, one
# at a time, printing each run's wall time (the process's, /usr/bin/time)
# and how it ended; then `plugin-lsp check` of the template-url page with
# exploration and with --no-explore. A page ends within a small bound of
# its deadline whatever it does (TestStraightLineCorpus asserts how each
# ends; this prints how long it took).
# Usage: scripts/bench-straightline.sh [TOOL...]      (default: every tool)
#        scripts/bench-straightline.sh compare REV [TOOL...]
#   compare: the CLI built from commit REV and from the work tree, run
#   alternately tool by tool, so that a loaded machine slows both alike.
#   LIMIT=SECONDS: kill a run after this long (default 300); it prints
#   "killed".
set -eu
cd "$(dirname "$0")/.."
versions=new
if [ "${1:-}" = compare ]; then
	rev=${2:?usage: scripts/bench-straightline.sh compare REV [TOOL...]}
	versions="old new"
	shift 2
fi
corpus=internal/runner/testdata/straightline
tools=${*:-$(jq -r '.tools[].name' "$corpus/plugin.json")}
limit=${LIMIT:-300}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
go build -o "$tmp/new" ./cmd/plugin-lsp
if [ "$versions" != new ]; then
	mkdir "$tmp/src"
	git archive "$rev" | tar -x -C "$tmp/src"
	(cd "$tmp/src" && go build -o "$tmp/old" ./cmd/plugin-lsp)
fi
export XDG_CACHE_HOME="$tmp/cache"
for v in $versions; do # warm the compilation cache
	"$tmp/$v" run --timeout 1s "$corpus" control >/dev/null 2>&1 || true
done
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for t in $tools; do
	for v in $versions; do
		s=$(date +%s.%N)
		code=0
		timeout -s KILL "$limit" "$tmp/$v" run --timeout 1s "$corpus" "$t" >"$tmp/out" 2>/dev/null || code=$?
		e=$(date +%s.%N)
		end=$(jq -r '.error.name // "ok"' "$tmp/out" 2>/dev/null || echo "no record")
		[ "$code" = 137 ] && end="killed after ${limit}s"
		printf '%-22s %-4s wall %7.2fs  %s\n' "$t" "$v" "$(echo "$e - $s" | bc)" "$end"
	done
done
# check of the template-url page alone, with exploration and without
p="$tmp/one"
mkdir -p "$p/code"
cp "$corpus/code/template-url.ts" "$p/code/t.ts"
cp "$corpus/fixtures.json" "$p/"
jq '.tools = [{"name": "t", "page": "code/t", "description": "the template-url page"}]' "$corpus/plugin.json" >"$p/plugin.json"
for flags in "" --no-explore; do
	for v in $versions; do
		s=$(date +%s.%N)
		timeout -s KILL "$limit" "$tmp/$v" check $flags "$p" >/dev/null 2>&1 || true
		e=$(date +%s.%N)
		printf '%-22s %-4s wall %7.2fs\n' "check ${flags:-(explore)}" "$v" "$(echo "$e - $s" | bc)"
	done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
