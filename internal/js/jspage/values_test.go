package jspage

import (
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"testing"
)

// urlsOf renders the URL set of every http.fetch of a bundle:
// "file:line {v1 | v2}" with "…" after a known start and "?" for an
// unknown value.
func urlsOf(files map[string]string, entry string) []string {
	p := analyze(entry, func(rel string) ([]byte, error) {
		if s, ok := files[rel]; ok {
			return []byte(s), nil
		}
		return nil, fs.ErrNotExist
	}, true)
	var out []string
	for _, e := range p.Errors {
		out = append(out, fmt.Sprintf("error %s: %s", e.File, e.Message))
	}
	for _, c := range p.Calls {
		if c.URL == nil {
			continue
		}
		line := strings.Count(files[c.File][:c.Span.Start], "\n") + 1
		var vs []string
		for _, v := range c.URL.Values {
			switch v.Kind {
			case Exact:
				vs = append(vs, v.Value)
			case Prefix:
				vs = append(vs, v.Value+"…")
			default:
				vs = append(vs, "?")
			}
		}
		sort.Strings(vs)
		out = append(out, fmt.Sprintf("%s:%d {%s}", c.File, line, strings.Join(vs, " | ")))
	}
	return out
}

func TestValueForms(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string // the entry is page.ts
		want  []string
	}{
		{"ternary and switch assignment", map[string]string{"page.ts": `
let base: string;
function pick(env: string) {
  switch (env) {
    case "eu": base = "https://eu.api.x.com"; break;
    default: base = "https://api.x.com";
  }
}
export default async (input: { env: string; eu: boolean }) => {
  pick(input.env);
  await http.fetch(input.eu ? "https://a.x.com/v1" : "https://b.x.com/v1");
  await http.fetch(base + "/items");
};`}, []string{"page.ts:11 {https://a.x.com/v1 | https://b.x.com/v1}", "page.ts:12 {https://api.x.com/items | https://eu.api.x.com/items}"}},
		{"record indexed by input, defaults", map[string]string{"page.ts": `
const BASES = { us: "https://us.x.com", eu: "https://eu.x.com" } as const;
export default async (input: { region?: "us" | "eu"; base?: string }) => {
  await http.fetch(` + "`${BASES[input.region ?? \"us\"]}/v2`" + `);
  await http.fetch((input.base ?? "https://d.x.com") + "/");
};`}, []string{"page.ts:4 {https://eu.x.com/v2 | https://us.x.com/v2}", "page.ts:5 {? | https://d.x.com/}"}},
		{"helper across files, factory, class", map[string]string{
			"page.ts": `import { api, client, Client } from "./lib/client";
const c = new Client();
const other = new Client("https://other.x.com");
export default async (input: { id: string }) => {
  await api("/users/" + input.id);
  await client("https://b.x.com")("/x");
  await c.get("/y");
};`,
			"lib/client.ts": `export const API = "https://api.x.com";
export const api = (path: string) => http.fetch(API + path);
export function client(base: string) {
  return (p: string) => http.fetch(` + "`${base}${p}`" + `);
}
export class Client {
  constructor(private readonly base: string = "https://c.x.com") {}
  get(path: string) { return http.fetch(this.base + path); }
}`}, []string{
			"lib/client.ts:2 {https://api.x.com/users/…}",
			"lib/client.ts:4 {https://b.x.com/x}",
			"lib/client.ts:8 {https://c.x.com/y | https://other.x.com/y}",
		}},
		{"value forms", map[string]string{"page.ts": `
const CFG = Object.freeze({ api: { base: "https://api.x.com/" } });
const { api: { base } } = CFG;
const PARTS = ["https://parts.x.com", "v1", "list"];
const SITES = [{ url: "https://s1.x.com/a" }, { url: "https://s2.x.com/b" }];
const cfg = { host: "https://old.x.com" };
cfg.host = "https://new.x.com";
export default async (input: { q: string }) => {
  await http.fetch(new URL("search?q=" + input.q, base).href);
  await http.fetch(PARTS.join("/"));
  for (const s of SITES) await http.fetch(s.url);
  await Promise.all(SITES.map((s) => http.fetch(s.url + "?x")));
  await http.fetch(encodeURI(CFG?.api.base + "a b"));
  await http.fetch("https://API.X.COM/".toLowerCase().replace(/\/$/, "/v3"));
  await http.fetch(cfg.host);
  await http.fetch(String.raw` + "`https://raw.x.com/a\\b/${input.q}`" + `);
};`}, []string{
			"page.ts:9 {https://api.x.com/search…}",
			"page.ts:10 {https://parts.x.com/v1/list}",
			"page.ts:11 {https://s1.x.com/a | https://s2.x.com/b}",
			"page.ts:12 {https://s1.x.com/a?x | https://s2.x.com/b?x}",
			"page.ts:13 {https://api.x.com/a%20b}",
			"page.ts:14 {https://api.x.com/v3}",
			"page.ts:15 {https://new.x.com | https://old.x.com}",
			"page.ts:16 {https://raw.x.com/a\\b/…}",
		}},
		// A tag of the page's own is a call: its parameters take the
		// strings and the substitutions, its result is what it returns.
		{"tagged templates", map[string]string{"page.ts": `
const GH = "https://api.github.com";
function gh(strings: TemplateStringsArray, ...values: string[]) {
  return GH + strings.reduce((acc, s, i) => acc + (values[i - 1] ?? "") + s, "");
}
const first = (s: TemplateStringsArray, v: string) => s[0] + v;
const tag = (s: TemplateStringsArray) => "https://" + s.join("") + "/";
export default async (input: { owner: string }) => {
  await http.fetch(gh` + "`/repos/${input.owner}`" + `);
  await http.fetch(first` + "`https://t.x.com/${\"u\"}`" + `);
  await http.fetch(tag` + "`a.x.com`" + `);
  await http.fetch(tag` + "`b.x.com`" + `);
  await http.fetch(input.owner.at` + "`x`" + `);
};`}, []string{
			"page.ts:9 {https://api.github.com…}",
			"page.ts:10 {https://t.x.com/u}",
			"page.ts:11 {https://a.x.com/ | https://b.x.com/}",
			"page.ts:12 {https://a.x.com/ | https://b.x.com/}",
			"page.ts:13 {?}",
		}},
		// Soundness: where callers or changes are not all visible, the
		// answer is unknown, never one host.
		{"unknown callers and changes", map[string]string{"page.ts": `
function get(url: string) { return http.fetch(url); }
const list = ["https://a.x.com/"];
list.push("https://evil.x.com/");
let u = "https://a.x.com/";
u += "x";
let w = "https://a.x.com/";
({ w } = JSON.parse("{}"));
class C { go(url: string) { return http.fetch(url); } }
export default async (input: { url: string }) => {
  get("https://a.x.com/");
  ["https://b.x.com/"].forEach(get);
  for (const x of list) await http.fetch(x);
  await http.fetch(u);
  await http.fetch(w);
  const c = new C();
  await c.go("https://a.x.com/");
  setTimeout(c.go, 1, input.url);
};`}, []string{"page.ts:2 {?}", "page.ts:9 {?}", "page.ts:13 {?}", "page.ts:14 {? | https://a.x.com/}", "page.ts:15 {? | https://a.x.com/}"}},
		{"bare imports stay unknown", map[string]string{"page.ts": `import { BASE } from "some-sdk";
export default async () => http.fetch(BASE + "/x");`}, []string{"page.ts:2 {?}"}},
		{"import cycle", map[string]string{
			"page.ts": `import { a } from "./a"; export default async () => http.fetch(a);`,
			"a.ts":    `import { b } from "./b"; export const a = "https://a.x.com/"; export const c = () => b;`,
			"b.ts":    `import { c } from "./a"; export const b = () => c;`,
		}, []string{"page.ts:1 {https://a.x.com/}"}},
		{"missing import", map[string]string{"page.ts": `import { a } from "./nope"; export default async () => http.fetch(a);`},
			[]string{`error : import "./nope": no file nope.ts, nope.js, nope/index.ts, nope/index.js in the plugin`}},
		{"import outside the plugin", map[string]string{"page.ts": `import { a } from "../../etc/x"; export default async () => http.fetch(a);`},
			[]string{"page.ts:1 {?}"}}, // unknown here; the page-import-refused rule reports the import
		{"recursion terminates", map[string]string{"page.ts": `
function f(u: string): string { return f(u + "/") + g(u); }
function g(u: string): string { return f(u); }
export default async () => http.fetch(f("https://a.x.com"));`}, []string{"page.ts:4 {?}"}},
	}
	for _, c := range cases {
		got := urlsOf(c.files, "page.ts")
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\ngot:\n\t%s\nwant:\n\t%s", c.name, strings.Join(got, "\n\t"), strings.Join(c.want, "\n\t"))
		}
	}
}

// TestValueBounds: a set over 32 URLs collapses to their hosts, then to
// unknown; a string over 64 KiB keeps its first 64 KiB (a start).
func TestValueBounds(t *testing.T) {
	var b strings.Builder
	b.WriteString("const H = {")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "h%d: \"https://h%d.x.com/a\", ", i, i)
	}
	b.WriteString("};\nconst P = {")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "p%d: \"/p%d\", ", i, i)
	}
	b.WriteString("};\nconst BIG = \"https://a.x.com/\" + \"" + strings.Repeat("a", 40<<10) + "\";\n")
	b.WriteString("export default async (input: { k: string }) => {\n  await http.fetch(H[input.k]);\n  await http.fetch(\"https://one.x.com\" + P[input.k]);\n  await http.fetch(BIG + BIG);\n};\n")
	got := urlsOf(map[string]string{"page.ts": b.String()}, "page.ts")
	// 40 paths are too many to keep: their start is not a URL, so the
	// host of the second call may go on (dynamic), never one host.
	want := []string{"page.ts:5 {?}", "page.ts:6 {https://one.x.com…}", "page.ts:7 {" + strings.Repeat("https://a.x.com/"+strings.Repeat("a", 40<<10), 2)[:64<<10] + "…}"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n\t%s\nwant:\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}

// TestNumericKeys: { 1e3: … } and x["1000"] are the same key, as in
// JavaScript (and as the native-module reader sees them).
func TestNumericKeys(t *testing.T) {
	got := urlsOf(map[string]string{"page.ts": `const V = { 1e3: "https://k.x.com/", 0x10: "https://h.x.com/" };
export default async () => { await http.fetch(V["1000"]); await http.fetch(V[16]); };`}, "page.ts")
	want := "page.ts:2 {https://k.x.com/}\npage.ts:2 {https://h.x.com/}"
	if strings.Join(got, "\n") != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestValueWorkIsBounded: 1,000 fetches through a chain of 100 helpers
// that each double the set of possible URLs. The work per page is
// bounded (maxPageSteps) and answers are memoized only when complete, so
// this finishes quickly; every answer stays sound: the one host, or a
// known start of it, or unknown.
func TestValueWorkIsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("const f0 = (p: string) => \"https://a.x.com\" + p;\n")
	for i := 1; i < 100; i++ {
		fmt.Fprintf(&b, "const f%d = (p: string) => f%d(p + \"a\") || f%d(p + \"b\");\n", i, i-1, i-1)
	}
	b.WriteString("export default async (input: { q: string }) => {\n")
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&b, "  await http.fetch(f99(\"/%d\"));\n", i)
	}
	b.WriteString("};\n")
	p := AnalyzePage("h.ts", []byte(b.String()))
	if len(p.Calls) != 1000 {
		t.Fatalf("%d calls", len(p.Calls))
	}
	for _, c := range p.Calls {
		for _, v := range c.URL.Values {
			if v.Kind != Unknown && !strings.HasPrefix(v.Value, "https://a.x.com") && !strings.HasPrefix("https://a.x.com", v.Value) {
				t.Fatalf("unsound answer %+v", v)
			}
		}
	}
}

// The HTTP method of a fetch is read from its init by the same
// evaluator: through constants and a helper's parameter; one static
// value or nothing.
func TestFetchMethod(t *testing.T) {
	src := `const OPTS = { method: "post" };
function send(url: string, init: RequestInit) { return http.fetch(url, init); }
export default async () => {
  await http.fetch("https://a.x.com/1", OPTS);
  await send("https://a.x.com/2", { method: "PUT" });
  await http.fetch("https://a.x.com/3", { headers: {} });
  await http.fetch("https://a.x.com/4", { method: Math.random() ? "GET" : "DELETE" });
  const init: any = {};
  init.method = "PATCH";
  await http.fetch("https://a.x.com/5", init);
  await http.fetch("https://a.x.com/6");
};`
	p := AnalyzePage("page.ts", []byte(src))
	var got []string
	for _, c := range p.Calls {
		got = append(got, fmt.Sprintf("%d:%q", strings.Count(src[:c.Span.Start], "\n")+1, c.FetchMethod))
	}
	want := `2:"PUT" 4:"POST" 6:"GET" 7:"" 10:"" 11:"GET"`
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
}

// TestReachingDefinitions: a let or var assigned after a call, in
// straight-line code of the same function, is not a value that call sees;
// an assignment before it (in a branch too), in a loop around it, or in
// another function (a callback run later) still is.
func TestReachingDefinitions(t *testing.T) {
	cases := []struct {
		name, src string
		want      []string
	}{
		{"later reassignment", `
export default async function run() {
  let url = "https://a.example.com/x";
  await http.fetch(url);
  url = "https://b.example.com/y";
  await http.fetch(url);
}`, []string{"page.ts:4 {https://a.example.com/x}", "page.ts:6 {https://b.example.com/y}"}},
		{"var, branch before the call", `
export default async function run(input) {
  var base = "https://a.example.com";
  if (input.eu) base = "https://eu.example.com";
  await http.fetch(base + "/v1");
  base = "https://late.example.com";
}`, []string{"page.ts:5 {https://a.example.com/v1 | https://eu.example.com/v1}"}},
		{"loop around both", `
export default async function run() {
  let url = "https://a.example.com/1";
  for (let i = 0; i < 2; i++) {
    await http.fetch(url);
    url = "https://b.example.com/2";
  }
}`, []string{"page.ts:5 {https://a.example.com/1 | https://b.example.com/2}"}},
		{"a for head's declaration, reassigned in the body", `
export default async function run() {
  for (let next = "https://a.example.com/1", n = 0; next && n < 3; n++) {
    const r = await http.fetch(next);
    next = r.ok ? "https://b.example.com/2" : undefined;
  }
  for (var u = "https://c.example.com/3"; u; u = "") await http.fetch(u);
}`, []string{"page.ts:4 {? | https://a.example.com/1 | https://b.example.com/2}", "page.ts:7 { | https://c.example.com/3}"}},
		{"a try body may not finish", `
export default async function run() {
  let url = "https://a.example.com/1";
  try { url = "https://b.example.com/2"; } catch {}
  await http.fetch(url);
}`, []string{"page.ts:5 {https://a.example.com/1 | https://b.example.com/2}"}},
		{"callback defined before, run after", `
let url = "https://a.example.com/1";
const go = () => http.fetch(url);
url = "https://b.example.com/2";
export default async function run() { await go(); }`, []string{"page.ts:3 {https://a.example.com/1 | https://b.example.com/2}"}},
	}
	for _, c := range cases {
		got := urlsOf(map[string]string{"page.ts": c.src}, "page.ts")
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

// TestUnusedCallerArguments: a helper's parameter takes the arguments of
// the calls that may run for the page; a call inside a lib function the
// page never calls (here a CommonJS-style object of helpers beside a
// named export, and a chain of two unused functions) gives it nothing, so
// the default applies. A recursive call inside a used function still
// counts, and an unused function passed as a value may run.
func TestUnusedCallerArguments(t *testing.T) {
	files := map[string]string{
		"page.ts": `import { stageHost, walk, register } from "./lib/hosts";
export default async function run(input: { region: "eu" | "us" }) {
  await http.fetch(stageHost(input.region) + "/v1/ping");
  await walk("https://w.example.com/1", 0);
  register();
}`,
		"lib/hosts.ts": `const TABLE = {
  eu: { live: "https://eu.example.com", canary: "https://eu-canary.example.com" },
  us: { live: "https://us.example.com", canary: "https://us-canary.example.com" },
};
export function stageHost(region: "eu" | "us", stage: "live" | "canary" = "live") {
  return TABLE[region][stage];
}
export function canaryFor(region: "eu" | "us", stage: "live" | "canary") { return stageHost(region, stage); }
function deeper(stage: "live" | "canary") { return canaryFor("eu", stage); }
export function deepest(s: "live" | "canary") { return deeper(s); }
export async function walk(url: string, n: number): Promise<void> {
  await http.fetch(url);
  if (n < 2) await walk("https://w.example.com/2", n + 1);
}
function viaValue(u: string) { return http.fetch(u); }
export function register() { [viaValue].forEach((f) => f("https://v.example.com/")); }
function never(u: string) { return http.fetch(u); }
`,
	}
	got := urlsOf(files, "page.ts")
	// through a namespace import, a function's calls may run: its
	// arguments still count
	ns := urlsOf(map[string]string{
		"page.ts": `import * as hosts from "./lib/hosts";
export default async function run() { await hosts.warm(); }`,
		"lib/hosts.ts": `function origin(stage = "live") { return "https://" + stage + ".ns.example"; }
export async function warm() { await http.fetch(origin("canary") + "/warm"); return http.fetch(origin() + "/"); }
`}, "page.ts")
	if want := "lib/hosts.ts:2 {https://canary.ns.example/warm | https://live.ns.example/warm}"; len(ns) == 0 || ns[0] != want {
		t.Errorf("namespace import: got %q, want first %q", ns, want)
	}
	want := []string{
		"lib/hosts.ts:12 {https://w.example.com/1 | https://w.example.com/2}",
		"lib/hosts.ts:15 {?}",
		"lib/hosts.ts:17 {?}",
		"page.ts:3 {https://eu.example.com/v1/ping | https://us.example.com/v1/ping}",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestThisInBaseClassMethods: `this` in a base class's method may be an
// instance of any class extending it: a member the subclasses define (a
// getter, a field, a method's return) is read from each, and an abstract
// base nothing constructs adds no undefined. A base that is constructed
// itself keeps its own (missing) member too.
func TestThisInBaseClassMethods(t *testing.T) {
	files := map[string]string{
		"page.js": `class Endpoint {
  ping() { return http.fetch(this.root + "/ping"); }
}
const Eu = class extends Endpoint { get root() { return "https://eu.svc.example"; } };
class Us extends Endpoint { root = "https://us.svc.example"; }
class UsWest extends Us {}
class Plain {
  hello() { return http.fetch(this.where + "/hello"); }
}
class Named extends Plain { get where() { return "https://named.example"; } }
export default async function run(input) {
  const all = [new Eu(), new Us(), new UsWest(), new Plain(), new Named()];
  for (const e of all) if (e.ping) await e.ping(); else await e.hello();
}`,
	}
	got := urlsOf(files, "page.js")
	want := []string{
		"page.js:2 {https://eu.svc.example/ping | https://us.svc.example/ping}",
		"page.js:8 {https://named.example/hello | undefined/hello}",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}
