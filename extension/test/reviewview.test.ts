// The pin review view rendered in headless Chromium (Debian's chromium),
// from a card the real server returned (plugin.reviewCard with approve, on
// a pinned example plugin whose reach then grew): what changed comes first
// and is highlighted, the card follows, Pin and Cancel post what was
// pressed, the CSP holds, nothing is loaded; a screenshot lands in
// docs/screenshots/pin-review.png.

import assert from "node:assert/strict";
import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { createProtocolConnection, ExecuteCommandRequest, type ProtocolConnection, StreamMessageReader, StreamMessageWriter } from "vscode-languageserver-protocol/node";
import { SERVER_COMMANDS } from "../src/commands";
import { buildReviewPage, type ReviewCardReply } from "../src/reviewpage";
import { REPO_ROOT, buildServer } from "./util";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const NONCE = "Rv3pQ9sLw2Xv7Rt5Yb1Nc8Md4Hf6Jg0B";
const SCREENSHOT = join(REPO_ROOT, "docs", "screenshots", "pin-review.png");

interface Observed {
  posted: Array<Record<string, unknown>>;
  violations: string[];
}

describe("the pin review view in headless Chromium", { timeout: 180_000 }, () => {
  let work: string;
  let proc: ChildProcessWithoutNullStreams | undefined;
  let conn: ProtocolConnection | undefined;
  let card: ReviewCardReply;
  let server: Server;
  let origin: string;
  let browser: Browser;
  let page: Page;
  const requests: string[] = [];
  const pageErrors: string[] = [];

  before(async () => {
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install -y chromium`);
    work = mkdtempSync(join(tmpdir(), "plugin-lsp-review-"));
    const binary = buildServer(join(work, "bin", "plugin-lsp"));
    const plugin = join(work, "books");
    cpSync(join(REPO_ROOT, "testdata", "example", "books"), plugin, { recursive: true });
    execFileSync(binary, ["pin", plugin], { stdio: "ignore" });
    // The reach grows after the pin: a fetch domain and a credential's scope.
    const manifestPath = join(plugin, "plugin.json");
    const manifest = readFileSync(manifestPath, "utf8").replace(`"api.openlibrary.org",`, `"api.openlibrary.org", "api.evil-cdn.example",`);
    writeFileSync(manifestPath, manifest);
    writeFileSync(join(plugin, "code", "helper.ts"), "export default () => 1;\n");

    proc = spawn(binary, ["serve"], { cwd: work, stdio: "pipe" });
    conn = createProtocolConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
    conn.onRequest("workspace/configuration", (p: { items: unknown[] }) => p.items.map(() => null));
    conn.onRequest("client/registerCapability", () => null);
    conn.onNotification("textDocument/publishDiagnostics", () => undefined);
    conn.onNotification("window/logMessage", () => undefined);
    conn.listen();
    await conn.sendRequest("initialize", { processId: process.pid, rootUri: pathToFileURL(work).toString(), workspaceFolders: [{ uri: pathToFileURL(work).toString(), name: "work" }], capabilities: {} });
    await conn.sendNotification("initialized", {});
    card = (await conn.sendRequest(ExecuteCommandRequest.type, { command: SERVER_COMMANDS.reviewCard, arguments: [{ dir: pathToFileURL(plugin).toString(), approve: true }] })) as ReviewCardReply;
    assert.equal(typeof card.approval, "string");

    server = createServer((req, res) => {
      requests.push(req.url ?? "");
      if (req.url === "/") {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(buildReviewPage({ cspSource: origin, nonce: NONCE, card }));
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
    const context = await browser.newContext({ viewport: { width: 900, height: 760 }, deviceScaleFactor: 1 });
    await context.addInitScript(() => {
      const w = window as unknown as { __obs: Observed; acquireVsCodeApi: () => unknown };
      w.__obs = { posted: [], violations: [] };
      w.acquireVsCodeApi = () => ({ postMessage: (m: Record<string, unknown>) => w.__obs.posted.push(m), getState: () => undefined, setState: () => undefined });
      document.addEventListener("securitypolicyviolation", (e) => w.__obs.violations.push(`${e.violatedDirective} ${e.blockedURI}`));
    });
    page = await context.newPage();
    page.on("pageerror", (e) => pageErrors.push(String(e)));
    await page.goto(`${origin}/`);
    await page.waitForLoadState("load");
  }, { timeout: 600_000 });

  after(async () => {
    await browser?.close();
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
    if (conn) {
      await Promise.race([conn.sendRequest("shutdown"), new Promise((r) => setTimeout(r, 5000))]).catch(() => undefined);
      await conn.sendNotification("exit").catch(() => undefined);
    }
    proc?.kill();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const observed = () => page.evaluate(() => (window as unknown as { __obs: Observed }).__obs);

  it("shows what changed since the pin first, highlighted", async () => {
    const order = await page.locator("body > section").evaluateAll((els) => els.map((e) => e.id));
    assert.deepEqual(order, ["changes", "card"]);
    assert.equal(await page.locator("#changes h2").textContent(), "What changed since the pin");
    assert.match((await page.locator("#changes h4").textContent()) ?? "", /^Since the pinned snapshot \(sha256:[0-9a-f]{64}\)$/);
    const added = await page.locator("#changes li.added").allTextContents();
    assert.deepEqual(added, ["+ api.evil-cdn.example (fetch, tools lookupBook, searchBooks, saveFavourite)"]);
    assert.equal(await page.locator("#changes").getAttribute("class"), "changes widened");
    // Highlighted: the widened section and its added line are coloured.
    const colour = await page.locator("#changes li.added").evaluate((e) => getComputedStyle(e).color);
    const plain = await page.locator("#card li").first().evaluate((e) => getComputedStyle(e).color);
    assert.notEqual(colour, plain);
    assert.match((await page.locator("#changes li").last().textContent()) ?? "", /^files: ~ plugin\.json, \+ code\/helper\.ts$/);
  });

  it("shows the whole card after it, as the CLI prints it", async () => {
    assert.equal(await page.locator("#card h3").textContent(), "Plugin books 1.2.0");
    const headings = await page.locator("#card h4").allTextContents();
    assert.deepEqual(headings, ["Function tools (sandboxed, 3)", "Native tools (full trust, 2)", "Pages no tool binds (1): run alone, each keeps the minimal grant (no host method, no network)"]);
    const text = (await page.locator("#card").textContent()) ?? "";
    for (const s of ["needsApproval: always", "requires: secrets.read, network.socket", "code/helper.ts", "fetch: https://api.evil-cdn.example (max 1048576 bytes, 10000 ms)"]) {
      assert.ok(text.includes(s), `the card lacks ${s}`);
    }
  });

  it("writes the screenshot", async () => {
    mkdirSync(join(REPO_ROOT, "docs", "screenshots"), { recursive: true });
    // The whole page in one viewport, so the sticky buttons sit where they end up: below the card.
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: 900, height });
    await page.screenshot({ path: SCREENSHOT });
    await page.setViewportSize({ width: 900, height: 760 });
    const png = readFileSync(SCREENSHOT);
    assert.equal(png.subarray(1, 4).toString(), "PNG");
    assert.equal(png.readUInt32BE(16), 900);
  });

  it("keeps Pin and Cancel in view, and posts what was pressed", async () => {
    await page.evaluate(() => window.scrollTo(0, 0));
    assert.ok(await page.locator("#pin").isVisible());
    const box = await page.locator("#actions").boundingBox();
    assert.ok(box && box.y + box.height <= 760 + 0.5, `the buttons are on screen: ${JSON.stringify(box)}`);
    await page.locator("#cancel").click();
    await page.locator("#pin").click();
    assert.ok(await page.locator("#pin").isDisabled(), "Pin cannot be pressed twice");
    assert.equal(await page.locator("#state").textContent(), "Pinning…");
    assert.deepEqual((await observed()).posted, [{ type: "cancel" }, { type: "pin" }]);
    // A refusal from the extension re-enables the buttons and says why.
    await page.evaluate(() => window.postMessage({ type: "failed", message: "the plugin changed" }, "*"));
    await page.waitForFunction(() => !(document.getElementById("pin") as HTMLButtonElement).disabled);
    assert.equal(await page.locator("#state").textContent(), "the plugin changed");
  });

  it("loads nothing but the page, with no CSP violation or error", async () => {
    const obs = await observed();
    assert.deepEqual(obs.violations, []);
    assert.deepEqual(pageErrors, []);
    assert.deepEqual(requests.filter((r) => r !== "/favicon.ico"), ["/"]);
  });
});
