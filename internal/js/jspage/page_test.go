package jspage

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/plugin-lsp/plugin-lsp/internal/text"
)

// describe renders everything AnalyzePage found, one line per item, with
// 1-based lines and UTF-16 columns, so that tests compare everything.
func describe(src string, p *Page) []string {
	li := text.NewIndex(src)
	at := func(sp Span) string {
		p := li.Position(sp.Start)
		return fmt.Sprintf("%d:%d %q", p.Line+1, p.Col+1, src[sp.Start:sp.End])
	}
	var out []string
	for _, c := range p.Calls {
		s := fmt.Sprintf("call %s.%s @%s callee=%q", c.Object, c.Method, at(c.Span), src[c.Callee.Start:c.Callee.End])
		if c.URL != nil {
			s += fmt.Sprintf(" url=%s %s %q", at(c.URL.Span), c.URL.Kind, c.URL.Value)
			if c.URL.Kind != Exact {
				s += " (" + c.URL.Reason + ")"
			}
			if c.URL.Lit.End > 0 {
				s += " lit=" + at(c.URL.Lit)
			}
		}
		if c.Object == "http" && c.Method == "fetch" {
			s += " method=" + c.FetchMethod
		}
		out = append(out, s)
	}
	if d := p.DefaultExport; d.Present {
		out = append(out, fmt.Sprintf("default %s @%s", d.Kind, at(d.Span)))
	}
	for _, h := range p.Headers {
		s := fmt.Sprintf("header %s @%s", h.Name, at(h.Span))
		if h.Remove.End > 0 {
			s += " remove=" + at(h.Remove)
		}
		out = append(out, s)
	}
	for _, t := range p.Tokens {
		out = append(out, fmt.Sprintf("token %s @%s", t.Kind, at(t.Span)))
	}
	for _, e := range p.Errors {
		out = append(out, fmt.Sprintf("error @%s %s unsupported=%v", at(e.Span), e.Message, e.Unsupported))
	}
	return out
}

var pageCases = []struct{ name, src string }{
	{"aliases.ts", `const { fetch, fetch: f2 } = http;
const h = http, g = globalThis.http, c = globalThis["collections"];
const bound = http.fetch.bind(http);
export default async function run(u: string) {
  await fetch("https://a.dev/1"); await f2("https://a.dev/2");
  await h.fetch("https://a.dev/3"); await g["fetch"]("https://a.dev/4");
  await c.query("col", {}); await bound("https://a.dev/5");
  await http.fetch.call(null, "https://a.dev/6", { method: "post" });
  await http?.["fetch"]?.("https://a.dev/7");
}`},
	{"shadow.ts", `function a(http: any) { return http.fetch("https://no.dev/"); }
const b = () => { let collections = 1; return collections.get(); };
class K { http = 1; m() { const { http } = this as any; return http.fetch("https://no.dev/"); } }
try { } catch (http) { http.fetch("https://no.dev/"); }
for (const http of []) { http.fetch("https://no.dev/"); }
export default () => http.fetch("https://yes.dev/");`},
	{"urls.ts", `const A = "https://a.dev";
const B = A + "/b";
const C = ` + "`${B}/c`" + `;
const D = new URL("d?x=1", C + "/");
export default async (input: { id: string }) => {
  const local = ` + "`${C}/${input.id}`" + `;
  await http.fetch(C);
  await http.fetch(D.toString());
  await http.fetch(local);
  await http.fetch(A + input.id);
  await http.fetch(input.id + A);
  await http.fetch(` + "`${input.id}`" + `);
  await http.fetch();
};`},
	{"exports.ts", `export const x = 1;
export function helper() {}
export default class Foo {}`},
	{"export-value.js", `export default 42;`},
	{"export-none.js", `export const run = () => 1;`},
	{"headers.ts", `export default async () => {
  const headers: Record<string, string> = { "X-Trace": "1" };
  headers.Authorization = "x";
  const hs = new Headers([["X-Api-Key", "k"]]);
  hs.set("Cookie", "c");
  await http.fetch("https://a.dev/", { headers: { authorization: "Bearer " + "x", ...headers } });
  const t = ["sk-abcdefghijklmnopqrstuvwxyz", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig", "AKIAABCDEFGHIJKLMNOP"];
  return t;
};`},
	{"header-removal.ts", `export default async (t: string) => {
  await http.fetch("https://a.dev/", { headers: { Authorization: ` + "`Bearer ${t}`" + `, Accept: "x" } });
  await http.fetch("https://a.dev/", { headers: { Accept: "x", "Authorization": t } });
  await http.fetch("https://a.dev/", {
    headers: {
      Authorization: "Bearer " + t,
      Accept: "application/json",
    },
  });
  const authorization = t;
  return http.fetch("https://a.dev/", { headers: { authorization } });
};`},
	{"objects.ts", `const CONFIG = { api: "https://cfg.dev", urls: { img: "https://img.cfg.dev/" }, ["x" + 1]: 1 } as const;
const SPREAD = { ...CONFIG, api: "https://other.dev" };
const base = "https://short.dev";
const SHORT = { base };
export default async () => {
  await http.fetch(` + "`${CONFIG.api}/a`" + `);
  await http.fetch(CONFIG.urls.img + "b.png");
  await http.fetch(CONFIG["urls"]["img"]);
  await http.fetch(SPREAD.api + "/c");
  await http.fetch(SHORT.base + "/d");
};`},
	{"syntax.ts", "export default function (x: number {\n}"},
	{"hashbang-and-tla.ts", "#!/usr/bin/env node\nconst r = await http.fetch('https://a.dev/');\nexport default () => r;"},
}

var updateGolden = flag.Bool("update", false, "rewrite testdata/cases.golden")

// TestPageCases compares everything AnalyzePage finds in each case with
// testdata/cases.golden (read it after -update).
func TestPageCases(t *testing.T) {
	var b strings.Builder
	for _, c := range pageCases {
		b.WriteString("== " + c.name + "\n")
		for _, l := range describe(c.src, AnalyzePage(c.name, []byte(c.src))) {
			b.WriteString(l + "\n")
		}
	}
	golden := filepath.Join("testdata", "cases.golden")
	if *updateGolden {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("AnalyzePage results differ from %s:\n%s", golden, b.String())
	}
}
