import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildPage, contentSecurityPolicy, makeNonce, type PageOptions } from "../src/page";
import { renderRecord } from "../src/render";
import { fixture } from "./util";

const NONCE = "N0nceN0nceN0nceN0nceN0nceN0nce12";
const CSP_SOURCE = "https://*.vscode-cdn.net";

function page(over: Partial<PageOptions> = {}): string {
  return buildPage({
    cspSource: CSP_SOURCE,
    nonce: NONCE,
    scriptUri: "https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js",
    plugin: "books",
    tool: "lookupBook",
    description: "Find a book by ISBN",
    inputText: `{\n  "isbn": ""\n}`,
    sampleText: `{\n  "isbn": ""\n}`,
    resultHtml: renderRecord(fixture("search-books.record.json")),
    ...over,
  });
}

describe("contentSecurityPolicy", () => {
  it("allows nothing but the nonce'd style and script", () => {
    assert.equal(
      contentSecurityPolicy(CSP_SOURCE, NONCE),
      `default-src 'none'; style-src https://*.vscode-cdn.net 'nonce-${NONCE}'; script-src 'nonce-${NONCE}';`,
    );
  });
});

describe("buildPage", () => {
  it("puts the policy in a meta tag before anything loads", () => {
    const html = page();
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
    assert.ok(meta, "CSP meta present");
    assert.equal(meta![1], contentSecurityPolicy(CSP_SOURCE, NONCE));
    assert.ok(html.indexOf("Content-Security-Policy") < html.indexOf("<style"));
  });
  it("gives every script and style the nonce, and has no inline handlers, style attributes or remote resources", () => {
    const html = page();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    assert.deepEqual(scripts, [`<script nonce="${NONCE}" src="https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js">`]);
    const styles = [...html.matchAll(/<style\b[^>]*>/g)].map((m) => m[0]);
    assert.deepEqual(styles, [`<style nonce="${NONCE}">`]);
    assert.equal(/\son[a-z]+=/i.test(html.replace(/&[a-z#0-9]+;/g, "")), false, "no inline event handlers");
    assert.equal(/<[^>]+\sstyle=/i.test(html), false, "no style attributes (blocked by the CSP)");
    assert.deepEqual([...html.matchAll(/<link\b|<img\b|<iframe\b|<object\b|<embed\b|@import|url\(/gi)].map((m) => m[0]), []);
    const srcs = [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]).filter((v) => v !== "#");
    assert.deepEqual(srcs, ["https://file+.vscode-resource.vscode-cdn.net/ext/dist/webview.js"]);
  });
  it("escapes the tool, plugin, description and input", () => {
    const evil = `</textarea><script>alert(1)</script>`;
    const html = page({ plugin: evil, tool: evil, description: evil, inputText: evil, sampleText: evil, resultHtml: "" });
    assert.equal([...html.matchAll(/<script\b/g)].length, 1);
    assert.equal([...html.matchAll(/<\/textarea>/g)].length, 1);
  });
  it("shows a hint before the first run", () => {
    assert.match(page({ resultHtml: "" }), /<main id="output">\n<p class="empty hint">Edit the input and press <kbd>Run<\/kbd> \(Ctrl\+Enter\)\.<\/p>\n<\/main>/);
  });
  it("refuses a nonce that could break out of the policy", () => {
    assert.throws(() => page({ nonce: "x'; script-src *" }), /nonce/);
  });
});

describe("makeNonce", () => {
  it("makes 32 alphanumeric characters from the random bytes", () => {
    const n = makeNonce((k) => Uint8Array.from({ length: k }, (_, i) => i * 7));
    assert.match(n, /^[A-Za-z0-9]{32}$/);
    assert.notEqual(makeNonce((k) => new Uint8Array(k).fill(1)), makeNonce((k) => new Uint8Array(k).fill(2)));
  });
});
