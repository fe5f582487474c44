#!/bin/sh
# Times `plugin-lsp check` over 1,000 small plugin directories generated in
# a temp dir (target: ≤ 10 s on a 2-core machine). Prints one time per run;
# RUNS=5 by default, report the median. PLUGIN_LSP=path uses a prebuilt binary.
set -eu
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -n "${PLUGIN_LSP:-}" ]; then
  cp "$PLUGIN_LSP" "$tmp/plugin-lsp"   # a prebuilt binary
else
  go build -o "$tmp/plugin-lsp" ./cmd/plugin-lsp
fi
i=0
while [ $i -lt 1000 ]; do
  d="$tmp/plugins/p$i"
  mkdir -p "$d/code"
  cat > "$d/plugin.json" <<JSON
{
  "name": "p$i",
  "version": "1.0.$i",
  "tools": [
    { "name": "lookup$i", "page": "code/lookup", "description": "Look up item $i",
      "inputJsonSchema": { "type": "object", "properties": { "id": { "type": "string" } }, "required": ["id"] } },
    { "name": "save$i", "page": "code/save", "description": "Save item $i" }
  ],
  "capabilities": {
    "host": ["http.fetch", "collections.put"],
    "fetch": ["api$i.example.com"]
  }
}
JSON
  cat > "$d/code/lookup.ts" <<TS
// lookup$i: one item from api$i.example.com.
interface Item { id: string; title: string }
export default async function lookup(input: { id: string }) {
  const res = await http.fetch(\`https://api$i.example.com/items/\${input.id}\`);
  const item = (await res.json()) as Item;
  return { type: "stat", value: item.title, label: "item $i" };
}
TS
  cat > "$d/code/save.ts" <<TS
export default async function save(input: { id: string; note?: string }) {
  await collections.put("saved", input.id, { note: input.note ?? "" });
  return { type: "markdown", text: "saved" };
}
TS
  i=$((i + 1))
done
r=0
while [ $r -lt "$RUNS" ]; do
  start=$(date +%s.%N)
  "$tmp/plugin-lsp" check "$tmp/plugins" > "$tmp/out.txt" || { echo "check failed or found errors:"; head "$tmp/out.txt"; exit 1; }
  end=$(date +%s.%N)
  echo "check of 1000 plugin directories: $(echo "$end - $start" | bc) s ($(wc -l < "$tmp/out.txt") diagnostics)"
  r=$((r + 1))
done
