package explore

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/checker/rules"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/sandbox"
)

// forget empties the result cache (a cold check; the sandbox engine stays
// prepared, as in a server or a check of several plugins).
func (x *Explorer) forget() {
	x.mu.Lock()
	x.cache = map[string]*checker.Exploration{}
	x.mu.Unlock()
}

func benchExplorer(b *testing.B) *Explorer {
	x, err := New(Options{CacheDir: testCache()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(x.Close)
	return x
}

// checkExplored is what plugin-lsp check does for one plugin.
func checkExplored(x *Explorer, p *checker.Plugin) []checker.Diagnostic {
	return checkExploredWith(x, p, checker.NewCache())
}

// checkExploredWith is checkExplored with the analysis cache of a check
// of several plugins (one for all, as checker.CheckAll keeps it).
func checkExploredWith(x *Explorer, p *checker.Plugin, cache *checker.Cache) []checker.Diagnostic {
	cfg := checker.DefaultConfig()
	cfg.Explore = func(p *checker.Plugin) map[string]*checker.Exploration {
		m := x.Plugin(context.Background(), p)
		x.mu.Lock()
		for _, e := range m {
			x.benchRuns += e.Runs
		}
		x.mu.Unlock()
		return m
	}
	return checker.Run(p, rules.All(), cfg, cache)
}

// cpuTime is the process's CPU time (user+system of every thread): on a
// machine shared with other jobs it moves far less than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// measure reports the CPU time and the sandbox runs per op of the loop
// that follows it (call the returned func after the loop).
func measure(b *testing.B, x *Explorer) func() {
	x.mu.Lock()
	r0 := x.benchRuns
	x.mu.Unlock()
	c0 := cpuTime()
	b.ResetTimer()
	return func() {
		b.StopTimer()
		b.ReportMetric(float64((cpuTime()-c0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		x.mu.Lock()
		b.ReportMetric(float64(x.benchRuns-r0)/float64(b.N), "runs/op")
		x.mu.Unlock()
	}
}

// BenchmarkCheckExampleCold: check of testdata/example/books with
// exploration, nothing explored before.
func BenchmarkCheckExampleCold(b *testing.B) {
	x := benchExplorer(b)
	p, err := checker.Load(nil, filepath.Join("../../../testdata/example/books"))
	if err != nil {
		b.Fatal(err)
	}
	checkExplored(x, p)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x.forget()
		checkExplored(x, p)
	}
}

// BenchmarkCheckExampleWarm: the same check again, every tool's result
// taken from the cache (what a re-check of an unchanged plugin costs).
func BenchmarkCheckExampleWarm(b *testing.B) {
	x := benchExplorer(b)
	p, err := checker.Load(nil, filepath.Join("../../../testdata/example/books"))
	if err != nil {
		b.Fatal(err)
	}
	checkExplored(x, p)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		checkExplored(x, p)
	}
}

// toolsPlugin writes a plugin of n tools, each its own page with a small
// client class, an enum and an optional flag (a distinct bundle each).
func toolsPlugin(b *testing.B, n int, edit int) *checker.Plugin {
	files := map[string]string{}
	var tools []string
	for i := 0; i < n; i++ {
		tools = append(tools, fmt.Sprintf(`{"name": "t%d", "description": "tool %d", "page": "code/t%d.ts", "inputJsonSchema": {"type": "object", "properties": {"region": {"enum": ["us", "eu"]}, "id": {"type": "string"}, "full": {"type": "boolean"}}, "required": ["region", "id"]}}`, i, i, i))
		mark := ""
		if i == 0 {
			mark = fmt.Sprintf("const EDIT = %d;\nconsole.log(EDIT);\n", edit) // code, not a comment: the bundle changes
		}
		files[fmt.Sprintf("code/t%d.ts", i)] = mark + fmt.Sprintf(`
import { Client } from "./lib/client";
export default async function t(input: { region: string; id: string; full?: boolean }) {
  const c = new Client(input.region);
  const r = await c.get("/v%d/items/" + encodeURIComponent(input.id) + (input.full ? "?full=1" : ""));
  return { n: %d, ok: r.status };
}`, i, i)
	}
	files["code/lib/client.ts"] = `
export class Client {
  #base: string;
  constructor(region: string) { this.#base = "https://" + region + ".api.example.com"; }
  get(path: string) { return http.fetch(this.#base + path); }
}`
	files["plugin.json"] = `{"name": "many", "version": "1.0.0", "description": "d", "tools": [` + strings.Join(tools, ",") + `],
  "capabilities": {"host": ["http.fetch"], "fetch": ["us.api.example.com", "eu.api.example.com"]}}`
	return writePlugin(b, files)
}

// Benchmark20ToolsCold: a 20-tool plugin (20 bundles) explored from
// nothing. Target ≤ 1 s on 2 cores.
func Benchmark20ToolsCold(b *testing.B) {
	x := benchExplorer(b)
	p := toolsPlugin(b, 20, 0)
	checkExplored(x, p)
	done := measure(b, x)
	for i := 0; i < b.N; i++ {
		x.forget()
		checkExplored(x, p)
	}
	done()
}

// BenchmarkRecheckAfterPageEdit: one page of the 20 edited: only its tool
// is explored again (tools-explored/op reports how many were).
func BenchmarkRecheckAfterPageEdit(b *testing.B) {
	x := benchExplorer(b)
	checkExplored(x, toolsPlugin(b, 20, 0))
	plugins := make([]*checker.Plugin, b.N)
	for i := range plugins {
		plugins[i] = toolsPlugin(b, 20, i+1)
	}
	n0 := x.Explored()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		checkExplored(x, plugins[i])
	}
	b.StopTimer()
	b.ReportMetric(float64(x.Explored()-n0)/float64(b.N), "tools-explored/op")
}

// BenchmarkCheck1000Tools: a 1,000-tool manifest over 10 pages, explored
// from nothing (tools sharing a bundle and schema are explored once).
// Target ≤ 5 s.
func BenchmarkCheck1000Tools(b *testing.B) {
	x := benchExplorer(b)
	files := map[string]string{}
	var tools []string
	for k := 0; k < 10; k++ {
		files[fmt.Sprintf("code/p%d.ts", k)] = fmt.Sprintf("export default async function p(input: { q: string }) {\n  const r = await http.fetch(`https://api.example.com/v%d/${input.q}`);\n  return { text: await r.text() };\n}\n", k)
	}
	for i := 0; i < 1000; i++ {
		tools = append(tools, fmt.Sprintf(`{"name": "tool%d", "page": "code/p%d", "description": "Tool %d", "inputJsonSchema": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}}`, i, i%10, i))
	}
	files["plugin.json"] = `{"name": "many", "version": "1.0.0", "tools": [` + strings.Join(tools, ",\n") + `], "capabilities": {"host": ["http.fetch"], "fetch": ["api.example.com"]}}`
	p := writePlugin(b, files)
	checkExplored(x, p)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x.forget()
		checkExplored(x, p)
	}
}

// BenchmarkLoopStopped: how long an infinite loop's exploration run takes
// to be stopped by its budget of work (DefaultRunTicks), on a quiet machine
// and with every core busy (GOMAXPROCS goroutines spinning).
func BenchmarkLoopStopped(b *testing.B) {
	x := benchExplorer(b)
	run := loopRun(b, x)
	for _, busy := range []bool{false, true} {
		name := "quiet"
		if busy {
			name = "busy"
		}
		b.Run(name, func(b *testing.B) {
			if busy {
				defer spinCores()()
			}
			b.ResetTimer()
			for b.Loop() {
				if end := run(); end != sandbox.KindTicks {
					b.Fatalf("ended %q", end)
				}
			}
		})
	}
}

// BenchmarkLoopingToolCold: check of a plugin whose one tool loops on
// every input (15 planned runs), explored from nothing, on a quiet machine
// and with every core busy: what a looping tool costs a check (runs/op:
// the runs its result is from).
func BenchmarkLoopingToolCold(b *testing.B) {
	x := benchExplorer(b)
	p := writePlugin(b, map[string]string{
		"plugin.json": manifest(`{"type": "object", "properties": {"n": {"enum": [1, 2, 3, 4, 5, 6, 7, 8]}}}`, `"api.example.com"`, ""),
		"code/t.ts":   `export default async function t() { await http.fetch("https://loop.example.com/"); for (;;) {} }`,
	})
	for _, busy := range []bool{false, true} {
		name := "quiet"
		if busy {
			name = "busy"
		}
		b.Run(name, func(b *testing.B) {
			if busy {
				defer spinCores()()
			}
			done := measure(b, x)
			for b.Loop() {
				x.forget()
				checkExplored(x, p)
			}
			done()
		})
	}
}

// smallPlugin is one plugin directory of scripts/bench-check-1000.sh: a
// lookup tool fetching its own API and a save tool calling
// collections.put, the code distinct for each i.
func smallPlugin(b *testing.B, i int) *checker.Plugin {
	return writePlugin(b, map[string]string{
		"plugin.json": fmt.Sprintf(`{"name": "p%d", "version": "1.0.%d", "tools": [
  {"name": "lookup%d", "page": "code/lookup", "description": "Look up item %d",
   "inputJsonSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"]}},
  {"name": "save%d", "page": "code/save", "description": "Save item %d"}],
  "capabilities": {"host": ["http.fetch", "collections.put"], "fetch": ["api%d.example.com"]}}`, i, i, i, i, i, i, i),
		"code/lookup.ts": fmt.Sprintf("interface Item { id: string; title: string }\nexport default async function lookup(input: { id: string }) {\n  const res = await http.fetch(`https://api%d.example.com/items/${input.id}`);\n  const item = (await res.json()) as Item;\n  return { type: \"stat\", value: item.title, label: \"item %d\" };\n}\n", i, i),
		"code/save.ts":   "export default async function save(input: { id: string; note?: string }) {\n  await collections.put(\"saved\", input.id, { note: input.note ?? \"\" });\n  return { type: \"markdown\", text: \"saved\" };\n}\n",
	})
}

// BenchmarkCheckSmallPlugins: what plugin-lsp check spends per plugin
// directory of scripts/bench-check-1000.sh (its 1,000-directory figure
// over 1,000), each directory's code new to the explorer.
func BenchmarkCheckSmallPlugins(b *testing.B) {
	x := benchExplorer(b)
	cache := checker.NewCache()
	checkExploredWith(x, smallPlugin(b, 0), cache)
	plugins := make([]*checker.Plugin, b.N)
	for i := range plugins {
		plugins[i] = smallPlugin(b, i+1)
	}
	done := measure(b, x)
	for i := 0; i < b.N; i++ {
		checkExploredWith(x, plugins[i], cache)
	}
	done()
}
