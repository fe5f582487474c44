#!/bin/sh
# Prints the README's "Measured" table from the benchmarks, with the date,
# the machine's load and CPU model next to the figures: paste it as is.
# Every figure is the median of COUNT runs (default 5) of one benchmark
# (go test -bench) or script; nothing here is typed in by hand.
# Usage: scripts/bench-readme.sh            (SOAK=10000 runs for the RSS row; SOAK=0 skips it)
set -eu
cd "$(dirname "$0")/.."
count=${COUNT:-5}
soak=${SOAK:-10000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PLUGIN_LSP_TEST_CACHE="$tmp/cache"
load() { cut -d' ' -f1-3 /proc/loadavg; }
load0=$(load)
bench() { # PKG REGEX [BENCHTIME]
	go test "$1" -run '^$' -bench "$2" -benchtime "${3:-1s}" -count "$count" -timeout 60m 2>&1 |
		grep '^Benchmark' >>"$tmp/bench" || true
}
bench ./internal/checker/rules 'CheckExampleWarm$|Check1000Tools$|PositionMap200KB$|PageFromCache$|RecheckAfterManifestEdit$'
bench ./internal/js/jspage 'AnalyzePage200$'
bench ./internal/runner 'RunWarm$|RunBackToBack$|RunParallel$' 200x
bench ./internal/runner 'FirstRunNewProcess$' 20x
bench ./internal/lsp 'DidChangeToPublish|StartToFirstDiagnostics$|IdleRSS$' 20x
RUNS=$count sh scripts/bench-check-1000.sh >"$tmp/check1000" 2>&1 || true
if [ "$soak" -gt 0 ]; then
	PLUGIN_LSP_SOAK=$soak go test ./internal/runner/sandbox -run '^TestSoak$' -v -count 1 -timeout 60m >"$tmp/soak" 2>&1 || true
fi
load1=$(load)
# median METRIC BENCH-NAME-REGEX: the median of a benchmark's metric
# (ns/op, p50-ms, runs/s, MB-RSS, ...) over its COUNT lines.
median() {
	awk -v unit="$1" -v re="$2" '
		$1 ~ re { for (i = 3; i < NF; i++) if ($(i+1) == unit) v[n++] = $i }
		END {
			if (n == 0) { print "n/a"; exit }
			for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
			print v[int((n - 1) / 2)]
		}' "$tmp/bench"
}
ms() { # ns → ms
	case $1 in n/a) echo n/a ;; *) awk -v x="$1" 'BEGIN { printf "%.2f ms", x / 1e6 }' ;; esac
}
us() {
	case $1 in n/a) echo n/a ;; *) awk -v x="$1" 'BEGIN { printf "%.1f µs", x / 1e3 }' ;; esac
}
check1000=$(sed -n 's/^check of 1000 plugin directories: \([0-9.]*\) s.*/\1/p' "$tmp/check1000" | sort -n | awk '{ v[n++] = $1 } END { if (n) printf "%.2f s", v[int((n - 1) / 2)]; else print "n/a" }')
rss=$(grep -Eo 'RSS after 500 runs [0-9.]+ MB, after [0-9]+ runs [0-9.]+ MB' "$tmp/soak" 2>/dev/null | head -1 |
	awk '{ printf "%s → %s MB", $5, $10 }')
[ -n "$rss" ] || rss="not run"
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')
echo "Produced by \`scripts/bench-readme.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC'), $cpu × $(nproc),"
echo "load average $load0 before and $load1 after; medians of $count."
echo
echo "| what | median | target |"
echo "|---|---|---|"
echo "| check of the example plugin, warm process | $(ms "$(median ns/op 'CheckExampleWarm')") | ≤ 2 ms |"
echo "| check of a 1,000-tool manifest | $(ms "$(median ns/op 'Check1000Tools')") | ≤ 50 ms |"
echo "| \`plugin-lsp check\` over 1,000 plugin directories (\`scripts/bench-check-1000.sh\`) | $check1000 | ≤ 10 s |"
echo "| position map of a 200 KB manifest | $(ms "$(median ns/op 'PositionMap200KB')") | ≤ 5 ms |"
echo "| 200-line page analysed cold / from cache | $(ms "$(median ns/op 'AnalyzePage200')") / $(us "$(median ns/op 'PageFromCache')") | ≤ 10 ms / ≤ 0.1 ms |"
echo "| re-check after a manifest edit, pages cached | $(ms "$(median ns/op 'RecheckAfterManifestEdit')") | ≤ 5 ms |"
echo "| sandbox run of a small tool, warm process, paced (p50 / p95) | $(median p50-ms 'RunWarm') / $(median p95-ms 'RunWarm') ms | ≤ 1 ms |"
echo "| same, back to back (p50 / p95) | $(median p50-ms 'RunBackToBack') / $(median p95-ms 'RunBackToBack') ms | ≤ 1.5 ms |"
echo "| first run in a new process, module cache on disk (p50) | $(median p50-ms 'FirstRunNewProcess') ms | ≤ 100 ms |"
echo "| runs per second on all cores | $(median runs/s 'RunParallel') | — |"
echo "| RSS across $soak runs in one process (after 500 → at the end) | $rss | flat |"
echo "| LSP didChange → publishDiagnostics, example / 1,000 tools (no debounce) | $(ms "$(median ns/op 'DidChangeToPublish/example')") / $(ms "$(median ns/op 'DidChangeToPublish/1000-tools')") | ≤ 10 / ≤ 50 ms |"
echo "| LSP start → first diagnostics | $(ms "$(median ns/op 'StartToFirstDiagnostics')") | ≤ 150 ms |"
echo "| LSP idle RSS, 100-tool workspace | $(median MB-RSS 'IdleRSS') MB | ≤ 60 MB |"
