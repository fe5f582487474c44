import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { noticeText, renderMarkdown, renderRecord, renderResult, safeString, showHtml, visible } from "../src/render";
import { buildPage } from "../src/page";
import { buildReviewPage } from "../src/reviewpage";
import { REPO_ROOT, attributeNames, tagNames } from "./util";

// The run panel shows what a plugin and the network wrote: every control,
// format and separator character in it is shown as an escape, as on the
// terminal, and no value, however shaped, makes the renderer throw (a
// throw hid the whole record, refused fetches included).

const ALLOWED_TAGS = ["a", "blockquote", "br", "code", "div", "em", "h2", "h3", "h4", "h5", "h6", "hr", "li", "meter", "ol", "p", "pre", "s", "section", "span", "strong", "table", "tbody", "td", "th", "thead", "tr", "ul", "wbr"];
const ALLOWED_ATTRS = ["class", "data-column", "data-file", "data-label", "data-line", "high", "href", "id", "low", "max", "min", "optimum", "role", "start", "style", "title", "value"];

// What the sanitiser must never let through raw (newline and tab are
// layout in HTML).
const RAW_HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

function assertClean(html: string, what: string): void {
  const m = html.replace(/[\n\t]/g, "").match(RAW_HIDDEN);
  assert.equal(m, null, `${what}: raw U+${m?.[0].codePointAt(0)?.toString(16)} in ${html.slice(0, 400)}`);
  assert.deepEqual(tagNames(html).filter((t) => !ALLOWED_TAGS.includes(t)), [], `${what}: unexpected tags in ${html.slice(0, 400)}`);
  assert.deepEqual(attributeNames(html).filter((a) => !ALLOWED_ATTRS.includes(a)), [], `${what}: unexpected attributes`);
}

interface Vector {
  in: string;
  line: string;
  block: string;
}

// Each planted character: ESC sequences (CSI, OSC 8 link), BEL, CR, BS,
// NUL, DEL, C1 CSI and NEL, the bidi overrides, embeddings, isolates and
// marks, the separators, zero-width space, BOM, a tag character.
const PLANTED = ["\x1b[2K", "\x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\", "\x07", "\r", "\b", "\0", "\x7f", "\x9b", "\x85",
  "\u202a", "\u202b", "\u202c", "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f", "\u061c",
  "\u2028", "\u2029", "\u200b", "\ufeff", "\u{E0041}", "\ud800"];
const ALL = "a" + PLANTED.join("a") + "a";

describe("visible", () => {
  it("shows each character as the Go sanitiser does (internal/text/testdata/visible.json)", () => {
    const vectors = JSON.parse(readFileSync(join(REPO_ROOT, "internal", "text", "testdata", "visible.json"), "utf8")) as Vector[];
    assert.ok(vectors.length > 30);
    for (const v of vectors) {
      assert.equal(visible(v.in), v.line, `line ${JSON.stringify(v.in)}`);
      assert.equal(visible(v.in, true), v.block, `block ${JSON.stringify(v.in)}`);
    }
  });
  it("shows a lone surrogate (what Go sees as a byte that is not UTF-8)", () => {
    assert.equal(visible("a\ud800b\udfff"), "a<U+D800>b<U+DFFF>");
    assert.equal(visible("😀"), "😀");
  });
});

describe("the run panel shows every planted control", () => {
  // The record of a run where the plugin and the server wrote ALL into
  // every field the panel shows.
  const record = {
    claim: `fn.t${ALL}`, ok: false, durationMs: 3,
    error: { name: `Error${ALL}`, message: `boom${ALL} at code/t.ts:1:2`, stack: `Error: x\n    at f (code/t.ts:3:4)${ALL}`, file: `code/t${ALL}.ts`, line: 1, column: 2,
      violations: [{ pointer: `/q${ALL}`, message: `bad${ALL}` }] },
    fetches: [{ method: `GET${ALL}`, url: `https://api.example.com/${ALL}`, refused: `not-allowed${ALL}`, error: `no${ALL}`, source: `fixture${ALL}`, credentials: [`k${ALL}`] },
      { method: "GET", url: "https://x.example/", status: 200, error: `e${ALL}` }],
    logs: [{ level: "log", message: `log${ALL}` }],
  };
  const results = [
    { type: "stat", label: `L${ALL}`, value: `V${ALL}` },
    { type: "table", columns: [`C${ALL}`], rows: [[`R${ALL}`], { [`C${ALL}`]: `O${ALL}` }] },
    { type: "list", items: [`I${ALL}`, { title: `T${ALL}`, subtitle: `S${ALL}` }] },
    { type: "markdown", text: `# H${ALL}\n\n*${ALL}* \`${ALL}\` [x${ALL}](https://a.example/${ALL})\n\n\`\`\`\n${ALL}\n\`\`\`\n&#x202E;&#x1b;&#8238;` },
    { type: "other", v: ALL },
  ];
  it("in every field of a failed record", () => {
    const html = renderRecord(record);
    assertClean(html, "record");
    for (const c of ["\\x1b[2K", "\\x1b]8;;https://evil.example/\\x1b\\link", "\\x07", "\\r", "\\x08", "\\x00", "\\x7f", "\\x9b", "\\x85", "&lt;U+202E&gt;", "&lt;U+2066&gt;", "&lt;U+2028&gt;", "&lt;U+E0041&gt;", "&lt;U+D800&gt;"]) {
      assert.ok(html.includes(c), `the record does not show ${c}`);
    }
    assert.ok(html.includes("refused: not-allowed"), "the refused fetch is shown");
  });
  for (const result of results) {
    it(`in a ${result.type} result`, () => {
      const html = renderRecord({ ok: true, result, fetches: [], logs: [] });
      assertClean(html, result.type);
      // Raw JSON shows C0 controls as JSON's own escapes (\u001b).
      const c0 = result.type === "other" ? ["\\u001b[2K", "\\u0007"] : ["\\x1b[2K", "\\x07"];
      for (const c of [...c0, "\\x9b", "&lt;U+202E&gt;", "&lt;U+2069&gt;"]) {
        assert.ok(html.includes(c), `a ${result.type} result does not show ${c}: ${html.slice(0, 600)}`);
      }
    });
  }
  it("in markdown entities that spell a control", () => {
    // markdown-it writes U+FFFD for the entity of a control (CommonMark);
    // the format characters it decodes are shown.
    const html = renderMarkdown("a&#x202E;b &#27;[2J &#x9b; &#x2066;&ZeroWidthSpace;");
    assertClean(html, "entities");
    assert.ok(html.includes("a&lt;U+202E&gt;b \ufffd[2J \ufffd &lt;U+2066&gt;&lt;U+200B&gt;"), html);
  });
  it("in the page's title, heading and description", () => {
    const html = buildPage({ plugin: `p${ALL}`, tool: `t${ALL}`, description: `d${ALL}\nsecond line`, inputText: "{\n}", sampleText: "{}", nonce: "n", cspSource: "c", scriptUri: "s", resultHtml: "" });
    const head = html.slice(0, html.indexOf("<textarea"));
    assert.equal(head.replace(/[\n\t]/g, "").match(RAW_HIDDEN), null, head);
    assert.ok(head.includes("pa\\x1b[2K") && head.includes("&lt;U+202E&gt;"));
    assert.ok(html.includes(">{\n}</textarea>"), "the input box keeps its text as typed");
  });
});

describe("the pin review view", () => {
  it("shows every planted control of a card and takes fields of any shape", () => {
    const evil = JSON.parse(`{"toString":"x"}`);
    const html = buildReviewPage({ cspSource: "c", nonce: "n", card: { plugin: `p${ALL}`, version: evil, markdown: evil, approval: evil, sincePinned: evil,
      sections: [evil, { name: "plugin", markdown: `# p${ALL}\n\nd${ALL}` }, { name: "sincePinned", markdown: `## Since the pinned snapshot\n\n- \\+ a${ALL}\n- <script>x</script> [l](command:plugin.pin)` }] } });
    const body = html.slice(html.indexOf("<body>") + "<body>".length, html.indexOf("<script nonce"));
    // The view's own frame (header, sections, buttons) aside, what is left is the rendered card.
    assertClean(body.replace(/<\/?(?:header|footer|button|kbd|h1)\b[^>]*>/g, "").replace(/<(section|div)\b[^>]*>/g, "<$1>"), "review view");
    assert.ok(body.includes("pa\\x1b[2K") && body.includes("&lt;U+202E&gt;"), body.slice(0, 600));
    assert.equal([...html.matchAll(/<script\b/g)].length, 1, "the page's own script only");
    assert.ok(!body.includes("href=") && !body.includes("<a "), "no link: a link is inert text");
  });
});

describe("the renderer is total over any JSON value", () => {
  it("renders objects whose keys are toString, toJSON, __proto__ and constructor", () => {
    const evil = JSON.parse(`{"toString":"x","toJSON":"y","valueOf":"z","__proto__":{"a":1},"constructor":"c","hasOwnProperty":"h"}`);
    assert.throws(() => String(evil), TypeError, "String() of it throws: what the renderer must never call");
    const table = { type: "table", columns: [evil, "constructor", "__proto__", "toString", "hasOwnProperty"], rows: [[evil, evil], { constructor: 1 }, evil, JSON.parse(`{"__proto__":"p"}`)] };
    for (const result of [table, { type: "stat", value: evil, label: evil }, { type: "list", items: [evil, { title: evil }] }, evil, [evil]]) {
      const html = renderRecord({ ok: true, result, fetches: [{ method: evil, url: evil, refused: "not-allowed", error: evil, source: evil, credentials: [evil] }], logs: [{ level: evil, message: evil }] });
      assertClean(html, JSON.stringify(result).slice(0, 80));
      assert.ok(html.includes("refused: not-allowed"));
      assert.ok(!html.includes("function") && !html.includes("[native code]"), `a prototype's function was shown: ${html.slice(0, 500)}`);
    }
    const html = renderResult(table);
    assert.ok(html.includes("<td></td>") && html.includes("<td>p</td>"), `own keys only: ${html}`);
    assert.equal(renderRecord(evil).includes("Result"), true);
  });
  it("bounds huge arrays", () => {
    const rows = Array.from({ length: 1_000_000 }, (_, i) => [i]);
    const html = renderResult({ type: "table", columns: Array.from({ length: 500 }, (_, i) => `c${i}`), rows });
    assert.equal((html.match(/<tr>/g) ?? []).length, 1001);
    assert.ok(html.includes("999000 more rows not shown") && html.includes("400 more columns not shown"));
    const list = renderResult({ type: "list", items: new Array(50_000).fill("x") });
    assert.equal((list.match(/<li>/g) ?? []).length, 1000);
  });
  it("renders deep values", () => {
    let deep: unknown = "\u202e";
    for (let i = 0; i < 20_000; i++) deep = i % 2 ? [deep] : { toString: deep };
    for (const result of [deep, { type: "table", columns: [deep], rows: [[deep], deep] }, { type: "list", items: [deep] }, { type: "stat", value: deep }]) {
      assertClean(renderRecord({ ok: true, result, logs: [{ message: deep }], fetches: [{ url: deep, error: deep }] }), "deep");
    }
  });
  it("renders random JSON (property test)", () => {
    const rng = mulberry32(7);
    for (let i = 0; i < 3000; i++) {
      const v = JSON.parse(JSON.stringify(randomJson(rng, 0)));
      // As the record itself, as its result, and inside each field.
      for (const rec of [v, { ok: rng() < 0.5, result: v }, { ok: false, error: v, fetches: [v, v], logs: [v] }, { ok: true, result: { type: pick(rng, TYPES), columns: v, rows: v, items: v, text: v, value: v, label: v }, claim: v, durationMs: v, usage: v }]) {
        let html = "";
        assert.doesNotThrow(() => {
          html = renderRecord(rec);
        }, `threw on ${JSON.stringify(rec).slice(0, 300)}`);
        assertClean(html, JSON.stringify(rec).slice(0, 300));
        assert.ok(!html.includes("cannot be shown"), `fell back on ${JSON.stringify(rec).slice(0, 300)}: ${html.slice(0, 300)}`);
      }
    }
  });
  it("safeString and showHtml take any value", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const v of [undefined, null, 1n, Symbol("s"), () => 1, cyclic, Object.create(null), { toString: "x" }, "\u202e"]) {
      assert.equal(typeof safeString(v), "string");
      assert.equal(showHtml(v).match(RAW_HIDDEN), null);
    }
  });
});

const TYPES = ["stat", "table", "list", "markdown", "chart", "", "toString"];
const KEYS = ["type", "value", "label", "columns", "rows", "items", "text", "title", "name", "subtitle", "ok", "result", "error", "message", "stack", "file", "line",
  "fetches", "logs", "level", "url", "method", "refused", "credentials", "status", "bytes", "maxBytes", "usage", "memoryPeakBytes", "memoryCapBytes",
  "toString", "toJSON", "valueOf", "__proto__", "constructor", "hasOwnProperty", "prototype"];
const STRINGS = ["", "x", "code/t.ts:1:2", "# h", "[a](command:x)", "<b>", "&#x202E;", ...PLANTED, ALL];

function randomJson(rng: () => number, depth: number): unknown {
  const r = rng();
  if (depth > 6 || r < 0.35) {
    switch (Math.floor(rng() * 6)) {
      case 0: return null;
      case 1: return rng() < 0.5;
      case 2: return Math.floor(rng() * 2000) - 500;
      case 3: return rng() * 1e12;
      default: return pick(rng, STRINGS) + (rng() < 0.3 ? pick(rng, STRINGS) : "");
    }
  }
  if (r < 0.65) {
    return Array.from({ length: Math.floor(rng() * 5) }, () => randomJson(rng, depth + 1));
  }
  const o: Record<string, unknown> = {};
  for (let n = Math.floor(rng() * 6); n > 0; n--) {
    Object.defineProperty(o, pick(rng, KEYS), { value: randomJson(rng, depth + 1), enumerable: true, configurable: true, writable: true });
  }
  if (rng() < 0.3) o.type = pick(rng, TYPES);
  return o;
}

function pick<T>(rng: () => number, xs: T[]): T {
  return xs[Math.floor(rng() * xs.length)];
}

// A small seeded generator: the same cases on every run.
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("notification text", () => {
  it("holds no link and no raw control (a notification renders [label](command:…) as a link)", () => {
    for (const s of ["books [open](command:workbench.action.terminal.sendSequence?%7B%7D)", "[a](https://x.example) [b](file:///etc/passwd)", "name\u202e\x1b]8;;x\x07"]) {
      const out = noticeText(s);
      assert.ok(!out.includes("]("), out);
      assert.equal(out.match(RAW_HIDDEN), null, out);
    }
    assert.equal(noticeText("plain text"), "plain text");
  });
});
