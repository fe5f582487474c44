// The TypeScript server plugin (tsserver-plugin/, installed as
// node_modules/plugin-lsp-tsserver) loaded by the real tsserver the way VS
// Code loads a contributed plugin: --globalPlugins with the extension folder
// as --pluginProbeLocations, configured through configurePlugin as the
// extension does. Pages of plugins that never ran `plugin-lsp types` type-
// check with 0 problems; a bare fetch is one problem (plugin-lsp's), not
// also TypeScript's TS2304.
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type Diag, TSServer } from "./tsserverclient";
import { EXT_ROOT, buildServer } from "./util";

const MANIFEST = {
  name: "weather",
  version: "1.0.0",
  description: "Weather.",
  capabilities: { host: ["http.fetch", "collections.get"], fetch: ["api.weather.example"] },
  tools: [
    {
      name: "current",
      description: "The weather now.",
      page: "code/current.ts",
      inputJsonSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    },
  ],
};

/** A page using what docs/host-api.md documents, as an author writes it. */
const PAGE = `import cities from "./cities.json" with { type: "json" };

export default async function current(input: Input<"current">) {
  const controller = new AbortController();
  const req = new Request(\`https://api.weather.example/now?city=\${encodeURIComponent(input.city)}\`, { signal: AbortSignal.timeout(5000) });
  const res: Response = await http.fetch(req, { method: "GET", headers: { accept: "application/json" }, signal: controller.signal });
  const cached = await collections.get<{ temp: number }>("weather", input.city);
  const id: string = crypto.randomUUID();
  const body = new URLSearchParams({ q: input.city }).toString();
  return { id, ok: res.ok, type: res.headers.get("content-type"), data: await res.json(), cached, body, known: cities.names.includes(input.city) };
}
`;

function plugin(root: string, name: string, opts: { tsconfig?: boolean } = {}): string {
  const dir = join(root, name);
  mkdirSync(join(dir, "code"), { recursive: true });
  writeFileSync(join(dir, "plugin.json"), JSON.stringify(MANIFEST, null, 2) + "\n");
  writeFileSync(join(dir, "code", "current.ts"), PAGE);
  writeFileSync(join(dir, "code", "cities.json"), `{"names": ["Oslo", "Lima"]}\n`);
  if (opts.tsconfig) {
    // The tsconfig.json `plugin-lsp types` writes, committed while .plugin/ is ignored.
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { target: "ES2022", lib: ["ES2022"], module: "ESNext", moduleResolution: "bundler", resolveJsonModule: true, types: [], strict: true, noEmit: true, isolatedModules: true }, include: ["**/*.ts", ".plugin/types.d.ts"] }),
    );
  }
  return dir;
}

const show = (ds: Diag[]) => ds.map((d) => `${d.start.line}:${d.start.offset} TS${d.code} ${d.text}`).join("\n");

describe("the TypeScript server plugin in tsserver", () => {
  let root: string;
  let bin: string;
  let server: TSServer;
  let cache: string;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), "plugin-lsp-tsserver-test-"));
    bin = buildServer(join(root, "plugin-lsp"));
    cache = join(root, "cache");
    assert.ok(existsSync(join(EXT_ROOT, "node_modules", "plugin-lsp-tsserver", "index.js")), "installed (npm ci)");
    server = new TSServer(["--globalPlugins", "plugin-lsp-tsserver", "--pluginProbeLocations", EXT_ROOT]);
    // As the extension does (src/extension.ts, configurePlugin).
    await server.request("configurePlugin", { pluginName: "plugin-lsp-tsserver", configuration: { command: bin, args: [], cacheDir: cache } });
  });
  after(() => {
    server?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("a plugin without .plugin/ or tsconfig.json: 0 problems, nothing written into it", async () => {
    const dir = plugin(root, "bare");
    const page = join(dir, "code", "current.ts");
    server.open(page, dir);
    const ds = await server.problems(page);
    assert.deepEqual(show(ds), "", server.stderr);
    assert.deepEqual(readdirSync(dir).sort(), ["code", "plugin.json"], "opening wrote nothing into the plugin");
    assert.equal(readdirSync(cache).length, 1, "the declarations are in the private cache");
  });

  it("a plugin with the committed tsconfig.json but no .plugin/: 0 problems", async () => {
    const dir = plugin(root, "configured", { tsconfig: true });
    const page = join(dir, "code", "current.ts");
    server.open(page, dir);
    assert.deepEqual(show(await server.problems(page)), "");
  });

  it("a plugin with its own .plugin/types.d.ts (plugin-lsp types ran): 0 problems, the cache not used", async () => {
    const dir = plugin(root, "generated");
    const { execFileSync } = await import("node:child_process");
    execFileSync(bin, ["types", dir]);
    rmSync(join(dir, "tsconfig.json")); // an inferred project: the plugin adds .plugin/types.d.ts itself
    const before = readdirSync(cache).length;
    const page = join(dir, "code", "current.ts");
    server.open(page, dir);
    assert.deepEqual(show(await server.problems(page)), "");
    assert.equal(readdirSync(cache).length, before);
  });

  it("a .plugin/ that links out of the plugin is not read: the generated declarations instead", async () => {
    const dir = plugin(root, "linked");
    const outside = join(root, "outside");
    mkdirSync(outside);
    writeFileSync(join(outside, "types.d.ts"), "export {};\ndeclare global { const http: number; }\n");
    symlinkSync(outside, join(dir, ".plugin"));
    const page = join(dir, "code", "current.ts");
    server.open(page, dir);
    assert.deepEqual(show(await server.problems(page)), "", "http from the generated declarations, not the linked file's number");
  });

  it("a tool added to plugin.json by hand: Input<\"forecast\"> type-checks at the next check of the page", async () => {
    const dir = plugin(root, "added");
    const page = join(dir, "code", "forecast.ts");
    writeFileSync(page, `export default async function forecast(input: Input<"forecast">) {\n  return input.days * 2;\n}\n`);
    server.open(page, dir);
    const missing = await server.problems(page);
    assert.ok(missing.some((d) => d.code === 2344), `the control: no such tool yet (TS2344): ${show(missing)}`);
    const m = JSON.parse(readFileSync(join(dir, "plugin.json"), "utf8"));
    m.tools.push({ name: "forecast", description: "Days ahead.", page: "code/forecast.ts", inputJsonSchema: { type: "object", properties: { days: { type: "integer" } }, required: ["days"] } });
    writeFileSync(join(dir, "plugin.json"), JSON.stringify(m, null, 2) + "\n");
    // An edit of the page (what the author does next) checks it again.
    await server.request("change", { file: page, line: 3, offset: 2, endLine: 3, endOffset: 2, insertString: "\n" });
    assert.deepEqual(show(await server.problems(page)), "");
  });

  it("a bare fetch is one problem: no TS2304, the name struck through (deprecated) with plugin-lsp's hint", async () => {
    const dir = plugin(root, "sneaky");
    const page = join(dir, "code", "current.ts");
    writeFileSync(page, `export default async function current(input: Input<"current">) {\n  const res = await fetch("https://api.weather.example/" + input.city);\n  return res.json();\n}\n`);
    server.open(page, dir);
    assert.deepEqual(show(await server.problems(page)), "");
    const sugg = await server.suggestions(page);
    const deprecated = sugg.filter((d) => d.code === 6385);
    assert.equal(deprecated.length, 1, show(sugg));
    assert.match(deprecated[0].text, /fetch/);
    assert.deepEqual(deprecated[0].start, { line: 2, offset: 21 });
  });

  it("the control: without the plugin the same page has TypeScript's errors", async () => {
    const plain = new TSServer([]);
    try {
      const dir = plugin(root, "unplugged");
      cpSync(join(dir, "code", "current.ts"), join(dir, "code", "again.ts"));
      const page = join(dir, "code", "again.ts");
      plain.open(page, dir);
      const codes = (await plain.problems(page)).map((d) => d.code);
      assert.ok(codes.includes(2304), `Cannot find name 'http': ${codes}`);
    } finally {
      plain.close();
    }
  });
});
