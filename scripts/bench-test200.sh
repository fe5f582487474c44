#!/bin/sh
# `plugin-lsp test` of 200 cases: a copy of the example plugin
# (testdata/example/books) whose only test file is 200 generated lookupBook
# cases (140 that find The Hobbit, with and without hyphens, judged on the
# whole result, on part of it and on the fetch and log they made; 60 whose
# own fixture answers 404, judged on the error). Prints the wall time of
# RUNS whole `plugin-lsp test` processes (default 5, after one warm-up) and
# their median, with the load average before and after.
# Usage: scripts/bench-test200.sh [RUNS [PLUGIN_LSP_BINARY]]
set -eu
cd "$(dirname "$0")/.."
runs=${1:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=${2:-}
if [ -z "$bin" ]; then
	bin="$tmp/plugin-lsp"
	go build -o "$bin" ./cmd/plugin-lsp
fi
cp -r testdata/example/books "$tmp/books"
rm -f "$tmp/books/tests/"*.json
rm -rf "$tmp/books/tests/__snapshots__"
node -e '
const cases = [];
for (let i = 0; i < 200; i++) {
  if (i % 10 < 7) {
    const isbn = i % 2 ? "9780261103344" : "978-0-261-10334-4";
    const c = { name: "finds The Hobbit " + i, input: { isbn } };
    if (i % 3 === 0) c.result = { type: "stat", value: "The Hobbit", label: "Title" };
    else c.resultContains = { value: "The Hobbit" };
    if (i % 5 === 0) {
      c.fetches = [{ method: "GET", url: "https://api.openlibrary.org/isbn/9780261103344.json", status: 200 }];
      c.logs = [{ level: "log", message: "found The Hobbit" }];
    }
    cases.push(c);
  } else {
    const isbn = "97800000" + String(10000 + i).slice(1);
    cases.push({ name: "unknown ISBN " + i, input: { isbn },
      fixtures: { fnFetch: [{ url: "https://api.openlibrary.org/isbn/" + isbn + ".json", status: 404, body: { error: "notfound" } }] },
      error: { name: "Error", message: "Open Library answered 404 for ISBN " + isbn } });
  }
}
process.stdout.write(JSON.stringify({ tool: "lookupBook", cases }, null, 1));
' >"$tmp/books/tests/many.json"
export XDG_CACHE_HOME="$tmp/cache"
"$bin" test "$tmp/books" >"$tmp/out" || { cat "$tmp/out"; exit 1; } # warm-up: fills the compiled-module cache
tail -1 "$tmp/out"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
i=0
: >"$tmp/times"
while [ "$i" -lt "$runs" ]; do
	t0=$(date +%s%N)
	"$bin" test "$tmp/books" >/dev/null
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000)) >>"$tmp/times"
	i=$((i + 1))
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "wall ms: $(sort -n "$tmp/times" | tr '\n' ' ')"
echo "median ms: $(sort -n "$tmp/times" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')"
