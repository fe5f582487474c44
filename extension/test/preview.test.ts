// The preview page rendered in headless Chromium (Debian's chromium), served
// from a loopback server exactly as the panel builds it: the CSP holds, the
// script wires Run / location clicks / results, nothing remote is loaded,
// and a screenshot lands in docs/screenshots/preview.png for the README.

import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import { buildPage } from "../src/page";
import { prefillInput } from "../src/prefill";
import { renderRecord } from "../src/render";
import { EXT_ROOT, REPO_ROOT, fixture } from "./util";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const NONCE = "Zk3pQ9sLw2Xv7Rt5Yb1Nc8Md4Hf6Jg0A";
const SCREENSHOT = join(REPO_ROOT, "docs", "screenshots", "preview.png");

const SEARCH_SCHEMA = {
  type: "object",
  properties: { q: { type: "string" }, limit: { type: "integer" } },
  required: ["q"],
};

interface Observed {
  posted: Array<Record<string, unknown>>;
  violations: string[];
  pwned?: number;
}

describe("preview page in headless Chromium", { timeout: 120_000 }, () => {
  let server: Server;
  let origin: string;
  let browser: Browser;
  let page: Page;
  const requests: string[] = [];
  const pageErrors: string[] = [];
  const consoleErrors: string[] = [];

  before(async () => {
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install -y chromium`);
    const webviewJs = readFileSync(join(EXT_ROOT, "dist", "webview.js"));
    server = createServer((req, res) => {
      requests.push(req.url ?? "");
      if (req.url === "/") {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(
          buildPage({
            cspSource: origin,
            nonce: NONCE,
            scriptUri: `${origin}/webview.js`,
            plugin: "books",
            tool: "searchBooks",
            description: "Search books by title and show the first covers",
            inputText: `{\n  "q": "hobbit",\n  "limit": 2\n}`,
            sampleText: prefillInput(SEARCH_SCHEMA),
            resultHtml: renderRecord(fixture("search-books.record.json")),
          }),
        );
      } else if (req.url === "/webview.js") {
        res.writeHead(200, { "content-type": "text/javascript" });
        res.end(webviewJs);
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"],
    });
    const context = await browser.newContext({ viewport: { width: 960, height: 720 }, deviceScaleFactor: 1 });
    // The webview's host API, and a recorder of CSP violations.
    await context.addInitScript(() => {
      const w = window as unknown as { __obs: Observed; acquireVsCodeApi: () => unknown };
      w.__obs = { posted: [], violations: [] };
      let state: unknown;
      w.acquireVsCodeApi = () => ({
        postMessage: (m: Record<string, unknown>) => w.__obs.posted.push(m),
        getState: () => state,
        setState: (s: unknown) => {
          state = s;
        },
      });
      document.addEventListener("securitypolicyviolation", (e) => w.__obs.violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    page = await context.newPage();
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    page.on("console", (m) => {
      if (m.type() === "error") consoleErrors.push(m.text());
    });
    await page.goto(`${origin}/`);
    await page.waitForLoadState("load");
  });

  after(async () => {
    await browser?.close();
    await new Promise((r) => server?.close(r));
  });

  const observed = () => page.evaluate(() => (window as unknown as { __obs: Observed }).__obs);

  it("renders the result, the fetch log, the logs and the usage", async () => {
    assert.deepEqual(await page.locator("section h2").allTextContents(), ["Result", "Fetches (4)", "Logs (2)", "Usage"]);
    assert.deepEqual(await page.locator("#result tbody tr").count(), 2);
    assert.equal(await page.locator("#result tbody tr").first().locator("td").first().textContent(), "The Hobbit");
    assert.equal(await page.locator("#fetches tbody tr").count(), 4);
    assert.equal(await page.locator("#fetches tr.refused .url-text").textContent(), "https://evil.example.com/steal?d=1");
    assert.equal(await page.locator("#usage meter").count(), 3);
    assert.ok(await page.locator("#run").isVisible());
  });

  it("loads nothing but the page and its nonce'd script, with no CSP violation", async () => {
    const obs = await observed();
    assert.deepEqual(obs.violations, []);
    assert.deepEqual(pageErrors, []);
    assert.deepEqual(consoleErrors, []);
    assert.deepEqual(requests.filter((r) => r !== "/favicon.ico"), ["/", "/webview.js"]);
  });

  it("writes the screenshot for the README", async () => {
    mkdirSync(join(REPO_ROOT, "docs", "screenshots"), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    const png = readFileSync(SCREENSHOT);
    assert.equal(png.subarray(1, 4).toString(), "PNG");
    assert.ok(png.readUInt32BE(16) === 960, "960 px wide");
  });

  it("posts the input on Run and on Ctrl+Enter", async () => {
    await page.locator("#run").click();
    await page.locator("#input").press("Control+Enter");
    const obs = await observed();
    const input = `{\n  "q": "hobbit",\n  "limit": 2\n}`;
    assert.deepEqual(obs.posted, [
      { type: "run", input },
      { type: "run", input },
    ]);
  });

  it("refuses to post input that is not JSON and says why", async () => {
    await page.locator("#input").fill(`{"q": hobbit}`);
    await page.locator("#run").click();
    const obs = await observed();
    assert.equal(obs.posted.length, 2, "nothing new posted");
    assert.match((await page.locator("#state").textContent()) ?? "", /^Input is not JSON: /);
    assert.equal(await page.locator("#input").getAttribute("class"), "invalid");
  });

  it("resets the input to the schema sample", async () => {
    await page.locator("#reset").click();
    assert.equal(await page.locator("#input").inputValue(), `{\n  "q": ""\n}`);
    assert.equal(await page.locator("#state").textContent(), "");
  });

  it("shows a new result and opens .ts locations on click", async () => {
    const html = renderRecord(fixture("thrown.record.json"));
    await page.evaluate(() => window.postMessage({ type: "running" }, "*"));
    await page.waitForFunction(() => (document.getElementById("run") as HTMLButtonElement).disabled);
    await page.evaluate((h) => window.postMessage({ type: "result", html: h }, "*"), html);
    await page.waitForSelector("#error");
    assert.equal(await page.locator("#run").isDisabled(), false);
    assert.equal(await page.locator(".error-head").textContent(), "Error: Open Library answered 404 for ISBN 0000000000");
    await page.locator(".where a.loc").click();
    await page.locator(".stack a.loc").nth(1).click();
    const obs = await observed();
    assert.deepEqual(obs.posted.slice(2), [
      { type: "open", file: "code/lookup-book.ts", line: 18, column: 11 },
      { type: "open", file: "code/lookup-book.ts", line: 13, column: 1 },
    ]);
  });

  it("blocks markup that slipped past the renderer (the CSP is the second wall)", async () => {
    const evil = `<img src="${origin}/evil.png" onerror="window.__obs.pwned = 1"><script>window.__obs.pwned = 2</script><style>body{background:url(${origin}/bg.png)}</style>`;
    await page.evaluate((h) => window.postMessage({ type: "result", html: h }, "*"), evil);
    await page.waitForFunction(() => (window as unknown as { __obs: Observed }).__obs.violations.length > 0);
    await page.waitForTimeout(200); // let a blocked load or handler settle; nothing is asserted on time
    const obs = await observed();
    assert.equal(obs.pwned, undefined);
    assert.ok(obs.violations.some((v) => v.startsWith("img-src") || v.startsWith("default-src")), obs.violations.join("\n"));
    assert.ok(!requests.includes("/evil.png") && !requests.includes("/bg.png"), requests.join(" "));
  });
});
