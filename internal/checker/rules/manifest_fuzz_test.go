package rules

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/jsonpos"
)

// noFiles is an FS with nothing in it but the manifest loadManifest gives: fuzzed
// manifests never touch the disk.
type noFiles struct{}

func (noFiles) ReadFile(string) ([]byte, error)     { return nil, fs.ErrNotExist }
func (noFiles) Lstat(string) (fs.FileInfo, error)   { return nil, fs.ErrNotExist }
func (noFiles) EvalSymlinks(string) (string, error) { return "", errors.New("no files") }

// testdataManifests returns every plugin.json under testdata.
func testdataManifests(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	paths, _ := filepath.Glob(filepath.Join(pluginsDir, "*", "plugin.json"))
	paths = append(paths, "../../../testdata/example/books/plugin.json")
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = b
	}
	if len(out) < 10 {
		t.Fatalf("only %d testdata manifests", len(out))
	}
	return out
}

// sane checks what every check result must satisfy whatever the input:
// no rule crashed, every span lies inside its file, and a syntax error in
// plugin.json is reported.
func sane(t *testing.T, p *checker.Plugin, ds []checker.Diagnostic) {
	t.Helper()
	syntax := false
	for _, d := range ds {
		if d.Code == checker.InternalErrorCode {
			t.Fatalf("a rule crashed on %q:\n%s", p.ManifestFile.Text, d.Message)
		}
		if d.File == checker.ManifestName {
			if d.Span.Start < 0 || d.Span.End > len(p.ManifestFile.Text) || d.Span.Start > d.Span.End {
				t.Fatalf("%s: span %v outside plugin.json (%d bytes)", d.Code, d.Span, len(p.ManifestFile.Text))
			}
			syntax = syntax || d.Code == "manifest-syntax"
		}
		for _, f := range d.Fixes {
			for _, e := range f.Edits {
				if e.File == checker.ManifestName && (e.Span.Start < 0 || e.Span.End > len(p.ManifestFile.Text) || e.Span.Start > e.Span.End) {
					t.Fatalf("%s: fix edit span %v outside plugin.json", d.Code, e.Span)
				}
			}
		}
	}
	if p.SyntaxError != nil && !syntax {
		t.Fatalf("syntax error %v not reported for %q", p.SyntaxError, p.ManifestFile.Text)
	}
}

func FuzzCheckManifest(f *testing.F) {
	for _, b := range testdataManifests(f) {
		f.Add(b)
	}
	for _, s := range []string{"", "{", "[", `{"tools":[{"name":`, `{"a":1,"a":2}`, "\xff\xfe", `{"capabilities":{"fetch":[{"fetchMaxBytes":1e400}]}}`} {
		f.Add([]byte(s))
	}
	all := All()
	cache := checker.NewCache()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := loadManifest(t, noFiles{}, "/fuzz/plugin", data)
		sane(t, p, checker.Run(p, all, checker.DefaultConfig(), cache))
	})
}

// Every prefix of every testdata manifest loads without a panic and yields
// manifest-syntax (the prefixes an author passes through while typing).
func TestEveryPrefixYieldsSyntaxError(t *testing.T) {
	all := All()
	cache := checker.NewCache()
	cfg := checker.DefaultConfig()
	n := 0
	for path, full := range testdataManifests(t) {
		root, serr := jsonpos.Parse(full)
		end := len(full)
		if serr == nil && root != nil {
			end = root.Span.End // a prefix holding the whole value is complete
		}
		dir := filepath.Dir(path)
		for i := 0; i < end; i++ {
			p := loadManifest(t, nil, dir, full[:i])
			ds := checker.Run(p, all, cfg, cache)
			sane(t, p, ds)
			if len(codes(ds, "manifest-syntax")) == 0 {
				t.Fatalf("%s: prefix of %d bytes gives no manifest-syntax: %q", path, i, full[:i])
			}
			n++
		}
	}
	t.Logf("%d prefixes checked", n)
}

// A 10 MB manifest is checked without falling over; the time is logged
// (and reported in the closing note).
func TestTenMegabyteManifest(t *testing.T) {
	if testing.Short() {
		t.Skip("10 MB")
	}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "code"), 0o755)
	os.WriteFile(filepath.Join(dir, "code", "t.ts"), []byte("export default function t(input: { q: string }) {\n  return { type: \"markdown\", text: input.q };\n}\n"), 0o644)
	var b strings.Builder
	b.WriteString(`{"name":"huge","version":"1.0.0","tools":[`)
	i := 0
	for b.Len() < 10<<20 {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"name":"tool%d","page":"code/t","description":"Tool number %d: %s","inputJsonSchema":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}}`,
			i, i, strings.Repeat("ü", i%40))
		i++
	}
	b.WriteString("]}")
	os.WriteFile(filepath.Join(dir, "plugin.json"), []byte(b.String()), 0o644)
	start := time.Now()
	p, err := checker.Load(nil, dir)
	if err != nil {
		t.Fatal(err)
	}
	ds := checker.Run(p, All(), checker.DefaultConfig(), checker.NewCache())
	el := time.Since(start)
	sane(t, p, ds)
	if len(ds) != 0 {
		t.Errorf("%d diagnostics, first: %s %s", len(ds), ds[0].Code, ds[0].Message)
	}
	t.Logf("10 MB manifest (%d bytes, %d tools): load + all rules in %v", b.Len(), i, el)

	// The same size, truncated in the middle: a syntax error, no crash.
	cut := []byte(b.String()[:b.Len()/2])
	start = time.Now()
	p = loadManifest(t, nil, dir, cut)
	ds = checker.Run(p, All(), checker.DefaultConfig(), checker.NewCache())
	sane(t, p, ds)
	t.Logf("5 MB truncated manifest: %v, %d diagnostics", time.Since(start), len(ds))
}
