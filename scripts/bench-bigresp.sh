#!/bin/sh
# The parallel-big-response case through the real CLI: `plugin-lsp run
# --providers real --timeout 5s` of a page that starts 32 fetches at once,
# each answered with 16 MiB by a loopback HTTPS server in another process
# (scripts/bigresp; its certificate reaches the CLI through SSL_CERT_FILE,
# the way a system CA would). Prints, per run, the wall time and the CLI's
# peak RSS (/usr/bin/time %M), then the medians. Target (docs/limits.md):
# peak RSS < 256 MB, the run ends within its deadline + 1 s.
# Usage: scripts/bench-bigresp.sh [ROUNDS]            (default 5)
#        scripts/bench-bigresp.sh compare REV [ROUNDS]
#   SIZE=BYTES: another body size (SIZE=1: the CLI's own baseline).
#   KEEP=PREFIX: keep each run record as PREFIX.VERSION.ROUND.json.
#   compare: the CLI built from commit REV and from the work tree, run
#   alternately round by round, so that a loaded machine slows both alike.
set -eu
cd "$(dirname "$0")/.."
versions=new
if [ "${1:-}" = compare ]; then
	rev=${2:?usage: scripts/bench-bigresp.sh compare REV [ROUNDS]}
	versions="old new"
	shift 2
fi
rounds=${1:-5}
tmp=$(mktemp -d)
srv=
cleanup() {
	[ -n "$srv" ] && kill "$srv" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
go build -o "$tmp/new" ./cmd/plugin-lsp
if [ "$versions" != new ]; then
	mkdir "$tmp/src"
	git archive "$rev" | tar -x -C "$tmp/src"
	(cd "$tmp/src" && go build -o "$tmp/old" ./cmd/plugin-lsp)
fi
go build -o "$tmp/server" ./scripts/bigresp
"$tmp/server" -cert "$tmp/cert.pem" -size "${SIZE:-16777216}" >"$tmp/addr" &
srv=$!
i=0
while [ ! -s "$tmp/addr" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
addr=$(cat "$tmp/addr")
p="$tmp/plugin"
mkdir -p "$p/code"
cat >"$p/plugin.json" <<JSON
{ "name": "big", "version": "1.0.0",
  "tools": [{ "name": "big", "page": "code/big.ts" }],
  "capabilities": { "host": ["http.fetch"],
    "fetch": [{ "domain": "$addr", "fetchMaxBytes": 16777216, "fetchTimeoutMs": 60000 }] } }
JSON
cat >"$p/code/big.ts" <<JS
export default async function () {
  const rs = await Promise.all(Array.from({ length: 32 }, (_, i) => http.fetch("https://$addr/" + i).then((r) => r.text().then((t) => t.length), (e) => String(e))));
  return rs;
}
JS
export SSL_CERT_FILE="$tmp/cert.pem" XDG_CACHE_HOME="$tmp/cache"
for v in $versions; do # warm the compilation cache
	"$tmp/$v" run --providers real --timeout 5s "$p" big >/dev/null 2>&1 || true
done
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
r=1
while [ "$r" -le "$rounds" ]; do
	for v in $versions; do
		/usr/bin/time -f '%e %M' -o "$tmp/time" "$tmp/$v" run --providers real --timeout 5s "$p" big >"$tmp/out" 2>/dev/null || true
		read -r wall kb <<-T
		$(tail -n 1 "$tmp/time")
		T
		summary=$(jq -r '"run \(.durationMs / 1000 * 100 | floor / 100)s ok=\(.ok) error=\(.error.name // "-") fetched=\([.fetches[] | select(.status != null)] | length)/\(.fetches | length)"' "$tmp/out" 2>/dev/null || echo "no record")
		echo "$v round $r: wall ${wall}s peak-rss $((kb / 1024))MB $summary" | tee -a "$tmp/runs"
		if [ -n "${KEEP:-}" ]; then cp "$tmp/out" "$KEEP.$v.$r.json"; fi
	done
	r=$((r + 1))
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
# median FIELD-NUMBER VERSION
median() {
	grep "^$2 " "$tmp/runs" | awk -v f="$1" '{ print $f + 0 }' | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] " (" a[1] "–" a[NR] ", " NR " runs)" }'
}
for v in $versions; do
	echo "$v: median wall $(median 5 "$v") s, median peak RSS $(median 7 "$v") MB"
done
