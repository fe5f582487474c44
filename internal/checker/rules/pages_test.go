package rules

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
)

// applyPageFix applies a fix's edits to the overlay (later spans first).
func applyPageFix(t *testing.T, p *checker.Plugin, o *checker.Overlay, fix checker.Fix) []string {
	t.Helper()
	byFile := map[string][]checker.Edit{}
	var files []string
	for _, e := range fix.Edits {
		if _, ok := byFile[e.File]; !ok {
			files = append(files, e.File)
		}
		byFile[e.File] = append(byFile[e.File], e)
	}
	for _, f := range files {
		abs := p.Abs(f)
		edits := byFile[f]
		sort.Slice(edits, func(i, j int) bool { return edits[i].Span.Start > edits[j].Span.Start })
		var text []byte
		if edits[0].Create {
			if len(edits) != 1 {
				t.Fatalf("%s: a created file takes one edit, got %d", f, len(edits))
			}
			if _, err := o.ReadFile(abs); err == nil {
				t.Fatalf("%s: the fix creates a file that exists", f)
			}
			text = []byte(edits[0].NewText)
		} else {
			old, err := o.ReadFile(abs)
			if err != nil {
				t.Fatal(err)
			}
			text = append([]byte(nil), old...)
			for _, e := range edits {
				if e.Span.Start < 0 || e.Span.End > len(text) || e.Span.Start > e.Span.End {
					t.Fatalf("%s: edit span %v outside the file (%d bytes)", f, e.Span, len(text))
				}
				text = append(text[:e.Span.Start:e.Span.Start], append([]byte(e.NewText), text[e.Span.End:]...)...)
			}
		}
		o.Files[abs] = text
	}
	return files
}

// TestPageFixes applies one fix per case, checks the plugin again and
// compares the edited file with its golden file: the diagnostic is gone,
// the JSON files still parse, the author's formatting is kept.
func TestPageFixes(t *testing.T) {
	cases := []struct {
		name, dir, code, msg string // msg: a substring selecting the diagnostic
		fix                  int
	}{
		{"add-domain", pluginsDir + "/page-url-forms", "fetch-undeclared-domain", "double.example.com is not", 0},
		{"add-domain-from-tool", pluginsDir + "/page-hosts", "fetch-undeclared-domain", "tool hosts fetches", 1},
		{"add-domain-create-capabilities", "testdata/fixes/no-capabilities", "fetch-undeclared-domain", "status.example.com is not", 0},
		{"add-domain-create-fetch-tabs", "testdata/fixes/tabs-no-fetch", "fetch-undeclared-domain", "status.example.com is not", 0},
		{"add-host-method", pluginsDir + "/page-host-methods", "host-undeclared-method", "collections.put", 0},
		{"add-host-create-capabilities", "testdata/fixes/no-capabilities", "host-undeclared-method", "http.fetch", 0},
		{"remove-unused-object", pluginsDir + "/page-unused-domain", "fetch-unused-domain", "old.unused.dev", 0},
		{"remove-unused-last", pluginsDir + "/page-unused-domain", "fetch-unused-domain", "cdn.unused.dev", 0},
		{"https-in-call", pluginsDir + "/page-hosts", "fetch-not-https", "uses http://", 0},
		{"https-in-const", pluginsDir + "/page-hosts", "fetch-not-https", "via-const", 0},
		{"https-in-manifest", pluginsDir + "/page-hosts", "fetch-not-https", "legacy.x.org", 0},
		{"remove-credential-header", pluginsDir + "/page-credentials", "credential-in-code", "Authorization header", 0},
		{"fixture-append", pluginsDir + "/page-fixtures", "fixture-unmatched", "PATCH", 0},
		{"fixture-create-file", pluginsDir + "/page-fixtures-absent", "fixture-unmatched", "frankfurter", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := &checker.Overlay{Files: map[string][]byte{}}
			p, err := checker.Load(o, tc.dir)
			if err != nil {
				t.Fatal(err)
			}
			before := checker.Run(p, All(), nil, nil)
			var target *checker.Diagnostic
			for i, d := range before {
				if d.Code == tc.code && strings.Contains(d.Message, tc.msg) {
					target = &before[i]
					break
				}
			}
			if target == nil {
				t.Fatalf("no %s diagnostic containing %q in:\n%s", tc.code, tc.msg, formatText(p, "", before))
			}
			if len(target.Fixes) <= tc.fix {
				t.Fatalf("%s has %d fixes, want fix #%d", target.Message, len(target.Fixes), tc.fix)
			}
			files := applyPageFix(t, p, o, target.Fixes[tc.fix])
			p2, err := checker.Load(o, tc.dir)
			if err != nil {
				t.Fatal(err)
			}
			if p2.SyntaxError != nil {
				t.Fatalf("plugin.json no longer parses: %v\n%s", p2.SyntaxError, p2.ManifestFile.Text)
			}
			if p2.FixturesError != nil {
				t.Fatalf("fixtures.json no longer parses: %v\n%s", p2.FixturesError, p2.FixturesFile.Text)
			}
			after := checker.Run(p2, All(), nil, nil)
			for _, d := range after {
				if d.Code == tc.code && d.Message == target.Message {
					t.Errorf("the diagnostic is still there after the fix: %s", d.Message)
				}
				if d.Code == "manifest-schema" || d.Code == "manifest-syntax" {
					t.Errorf("the fix broke the manifest: %s", d.Message)
				}
			}
			var got bytes.Buffer
			for _, f := range files {
				got.WriteString("=== " + f + "\n")
				got.Write(o.Files[p.Abs(f)])
			}
			golden := filepath.Join("testdata", "fixes", tc.name+".golden")
			if *update {
				if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update and read the result)", err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("edited files differ from %s:\n--- got\n%s\n--- want\n%s", golden, got.String(), want)
			}
		})
	}
}

// benchPage returns a TypeScript page of about 200 lines.
func benchPage() []byte {
	var b strings.Builder
	b.WriteString("const API = \"https://api.declared.dev/v2\";\n\ninterface Item { id: string; tags?: string[] }\n\n")
	for i := 0; strings.Count(b.String(), "\n") < 190; i++ {
		fmt.Fprintf(&b, "async function step%d(id: string): Promise<Item | undefined> {\n"+
			"  const label: string = \"step %d – naïve ✓\";\n"+
			"  const res = await http.fetch(`${API}/items?page=%d&id=${id}`, { method: \"GET\" });\n"+
			"  const items = (await res.json()) as Item[];\n"+
			"  await collections.get(\"steps\", label);\n"+
			"  return items.find((it) => it.tags?.includes(label));\n"+
			"}\n\n", i, i, i)
	}
	b.WriteString("export default async function run(input: { id: string }) {\n  return step0(input.id);\n}\n")
	return []byte(b.String())
}

// BenchmarkPageFromCache is a 200-line page analysed from the cache
// (target ≤ 0.1 ms): hashing the content and one map lookup.
func BenchmarkPageFromCache(b *testing.B) {
	src := benchPage()
	pass := &checker.Pass{Plugin: loadManifest(b, nil, b.TempDir(), []byte(`{}`)), Cache: checker.NewCache()}
	rels, texts := []string{"code/run.ts"}, map[string][]byte{"code/run.ts": src}
	if p := analyzePages(pass, rels, texts)[0]; len(p.Errors) != 0 || len(p.Calls) == 0 {
		b.Fatalf("bench page: %+v", p.Errors)
	}
	b.ReportAllocs()
	for b.Loop() {
		analyzePages(pass, rels, texts)
	}
}

// BenchmarkRecheckAfterManifestEdit re-checks a plugin (three realistic
// pages and a 200-line one) after each edit of plugin.json, pages cached
// (target ≤ 5 ms): load, every rule, sort.
func BenchmarkRecheckAfterManifestEdit(b *testing.B) {
	dir := b.TempDir()
	src, err := os.ReadFile(filepath.Join(pluginsDir, "page-url-forms", "plugin.json"))
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range []string{"code/literals.ts", "code/computed.ts", "code/callees.ts", "fixtures.json"} {
		data, err := os.ReadFile(filepath.Join(pluginsDir, "page-url-forms", f))
		if err != nil {
			b.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "code", "run.ts"), benchPage(), 0o644); err != nil {
		b.Fatal(err)
	}
	manifest := strings.Replace(string(src), `"tools": [`, `"tools": [
    { "name": "run", "page": "code/run", "description": "200 lines" },`, 1)
	edited := strings.Replace(manifest, `"fetch": ["api.declared.dev"]`, `"fetch": ["api.declared.dev", "double.example.com"]`, 1)
	versions := [][]byte{[]byte(manifest), []byte(edited)}
	o := &checker.Overlay{Files: map[string][]byte{}}
	abs, _ := filepath.Abs(filepath.Join(dir, "plugin.json"))
	cache := checker.NewCache()
	cfg := checker.DefaultConfig()
	check := func(i int) []checker.Diagnostic {
		o.Files[abs] = versions[i%2]
		p, err := checker.Load(o, dir)
		if err != nil {
			b.Fatal(err)
		}
		return checker.Run(p, All(), cfg, cache)
	}
	d0, d1 := check(0), check(1)
	if fmt.Sprint(d0) == fmt.Sprint(d1) || len(d0) < 30 {
		b.Fatalf("the edit should change the diagnostics (%d, %d)", len(d0), len(d1))
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		check(i)
		i++
	}
}

// TestPagesCachedByContent: a second check with the same cache analyses
// no page again, an edited page is analysed once more, and the same bytes
// as .ts and as .js are two analyses.
func TestPagesCachedByContent(t *testing.T) {
	cache := checker.NewCache()
	dir := pluginsDir + "/page-url-forms"
	p, err := checker.Load(nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	first := formatText(p, "", checker.Run(p, All(), nil, cache))
	n := cache.Len()
	p, _ = checker.Load(nil, dir)
	if second := formatText(p, "", checker.Run(p, All(), nil, cache)); second != first || cache.Len() != n {
		t.Fatalf("second run: %d cache entries (was %d), same output: %v", cache.Len(), n, second == first)
	}
	o := &checker.Overlay{Files: map[string][]byte{}}
	p, _ = checker.Load(o, dir)
	abs := p.Abs("code/literals.ts")
	text, _ := os.ReadFile(abs)
	o.Files[abs] = append(append([]byte(nil), text...), '\n')
	p, _ = checker.Load(o, dir)
	checker.Run(p, All(), nil, cache)
	if cache.Len() != n+2 || !cache.Has("module-imports", o.Files[abs]) {
		t.Errorf("after editing one page: %d cache entries, want %d (its analysis and its imports), imports cached: %v", cache.Len(), n+2, cache.Has("module-imports", o.Files[abs]))
	}
	pass := &checker.Pass{Plugin: p, Cache: cache}
	text = []byte("export default 1 as number;")
	a := analyzePages(pass, []string{"x.ts"}, map[string][]byte{"x.ts": text})[0]
	b := analyzePages(pass, []string{"x.js"}, map[string][]byte{"x.js": text})[0]
	if len(a.Errors) != 0 || len(b.Errors) == 0 {
		t.Errorf("as .ts: %v; as .js: %v (want no error, then a syntax error)", a.Errors, b.Errors)
	}
}
