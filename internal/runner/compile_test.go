package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/plugin-lsp/plugin-lsp/internal/checker"
	"github.com/plugin-lsp/plugin-lsp/internal/runner/sandbox"
)

// writePlugin writes files (rel → content) into a temp plugin directory.
func writePlugin(t testing.TB, files map[string]string) *checker.Plugin {
	t.Helper()
	dir := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := files["plugin.json"]; !ok {
		os.WriteFile(filepath.Join(dir, "plugin.json"), []byte(`{"name":"t","version":"1.0.0","tools":[]}`), 0o644)
	}
	p, err := checker.Load(checker.OSFS{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCompileRefusesImports(t *testing.T) {
	cases := map[string]string{
		`import * as os from "qjs:os"; export default () => os;`:             `import "qjs:os" refused`,
		`import * as std from "qjs:std"; export default () => std;`:          `import "qjs:std" refused`,
		`export default async () => await import("qjs:bjson");`:              `import "qjs:bjson" refused`,
		`import fs from "node:fs"; export default () => fs;`:                 `import "node:fs" refused`,
		`import x from "lodash"; export default () => x;`:                    `import "lodash" refused`,
		`import x from "https://evil.example/x.js"; export default () => x;`: `refused`,
		`import x from "../../etc/passwd"; export default () => x;`:          `leaves the plugin directory`,
		`import x from "/etc/passwd"; export default () => x;`:               `refused`,
		`export default function () { return 1 +; }`:                         `Unexpected`,
	}
	for src, want := range cases {
		p := writePlugin(t, map[string]string{"code/page.ts": src})
		_, err := Compile(p, "code/page.ts")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s\n  want error containing %q, got %v", src, want, err)
		}
		if ce, ok := err.(*CompileError); !ok || ce.File != "code/page.ts" || ce.Line != 1 {
			t.Errorf("%s\n  error not positioned on the page: %#v", src, err)
		}
	}
}

func TestCompileBundlesRelative(t *testing.T) {
	p := writePlugin(t, map[string]string{
		"code/page.ts":     "import { twice } from \"./lib/math\";\nexport default (n: number) => twice(n);\n",
		"code/lib/math.ts": "export function twice(n: number): number {\n  return n * 2;\n}\n",
	})
	prog, err := Compile(p, "code/page.ts")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(prog.Code, "import") || !strings.Contains(prog.Code, "__page") {
		t.Fatalf("unexpected output:\n%s", prog.Code)
	}
	if len(prog.files) != 2 {
		t.Fatalf("inputs %v", prog.files)
	}
	// a computed import() becomes a require() that throws: no import expression left
	p = writePlugin(t, map[string]string{"code/page.ts": "export default async (n: string) => import(n);\n"})
	prog, err = Compile(p, "code/page.ts")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(prog.Code, "import(") {
		t.Fatalf("import expression survived:\n%s", prog.Code)
	}
}

// TestCompileDefaultExportShapes: the compiled script sets __page to the
// page's default export however the page declares it (function, arrow,
// export { f as default }, a re-export), without esbuild's CommonJS
// interop helpers (which each run evaluated again); a page without a
// default export function runs into the sandbox's own error.
func TestCompileDefaultExportShapes(t *testing.T) {
	cases := []struct{ page, lib, want string }{
		{"export default function (x: unknown) { return 1; }\nexport const unused = 5;\n", "", "1"},
		{"export default async () => 2;\n", "", "2"},
		{"function f() { return 3; }\nexport { f as default };\n", "", "3"},
		{"export { default } from \"./lib/x\";\n", "export default () => 4;\n", "4"},
		{"import g from \"./lib/x\";\nexport default () => g() + 1;\n", "export default () => 4;\n", "5"},
		{"export const x = 1;\n", "", "!the page has no default export function"},
		{"export default 42;\n", "", "!the page has no default export function"},
	}
	r := sharedRunner(t)
	for _, c := range cases {
		files := map[string]string{"code/page.ts": c.page}
		if c.lib != "" {
			files["code/lib/x.ts"] = c.lib
		}
		prog, err := Compile(writePlugin(t, files), "code/page.ts")
		if err != nil {
			t.Fatalf("%s: %v", c.page, err)
		}
		if strings.Contains(prog.Code, "__toCommonJS") || strings.Contains(prog.Code, "__copyProps") || strings.Contains(prog.Code, "__export(") {
			t.Errorf("%s: esbuild's interop helpers are back:\n%s", c.page, prog.Code)
		}
		out := r.engine.Run(context.Background(), sandbox.Job{Name: ScriptName, Code: prog.Code, Timeout: 5 * time.Second})
		got := string(out.Result)
		if !out.OK {
			got = "!" + out.Err.Message
		}
		if got != c.want {
			t.Errorf("%s: got %s, want %s\n%s", c.page, got, c.want, prog.Code)
		}
	}
}
