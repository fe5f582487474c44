package rules

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// BenchmarkCheckExampleWarm: load + every rule on testdata/example/books in
// a warm process: the cache already holds the compiled schema and the
// page/module analyses (what the server has after the first check).
// Target ≤ 2 ms.
func BenchmarkCheckExampleWarm(b *testing.B) {
	cfg := checker.DefaultConfig()
	cache := checker.NewCache()
	all := All()
	dir := "../../../testdata/example/books"
	for i := 0; i < b.N; i++ {
		p, err := checker.Load(nil, dir)
		if err != nil {
			b.Fatal(err)
		}
		if ds := checker.Run(p, all, cfg, cache); len(ds) != 0 {
			b.Fatalf("example not clean: %v", ds)
		}
	}
}

// BenchmarkCheckExampleEdited: the same, but the manifest changes every
// time (an author typing): schema validation and the manifest rules run
// for real; pages and modules come from the cache.
func BenchmarkCheckExampleEdited(b *testing.B) {
	cfg := checker.DefaultConfig()
	cache := checker.NewCache()
	all := All()
	dir := "../../../testdata/example/books"
	text, err := os.ReadFile(filepath.Join(dir, "plugin.json"))
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		edited := []byte(strings.Replace(string(text), `"1.2.0"`, fmt.Sprintf(`"1.2.%d"`, i), 1))
		p := loadManifest(b, nil, dir, edited)
		if ds := checker.Run(p, all, cfg, cache); len(ds) != 0 {
			b.Fatalf("not clean: %v", ds)
		}
	}
}

// manyTools writes a plugin with n function tools (10 distinct pages) and
// returns its dir and manifest.
func manyTools(b *testing.B, n int) (string, []byte) {
	dir := b.TempDir()
	os.MkdirAll(filepath.Join(dir, "code"), 0o755)
	for k := 0; k < 10; k++ {
		os.WriteFile(filepath.Join(dir, "code", fmt.Sprintf("p%d.ts", k)), []byte(fmt.Sprintf(
			"// page %d\nexport default async function p(input: { q: string }) {\n  const r = await http.fetch(`https://api.example.com/v%d/${input.q}`);\n  return { type: \"markdown\", text: await r.text() };\n}\n", k, k)), 0o644)
	}
	var sb strings.Builder
	sb.WriteString("{\n  \"name\": \"many\",\n  \"version\": \"1.0.0\",\n  \"tools\": [\n")
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteString(",\n")
		}
		fmt.Fprintf(&sb, `    { "name": "tool%d", "page": "code/p%d", "description": "Tool %d", "inputJsonSchema": { "type": "object", "properties": { "q": { "type": "string" } }, "required": ["q"] } }`, i, i%10, i)
	}
	sb.WriteString("\n  ],\n  \"capabilities\": { \"host\": [\"http.fetch\"], \"fetch\": [\"api.example.com\"] }\n}\n")
	os.WriteFile(filepath.Join(dir, "plugin.json"), []byte(sb.String()), 0o644)
	return dir, []byte(sb.String())
}

// BenchmarkCheck1000Tools: load + every rule on a 1,000-tool manifest,
// nothing memoized but the compiled schema and the 10 pages' analyses
// (the manifest is new each time). Target ≤ 50 ms.
func BenchmarkCheck1000Tools(b *testing.B) {
	dir, text := manyTools(b, 1000)
	cfg := checker.DefaultConfig()
	cache := checker.NewCache()
	all := All()
	p := loadManifest(b, nil, dir, text)
	if ds := checker.Run(p, all, cfg, cache); len(ds) != 0 {
		b.Fatalf("%d diagnostics, first %s: %s", len(ds), ds[0].Code, ds[0].Message)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		edited := append(append([]byte{}, text...), whitespaceOf(i)...) // a new content hash
		p := loadManifest(b, nil, dir, edited)
		if ds := checker.Run(p, all, cfg, cache); len(ds) != 0 {
			b.Fatalf("%d diagnostics", len(ds))
		}
	}
}

// BenchmarkPositionMap200KB: the JSON tree with byte spans of a 200 KB
// manifest, plus its line index. Target ≤ 5 ms.
func BenchmarkPositionMap200KB(b *testing.B) {
	_, text := manyTools(b, 1)
	var sb strings.Builder
	sb.WriteString("{\n  \"name\": \"many\",\n  \"version\": \"1.0.0\",\n  \"tools\": [\n")
	for i := 0; sb.Len() < 200<<10; i++ {
		if i > 0 {
			sb.WriteString(",\n")
		}
		fmt.Fprintf(&sb, `    { "name": "tool%d", "page": "code/p%d", "description": "Tool %d: düsseldorf 😀", "inputJsonSchema": { "type": "object", "properties": { "q": { "type": "string" } }, "required": ["q"] } }`, i, i%10, i)
	}
	sb.WriteString("\n  ]\n}\n")
	text = []byte(sb.String())
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		root, err := jsonpos.Parse(text)
		if err != nil || root == nil {
			b.Fatal(err)
		}
		f := checker.NewFile("plugin.json", text)
		if f.Position(len(text)).Line == 0 {
			b.Fatal("no lines")
		}
	}
}

// whitespaceOf encodes i as trailing spaces and tabs: the same JSON, a
// different content hash.
func whitespaceOf(i int) []byte {
	out := []byte{'\n'}
	for ; i > 0; i >>= 1 {
		out = append(out, " \t"[i&1])
	}
	return out
}

// libPlugin writes a plugin with 20 pages that share 5 lib files (each
// page imports two of them) and returns its dir.
func libPlugin(t testing.TB) string {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "code", "lib"), 0o755)
	for k := 0; k < 5; k++ {
		os.WriteFile(filepath.Join(dir, "code", "lib", fmt.Sprintf("l%d.ts", k)), []byte(fmt.Sprintf(
			"export const BASE%d = \"https://api%d.example.com/v1\";\n"+
				"export class Client%d {\n  constructor(private base = BASE%d) {}\n"+
				"  get(path: string) { return http.fetch(this.base + path); }\n}\n"+
				"export const client%d = new Client%d();\n", k, k, k, k, k, k)), 0o644)
	}
	var sb strings.Builder
	sb.WriteString("{\n  \"name\": \"libs\",\n  \"version\": \"1.0.0\",\n  \"tools\": [\n")
	for i := 0; i < 20; i++ {
		a, c := i%5, (i+1)%5
		os.WriteFile(filepath.Join(dir, "code", fmt.Sprintf("p%d.ts", i)), []byte(fmt.Sprintf(
			"import { client%d } from \"./lib/l%d\";\nimport { client%d } from \"./lib/l%d\";\n\n"+
				"export default async function p(input: { q: string }) {\n"+
				"  const a = await client%d.get(`/search?q=${encodeURIComponent(input.q)}`);\n"+
				"  const b = await client%d.get(\"/status\");\n  return { a: await a.json(), b: b.status };\n}\n", a, a, c, c, a, c)), 0o644)
		if i > 0 {
			sb.WriteString(",\n")
		}
		fmt.Fprintf(&sb, `    { "name": "tool%d", "page": "code/p%d.ts", "description": "Tool %d" }`, i, i, i)
	}
	sb.WriteString("\n  ],\n  \"capabilities\": { \"host\": [\"http.fetch\"], \"fetch\": [\"api0.example.com\", \"api1.example.com\", \"api2.example.com\", \"api3.example.com\", \"api4.example.com\"] }\n}\n")
	os.WriteFile(filepath.Join(dir, "plugin.json"), []byte(sb.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "fixtures.json"), []byte(`{"fnFetch": [`+
		`{"url": "https://api0.example.com/v1/status"}, {"url": "https://api1.example.com/v1/status"}, {"url": "https://api2.example.com/v1/status"}, `+
		`{"url": "https://api3.example.com/v1/status"}, {"url": "https://api4.example.com/v1/status"}]}`), 0o644)
	return dir
}

// TestLibEditRechecksDependants: an edit to one lib file (as the
// language server sees it, in an overlay) changes the findings of the
// pages that import it, and of no other.
func TestLibEditRechecksDependants(t *testing.T) {
	dir := libPlugin(t)
	cache := checker.NewCache()
	p, err := checker.Load(nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	if ds := checker.Run(p, All(), nil, cache); len(ds) != 0 {
		t.Fatalf("not clean: %s", formatText(p, "", ds))
	}
	o := &checker.Overlay{Files: map[string][]byte{}}
	lib := filepath.Join(dir, "code", "lib", "l3.ts")
	text, _ := os.ReadFile(lib)
	o.Files[lib] = []byte(strings.Replace(string(text), "api3.example.com", "api3.example.net", 1))
	p, _ = checker.Load(o, dir)
	got := formatText(p, "", checker.Run(p, All(), nil, cache))
	for _, i := range []int{2, 3, 7, 8, 12, 13, 17, 18} {
		if !strings.Contains(got, fmt.Sprintf("code/p%d.ts:", i)) || !strings.Contains(got, fmt.Sprintf("tool tool%d fetches api3.example.net", i)) {
			t.Errorf("page p%d imports l3.ts: no finding\n%s", i, got)
		}
	}
	for _, i := range []int{0, 1, 4, 5, 6, 9, 10, 11, 14, 15, 16, 19} {
		if strings.Contains(got, fmt.Sprintf("code/p%d.ts:", i)) || strings.Contains(got, fmt.Sprintf("tool tool%d ", i)) {
			t.Errorf("page p%d does not import l3.ts, yet:\n%s", i, got)
		}
	}
	if !strings.HasPrefix(got, "code/lib/l3.ts:4:") || strings.Count(got, "code/lib/l3.ts:") != 1 {
		t.Errorf("want one finding in code/lib/l3.ts (not one per page):\n%s", got)
	}
}

// BenchmarkRecheckAfterLibEdit: 20 pages sharing 5 lib files, one lib
// file edited before each check (target ≤ 20 ms): only the 8 pages that
// import it are analysed again, the others come from the cache after a
// hash of the files they read.
func BenchmarkRecheckAfterLibEdit(b *testing.B) {
	dir := libPlugin(b)
	cache := checker.NewCache()
	all := All()
	p, err := checker.Load(nil, dir)
	if err != nil {
		b.Fatal(err)
	}
	checker.Run(p, all, nil, cache)
	lib := filepath.Join(dir, "code", "lib", "l3.ts")
	text, _ := os.ReadFile(lib)
	o := &checker.Overlay{Files: map[string][]byte{}}
	b.ReportAllocs()
	cpu0 := cpuTime()
	n := 0
	for i := 0; b.Loop(); i++ {
		o.Files[lib] = append(append([]byte(nil), text...), fmt.Sprintf("// edit %d\n", i)...)
		p, _ := checker.Load(o, dir)
		if ds := checker.Run(p, all, nil, cache); len(ds) != 0 {
			b.Fatalf("not clean: %v", ds)
		}
		n++
	}
	// On a shared machine wall time mostly measures the wait for a core:
	// the process's CPU time per re-check (every thread, GC included) is
	// reported too.
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(time.Millisecond)/float64(n), "cpu-ms/op")
}

// cpuTime is the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestMissingImportAppears: a page whose import names no file reports it;
// once the file exists, the same cache gives the new answer.
func TestMissingImportAppears(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "code"), 0o755)
	os.WriteFile(filepath.Join(dir, "plugin.json"), []byte(`{"name": "p", "version": "1.0.0",
  "tools": [{ "name": "t", "page": "code/t.ts", "description": "T" }],
  "capabilities": { "host": ["http.fetch"], "fetch": ["a.example.com"] }}`), 0o644)
	os.WriteFile(filepath.Join(dir, "code", "t.ts"), []byte("import { A } from \"./a\";\nexport default async () => http.fetch(A + \"/x\");\n"), 0o644)
	cache := checker.NewCache()
	p, _ := checker.Load(nil, dir)
	if got := formatText(p, "", checker.Run(p, All(), nil, cache)); !strings.Contains(got, "no file code/a.ts") {
		t.Fatalf("want the missing import reported:\n%s", got)
	}
	os.WriteFile(filepath.Join(dir, "code", "a.ts"), []byte("export const A = \"https://b.example.com\";\n"), 0o644)
	p, _ = checker.Load(nil, dir)
	if got := formatText(p, "", checker.Run(p, All(), nil, cache)); !strings.Contains(got, "b.example.com is not in capabilities.fetch") || strings.Contains(got, "no file") {
		t.Errorf("after creating code/a.ts:\n%s", got)
	}
}
