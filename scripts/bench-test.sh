#!/usr/bin/env bash
# Times `plugin-lsp test` of 200 cases (the example plugin plus a generated
# tests/bench.json spread over its three tools, 212 cases with the
# example's own) as a user runs it: a fresh
# process each time, cases run on all cores. Prints each run's wall and CPU
# time and the medians. Usage: scripts/bench-test.sh [RUNS] (default 5).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/plugin-lsp" ./cmd/plugin-lsp
cp -r testdata/example/books "$work/books"
{
	echo '{"cases": ['
	for i in $(seq 0 199); do
		sep=","
		[ "$i" = 199 ] && sep=""
		case $((i % 3)) in
		0) echo "{\"name\": \"lookup $i\", \"tool\": \"lookupBook\", \"input\": {\"isbn\": \"9780261103344\"}, \"resultContains\": {\"value\": \"The Hobbit\"}, \"fetches\": [{\"credentials\": [\"openlibrary_key\"]}]}$sep" ;;
		1) echo "{\"name\": \"search $i\", \"tool\": \"searchBooks\", \"input\": {\"q\": \"hobbit\", \"limit\": 2}, \"resultContains\": {\"type\": \"table\"}}$sep" ;;
		2) echo "{\"name\": \"save $i\", \"tool\": \"saveFavourite\", \"input\": {\"isbn\": \"$((1000 + i))\"}, \"resultContains\": {\"type\": \"markdown\"}}$sep" ;;
		esac
	done
	echo ']}'
} >"$work/books/tests/bench.json"
"$work/plugin-lsp" test "$work/books" >/dev/null 2>&1 # warms the QuickJS module cache, checks that all pass
walls=() cpus=()
for r in $(seq "$runs"); do
	/usr/bin/time -o "$work/time" -f '%e %U %S' "$work/plugin-lsp" test --format json "$work/books" >/dev/null 2>"$work/err" || { cat "$work/err"; exit 1; }
	read -r wall user sys <"$work/time"
	cpu=$(echo "$user + $sys" | bc)
	walls+=("$wall") cpus+=("$cpu")
	echo "run $r: wall ${wall}s, cpu ${cpu}s ($(tail -1 "$work/err"))"
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "200 cases on $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg): median wall $(median "${walls[@]}")s, median cpu $(median "${cpus[@]}")s"
