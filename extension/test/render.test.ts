import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { escapeHtml, formatBytes, formatMs, linkLocations, renderFailure, renderMarkdown, renderRecord, renderResult } from "../src/render";
import { attributeNames, fixture, tagNames, visibleText } from "./util";

// The only tags and attributes the renderer may ever produce.
const ALLOWED_TAGS = ["a", "code", "div", "em", "h2", "h3", "h4", "h5", "h6", "li", "meter", "ol", "p", "pre", "section", "span", "strong", "table", "tbody", "td", "th", "thead", "tr", "ul", "wbr"];
const ALLOWED_ATTRS = ["class", "data-column", "data-file", "data-label", "data-line", "high", "href", "id", "low", "max", "min", "optimum", "role", "title", "value"];

function assertSafe(html: string): void {
  const badTags = tagNames(html).filter((t) => !ALLOWED_TAGS.includes(t));
  assert.deepEqual(badTags, [], `unexpected tags in ${html}`);
  const badAttrs = attributeNames(html).filter((a) => !ALLOWED_ATTRS.includes(a));
  assert.deepEqual(badAttrs, [], `unexpected attributes in ${html}`);
  for (const m of html.matchAll(/href="([^"]*)"/g)) assert.equal(m[1], "#", "links never navigate");
}

describe("escapeHtml", () => {
  it("escapes the five HTML metacharacters", () => {
    assert.equal(escapeHtml(`<a href="x" title='y'>&</a>`), "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
  });
  it("stringifies non-strings", () => {
    assert.equal(escapeHtml(42), "42");
    assert.equal(escapeHtml(null), "null");
  });
});

describe("renderResult (SubUI)", () => {
  it("renders a stat as label and value", () => {
    const html = renderResult({ type: "stat", value: "The Hobbit", label: "Title" });
    assert.equal(html, `<div class="subui stat"><div class="stat-label">Title</div><div class="stat-value">The Hobbit</div></div>`);
  });
  it("renders a numeric stat without a label", () => {
    assert.equal(renderResult({ type: "stat", value: 310 }), `<div class="subui stat"><div class="stat-value">310</div></div>`);
  });
  it("renders a table with every row and pads short rows", () => {
    const html = renderResult({ type: "table", columns: ["A", "B"], rows: [["1", 2], [{ x: 1 }], { B: "by name", A: "a" }] });
    assertSafe(html);
    assert.equal(visibleText(html), `A B 1 2 {"x":1} a by name`);
    assert.equal((html.match(/<tr>/g) ?? []).length, 4);
    assert.equal((html.match(/<td>/g) ?? []).length, 6);
  });
  it("says so when a table has no rows", () => {
    assert.equal(visibleText(renderResult({ type: "table", columns: ["A"], rows: [] })), "A No rows.");
  });
  it("renders a list of strings and of titled objects", () => {
    const html = renderResult({ type: "list", items: ["one", { title: "two", subtitle: "second" }, 3, { other: true }] });
    assertSafe(html);
    assert.equal(visibleText(html), `one two second 3 {"other":true}`);
    assert.equal((html.match(/<li>/g) ?? []).length, 4);
  });
  it("renders markdown", () => {
    const html = renderResult({ type: "markdown", text: "Saved **9780261103344** (1×)" });
    assert.equal(html, `<div class="subui markdown"><p>Saved <strong>9780261103344</strong> (1×)</p></div>`);
  });
  it("shows anything else as raw JSON", () => {
    const cases: unknown[] = [
      { title: "The Hobbit" },
      { type: "chart", points: [1, 2] },
      { type: "stat", value: { nested: true } }, // malformed SubUI
      { type: "table", columns: "A", rows: [] },
      { type: "list", items: "x" },
      { type: "markdown", text: 42 },
      [1, 2, 3],
      "plain string",
      17,
      null,
    ];
    for (const c of cases) {
      const html = renderResult(c);
      assert.ok(html.startsWith(`<pre class="subui raw json">`), `raw for ${JSON.stringify(c)}: ${html}`);
      assert.equal(visibleText(html), visibleText(escapeHtml(JSON.stringify(c, null, 2))));
    }
    assert.equal(renderResult(undefined), `<pre class="subui raw json">undefined</pre>`);
  });
});

describe("renderRecord: input violations", () => {
  it("lists each schema violation under its JSON pointer, escaped", () => {
    const html = renderRecord({
      ok: false,
      error: {
        name: "InputError",
        message: "the input does not match the inputJsonSchema of tool t: /shelf/1: want integer",
        file: "plugin.json",
        line: 10,
        column: 26,
        violations: [{ pointer: "/shelf/1", message: "got string, want integer" }, { pointer: "", message: "missing properties: <isbn>" }, "junk"],
      },
    });
    assertSafe(html);
    const text = visibleText(html);
    assert.ok(text.includes("/shelf/1 got string, want integer (the whole input) missing properties: <isbn>"), text);
    assert.equal((html.match(/<li>/g) ?? []).length, 3);
  });
});

describe("renderMarkdown", () => {
  it("handles headings, lists, code and links without loading anything", () => {
    const html = renderMarkdown("# Books\n\n- *one*\n- `two`\n\n1. first\n2. second\n\n```\nconst x = 1 < 2;\n```\n\nsee [docs](https://example.org/x)");
    assert.equal(
      html,
      [
        "<h3>Books</h3>",
        "<ul>\n<li><em>one</em></li>\n<li><code>two</code></li>\n</ul>",
        "<ol>\n<li>first</li>\n<li>second</li>\n</ol>",
        "<pre><code>const x = 1 &lt; 2;\n</code></pre>",
        `<p>see <span class="link" title="https://example.org/x">docs</span></p>`,
      ].join("\n"),
    );
  });
  it("escapes HTML inside markdown", () => {
    const html = renderMarkdown(`**<img src=x onerror=alert(1)>** [<b>](javascript:alert(1)) \`<script>\``);
    assertSafe(html);
    assert.ok(!html.includes("<img") && !html.includes("<script") && !html.includes("<b>"));
  });
  it("renders hostile markdown inert: raw HTML, javascript: links, images, attribute breakouts", () => {
    const hostile = [
      "<script>alert(1)</script>",
      "",
      "<img src=x onerror=alert(1)>",
      "",
      'inline <script>alert(2)</script> and <img src="x" onerror="alert(3)"> and <a href="javascript:alert(4)">a</a>',
      "",
      "[click](javascript:alert(5)) [CLICK](JaVaScRiPt:alert(6)) [enc](java&#x73;cript:alert(7)) <javascript:alert(8)>",
      "",
      "[data](data:text/html;base64,PHNjcmlwdD5hbGVydCg5KTwvc2NyaXB0Pg==) [vb](vbscript:msgbox(10))",
      "",
      '![pic](https://evil.example/t.png "t") ![x](x" onerror="alert(11))',
      "",
      '[q](https://ok.example/"onmouseover="alert(12)) [r](<https://ok.example/x" onfocus="alert(13)>)',
      "",
      "<div onclick=alert(14)>block html</div>",
    ].join("\n");
    const html = renderMarkdown(hostile);
    assertSafe(html);
    // No element other than the renderer's own, no event handler, no URL an element would load or follow.
    assert.deepEqual(tagNames(html).filter((t) => !["p", "span"].includes(t)), []);
    assert.doesNotMatch(html, /<[^>]*\son[a-z]+=/i);
    assert.doesNotMatch(html, /<[^>]*\s(src|href)=/i);
    // javascript:, data: and vbscript: targets never become links: markdown-it refuses them, so they stay text.
    for (const title of html.matchAll(/title="([^"]*)"/g)) assert.match(title[1], /^https:\/\//, title[1]);
    // The raw HTML is shown to the author as text.
    assert.ok(visibleText(html).includes("<script>alert(1)</script>"), visibleText(html));
    assert.ok(visibleText(html).includes("<img src=x onerror=alert(1)>"));
  });
});

describe("renderRecord", () => {
  it("renders a successful searchBooks run: table, fetch log with caps, logs, usage", () => {
    const html = renderRecord(fixture("search-books.record.json"));
    assertSafe(html);
    assert.deepEqual([...html.matchAll(/<section id="([a-z]+)"/g)].map((m) => m[1]), ["result", "fetches", "logs", "usage"]);
    const text = visibleText(html);
    assert.ok(text.startsWith("ok fn.searchBooks:7f3a9c21 41.7 ms Result Title Author Cover The Hobbit J.R.R. Tolkien 200 The Annotated Hobbit"), text);
    // Each fetch with its status, bytes / fetchMaxBytes and time / fetchTimeoutMs.
    assert.ok(text.includes("GET https://api.openlibrary.org/search.json?q=hobbit 200 187 B / 1 MiB 0.4 ms / 10 s fixture openlibrary_key ••••"), text);
    assert.ok(text.includes("GET https://covers.openlibrary.org/b/id/8231856-S.json 404 9 B / 4 MiB 0.2 ms / 5 s fixture none"), text);
    assert.ok(text.includes("GET https://evil.example.com/steal?d=1 fetch refused: host evil.example.com is not in capabilities.fetch refused: not-allowed"), text);
    assert.ok(html.includes(`<tr class="refused">`));
    assert.ok(text.includes("Logs (2) log searching for hobbit warn cover 8231856 answered 404"), text);
    assert.ok(text.includes("Memory peak 2.8 MiB / 128 MiB Fetches 4 / 64 Fetched bytes 210 B Log bytes 47 B / 64 KiB Timeout 30 s"), text);
    assert.ok(html.includes(`<meter min="0" max="64" low="48" high="57.6" optimum="0" value="4"></meter>`));
  });

  it("renders a thrown error with clickable .ts locations and no result section", () => {
    const html = renderRecord(fixture("thrown.record.json"));
    assertSafe(html);
    assert.deepEqual([...html.matchAll(/<section id="([a-z]+)"/g)].map((m) => m[1]), ["error", "fetches", "logs", "usage"]);
    const links = [...html.matchAll(/data-file="([^"]*)" data-line="(\d+)" data-column="(\d+)"/g)].map((m) => `${m[1]}:${m[2]}:${m[3]}`);
    assert.deepEqual(links, ["code/lookup-book.ts:18:11", "code/lookup-book.ts:18:11", "code/lookup-book.ts:13:1"]);
    const text = visibleText(html);
    assert.ok(text.startsWith("failed fn.lookupBook:0b1c2d3e 12.5 ms Error Error: Open Library answered 404 for ISBN 0000000000 at code/lookup-book.ts:18:11 at lookupBook (code/lookup-book.ts:18:11)"), text);
  });

  it("shows a refusal that is the run's error once, and a refused fetch as not asked of any source", () => {
    const message = "fetch refused: host evil.example.com is not in capabilities.fetch";
    const html = renderRecord({
      ok: false,
      error: { name: "Error", message, file: "code/x.ts", line: 4, column: 21 },
      fetches: [
        { method: "GET", url: "https://evil.example.com/steal?d=1&e=2", ms: 0, credentials: [], refused: "not-allowed", error: message },
        { method: "GET", url: "http://api.example.com/", ms: 0, credentials: [], refused: "not-https", error: "fetch refused: only https" },
        { method: "GET", url: "https://api.example.com/a", status: 200, source: "fixture", credentials: [] },
      ],
      logs: [],
    });
    assertSafe(html);
    const text = visibleText(html);
    assert.equal(text.split(message).length - 1, 1, text);
    assert.ok(text.includes("the run's error, shown above"), text);
    assert.ok(text.includes("fetch refused: only https"), "a refusal that is not the run's error is shown in its row");
    const sources = [...html.matchAll(/<td class="source"[^>]*>(.*?)<\/td>/g)].map((m) => visibleText(m[1]));
    assert.deepEqual(sources, ["not asked", "not asked", "fixture"]);
    // The URL may wrap after / ? & =, and its full text is its title.
    assert.ok(html.includes(`title="https://evil.example.com/steal?d=1&amp;e=2">https:/<wbr>/<wbr>evil.example.com/<wbr>steal?<wbr>d=<wbr>1&amp;<wbr>e=<wbr>2</span>`), html);
  });

  it("escapes hostile text in every field", () => {
    const evil = `<img src=x onerror="alert(1)"><script>alert(2)</script>'"&`;
    const html = renderRecord({
      claim: evil,
      ok: false,
      result: { type: "stat", value: evil, label: evil },
      error: { name: evil, message: evil, stack: `${evil}\n at x (${evil}.ts:1:2)`, file: `a".ts" onclick="x`, line: 3, column: 4 },
      logs: [{ level: evil, message: evil }],
      fetches: [{ method: evil, url: evil, status: 200, source: evil, credentials: [evil], refused: evil, error: evil }],
      durationMs: 1,
      usage: { memoryPeakBytes: 1, memoryCapBytes: 2 },
    });
    assertSafe(html);
    assert.ok(!html.includes("<img") && !html.includes("<script"), html);
    assert.ok(html.includes(`data-file="a&quot;.ts&quot; onclick=&quot;x"`), html);
    assert.ok(visibleText(html).includes(evil));
  });

  it("copes with partial and wrong-typed records", () => {
    for (const r of [{}, { ok: true }, { logs: "x", fetches: {}, usage: 3, error: "boom" }, { fetches: [null, 1], logs: [null] }]) {
      const html = renderRecord(r);
      assertSafe(html);
      assert.ok(html.includes(`<section id="fetches">`));
    }
    assert.equal(visibleText(renderRecord("not a record")), `Result "not a record"`);
  });

  it("renders a transport failure", () => {
    const html = renderFailure("Request plugin.runTool failed: <unknown tool>");
    assertSafe(html);
    assert.equal(visibleText(html), "not run Error Request plugin.runTool failed: <unknown tool>");
  });
});

describe("linkLocations", () => {
  it("links .ts and .js locations and escapes the rest", () => {
    const html = linkLocations("at f (code/a.ts:3:9) <x> native/t.js:4");
    assert.equal(
      html,
      `at f (<a class="loc" href="#" role="link" data-file="code/a.ts" data-line="3" data-column="9" title="Open code/a.ts">code/a.ts:3:9</a>) &lt;x&gt; ` +
        `<a class="loc" href="#" role="link" data-file="native/t.js" data-line="4" data-column="1" title="Open native/t.js">native/t.js:4</a>`,
    );
  });
});

describe("big and pathological input", { timeout: 60_000 }, () => {
  it("links locations in linear time on a long dotted line", () => {
    const line = "a.".repeat(512 * 1024) + "ts:1 then code/x.ts:2:3";
    const html = linkLocations(line);
    // The walk back stops at 512 characters, so the huge "a.a.…ts" path is cut, not scanned whole.
    assert.deepEqual([...html.matchAll(/data-file="([^"]*)" data-line="(\d+)"/g)].map((m) => [m[1].length <= 515, m[2]]), [[true, "1"], [true, "2"]]);
    assert.ok(html.endsWith(`data-file="code/x.ts" data-line="2" data-column="3" title="Open code/x.ts">code/x.ts:2:3</a>`));
  });
  it("renders a 10 MB result and a thousand fetches", () => {
    const big = "<".repeat(10 * 1024 * 1024);
    const html = renderRecord({
      ok: true,
      result: { type: "markdown", text: big },
      logs: [{ level: "log", message: big }],
      fetches: Array.from({ length: 1000 }, (_, i) => ({ method: "GET", url: `https://a.example/${i}`, status: 200, ms: 1, source: "fixture", credentials: [] })),
    });
    assert.equal((html.match(/&lt;/g) ?? []).length, 2 * big.length);
    assert.equal((html.match(/<tr class="">/g) ?? []).length, 1000);
  });
  it("renders hostile markdown in linear time", () => {
    for (const text of ["[".repeat(200_000), "[a](".repeat(50_000), "**a".repeat(100_000), "`a".repeat(100_000), "- a\n".repeat(50_000)]) {
      const html = renderMarkdown(text);
      assert.ok(html.length >= text.length / 2);
    }
  });
  it("does not fail on a result nested too deep to print", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    assert.equal(renderResult(deep), `<pre class="subui raw json">(cannot show this value: Maximum call stack size exceeded)</pre>`);
    assert.ok(visibleText(renderResult({ type: "table", columns: ["A"], rows: [[deep]] })).endsWith("A (cannot show this value: Maximum call stack size exceeded)"));
  });
});

describe("formatting", () => {
  it("formats bytes and durations", () => {
    assert.deepEqual([0, 1023, 1024, 1536, 1048576, 134217728, 5e9].map(formatBytes), ["0 B", "1023 B", "1 KiB", "1.5 KiB", "1 MiB", "128 MiB", "4.7 GiB"]);
    assert.deepEqual([0, 0.029, 0.25, 12, 999.9, 1000, 1500, 30000].map(formatMs), ["0 ms", "0.029 ms", "0.25 ms", "12 ms", "999.9 ms", "1 s", "1.50 s", "30 s"]);
  });
});

describe("renderRecord (a native run)", () => {
  const native = {
    claim: "tg.sendMessage:7f3a",
    ok: false,
    lane: "native",
    approval: { required: true },
    error: { name: "Error", message: "connect ECONNREFUSED: refused by the harness (fake providers)" },
    logs: [],
    fetches: [],
    connections: [
      { protocol: "tcp", host: "149.154.167.50", port: 443, refused: "fake-providers" },
      { protocol: "wss", host: "gw.example<script>", port: 443 },
    ],
    notifications: ["new message from <b>@books</b>"],
  };
  it("shows the lane, the approval and the connections table", () => {
    const html = renderRecord(native);
    assertSafe(html);
    assert.match(html, /<span class="badge warn lane"[^>]*>full trust<\/span>/);
    assert.match(html, /approval required/);
    assert.match(html, /<h2>Connections \(2\)<\/h2>/);
    const text = visibleText(html);
    assert.match(text, /Protocol Host Port Status tcp 149\.154\.167\.50 443 refused: fake-providers wss gw\.example<script> 443 allowed/);
    assert.match(text, /Notifications \(1\) new message from <b>@books<\/b>/);
    assert.ok(!html.includes("<script>") && !html.includes("<b>"), "hostile text is escaped");
    assert.ok(!html.includes(`id="fetches"`), "a native run has no brokered fetch section");
    assert.equal((html.match(/<tr class="refused">/g) ?? []).length, 1);
  });
  it("says when the module reached nothing, and when approval is not required", () => {
    const html = renderRecord({ ok: true, lane: "native", approval: { required: false }, result: 1, connections: [], connectionsOmitted: 0 });
    assertSafe(html);
    assert.match(visibleText(html), /no approval/);
    assert.match(visibleText(html), /Connections \(0\) No outgoing connections\./);
  });
  it("counts connections the record left out", () => {
    const html = renderRecord({ ok: true, lane: "native", connections: [{ protocol: "udp", host: "h", port: 53 }], connectionsOmitted: 4 });
    assert.match(visibleText(html), /Connections \(5\)/);
    assert.match(visibleText(html), /4 more connections not shown\./);
  });
  it("keeps a function tool's record as it was (no lane, no connections)", () => {
    const html = renderRecord({ ok: true, claim: "fn.lookupBook:1", result: 1, fetches: [], logs: [] });
    assert.ok(!html.includes("full trust") && !html.includes(`id="connections"`));
    assert.match(html, /id="fetches"/);
  });
});
