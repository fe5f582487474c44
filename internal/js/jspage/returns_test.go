package jspage

import (
	"strings"
	"testing"
)

// TestDefaultReturns: the default export's own return statements (not
// those of nested functions), or an arrow's expression body, at the
// position of "return" in the .ts page.
func TestDefaultReturns(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string // the page text at each position, in order
	}{
		{"one", "export default async function f(input: { a: number }) {\n  const x: number = input.a;\n  return { x };\n}\n", []string{"return { x }"}},
		{"branches and nested", `type R = { ok: boolean };
export default async function f(input: { n: number }): Promise<R> {
  const inner = () => { return 1; };
  [1].map(function (v) { return v; });
  if (input.n > 1) {
    return { ok: true };
  } else if (input.n < 0) return { ok: false };
  for (const k of [1]) { try { return { ok: k > 0 }; } finally { inner(); } }
  switch (input.n) { case 0: return { ok: true }; }
  return { ok: false };
}
`, []string{"return { ok: true }", "return { ok: false }", "return { ok: k > 0 }", "return { ok: true }", "return { ok: false }"}},
		{"arrow body", "const m = () => new Map();\nexport default async (input: { at?: string }) => ({\n  when: m(),\n});\n", []string{"{\n  when"}},
		{"alias", "async function tool() {\n  return 42;\n}\nexport { tool as default };\n", []string{"return 42"}},
		{"const arrow", "const tool = async () => {\n  return 'x' as string;\n};\nexport default tool;\n", []string{"return 'x'"}},
		{"not a function", "export default { run() { return 1; } };\n", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := AnalyzePage("code/p.ts", []byte(c.src))
			var got []string
			for _, r := range p.DefaultExport.Returns {
				got = append(got, c.src[r.Start:])
			}
			if len(got) != len(c.want) {
				t.Fatalf("returns at %v, want %d (%q)", p.DefaultExport.Returns, len(c.want), c.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], c.want[i]) {
					t.Errorf("return %d at %q, want %q", i, got[i][:min(len(got[i]), 30)], c.want[i])
				}
			}
		})
	}
}
