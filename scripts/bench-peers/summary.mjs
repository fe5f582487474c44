// Summary of scripts/bench-peers.sh: reads the JSON lines of every round
// (ours/main.go and peers.mjs) and prints, per sandbox, the medians over
// the rounds of each round's paced p50 and p95, back-to-back p50 and CPU
// per call, then the ratios to quickjs-emscripten with a new runtime per call.
import { readFileSync } from "node:fs";

const lines = readFileSync(0, "utf8").split("\n").filter((l) => l.startsWith("{"));
const pct = (a, p) => { const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.floor(s.length * p))]; };
const median = (a) => pct(a, 0.5);
const by = new Map();
for (const l of lines) {
  const d = JSON.parse(l);
  if (!by.has(d.mode)) by.set(d.mode, []);
  by.get(d.mode).push({ p50: pct(d.paced, 0.5), p95: pct(d.paced, 0.95), b2b: pct(d.b2b, 0.5), cpu: d.cpuUs,
    // ours-lsp: the run inside the server (its record's durationMs) and the rest of each call
    srvP50: d.pacedServerRun && pct(d.pacedServerRun, 0.5), srvB2b: d.b2bServerRun && pct(d.b2bServerRun, 0.5),
    restP50: d.pacedServerRun && pct(d.paced.map((v, i) => v - d.pacedServerRun[i]), 0.5),
    restB2b: d.b2bServerRun && pct(d.b2b.map((v, i) => v - d.b2bServerRun[i]), 0.5) });
}
const rows = [];
for (const [mode, rs] of by) {
  rows.push({ mode, rounds: rs.length, p50: median(rs.map((r) => r.p50)), p95: median(rs.map((r) => r.p95)), b2b: median(rs.map((r) => r.b2b)), cpu: median(rs.map((r) => r.cpu)) });
}
const ms = (us) => (us / 1000).toFixed(2).padStart(8);
console.log("sandbox per call (ms, medians over rounds)   rounds  paced-p50  paced-p95  b2b-p50  cpu/call");
for (const r of rows) console.log(`${r.mode.padEnd(44)} ${String(r.rounds).padStart(6)} ${ms(r.p50)}   ${ms(r.p95)} ${ms(r.b2b)}  ${ms(r.cpu)}`);
const base = rows.find((r) => r.mode === "qjs-runtime");
if (base) {
  console.log("\nratio to qjs-runtime (below 1: faster)      paced-p50  paced-p95  b2b-p50  cpu/call");
  for (const r of rows) console.log(`${r.mode.padEnd(44)} ${(r.p50 / base.p50).toFixed(2).padStart(9)}  ${(r.p95 / base.p95).toFixed(2).padStart(9)} ${(r.b2b / base.b2b).toFixed(2).padStart(8)} ${(r.cpu / base.cpu).toFixed(2).padStart(9)}`);
}
for (const [mode, rs] of by) {
  if (rs[0].srvP50 === undefined) continue;
  console.log(`\n${mode}: the run inside the server (its record's durationMs) and the rest of each call (ms, medians over rounds)`);
  console.log(`  paced: run ${ms(median(rs.map((r) => r.srvP50)))}  rest ${ms(median(rs.map((r) => r.restP50)))}`);
  console.log(`  b2b:   run ${ms(median(rs.map((r) => r.srvB2b)))}  rest ${ms(median(rs.map((r) => r.restB2b)))}`);
}
