package jspage

import (
	"fmt"
	"strings"
	"testing"
)

// page200 is a realistic 200-line TypeScript page: types, helpers, a few
// fetches in different URL forms, collections, control flow.
func page200() string {
	var b strings.Builder
	b.WriteString(`// A generated page of about 200 lines for benchmarks.
const API = "https://api.bench.dev/v1";
const CDN = new URL("/assets/", "https://cdn.bench.dev");

interface Item {
  id: string;
  name: string;
  tags?: string[];
}

type Page<T> = { items: T[]; next?: string };

enum Kind {
  A = "a",
  B = "b",
}

function itemUrl(id: string): string {
  return ` + "`${API}/items/${encodeURIComponent(id)}`" + `;
}

`)
	for i := 0; len(strings.Split(b.String(), "\n")) < 185; i++ {
		fmt.Fprintf(&b, `async function step%d(input: { id: string; n: number }): Promise<Item | undefined> {
  const label: string = "step %d – naïve ✓";
  if (input.n > %d) {
    const res = await http.fetch(itemUrl(input.id + "-%d"), { method: "GET" });
    const page = (await res.json()) as Page<Item>;
    return page.items.find((it) => it.tags?.includes(label)) ?? undefined;
  }
  await collections.put("steps", String(%d), { label, kind: Kind.A });
  return undefined;
}

`, i, i, i, i, i)
	}
	b.WriteString(`export default async function run(input: { id: string; n: number }) {
  const first = await http.fetch(` + "`${API}/search?q=${input.id}`" + `);
  const cover = await http.fetch(new URL("cover.png", CDN).toString());
  const results: (Item | undefined)[] = [];
  for (let i = 0; i < input.n; i++) {
    results.push(await step0({ ...input, n: i }));
  }
  return { type: "table", columns: ["id"], rows: results.map((r) => [r?.id ?? "-"]), ok: first.ok && cover.ok };
}
`)
	return b.String()
}

func TestPage200(t *testing.T) {
	src := page200()
	lines := strings.Count(src, "\n")
	if lines < 190 || lines > 230 {
		t.Fatalf("page200 has %d lines", lines)
	}
	p := AnalyzePage("bench.ts", []byte(src))
	if len(p.Errors) != 0 {
		t.Fatalf("errors: %+v", p.Errors)
	}
	fetches, puts := 0, 0
	for _, c := range p.Calls {
		switch c.Object + "." + c.Method {
		case "http.fetch":
			fetches++
			if c.URL == nil || c.URL.Kind == Unknown {
				t.Errorf("fetch at %v: URL not resolved: %+v", c.Span, c.URL)
			}
		case "collections.put":
			puts++
		}
	}
	if fetches < 10 || puts < 10 || fetches != puts+2 {
		t.Errorf("found %d fetches and %d puts", fetches, puts)
	}
}

// BenchmarkAnalyzePage200 is a 200-line page analysed cold (target
// ≤ 10 ms): esbuild, goja, the walk, positions back to the page.
func BenchmarkAnalyzePage200(b *testing.B) {
	src := []byte(page200())
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		AnalyzePage("bench.ts", src)
	}
}
