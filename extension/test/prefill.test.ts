import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { insidePlugin, listTools, parseInput, prefillInput, rememberKey, sampleFromSchema } from "../src/prefill";
import { REPO_ROOT } from "./util";

const booksManifest = readFileSync(join(REPO_ROOT, "testdata", "example", "books", "plugin.json"), "utf8");

describe("listTools", () => {
  it("lists the example plugin's function tools with their schemas", () => {
    const { tools, error } = listTools(booksManifest);
    assert.equal(error, undefined);
    assert.deepEqual(tools.map((t) => [t.name, t.description]), [
      ["lookupBook", "Find a book by ISBN"],
      ["searchBooks", "Search books by title and show the first covers"],
      ["saveFavourite", "Remember a book in the favourites collection"],
    ]);
    assert.deepEqual(tools[0].inputJsonSchema, {
      type: "object",
      properties: { isbn: { type: "string" } },
      required: ["isbn"],
      examples: [{ isbn: "9780261103344" }],
    });
  });
  it("reports a manifest that does not parse and skips malformed tools", () => {
    const broken = listTools(`{"tools": [`);
    assert.deepEqual(broken.tools, []);
    assert.match(broken.error ?? "", /^plugin\.json does not parse: /);
    assert.deepEqual(listTools(`[1]`), { tools: [], error: "plugin.json is not a JSON object" });
    assert.deepEqual(listTools(`{"tools": {"a": 1}}`), { tools: [] });
    assert.deepEqual(listTools(`{"tools": [1, {"name": ""}, {"name": 3}, {"name": "ok", "description": 5}]}`), {
      tools: [{ name: "ok", description: "", inputJsonSchema: undefined }],
    });
  });
});

describe("sampleFromSchema", () => {
  it("prefills the example plugin's tools with their schema's first example", () => {
    const { tools } = listTools(booksManifest);
    assert.deepEqual(tools.map((t) => sampleFromSchema(t.inputJsonSchema)), [
      { isbn: "9780261103344" },
      { q: "hobbit" },
      { isbn: "9780261103344", note: "re-read in winter" },
    ]);
    const noExamples = { ...(tools[0].inputJsonSchema as Record<string, unknown>) };
    delete noExamples.examples;
    assert.deepEqual(sampleFromSchema(noExamples), { isbn: "" }, "without examples: the required properties");
  });
  it("fills every property when none is required, and hinted optional ones", () => {
    assert.deepEqual(
      sampleFromSchema({ type: "object", properties: { a: { type: "string" }, b: { type: "integer", minimum: 1 }, c: { type: "boolean" }, d: { type: "array" }, e: { type: "null" }, f: { type: "number", exclusiveMinimum: 0.5 } } }),
      { a: "", b: 1, c: false, d: [], e: null, f: 1.5 },
    );
    assert.deepEqual(
      sampleFromSchema({ type: "object", required: ["q", "missing"], properties: { q: { type: "string" }, limit: { type: "integer", default: 3 }, lang: { type: "string", examples: ["en"] }, skip: { type: "integer" } } }),
      { q: "", limit: 3, lang: "en", missing: null },
    );
  });
  it("uses default, const, examples and enum first", () => {
    assert.equal(sampleFromSchema({ type: "string", default: "d", enum: ["x"] }), "d");
    assert.equal(sampleFromSchema({ const: 7 }), 7);
    assert.equal(sampleFromSchema({ type: "string", examples: ["9780261103344"] }), "9780261103344");
    assert.equal(sampleFromSchema({ enum: ["fake", "real"] }), "fake");
  });
  it("follows local $refs, oneOf/anyOf, allOf and nullable types", () => {
    const schema = {
      $defs: { isbn: { type: "string", examples: ["978"] }, node: { type: "object", required: ["next"], properties: { next: { $ref: "#/$defs/node" } } } },
      type: "object",
      required: ["isbn", "either", "both", "maybe", "tree", "remote", "items"],
      properties: {
        isbn: { $ref: "#/$defs/isbn" },
        either: { oneOf: [{ type: "null" }, { type: "integer" }] },
        both: { allOf: [{ type: "object", required: ["a"], properties: { a: { type: "string" } } }, { required: ["b"], properties: { b: { const: 1 } } }] },
        maybe: { type: ["null", "boolean"] },
        tree: { $ref: "#/$defs/node" },
        remote: { $ref: "https://example.org/schema.json" },
        items: { type: "array", minItems: 2, items: { type: "string" } },
      },
    };
    const sample = sampleFromSchema(schema) as Record<string, unknown>;
    assert.equal(sample.isbn, "978");
    assert.equal(sample.either, 0);
    assert.deepEqual(sample.both, { a: "", b: 1 });
    assert.equal(sample.maybe, false);
    assert.equal(sample.remote, null);
    assert.deepEqual(sample.items, ["", ""]);
    // A self-referencing schema stops at the depth limit instead of looping.
    let depth = 0;
    let cur = sample.tree as Record<string, unknown> | null;
    while (cur && typeof cur === "object") {
      depth++;
      cur = cur.next as Record<string, unknown> | null;
    }
    assert.ok(depth > 1 && depth < 10, `depth ${depth}`);
  });
  it("stays bounded on a schema that fans out through $refs", () => {
    const wide = { allOf: Array.from({ length: 20 }, () => ({ $ref: "#" })), type: "object", required: ["a"], properties: { a: { $ref: "#" } } };
    const v = sampleFromSchema(wide);
    assert.ok(typeof v === "object");
  });
  it("gives {} without a usable schema", () => {
    for (const s of [undefined, null, true, "x", [], {}]) assert.deepEqual(sampleFromSchema(s), {});
  });
});

describe("prefillInput", () => {
  const schema = { type: "object", properties: { isbn: { type: "string" } }, required: ["isbn"] };
  it("prefills from the schema, pretty-printed", () => {
    assert.equal(prefillInput(schema), `{\n  "isbn": ""\n}`);
  });
  it("prefers what the author last ran", () => {
    assert.equal(prefillInput(schema, `{"isbn":"9780261103344"}`), `{"isbn":"9780261103344"}`);
    assert.equal(prefillInput(schema, "   "), `{\n  "isbn": ""\n}`);
  });
  it("keys the memory by plugin directory and tool", () => {
    assert.equal(rememberKey("file:///w/books", "lookupBook"), "pluginLsp.input:file:///w/books#lookupBook");
    assert.notEqual(rememberKey("file:///w/a", "t"), rememberKey("file:///w/b", "t"));
  });
});

describe("parseInput", () => {
  it("parses JSON and treats empty text as null", () => {
    assert.deepEqual(parseInput(`{"isbn": "9780261103344"}`), { ok: true, value: { isbn: "9780261103344" } });
    assert.deepEqual(parseInput("  \n"), { ok: true, value: null });
    assert.deepEqual(parseInput(`"plain"`), { ok: true, value: "plain" });
  });
  it("reports where the JSON breaks", () => {
    const r = parseInput(`{\n  "isbn": x\n}`);
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.deepEqual([r.line, r.column], [2, 11]);
      assert.match(r.message, /^Input is not JSON \(line 2, column 11\): /);
    }
    const t = parseInput(`{"a": [1,`);
    assert.equal(t.ok, false);
    if (!t.ok) assert.deepEqual([t.line, t.column], [1, 10]);
  });
});

describe("jsonErrorOffset", () => {
  it("finds the first error offset", async () => {
    const { jsonErrorOffset } = await import("../src/prefill");
    const cases: Array<[string, number]> = [
      [`{"a": x}`, 6],
      [`{"a": 1,}`, 8],
      [`[1, 2`, 5],
      [`"abc`, 4], // an unclosed string: where the input ends
      [`{"a" 1}`, 5],
      [`tru`, 0],
      [`1 2`, 2],
      [`{"a": "\\q"}`, 6], // jsonc-parser points at the string holding the bad escape
      [`-`, 0],
    ];
    cases.push(["[" + "1,".repeat(500_000) + "x]", 1_000_001]);
    cases.push(["[".repeat(1000), 1000]);
    cases.push(["[".repeat(200_000), 200_000]); // deeper than jsonc-parser's recursion: still an answer
    for (const [text, want] of cases) {
      assert.throws(() => JSON.parse(text), `${text} must not parse`);
      assert.equal(jsonErrorOffset(text), want, text);
    }
  });
});

describe("insidePlugin", () => {
  it("keeps plugin-relative paths and refuses the rest", () => {
    assert.deepEqual(insidePlugin("code/lookup-book.ts"), ["code", "lookup-book.ts"]);
    assert.deepEqual(insidePlugin("./code//a.ts"), ["code", "a.ts"]);
    for (const bad of ["", "/etc/passwd.ts", "../x.ts", "code/../../x.ts", "C:/x.ts", "code\\..\\x.ts", ".", "./"]) {
      assert.equal(insidePlugin(bad), undefined, bad);
    }
  });
});
