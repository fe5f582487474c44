import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { reviewCardMarkdown } from "../src/commands";

const card = {
  plugin: "books",
  version: "1.2.0",
  sourceTreeHash: "sha256:0123abcd",
  functionTools: [
    {
      name: "lookupBook",
      registered: "fn.lookupBook",
      page: "code/lookup-book",
      description: "Find a book by ISBN",
      host: ["http.fetch", "collections.get"],
      fetch: [{ domain: "api.openlibrary.org", fetchMaxBytes: 1048576, fetchTimeoutMs: 10000 }],
      credentials: [{ name: "openlibrary_key", header: "Authorization", domains: ["api.openlibrary.org"] }],
    },
    { name: "bare", registered: "fn.bare", page: "code/bare", host: [], fetch: [], credentials: [] },
  ],
  nativeTools: [{ name: "tg.sendMessage", module: "native/telegram.js", line: "native tool tg.sendMessage (native/telegram.js) in the full-trust lane" }],
};

describe("reviewCardMarkdown", () => {
  it("renders the analysis/review card model", () => {
    assert.equal(
      reviewCardMarkdown(card),
      [
        "# Install review: books 1.2.0",
        "",
        "Source-tree hash: `sha256:0123abcd`",
        "",
        "## Function tools (sandboxed, 2)",
        "",
        "### `fn.lookupBook` — `code/lookup-book`",
        "",
        "Find a book by ISBN",
        "",
        "- host methods: `http.fetch`, `collections.get`",
        "- fetch: `https://api.openlibrary.org` (max 1048576 bytes, 10000 ms)",
        "- credential: `openlibrary_key` into header `Authorization`, sent to `api.openlibrary.org`",
        "",
        "### `fn.bare` — `code/bare`",
        "",
        "- host methods: none (minimal grant)",
        "- fetch: no network",
        "",
        "## Native tools (full trust, 1)",
        "",
        "- native tool tg.sendMessage (native/telegram.js) in the full-trust lane",
        "",
      ].join("\n"),
    );
  });
  it("escapes hostile names and shows problems", () => {
    const md = reviewCardMarkdown({ plugin: "<img src=x>", version: "1", sourceTreeHash: "h`x", problems: ["bad *json*"], functionTools: [], nativeTools: [{ line: "native tool <b>x</b> (m.js) in the full-trust lane" }] });
    assert.ok(!md.includes("<img") && !md.includes("<b>"), md);
    assert.ok(md.includes("``h`x``"), md);
    assert.ok(md.includes("> **Warning:** bad \\*json\\*"), md);
  });
  it("says so when the hash is missing", () => {
    assert.ok(reviewCardMarkdown({ plugin: "p", version: "1", sourceTreeHash: "", functionTools: [], nativeTools: [] }).includes("Source-tree hash: (not computed)\n"));
  });
  it("passes strings through and shows other values as JSON", () => {
    assert.equal(reviewCardMarkdown("# card"), "# card");
    assert.equal(reviewCardMarkdown({ text: "plain" }), "plain");
    assert.equal(reviewCardMarkdown([1]), "```json\n[\n  1\n]\n```\n");
  });
});
