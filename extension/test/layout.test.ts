// The run panel's layout in headless Chromium at the widths a side panel
// has (400, 500 and 700 px) and wide ones (910 px, just past the switch
// to a table at 900 px, and 960 px): a record with long
// URLs (query strings, a path part with no separator), long credential
// names and a refused fetch whose refusal is the run's error. Nothing may
// stick out of the viewport, the URL gets room for at least
// MIN_URL_CHARS characters per line, and the run's error is shown once.
// A screenshot at 500 px lands in docs/screenshots/run-panel-500.png.

import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { chromium, type Browser } from "playwright-core";
import { buildPage } from "../src/page";
import { renderRecord } from "../src/render";
import { REPO_ROOT, fixture } from "./util";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const NONCE = "Lay0utLay0utLay0utLay0utLay0ut12";
const SCREENSHOT = join(REPO_ROOT, "docs", "screenshots", "run-panel-500.png");
const MIN_URL_CHARS = 28;

interface Measured {
  wrapped: string[];
  scrollWidth: number;
  innerWidth: number;
  overflowing: string[];
  urlChars: number[];
  errorCount: number;
  credsVisible: boolean;
}

describe("run panel layout in headless Chromium", { timeout: 120_000 }, () => {
  let browser: Browser;
  const record = fixture("long-urls.record.json") as { error: { message: string } };
  const html = buildPage({
    cspSource: "http://127.0.0.1",
    nonce: NONCE,
    scriptUri: "about:blank",
    plugin: "books",
    tool: "searchBooks",
    description: "Search books by title and show the first covers",
    inputText: `{\n  "q": "the fellowship of the ring"\n}`,
    sampleText: `{\n  "q": ""\n}`,
    resultHtml: renderRecord(record),
  });

  before(async () => {
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install -y chromium`);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-sync"],
    });
  });
  after(async () => {
    await browser?.close();
  });

  async function measure(width: number, shot?: string): Promise<Measured> {
    const context = await browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: 1 });
    try {
      const page = await context.newPage();
      // The page as the panel builds it; the script is not needed for layout.
      await page.setContent(html, { waitUntil: "load" });
      const m = await page.evaluate((errorMessage) => {
        const vw = window.innerWidth;
        const clips = (e: Element | null): boolean => {
          for (let a = e?.parentElement; a && a !== document.body; a = a.parentElement) {
            const o = getComputedStyle(a).overflowX;
            if (o === "auto" || o === "scroll" || o === "hidden") return true;
          }
          return false;
        };
        const name = (e: Element) => `${e.tagName.toLowerCase()}${e.className ? "." + String(e.className).replace(/\s+/g, ".") : ""}`;
        const overflowing: string[] = [];
        for (const e of Array.from(document.body.querySelectorAll("*"))) {
          const r = e.getBoundingClientRect();
          if (r.width === 0 && r.height === 0) continue;
          if ((r.right > vw + 0.5 || r.left < -0.5) && !clips(e)) overflowing.push(`${name(e)} [${Math.round(r.left)}, ${Math.round(r.right)}]`);
        }
        // One character of the URL's font, to turn the column's width into characters.
        const probe = document.createElement("span");
        probe.textContent = "0".repeat(100);
        const url = document.querySelector("#fetches td.url") as HTMLElement;
        probe.style.font = getComputedStyle(url).font;
        probe.style.position = "absolute";
        document.body.appendChild(probe);
        const ch = probe.getBoundingClientRect().width / 100;
        probe.remove();
        const urlChars = Array.from(document.querySelectorAll("#fetches td.url .url-text")).map((e) => Math.floor((e.parentElement as HTMLElement).clientWidth / ch));
        // The short cells (method, status, sizes, times, source) each keep to one line.
        // The lines a cell's text takes: the distinct bottoms of its text nodes' boxes.
        const lines = (e: Element) => {
          const bottoms = new Set<number>();
          const walk = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
          for (let n = walk.nextNode(); n; n = walk.nextNode()) {
            const range = document.createRange();
            range.selectNodeContents(n);
            for (const r of Array.from(range.getClientRects())) bottoms.add(Math.round(r.bottom));
          }
          return bottoms.size;
        };
        const wrapped = Array.from(document.querySelectorAll("#fetches td.method, #fetches td.status-cell, #fetches td.num, #fetches td.source"))
          .filter((e) => lines(e) > 1)
          .map((e) => `${name(e)}: ${(e as HTMLElement).innerText}`);
        const text = document.body.innerText;
        const creds = Array.from(document.querySelectorAll("#fetches .cred"));
        return {
          wrapped,
          scrollWidth: document.documentElement.scrollWidth,
          innerWidth: vw,
          overflowing,
          urlChars,
          errorCount: text.split(errorMessage).length - 1,
          credsVisible: creds.length > 0 && creds.every((c) => {
            const r = c.getBoundingClientRect();
            return r.width > 0 && r.left >= 0 && r.right <= vw + 0.5;
          }),
        };
      }, record.error.message);
      if (shot) await page.screenshot({ path: shot, fullPage: true });
      return m;
    } finally {
      await context.close();
    }
  }

  for (const width of [400, 500, 700, 910, 960]) {
    it(`fits ${width} px: nothing off-screen, the URL column at least ${MIN_URL_CHARS} characters, the error once`, async () => {
      const shot = width === 500 ? SCREENSHOT : undefined;
      if (shot) mkdirSync(join(REPO_ROOT, "docs", "screenshots"), { recursive: true });
      const m = await measure(width, shot);
      assert.deepEqual(m.overflowing, [], `elements past the ${width} px viewport`);
      assert.ok(m.scrollWidth <= m.innerWidth, `the page scrolls sideways: ${m.scrollWidth} > ${m.innerWidth}`);
      assert.equal(m.urlChars.length, 4);
      for (const n of m.urlChars) assert.ok(n >= MIN_URL_CHARS, `a URL cell holds ${n} characters a line (${m.urlChars.join(", ")})`);
      assert.ok(m.credsVisible, "every credential is inside the viewport");
      assert.deepEqual(m.wrapped, [], "short cells broken over lines");
      assert.equal(m.errorCount, 1, "the run's error is shown once");
      if (shot) {
        const png = readFileSync(shot);
        assert.equal(png.readUInt32BE(16), 500, "500 px wide");
      }
    });
  }

  it("the check can fail: the old layout (a 7-column table, nowrap credentials) overflows at 500 px", async () => {
    const context = await browser.newContext({ viewport: { width: 500, height: 900 }, deviceScaleFactor: 1 });
    try {
      const page = await context.newPage();
      // The same page with the narrow-panel rules and the URL's room taken out.
      await page.setContent(html.replace(/@media \(max-width: 900px\)/, "@media (max-width: 1px)").replace("min-width: 28ch; width: 45%;", "word-break: break-all;").replace("display: inline-block; max-width: 100%;", "white-space: nowrap;"), { waitUntil: "load" });
      const narrowest = await page.evaluate(() => Math.min(...Array.from(document.querySelectorAll("#fetches td.url")).map((e) => (e as HTMLElement).clientWidth)));
      const over = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth || Array.from(document.querySelectorAll("#fetches .cred")).some((c) => c.getBoundingClientRect().right > window.innerWidth));
      assert.ok(over || narrowest < 100, `the old layout fits (narrowest URL cell ${narrowest} px): this test could not fail`);
    } finally {
      await context.close();
    }
  });
});
