// The extension in real VS Code: code-server (VS Code 1.100 from npm) with
// the built .vsix installed, served on loopback with auth off and a fresh
// profile, driven through Debian's Chromium by playwright-core.
//
// Steps (each leaves a screenshot in extension/e2e/screenshots/; step 9's is
// also docs/screenshots/vscode.png, the README's):
//  1. activation: the server starts on the example and its ▶ Run lenses show;
//  2. the example plugin (manifest and every page open, TypeScript checking
//     them) has ZERO entries in the Problems panel, and a type error typed
//     into a page shows up there (so the zero is not TypeScript sleeping);
//  3. schema completion in plugin.json comes from the contributed schema;
//  4. the lens runs lookupBook into the run panel;
//  5. Show Review Card opens the card's preview and leaves no Untitled editor;
//  6. a broken plugin: the Problems panel holds exactly what
//     `plugin-lsp check` reports (each problem once, no JSON-service double),
//     plus the one TypeScript error planted in it;
//  7. its run panel before the fix: the fetch is refused;
//  8. the quick fix on the page declares the domain; Problems drop to what
//     `check` reports for the fixed plugin;
//  9. the run panel after the fix: the tool returns, and its lens says so;
// 10. the run panel at 500 px: a long URL wraps, nothing off the edge;
// 11. the hover of a manifest tool: reach and last run above the schema;
// 12. pin and re-pin open the review view (changes first), Cancel and Pin;
// 13. a plugin without .plugin/ (types never generated): 0 problems, nothing written;
// 14. exploration: a plugin whose second host only exploration finds
//     (internal/lsp/e2e/testdata/explored): the status bar shows the static
//     problems' count before the explored one's, the Problems panel the
//     explored problem (by its message), and its quick fix clears it.
// N1. a native tool's lens: the panel has the module's inputJsonSchema (from
//     the server), the approval notification's Run runs it, and the panel
//     shows the lane (full trust), the approval and the connections table;
// N2. a native module that opens a connection its requires does not grant
//     (internal/lsp/e2e/testdata/native-reach): after its run,
//     native-reach-at-run in Problems; its quick fix adds the capability and
//     the problem goes.
//
// Needs: Node 20, Debian chromium, the .vsix (npm run package), code-server
// (e2e/install-code-server.sh, cached outside the repository).
// PLUGIN_LSP_E2E_SERVER=<path> sets pluginLsp.serverPath for the run instead
// of the bundled binary: a wrapper script that tees stdin/stdout to files
// shows the LSP traffic when the panel and `check` disagree.

import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const HERE = dirname(fileURLToPath(import.meta.url));
const EXT = join(HERE, "..");
const REPO = join(EXT, "..");
const SHOTS = join(HERE, "screenshots");
const README_SHOT = join(REPO, "docs", "screenshots", "vscode.png"); // README.md and docs/extension.md show it
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const pkg = JSON.parse(readFileSync(join(EXT, "package.json"), "utf8"));
const VSIX = process.env.VSIX || join(EXT, "vsix", `plugin-lsp-${process.platform}-${process.arch}-${pkg.version}.vsix`);
const STEP = 120_000;

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/** Polls fn until it returns a truthy value; fails with the last value seen. */
async function until(what, fn, timeout = STEP) {
  const end = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last) return last;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; last: ${last instanceof Error ? last.message : JSON.stringify(last)}`);
    await sleep(250);
  }
}

/** What `plugin-lsp check --format json` reports for dir: the ground truth the Problems panel must match. */
function checkJSON(binary, dir) {
  let out;
  try {
    out = execFileSync(binary, ["check", "--format", "json", dir], { encoding: "utf8" });
  } catch (e) {
    out = e.stdout; // exit 1 on errors
  }
  return JSON.parse(out);
}

describe("the extension in real VS Code (code-server)", { timeout: 20 * 60_000 }, () => {
  let work, ws, codeServer, server, browser, page, binary, port;
  let serverLog = "";

  const shot = async (name) => {
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `${name}.png`) });
  };

  before(async () => {
    assert.ok(existsSync(VSIX), `${VSIX} is missing: run npm run package first`);
    assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install chromium`);
    const home = execFileSync("bash", [join(HERE, "install-code-server.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })
      .trim()
      .split("\n")
      .pop();
    codeServer = join(home, "out", "node", "entry.js");
    assert.ok(existsSync(codeServer), codeServer);

    work = mkdtempSync(join(tmpdir(), "plugin-lsp-vscode-"));
    rmSync(SHOTS, { recursive: true, force: true });
    binary = join(work, "plugin-lsp");
    execFileSync("go", ["build", "-o", binary, "./cmd/plugin-lsp"], { cwd: REPO, stdio: "inherit" });

    // Two workspaces: the example as shipped, and a broken copy of it.
    ws = { books: join(work, "books"), broken: join(work, "broken") };
    cpSync(join(REPO, "testdata", "example", "books"), ws.books, { recursive: true });
    cpSync(join(REPO, "testdata", "example", "books"), ws.broken, { recursive: true });
    const m = JSON.parse(readFileSync(join(ws.broken, "plugin.json"), "utf8"));
    m.capabilities.fetch = m.capabilities.fetch.filter((f) => f !== "api.openlibrary.org"); // pages fetch it: the broker refuses
    m.tools[2].descripton = m.tools[2].description; // a schema error (unknown key, did-you-mean)
    delete m.tools[2].description;
    writeFileSync(join(ws.broken, "plugin.json"), JSON.stringify(m, null, 2) + "\n");
    const fav = join(ws.broken, "code", "save-favourite.ts");
    // One TypeScript error that plugin-lsp does not see: the TS service must be checking the pages.
    writeFileSync(fav, readFileSync(fav, "utf8").replace("input.note ?? \"\"", "input.note ?? 0 * \"x\""));

    const profile = join(work, "profile");
    const exts = join(work, "extensions");
    mkdirSync(join(profile, "User"), { recursive: true });
    writeFileSync(
      join(profile, "User", "settings.json"),
      JSON.stringify({
        "workbench.startupEditor": "none",
        "workbench.tips.enabled": false,
        "workbench.enableExperiments": false,
        "security.workspace.trust.enabled": false,
        "extensions.autoCheckUpdates": false,
        "extensions.autoUpdate": false,
        "extensions.ignoreRecommendations": true,
        "telemetry.telemetryLevel": "off",
        "update.mode": "none",
        "git.enabled": false,
        "editor.codeLens": true,
        "editor.minimap.enabled": false,
        "window.restoreWindows": "none",
        "files.hotExit": "off",
        "files.autoSave": "off", // VS Code for the Web saves after a delay by default
        "typescript.disableAutomaticTypeAcquisition": true,
        "typescript.tsserver.experimental.enableProjectDiagnostics": false,
        "pluginLsp.serverPath": process.env.PLUGIN_LSP_E2E_SERVER || "",
      }),
    );
    const env = { ...process.env, HOME: work, XDG_DATA_HOME: join(work, "data"), XDG_CONFIG_HOME: join(work, "config") };
    execFileSync(process.execPath, [codeServer, "--user-data-dir", profile, "--extensions-dir", exts, "--install-extension", VSIX], { env, stdio: "inherit" });
    assert.ok(readdirSync(exts).some((d) => d.startsWith("plugin-lsp.plugin-lsp-")), "the .vsix is installed");

    port = await freePort();
    server = spawn(
      process.execPath,
      [
        codeServer,
        "--auth", "none",
        "--bind-addr", `127.0.0.1:${port}`,
        "--user-data-dir", profile,
        "--extensions-dir", exts,
        "--disable-telemetry",
        "--disable-update-check",
        "--disable-workspace-trust",
        "--disable-getting-started-override",
        "--disable-proxy",
        "--ignore-last-opened",
      ],
      { env, stdio: ["ignore", "pipe", "pipe"] },
    );
    server.stdout.on("data", (d) => (serverLog += d));
    server.stderr.on("data", (d) => (serverLog += d));
    await until("code-server listening", () => serverLog.includes("HTTP server listening"), 240_000);

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"],
    });
    page = await browser.newPage({ viewport: { width: 1500, height: 950 } });
    page.setDefaultTimeout(STEP);
    // A focus trace of the workbench: which element took the focus, and
    // when the quick input was shown or hidden. Printed when a quick input
    // does not stay open, so a failure says who took the focus.
    await page.addInitScript(() => {
      const t0 = Date.now();
      const trace = (window.__focusTrace = []);
      const describe = (el) => {
        if (!el || !el.tagName) return String(el);
        const cls = typeof el.className === "string" ? el.className.split(/\s+/).slice(0, 3).join(".") : "";
        return `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}${cls ? "." + cls : ""}`;
      };
      const note = (what) => {
        trace.push(`${Date.now() - t0} ms ${what}`);
        if (trace.length > 300) trace.shift();
      };
      document.addEventListener("focusin", (e) => note(`focus -> ${describe(e.target)}`), true);
      let shown = false;
      let started = false;
      setInterval(() => {
        const w = document.querySelector(".quick-input-widget");
        const now = !!w && w.style.display !== "none";
        if (now !== shown) note(`quick input ${now ? "shown" : "hidden"}`);
        shown = now;
        if (!started && performance.getEntriesByName("code/didStartWorkbench").length) note("workbench restored (code/didStartWorkbench)");
        started ||= performance.getEntriesByName("code/didStartWorkbench").length > 0;
      }, 20);
    });
  });

  after(async () => {
    if (stepTimes.length) console.log(`# real VS Code: wall time per step\n${stepTimes.map((l) => `# ${l}`).join("\n")}`);
    await browser?.close();
    server?.kill();
    if (process.exitCode && serverLog) console.log(serverLog.slice(-4000));
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const openFolder = async (dir) => {
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(dir)}`);
    await page.locator(".monaco-workbench").waitFor({ timeout: STEP });
    await page.locator(".explorer-folders-view, .explorer-viewlet").first().waitFor({ timeout: STEP });
  };

  /**
   * Gives the keyboard back to the workbench before a key that opens a
   * quick input. A quick input closes as soon as it loses the focus, so
   * nothing may take the focus after the key: neither a webview that is
   * still loading (VS Code queues a focus asked of a loading webview and
   * delivers it when the webview has loaded, seconds later on a busy
   * machine), nor an editor that is still opening (a click on a tab opens
   * its editor again, and the editor takes the focus when the open
   * completes). So: wait for every webview to have loaded, then move the
   * focus with DOM focus() (synchronous; no editor open is started), and
   * check that it is there.
   */
  const focusWorkbench = async () => {
    if (await page.locator(".quick-input-widget:visible").count()) await page.keyboard.press("Escape");
    await until("every webview loaded (a queued focus delivered)", async () => (await page.locator("iframe.webview:not(.ready)").count()) === 0);
    const targets = [
      ".editor-group-container.active .monaco-editor textarea.inputarea",
      ".editor-group-container .monaco-editor textarea.inputarea",
      ".markers-panel .monaco-list",
      ".editor-group-container.active",
    ];
    for (const sel of targets) {
      const el = page.locator(sel).filter({ visible: true }).first();
      if (!(await el.count())) continue;
      await el.focus();
      await until(`the focus on ${sel}`, () => el.evaluate((e) => e === document.activeElement || e.contains(document.activeElement)), 10_000);
      return;
    }
  };

  /** The focus trace since the page loaded (see addInitScript above). */
  const focusTrace = async () => (await page.evaluate(() => window.__focusTrace ?? []).catch(() => [])).join("\n");

  /**
   * Opens the quick input with key (F1, Control+P), types text into it and
   * returns its input. A key pressed while a webview (the run panel) holds
   * the focus may not reach the workbench: then the focus is moved to the
   * side bar or the editor area and the key pressed again.
   */
  const quickInput = async (key, text) => {
    const input = page.locator(".quick-input-widget .quick-input-box input");
    for (let attempt = 1; ; attempt++) {
      await focusWorkbench();
      await page.keyboard.press(key);
      try {
        await input.waitFor({ timeout: 30_000 });
        await until("the quick input's focus", () => input.evaluate((e) => e === document.activeElement), 10_000);
        await input.fill(text, { timeout: 10_000 });
        return input;
      } catch (e) {
        // Something took the focus after the key: the trace says what.
        // Retried (at most twice), and said, so that a new thief shows up
        // in the log instead of as a rare failure.
        const why = `${key} then "${text}": ${e.message.split("\n")[0]}; focus trace:\n${await focusTrace()}`;
        if (attempt >= 3) throw new Error(`the quick input did not keep the focus (${why})`);
        console.log(`# quick input retry ${attempt}: ${why}`);
      }
    }
  };

  /** Runs a palette command by its title. */
  const palette = async (title) => {
    await quickInput("F1", `>${title}`);
    const row = page.locator(".quick-input-list .monaco-list-row", { hasText: title }).first();
    try {
      await row.waitFor({ timeout: 30_000 });
    } catch (e) {
      await page.keyboard.press("Escape");
      throw e;
    }
    await row.click();
    await page.locator(".quick-input-widget").waitFor({ state: "hidden" });
  };

  /** Opens a workspace file by its relative path (Quick Open). */
  const openFile = async (rel) => {
    const base = rel.split("/").pop().split(":")[0];
    // The row whose file name is exactly base: "plugin.json" also matches
    // .plugin/fixtures.schema.json fuzzily, and may be listed first.
    const exact = new RegExp("^" + base.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + "$");
    const active = page.locator(`.tab.active[data-resource-name="${base}"]`).first();
    for (let attempt = 1; ; attempt++) {
      await quickInput("Control+P", rel);
      const rows = page.locator(".quick-input-list .monaco-list-row");
      const row = rows.filter({ has: page.locator(".label-name", { hasText: exact }) }).first();
      await row.waitFor({ timeout: STEP }); // the first file search of a workspace is slow on a loaded machine
      // The list is filled twice (recently opened, then the file search)
      // and reuses its row elements: a click while it changes lands on
      // whatever file the row shows by then. Click once it stays still.
      let seen = "";
      let still = 0;
      await until("the Quick Open list to stay still", async () => {
        const now = (await rows.allInnerTexts()).join("|");
        still = now === seen ? still + 1 : 0;
        seen = now;
        return still >= 3;
      }, 30_000);
      await row.click();
      await page.locator(".quick-input-widget").waitFor({ state: "hidden" });
      try {
        await active.waitFor({ timeout: attempt < 3 ? 20_000 : STEP });
        break;
      } catch (e) {
        if (attempt >= 3) throw e;
        console.log(`# openFile ${rel}: attempt ${attempt} left another editor active; Quick Open again`);
      }
    }
    await page.locator(".monaco-editor .view-lines").first().waitFor();
    // The open is complete when its editor has taken the focus: until then
    // that focus is still to come, and would close the next quick input.
    await page.locator(".editor-group-container.active .monaco-editor.focused").first().waitFor();
    // "file:line:col" of a file that is already open: its tab is active and
    // focused at once, and the cursor moves a moment later (seconds on a
    // loaded machine). A key pressed before that (Ctrl+. for a quick fix)
    // acts at the old position: wait for the status bar's "Ln 8, Col 3".
    const at = rel.match(/:(\d+)(?::(\d+))?$/);
    if (at) {
      const want = new RegExp(`^Ln ${at[1]}, Col ${at[2] ?? 1}\\b`);
      const sel = page.locator("#status\\.editor\\.selection").first();
      const cursor = async () => ((await sel.innerText().catch(() => "")) ?? "").trim();
      const first = await cursor();
      const t0 = Date.now();
      await until(`the cursor at ${at[1]}:${at[2] ?? 1}`, async () => want.test(await cursor()), STEP);
      if (!want.test(first)) console.log(`# openFile ${rel}: the editor had the focus with the cursor at "${first}"; at ${at[1]}:${at[2] ?? 1} ${Date.now() - t0} ms later`);
    }
  };

  /**
   * Opens the quick fix menu at the cursor and applies the fix whose
   * title contains title, chosen with the keyboard as people do (the menu
   * sits under a pointer block). shown runs while the menu is open.
   */
  const applyQuickFix = async (title, shown) => {
    await page.keyboard.press("Control+.");
    const rows = page.locator(".action-widget .monaco-list-row.action");
    const fix = rows.filter({ hasText: title }).first();
    await fix.waitFor({ timeout: STEP });
    if (shown) await shown();
    const label = await fix.getAttribute("aria-label");
    const focused = async () => (await rows.evaluateAll((els) => els.filter((e) => e.classList.contains("focused")).map((e) => e.getAttribute("aria-label"))))[0];
    for (let i = 0; i < 10 && (await focused()) !== label; i++) await page.keyboard.press("ArrowDown");
    assert.equal(await focused(), label);
    await page.keyboard.press("Enter");
    await page.locator(".action-widget").waitFor({ state: "hidden" });
  };

  /** The Problems panel's entries: one row per problem, file rows left out. */
  const problems = async () => {
    const rows = page.locator(".markers-panel .monaco-list-row");
    const labels = await rows.evaluateAll((els) => els.map((e) => ({ label: e.getAttribute("aria-label") ?? "", level: e.getAttribute("aria-level") })));
    return labels.filter((r) => / generated by \S+$/.test(r.label)).map((r) => r.label);
  };

  /** The error and warning counts of the status bar's problems item. */
  const problemCount = async () => {
    const label = await page.locator("#status\\.problems").first().getAttribute("aria-label");
    const nums = (label ?? "").match(/\d+/g)?.map(Number) ?? [];
    return nums.reduce((a, b) => a + b, 0);
  };

  /** Waits until some webview (run panel, Markdown preview) shows text that ok() accepts. */
  const webviewShows = (what, ok) =>
    until(what, async () => {
      for (const f of page.frames()) {
        const text = await f.locator("body").innerText().catch(() => "");
        if (ok(text)) return true;
      }
      return false;
    });

  /** What `plugin-lsp run` returns for lookupBook: the value the run panel must show. */
  const lookupValue = (dir) => {
    let out;
    try {
      out = execFileSync(binary, ["run", "--input", '{"isbn":"9780261103344"}', dir, "lookupBook"], { encoding: "utf8" });
    } catch (e) {
      out = e.stdout;
    }
    return JSON.parse(out);
  };

  /** Waits until the Problems panel and the status bar both count n problems; returns the panel's entries. */
  const waitProblems = async (n) => {
    let seen = [];
    try {
      await until(`${n} problems`, async () => {
        seen = await problems();
        return seen.length === n && (await problemCount()) === n;
      });
    } catch (e) {
      await shot(`failed-${n}-problems`);
      throw new Error(`${e.message}\nthe Problems panel (${await problemCount()} in the status bar):\n${seen.join("\n")}`);
    }
    return seen;
  };

  const showProblems = async () => {
    await palette("View: Focus Problems");
    await page.locator(".markers-panel").waitFor();
    if (!(await page.locator(".monaco-workbench .part.panel.maximized, .monaco-workbench.maximized-panel").count())) {
      await palette("View: Toggle Maximized Panel").catch(() => undefined);
    }
  };
  const hideProblems = async () => {
    if (!(await page.locator(".markers-panel:visible").count())) return;
    // "Hide Panel" since VS Code 1.7x, "Close Panel" before.
    await palette("View: Hide Panel").catch(() => palette("View: Close Panel"));
  };

  /** Reverts the active editor to the file on disk; done when its syntax errors are gone from the Problems count. */
  const revertUntilClean = async () => {
    for (let i = 0; i < 3; i++) {
      await palette("File: Revert File");
      try {
        await until("the reverted file's problems to go", async () => (await problemCount()) === 0, 20_000);
        return;
      } catch {
        // the palette lost the race with the editor's focus: again
      }
    }
    assert.fail(`File: Revert File did not restore the file (${await problemCount()} problems)`);
  };

  /** A step that leaves a screenshot of the screen it failed on. */
  const stepTimes = [];
  const step = (name, fn) =>
    it(name, async () => {
      const t0 = Date.now();
      try {
        await fn();
        stepTimes.push(`${String(((Date.now() - t0) / 1000).toFixed(1)).padStart(6)} s  ${name}`);
        if (process.env.PLUGIN_LSP_E2E_TRACE) console.log(`# focus trace after ${name}:\n${await focusTrace()}`);
      } catch (e) {
        stepTimes.push(`${String(((Date.now() - t0) / 1000).toFixed(1)).padStart(6)} s  ${name} (failed)`);
        await shot(`failed-${name.split(".")[0]}`).catch(() => undefined);
        throw e;
      }
    });

  step("1. activates on the example and shows the ▶ Run lenses", async () => {
    await openFolder(ws.books);
    await openFile("plugin.json");
    await page.locator(".codelens-decoration", { hasText: "▶ Run lookupBook" }).waitFor({ timeout: STEP });
    await shot("1-activation-lenses");
  });

  step("2. the example plugin has zero problems, with TypeScript checking its pages", async () => {
    for (const rel of ["code/lookup-book.ts", "code/search-books.ts", "code/save-favourite.ts", "fixtures.json"]) await openFile(rel);
    await showProblems();
    // Positive control: a type error written into a page reaches the panel...
    await openFile("code/save-favourite.ts");
    const fav = join(ws.books, "code", "save-favourite.ts");
    const original = readFileSync(fav, "utf8");
    writeFileSync(fav, original + 'const planted: number = "not a number";\n');
    await until("the planted TypeScript error in Problems", async () => (await problems()).some((p) => p.includes("not assignable")));
    writeFileSync(fav, original);
    // ...and with it gone, nothing is left: no ts(2304) on http, no JSON-service double.
    await waitProblems(0);
    await sleep(3000);
    assert.deepEqual(await problems(), []);
    assert.equal(await problemCount(), 0);
    await shot("2-example-zero-problems");
    await hideProblems();
  });

  step("3. completes plugin.json keys from the manifest schema; a syntax error is reported once", async () => {
    await openFile("plugin.json");
    await page.locator(".monaco-editor .view-lines").first().click();
    await page.keyboard.press("Control+Home");
    await page.keyboard.press("End"); // after {
    await page.keyboard.press("Enter");
    await page.keyboard.type('"');
    await page.keyboard.press("Control+Space");
    const suggest = page.locator(".suggest-widget .monaco-list-row");
    await until("schema completion", async () => (await suggest.allInnerTexts()).some((t) => t.includes("description")));
    const items = await suggest.allInnerTexts();
    assert.ok(items.some((t) => t.includes("description")), items.join(" | "));
    await shot("3a-schema-completion");
    await page.keyboard.press("Escape");
    // The half-typed key is a syntax error: VS Code's JSON service reports it, plugin-lsp's copy is dropped.
    await showProblems();
    const got = await until("the JSON service's syntax errors", async () => {
      const p = await problems();
      return p.length > 0 && p;
    });
    await sleep(3000); // plugin-lsp's debounced re-check has answered by now
    assert.deepEqual(await problems(), got);
    assert.deepEqual(got.filter((p) => !p.endsWith("generated by json")), [], "only the JSON service reports the syntax error");
    await shot("3b-syntax-error-once");
    await hideProblems();
    await revertUntilClean();
    await page.locator(".codelens-decoration", { hasText: "▶ Run lookupBook" }).waitFor();
  });

  step("4. the ▶ Run lens runs lookupBook into the run panel", async () => {
    await page.locator(".codelens-decoration a", { hasText: "▶ Run lookupBook" }).first().click();
    const record = lookupValue(ws.books);
    assert.equal(record.ok, true, JSON.stringify(record));
    await webviewShows(`the run panel showing ${record.result.value}`, (t) => t.includes(String(record.result.value)));
    await shot("4-run-panel");
  });

  step("5. Show Review Card previews the card and leaves no Untitled editor", async () => {
    await openFile("plugin.json");
    await palette("Plugin: Show Review Card");
    await webviewShows("the review card preview", (t) => t.includes("Plugin books 1.2.0") && t.includes("Native tools (full trust, 2)"));
    const tabs = await page.locator(".tab").evaluateAll((els) => els.map((e) => e.getAttribute("aria-label") ?? ""));
    assert.deepEqual(tabs.filter((t) => t.startsWith("Untitled")), [], tabs.join(" | "));
    await shot("5-review-card");
  });

  let brokenExpected;
  step("6. a broken plugin: each problem once, as plugin-lsp check reports it", async () => {
    brokenExpected = checkJSON(binary, ws.broken);
    assert.ok(brokenExpected.length >= 4, JSON.stringify(brokenExpected));
    await openFolder(ws.broken);
    for (const rel of ["code/lookup-book.ts", "code/search-books.ts", "code/save-favourite.ts", "plugin.json"]) await openFile(rel);
    await showProblems();
    const want = brokenExpected.length + 1; // + the planted TypeScript error
    await waitProblems(want);
    await sleep(3000);
    const got = await problems();
    assert.equal(got.length, want, got.join("\n"));
    // Each problem of `check` once, by message and line: no second report from the JSON service.
    for (const d of brokenExpected) {
      const where = `${d.message} at line ${d.range.start.line + 1} and character ${d.range.start.character + 1}`;
      assert.equal(got.filter((p) => p.includes(where)).length, 1, `once: ${where}\n${got.join("\n")}`);
    }
    assert.equal(got.filter((p) => p.endsWith("generated by plugin-lsp")).length, brokenExpected.length);
    assert.equal(got.filter((p) => /ts\(|2362|arithmetic/i.test(p)).length, 1, got.join("\n"));
    await shot("6-broken-problems");
    await hideProblems();
  });

  step("7. before the fix, the run panel shows the refused fetch", async () => {
    await openFile("code/lookup-book.ts");
    await page.locator(".codelens-decoration a", { hasText: "Run lookupBook" }).first().click();
    const record = lookupValue(ws.broken);
    assert.equal(record.ok, false, JSON.stringify(record));
    await webviewShows("the refusal in the run panel", (t) => t.includes(record.error.message));
    await shot("7-run-before-fix");
  });

  step("8. the quick fix declares the domain and the problems go", async () => {
    await openFile("code/lookup-book.ts:16:30");
    await applyQuickFix("capabilities.fetch", () => shot("8a-quick-fix-menu"));
    await palette("File: Save All");
    // The ground truth is read again at every look, and taken only when two
    // reads in a row agree: the save and the server's refresh of the
    // generated types that follows it write files while check reads them,
    // and one read taken in the middle was once a state that never
    // settled in the editor (8 diagnostics where 1 was left).
    await showProblems();
    let fixed = [];
    await until("the Problems panel to agree with check after the fix", async () => {
      const now = checkJSON(binary, ws.broken);
      // a half-written file (the save in progress) reads as a syntax error: not yet
      const settled = !now.some((d) => d.code === "manifest-syntax" || /empty document/.test(d.message)) && now.length < brokenExpected.length;
      const stable = settled && JSON.stringify(now) === JSON.stringify(fixed);
      fixed = now;
      return stable && (await problemCount()) === now.length + 1; // + the planted TypeScript error
    });
    const got = await problems();
    for (const d of fixed) assert.ok(got.some((p) => p.includes(d.message)), `${d.message} in\n${got.join("\n")}`);
    assert.ok(!got.some((p) => p.includes("not in capabilities.fetch")), got.join("\n"));
    await shot("8b-after-quick-fix");
    await hideProblems();
  });

  step("9. after the fix, the run panel shows the result", async () => {
    await openFile("code/lookup-book.ts");
    // The refused run's lens says it is from before the fix: "⟳ Run again (plugin.json changed since: ✗ …)".
    await page.locator(".codelens-decoration", { hasText: "plugin.json changed since" }).first().waitFor({ timeout: STEP });
    await page.locator(".codelens-decoration a", { hasText: "Run again" }).first().click(); // the lens now shows the last run
    const record = lookupValue(ws.broken);
    assert.equal(record.ok, true, `the fixed plugin runs: ${JSON.stringify(record)}`);
    await webviewShows(`the run panel showing ${record.result.value}`, (t) => t.includes(String(record.result.value)) && !t.includes("fetch refused"));
    // The lens follows the run: the refused run's "✗" gives way to "✓ <result>".
    const lens = page.locator(".codelens-decoration", { hasText: "✓" }).first();
    await lens.waitFor({ timeout: STEP });
    assert.ok((await lens.innerText()).includes(String(record.result.value)), await lens.innerText());
    assert.equal(await page.locator(".codelens-decoration", { hasText: "✗" }).count(), 0, "the lens still shows the refused run");
    await shot("9-run-after-fix");
    // The README's screenshot is this screen.
    mkdirSync(dirname(README_SHOT), { recursive: true });
    await page.screenshot({ path: README_SHOT });
  });

  step("10. the run panel at 500 px: a long URL wraps, nothing runs off the edge", async () => {
    // searchBooks with a long title: its fetch URL (no fixture answers it)
    // is the longest line the panel shows.
    await hideProblems(); // a failed step before may have left the panel over the editor
    await openFile("plugin.json");
    await page.locator(".codelens-decoration a", { hasText: "Run searchBooks" }).first().click();
    const q = "the lord of the rings the fellowship of the ring fiftieth anniversary illustrated edition with maps";
    const panel = await until("the searchBooks panel", async () => {
      for (const f of page.frames()) {
        if ((await f.locator("textarea#input").count().catch(() => 0)) && (await f.locator("body").innerText().catch(() => "")).includes("fn.searchBooks")) return f;
      }
      return false;
    });
    await panel.locator("textarea#input").fill(JSON.stringify({ q, limit: 3 }, null, 2));
    await panel.locator("button#run").click();
    await until("the long URL in the panel", async () => (await panel.locator("body").innerText()).includes("search.json?q=the%20lord"));
    // Make the panel's webview 500 px wide by narrowing the window (the
    // panel is the right half of the editors).
    const frame = page.locator("iframe.webview.ready").last();
    for (let i = 0; i < 4; i++) {
      const box = await frame.boundingBox();
      assert.ok(box, "the run panel's webview");
      if (Math.abs(box.width - 500) <= 8) break;
      const vp = page.viewportSize();
      await page.setViewportSize({ width: Math.round(vp.width - (box.width - 500) * 2), height: vp.height });
      await sleep(500);
    }
    const width = (await frame.boundingBox()).width;
    assert.ok(Math.abs(width - 500) <= 8, `the run panel is ${width} px wide`);
    // Inside the panel's own document: no sideways scroll, every element within the width.
    const measured = await until("the run panel laid out at 500 px", () =>
      panel.evaluate(() => {
        const w = document.documentElement.clientWidth;
        if (w > 520) return null;
        const over = [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > w + 1).map((e) => `${e.tagName}.${e.className}`);
        return { w, scroll: document.documentElement.scrollWidth, over };
      }),
    );
    assert.ok(measured.scroll <= measured.w + 1, `the panel scrolls sideways: ${JSON.stringify(measured)}`);
    assert.deepEqual(measured.over, [], `elements past the panel's edge: ${JSON.stringify(measured)}`);
    await shot("10-run-panel-500px");
    await page.setViewportSize({ width: 1500, height: 950 });
  });

  step("11. the hover of a manifest tool: reach and last run first, the schema last", async () => {
    await openFile("plugin.json");
    const editor = page.locator(".editor-group-container.active .monaco-editor .view-lines");
    const name = editor.locator("span", { hasText: /^"lookupBook"$/ }).first();
    await name.waitFor();
    let text = "";
    await until("the tool's hover", async () => {
      await name.hover();
      const hovers = page.locator(".monaco-hover:visible .hover-contents, .monaco-hover:visible .rendered-markdown");
      text = (await hovers.allInnerTexts()).join("\n");
      return text.includes("fn.lookupBook") && text.includes("Input schema");
    });
    const at = (w) => text.indexOf(w);
    assert.ok(at("api.openlibrary.org") >= 0 && at("api.openlibrary.org") < at("Input schema"), `reach before the schema:\n${text}`);
    assert.ok(/The Hobbit|Last run|✓/.test(text.slice(0, at("Input schema"))), `the last run before the schema:\n${text}`);
    // Shot once the hover has faded in.
    await until("the hover opaque", () => page.locator(".monaco-hover:visible").first().evaluate((e) => getComputedStyle(e).opacity === "1"));
    await shot("11-manifest-hover");
    await page.keyboard.press("Escape");
  });

  /** The frame of the pin review view once it shows text that ok() accepts. */
  const reviewView = (what, ok) =>
    until(what, async () => {
      for (const f of page.frames()) {
        if (!(await f.locator("button#pin").count().catch(() => 0))) continue;
        const text = await f.locator("body").innerText().catch(() => "");
        if (ok(text)) return f;
      }
      return false;
    });

  step("12. pin and re-pin open the review view: changes first, Pin and Cancel", async () => {
    const lock = join(ws.broken, "plugin.lock.json");
    assert.ok(!existsSync(lock), "the broken copy starts unpinned");
    await openFile("plugin.json");
    // A first pin from the palette; Cancel writes nothing.
    await palette("Plugin: Pin Capability Snapshot");
    let view = await reviewView("the first pin's review view", (t) => t.includes("First pin") && t.includes("Plugin books 1.2.0"));
    await view.locator("button#cancel").click();
    const viewOpen = async () => {
      for (const f of page.frames()) if (await f.locator("button#pin").count().catch(() => 0)) return true;
      return false;
    };
    await until("Cancel to close the review view", async () => !(await viewOpen()));
    assert.ok(!existsSync(lock), "Cancel wrote plugin.lock.json");
    // Pin writes it.
    await palette("Plugin: Pin Capability Snapshot");
    view = await reviewView("the first pin's review view again", (t) => t.includes("First pin"));
    await view.locator("button#pin").click();
    await until("plugin.lock.json written by Pin", () => existsSync(lock));
    // Widen the reach on disk: the re-pin's view leads with the new domain.
    const m = JSON.parse(readFileSync(join(ws.broken, "plugin.json"), "utf8"));
    m.capabilities.fetch.push("api.evil-cdn.example");
    writeFileSync(join(ws.broken, "plugin.json"), JSON.stringify(m, null, 2) + "\n");
    await until("snapshot-widened reported by check", () => checkJSON(binary, ws.broken).some((d) => d.code === "snapshot-widened"));
    await palette("Plugin: Pin Capability Snapshot");
    view = await reviewView("the re-pin's review view", (t) => t.includes("What changed since the pin") && t.includes("api.evil-cdn.example"));
    const order = await view.evaluate(() => {
      const changes = document.querySelector("#changes");
      const added = [...document.querySelectorAll("#changes li.added")].map((li) => li.textContent);
      const card = [...document.querySelectorAll(".card-section")][0];
      return { changesFirst: !!changes && !!card && (changes.compareDocumentPosition(card) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0, added };
    });
    assert.ok(order.changesFirst, "the changes come before the card");
    assert.ok(order.added.some((a) => a.includes("api.evil-cdn.example")), `the new domain highlighted as added: ${JSON.stringify(order.added)}`);
    await shot("12-pin-review-view");
    mkdirSync(join(REPO, "docs", "screenshots"), { recursive: true });
    await page.screenshot({ path: join(REPO, "docs", "screenshots", "vscode-pin-review.png") });
    const before = readFileSync(lock, "utf8");
    await view.locator("button#pin").click();
    await until("the re-pin written", () => readFileSync(lock, "utf8") !== before);
    await until("snapshot-widened gone", () => !checkJSON(binary, ws.broken).some((d) => d.code === "snapshot-widened"));
  });

  step("13. a plugin that never ran plugin-lsp types: 0 problems, nothing written into it", async () => {
    // The example without .plugin/: the extension's TypeScript server plugin
    // gives its pages the host API (plugin-lsp types --stdout, kept outside
    // the plugin).
    const bare = join(work, "bare");
    cpSync(join(REPO, "testdata", "example", "books"), bare, { recursive: true });
    rmSync(join(bare, ".plugin"), { recursive: true, force: true });
    const listing = (dir) => {
      const out = [];
      const walk = (d) => {
        for (const e of readdirSync(d, { withFileTypes: true })) {
          const p = join(d, e.name);
          if (e.isDirectory()) walk(p);
          else out.push(`${p.slice(dir.length)} ${readFileSync(p).toString("base64")}`);
        }
      };
      walk(dir);
      return out.sort().join("\n");
    };
    const before = listing(bare);
    await openFolder(bare);
    for (const rel of ["code/lookup-book.ts", "code/search-books.ts", "code/save-favourite.ts"]) await openFile(rel);
    // Positive control: the declarations arrived (not TypeScript still starting).
    await openFile("code/lookup-book.ts");
    const http = page.locator(".editor-group-container.active .monaco-editor .view-lines span", { hasText: /^http$/ }).first();
    await until("the host API's types on http.fetch", async () => {
      await http.hover();
      const text = (await page.locator(".monaco-hover:visible").allInnerTexts()).join("\n");
      return /fetch\(input: string \| URL \| Request/.test(text);
    });
    await page.keyboard.press("Escape");
    await showProblems();
    await waitProblems(0);
    await sleep(3000);
    assert.deepEqual(await problems(), []);
    assert.equal(await problemCount(), 0);
    await shot("13-no-plugin-dir-zero-problems");
    mkdirSync(join(REPO, "docs", "screenshots"), { recursive: true });
    await page.screenshot({ path: join(REPO, "docs", "screenshots", "vscode-no-types-zero-problems.png") });
    await hideProblems();
    assert.ok(!existsSync(join(bare, ".plugin")), "opening the plugin wrote .plugin/");
    assert.equal(listing(bare), before, "opening the plugin changed its files");
  });

  // Exploration (issue 29), its own plugin and helpers: the page of
  // internal/lsp/e2e/testdata/explored fetches status.example.net written
  // out (static analysis reports it) and mirror.example.org from a Map
  // registry through an injected function (only exploration, which runs
  // the tool in the sandbox, reaches it).
  const EXPLORED_RE = /mirror\.example\.org is not in capabilities\.fetch: .*\(exploring tool mirror, reached with input \{.*\}\)/;
  const STATIC_RE = /status\.example\.net is not in capabilities\.fetch: the broker refuses this request/;

  step("14. exploration: the explored problem arrives after the static ones; its quick fix clears it", async () => {
    const dir = join(work, "explored");
    cpSync(join(REPO, "internal", "lsp", "e2e", "testdata", "explored"), dir, { recursive: true });
    // The ground truth: check without and with exploration.
    const noExplore = (() => {
      try {
        return JSON.parse(execFileSync(binary, ["check", "--no-explore", "--format", "json", dir], { encoding: "utf8" }));
      } catch (e) {
        return JSON.parse(e.stdout);
      }
    })();
    const explored = checkJSON(binary, dir);
    assert.equal(explored.filter((d) => EXPLORED_RE.test(d.message)).length, 1, JSON.stringify(explored));
    assert.equal(noExplore.filter((d) => EXPLORED_RE.test(d.message)).length, 0, JSON.stringify(noExplore));
    assert.equal(explored.length, noExplore.length + 1);
    // Every count the status bar's problems item shows, from the page's
    // load on: the server publishes the static diagnostics, then the
    // explored ones, so the static count is shown before the explored one.
    await page.addInitScript(() => {
      const seen = (window.__problemCounts = []);
      const look = () => {
        const label = document.querySelector("#status\\.problems")?.getAttribute("aria-label");
        if (label == null) return;
        const n = (label.match(/\d+/g) ?? []).map(Number).reduce((a, b) => a + b, 0);
        if (seen[seen.length - 1] !== n) seen.push(n);
      };
      new MutationObserver(look).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-label"] });
    });
    await openFolder(dir);
    await openFile("plugin.json");
    await openFile("code/mirror.ts");
    await showProblems();
    const got = await waitProblems(explored.length);
    assert.equal(got.filter((p) => EXPLORED_RE.test(p)).length, 1, got.join("\n"));
    assert.equal(got.filter((p) => STATIC_RE.test(p)).length, 1, got.join("\n"));
    assert.equal(got.filter((p) => p.endsWith("generated by plugin-lsp")).length, explored.length, got.join("\n"));
    const counts = await page.evaluate(() => window.__problemCounts);
    console.log(`# 14. the problem counts the status bar showed, in order: ${JSON.stringify(counts)} (static ${noExplore.length}, explored ${explored.length})`);
    const first = counts.indexOf(noExplore.length);
    const firstExplored = counts.indexOf(explored.length);
    assert.ok(first >= 0 && firstExplored > first, `the static count (${noExplore.length}) shown before the explored one (${explored.length}): ${JSON.stringify(counts)}`);
    await shot("14a-explored-problem");
    await hideProblems();
    // The quick fix at the explored diagnostic (the injected function's call).
    const d = explored.find((x) => EXPLORED_RE.test(x.message));
    await openFile(`code/mirror.ts:${d.range.start.line + 1}:${d.range.start.character + 1}`);
    await applyQuickFix('Add "mirror.example.org" to capabilities.fetch');
    await palette("File: Save All");
    await until("plugin.json to declare mirror.example.org", () => JSON.parse(readFileSync(join(dir, "plugin.json"), "utf8")).capabilities.fetch.includes("mirror.example.org"));
    const fixed = checkJSON(binary, dir);
    assert.equal(fixed.filter((x) => EXPLORED_RE.test(x.message)).length, 0, JSON.stringify(fixed));
    await showProblems();
    const after = await waitProblems(fixed.length);
    assert.equal(after.filter((p) => EXPLORED_RE.test(p)).length, 0, after.join("\n"));
    assert.equal(after.filter((p) => STATIC_RE.test(p)).length, 1, `the static problem stays:\n${after.join("\n")}`);
    await shot("14b-explored-fixed");
    await hideProblems();
  });

  // ---------- the native lane (N1, N2): own copies, own helpers ----------

  /** A fresh copy of a plugin folder of the repository, for the native steps. */
  const nativeCopy = (from, name) => {
    const dir = join(work, name);
    cpSync(join(REPO, from), dir, { recursive: true });
    return dir;
  };

  /**
   * Answers the server's window/showMessageRequest "Run <tool> (<module>,
   * sha256:…) with full authority on this machine?" with its Run button:
   * in the toast, or in the notification center once the toast has hidden
   * itself (the question stays pending there).
   */
  const approveNative = async (tool, module) => {
    const message = new RegExp(`^Run ${tool.replace(/\./g, "\\.")} \\(${module.replace(/[./]/g, "\\$&")}, sha256:[0-9a-f]{64}\\) with full authority on this machine\\?$`);
    const item = page.locator(".notification-list-item").filter({ has: page.locator(".notification-list-item-message", { hasText: "with full authority on this machine?" }) });
    const center = page.locator(".notifications-center.visible");
    await until(`the approval question for ${tool}`, async () => {
      if (!(await item.filter({ visible: true }).count())) {
        // Not (or no longer) a toast: the notification center lists it.
        const toasts = await page.locator(".notifications-toasts .notification-list-item").filter({ visible: true }).count();
        if (!toasts && !(await center.count())) await palette("Notifications: Show Notifications");
        return false;
      }
      const shown = item.filter({ visible: true }).first();
      const text = (await shown.locator(".notification-list-item-message").innerText()).trim();
      assert.match(text, message);
      const buttons = await shown.locator(".notification-list-item-buttons-container .monaco-button").allInnerTexts();
      assert.deepEqual(buttons.map((b) => b.trim()), ["Run", "Cancel"]);
      await shown.locator(".notification-list-item-buttons-container .monaco-button", { hasText: /^Run$/ }).click();
      return true;
    });
    await until("the approval question answered", async () => (await item.filter({ visible: true }).count()) === 0);
    // The center, if it was opened, closed by its own header button (not the
    // palette: a quick input may hide the center before its command is listed).
    const hide = page.locator('.notifications-center .notifications-center-header [aria-label^="Hide Notifications"]').first();
    if ((await center.count()) && (await hide.count())) {
      await hide.click();
      await until("the notification center hidden", async () => (await center.count()) === 0);
    }
  };

  /** The run panel frame of tool, once its body shows text that ok() accepts. */
  const nativePanel = (tool, what, ok) =>
    until(what, async () => {
      for (const f of page.frames()) {
        if (!(await f.locator("textarea#input").count().catch(() => 0))) continue;
        const text = await f.locator("body").innerText().catch(() => "");
        if (text.includes(tool) && ok(text)) return f;
      }
      return false;
    });

  /** The 1-based line of file that holds text. */
  const keyLine = (file, text) => readFileSync(file, "utf8").split("\n").findIndex((l) => l.includes(text)) + 1;

  /** The rows of the panel's connections table, as [protocol, host, port, status]. */
  const connectionRows = (frame) =>
    frame.locator("table.connections tbody tr").evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll("td")].map((td) => td.textContent.trim())));

  step("N1. a native tool's lens: its schema from the module, the approval's Run runs it, the panel shows lane, approval and connections", async () => {
    await hideProblems();
    const dir = nativeCopy(join("testdata", "example", "books"), "native-books");
    await openFolder(dir);
    // At the tools map (the end of the module): its lenses are on screen.
    await openFile(`native/telegram.js:${keyLine(join(dir, "native", "telegram.js"), '"tg.sendMessage": sendMessage')}`);
    await page.locator(".codelens-decoration a", { hasText: "▶ Run tg.sendMessage" }).first().click();
    await approveNative("tg.sendMessage", "native/telegram.js");
    const panel = await nativePanel("tg.sendMessage", "the native run's record in the panel", (t) => t.includes("full trust") && t.includes("149.154.167.50"));
    // The input came from the module's inputJsonSchema (examples[0]), which plugin.json does not hold.
    assert.deepEqual(JSON.parse(await panel.locator("textarea#input").inputValue()), { chat: "@books", text: "Finished The Hobbit" });
    assert.ok((await panel.locator("body").innerText()).includes("Send a Telegram message to a chat"), "the module's description");
    assert.equal((await panel.locator("h1 .tool").innerText()).trim(), "tg.sendMessage", "a native tool, not fn.<name>");
    assert.match(await panel.locator(".status").innerText(), /full trust[\s\S]*tg\.sendMessage:[0-9a-f]+[\s\S]*(approval required|no approval)/);
    assert.deepEqual(await connectionRows(panel), [["tcp", "149.154.167.50", "443", "refused: fake-providers"]]);
    await shot("N1-native-run-panel");
  });

  step("N2. native-reach-at-run after a run that opened an undeclared connection; its quick fix adds the capability and clears it", async () => {
    await hideProblems();
    const dir = nativeCopy(join("internal", "lsp", "e2e", "testdata", "native-reach"), "native-reach");
    const module = join(dir, "native", "probe.js");
    const original = readFileSync(module, "utf8");
    assert.deepEqual(checkJSON(binary, dir), [], "check alone sees no reach: it has no runs");
    await openFolder(dir);
    await openFile(`native/probe.js:${keyLine(module, '"queue.ping": ping')}`);
    await showProblems();
    await waitProblems(0);
    await hideProblems();
    await page.locator(".codelens-decoration a", { hasText: "▶ Run queue.ping" }).first().click();
    await approveNative("queue.ping", "native/probe.js");
    const panel = await nativePanel("queue.ping", "the probe's record in the panel", (t) => t.includes("full trust") && t.includes("6379"));
    assert.deepEqual(await connectionRows(panel), [["tcp", "127.0.0.1", "6379", "refused: fake-providers"]]);
    // The run's connection is not granted by requires: [] → one problem, at the tool's key in the module.
    await showProblems();
    const [problem] = await waitProblems(1);
    assert.match(problem, /the last run of queue\.ping opened a tcp connection to 127\.0\.0\.1:6379 \(refused: fake-providers\), which its requires does not grant: add "network\.socket"/);
    const lines = original.split("\n");
    const line = lines.findIndex((l) => l.includes('"queue.ping": ping'));
    assert.ok(problem.includes(`at line ${line + 1} and character ${lines[line].indexOf('"queue.ping"') + 1}`), problem);
    await shot("N2a-native-reach-at-run");
    await hideProblems();
    // The quick fix, chosen with the keyboard as in step 8.
    await openFile(`native/probe.js:${line + 1}:${lines[line].indexOf('"queue.ping"') + 2}`);
    await applyQuickFix('Add "network.socket" to the requires of queue.ping');
    await palette("File: Save All");
    await until("the fix saved", () => readFileSync(module, "utf8") === original.replace("requires: [],", 'requires: ["network.socket"],'));
    await showProblems();
    await waitProblems(0);
    await shot("N2b-native-reach-fixed");
    await hideProblems();
  });
});
