// page builds the preview panel's HTML document around the rendered record:
// a strict Content-Security-Policy (nothing but our own nonce'd style and
// script; no remote resources of any kind), the input box and the result
// area. Pure, so Node tests check the policy and headless Chromium renders
// the very same page.

import { escapeHtml, showHtml } from "./render";

export interface PageOptions {
  /** webview.cspSource (e.g. "https://*.vscode-cdn.net"), or the test server's origin. */
  cspSource: string;
  /** A fresh random nonce per render. */
  nonce: string;
  /** URI of dist/webview.js as the webview may load it. */
  scriptUri: string;
  plugin: string;
  tool: string;
  /** A native tool (full-trust lane): shown by its name, not as fn.<name>. */
  native?: boolean;
  description?: string;
  /** The input box's text (remembered, or prefilled from inputJsonSchema). */
  inputText: string;
  /** The schema sample, used by the "Reset" button. */
  sampleText: string;
  /** Already-rendered result HTML (renderRecord / renderFailure), or "" before the first run. */
  resultHtml: string;
}

/** The panel's Content-Security-Policy. */
export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
  ].join("; ") + ";";
}

/** A random nonce: 32 characters of [A-Za-z0-9]. */
export function makeNonce(random: (n: number) => Uint8Array): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return Array.from(random(32), (b) => alphabet[b % alphabet.length]).join("");
}

export function buildPage(o: PageOptions): string {
  if (!/^[A-Za-z0-9+/=]+$/.test(o.nonce)) {
    throw new Error("nonce must be base64-like");
  }
  const csp = contentSecurityPolicy(o.cspSource, o.nonce);
  const placeholder = o.resultHtml === "" ? `<p class="empty hint">Edit the input and press <kbd>Run</kbd> (Ctrl+Enter).</p>` : o.resultHtml;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;")}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${showHtml(`${o.plugin}: ${o.tool}`)}</title>
<style nonce="${o.nonce}">${STYLE}</style>
</head>
<body>
<header>
<h1><span class="plugin">${showHtml(o.plugin)}</span> <span class="sep">/</span> <span class="tool">${o.native ? "" : "fn."}${showHtml(o.tool)}</span></h1>
${o.description ? `<p class="description">${showHtml(o.description, true)}</p>` : ""}
</header>
<form id="run-form" autocomplete="off">
<label for="input">Input <span class="hint">(JSON, from inputJsonSchema; remembered per tool)</span></label>
<textarea id="input" name="input" spellcheck="false" rows="${Math.min(Math.max(o.inputText.split("\n").length, 3), 14)}" data-sample="${escapeHtml(o.sampleText)}">${escapeHtml(o.inputText)}</textarea>
<div class="actions">
<button id="run" type="submit">Run</button>
<button id="reset" type="button" class="secondary" title="Replace the input with the sample built from inputJsonSchema">Reset to schema</button>
<span id="state" class="state" role="status"></span>
</div>
</form>
<main id="output">
${placeholder}
</main>
<script nonce="${o.nonce}" src="${escapeHtml(o.scriptUri)}"></script>
</body>
</html>
`;
}

// VS Code injects its theme as --vscode-* variables; the fallbacks give the
// same page a dark look outside VS Code (the headless screenshot).
const STYLE = `
:root {
  --fg: var(--vscode-editor-foreground, #d4d4d4);
  --bg: var(--vscode-editor-background, #1e1e1e);
  --muted: var(--vscode-descriptionForeground, #9d9d9d);
  --border: var(--vscode-panel-border, #3c3c3c);
  --accent: var(--vscode-textLink-foreground, #4daafc);
  --ok: var(--vscode-testing-iconPassed, #73c991);
  --bad: var(--vscode-errorForeground, #f48771);
  --warn: var(--vscode-editorWarning-foreground, #cca700);
  --input-bg: var(--vscode-input-background, #2a2a2a);
  --input-fg: var(--vscode-input-foreground, #cccccc);
  --button-bg: var(--vscode-button-background, #0e639c);
  --button-fg: var(--vscode-button-foreground, #ffffff);
  --button2-bg: var(--vscode-button-secondaryBackground, #3a3d41);
  --button2-fg: var(--vscode-button-secondaryForeground, #ffffff);
  --mono: var(--vscode-editor-font-family, "DejaVu Sans Mono", monospace);
  --code-bg: var(--vscode-textCodeBlock-background, #2b2b2b);
}
* { box-sizing: border-box; }
body { margin: 0; padding: 16px 20px 32px; color: var(--fg); background: var(--bg);
  font-family: var(--vscode-font-family, "DejaVu Sans", system-ui, sans-serif); font-size: var(--vscode-font-size, 13px); line-height: 1.45;
  overflow-wrap: anywhere; }
h1 { font-size: 1.35em; margin: 0 0 2px; font-weight: 600; }
h1 .plugin { color: var(--muted); font-weight: 400; }
h1 .sep { color: var(--muted); }
h1 .tool { font-family: var(--mono); }
h2 { font-size: 0.85em; text-transform: uppercase; letter-spacing: 0.06em; color: var(--muted); margin: 22px 0 8px;
  border-bottom: 1px solid var(--border); padding-bottom: 4px; font-weight: 600; }
.description { margin: 0 0 12px; color: var(--muted); }
label { display: block; margin: 10px 0 4px; font-weight: 600; }
.hint { color: var(--muted); font-weight: 400; }
textarea { width: 100%; font-family: var(--mono); font-size: 12.5px; color: var(--input-fg); background: var(--input-bg);
  border: 1px solid var(--border); border-radius: 3px; padding: 8px; resize: vertical; }
textarea:focus { outline: 1px solid var(--accent); }
textarea.invalid { outline: 1px solid var(--bad); }
.actions { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-top: 8px; }
button { font: inherit; border: none; border-radius: 2px; padding: 5px 14px; cursor: pointer; background: var(--button-bg); color: var(--button-fg); }
button.secondary { background: var(--button2-bg); color: var(--button2-fg); }
button:disabled { opacity: 0.6; cursor: default; }
.state { color: var(--muted); }
.state.error { color: var(--bad); }
.status { display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: center; margin-top: 18px; }
.badge { white-space: nowrap; display: inline-block; padding: 1px 8px; border-radius: 9px; font-size: 0.85em; font-weight: 600; border: 1px solid currentColor; }
.badge.ok { color: var(--ok); }
.badge.failed { color: var(--bad); }
.badge.warn { color: var(--warn); }
.claim { font-family: var(--mono); color: var(--muted); }
.duration { color: var(--muted); margin-left: auto; }
.empty { color: var(--muted); font-style: italic; margin: 4px 0; }
.subui.stat { display: inline-block; min-width: min(220px, 100%); max-width: 100%; padding: 12px 18px; border: 1px solid var(--border); border-radius: 6px; }
.stat-label { color: var(--muted); font-size: 0.9em; }
.stat-value { font-size: 2em; font-weight: 600; line-height: 1.2; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 4px 10px 4px 0; border-bottom: 1px solid var(--border); vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
td.num { font-variant-numeric: tabular-nums; white-space: nowrap; }
td.method { font-family: var(--mono); font-weight: 600; }
/* The fetch log. Wide: a table whose URL column has the room (at least
   28 characters; a URL wraps after / ? & = , at its <wbr>s). Narrower
   than 900 px (a side
   panel): one block per fetch, the URL on a line of its own across the
   width, the other cells below it, each under its column's name. */
table.fetches th, table.fetches td.method, table.fetches td.status-cell, table.fetches td.source { white-space: nowrap; overflow-wrap: normal; }
table.fetches td.url { font-family: var(--mono); min-width: 28ch; width: 45%; }
table.fetches td.creds { min-width: 14ch; }
table.connections th, table.connections td.protocol, table.connections td.status-cell { white-space: nowrap; }
table.connections td.host { font-family: var(--mono); overflow-wrap: anywhere; }
tr.refused td.url .url-text { text-decoration: line-through; color: var(--muted); }
.fetch-error { color: var(--bad); font-family: var(--vscode-font-family, "DejaVu Sans", system-ui, sans-serif); }
.fetch-note { color: var(--muted); font-style: italic; font-family: var(--vscode-font-family, "DejaVu Sans", system-ui, sans-serif); }
.cred { display: inline-block; max-width: 100%; font-family: var(--mono); background: var(--code-bg); padding: 0 5px; border-radius: 3px; }
.none { color: var(--muted); }
@media (max-width: 900px) {
  table.fetches, table.fetches tbody, table.fetches tr, table.fetches td { display: block; width: auto; min-width: 0; }
  table.fetches thead { display: none; }
  table.fetches tr { display: flex; flex-wrap: wrap; gap: 2px 16px; padding: 6px 0; border-bottom: 1px solid var(--border); }
  table.fetches td { border: none; padding: 0; }
  table.fetches td.method { order: 0; }
  table.fetches td.status-cell { order: 1; }
  table.fetches td.url { order: 2; flex: 1 1 100%; }
  table.fetches td.num, table.fetches td.source, table.fetches td.creds { order: 3; }
  table.fetches td.num::before, table.fetches td.source::before, table.fetches td.creds::before {
    content: attr(data-label) " "; color: var(--muted); font-size: 0.85em; }
}
table.usage { width: auto; max-width: 100%; }
.usage th { white-space: nowrap; padding-right: 16px; }
.usage td.num { padding-right: 16px; }
meter { width: min(160px, 25vw); }
ul, ol { margin: 4px 0; padding-left: 22px; }
.item-sub { color: var(--muted); }
ol.logs { list-style: none; padding: 0; font-family: var(--mono); font-size: 12.5px; }
ol.logs li { padding: 2px 0; border-bottom: 1px solid var(--border); white-space: pre-wrap; }
.level { display: inline-block; width: 52px; color: var(--muted); }
.log.warn .level { color: var(--warn); }
.log.error .level { color: var(--bad); }
pre { font-family: var(--mono); font-size: 12.5px; background: var(--code-bg); padding: 8px 10px; border-radius: 3px; overflow-x: auto; margin: 4px 0; }
code { font-family: var(--mono); background: var(--code-bg); padding: 0 4px; border-radius: 3px; }
pre code { background: none; padding: 0; }
.error-head { color: var(--bad); font-weight: 600; }
.error-message { font-weight: 400; }
.where { margin: 4px 0; }
a.loc { color: var(--accent); text-decoration: none; cursor: pointer; }
a.loc:hover { text-decoration: underline; }
.markdown .link { color: var(--accent); text-decoration: underline; }
kbd { font-family: var(--mono); border: 1px solid var(--border); border-radius: 3px; padding: 0 4px; }
`;
