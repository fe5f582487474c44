// reviewpage builds the HTML of the pin review view: the review card the
// server rendered (plugin.reviewCard: its Markdown, by section), what
// changed since the pinned snapshot first and highlighted, and the Pin /
// Cancel buttons. Pure (no vscode import), so Node tests check it and
// headless Chromium renders the very same page.
//
// The card's Markdown is the server's (internal/authoring/review renders it from the
// layout the CLI card is printed from); this file only turns it into
// inert HTML with render.ts's renderMarkdown (raw HTML off, links inert,
// hidden characters shown) and places the sections.

import { contentSecurityPolicy } from "./page";
import { escapeHtml, renderMarkdown, showHtml } from "./render";

/** One section of the card as plugin.reviewCard returns it. */
export interface CardSection {
  name: string;
  markdown: string;
}

/** What plugin.reviewCard returns (the parts the view reads). */
export interface ReviewCardReply {
  plugin?: unknown;
  version?: unknown;
  markdown?: unknown;
  sections?: unknown;
  approval?: unknown;
  sincePinned?: unknown;
}

/** The name of the card's "since the pinned snapshot" section (internal/authoring/review SectionSincePinned). */
export const SINCE_PINNED = "sincePinned";

/** The card's sections, in the server's order; the whole Markdown as one section when there are none. */
export function cardSections(card: ReviewCardReply): CardSection[] {
  const out: CardSection[] = [];
  if (Array.isArray(card.sections)) {
    for (const s of card.sections) {
      if (s && typeof s === "object" && typeof (s as CardSection).name === "string" && typeof (s as CardSection).markdown === "string") {
        out.push({ name: (s as CardSection).name, markdown: (s as CardSection).markdown });
      }
    }
  }
  if (out.length === 0 && typeof card.markdown === "string") out.push({ name: "card", markdown: card.markdown });
  return out;
}

export interface ReviewPageOptions {
  /** webview.cspSource, or the test server's origin. */
  cspSource: string;
  /** A fresh random nonce per render. */
  nonce: string;
  card: ReviewCardReply;
  /** Shown above the card (why the view was rendered again), "" for none. */
  notice?: string;
}

/** "added" for a change line that widens ("+ …"), "removed" for one that narrows ("- …"). */
function markChanges(html: string): string {
  return html.replace(/<li>([+-]) /g, (_m, sign: string) => `<li class="${sign === "+" ? "added" : "removed"}"><span class="sign">${sign}</span> `);
}

/** The review view's document: the changes first, then the card, then the buttons. */
export function buildReviewPage(o: ReviewPageOptions): string {
  if (!/^[A-Za-z0-9+/=]+$/.test(o.nonce)) throw new Error("nonce must be base64-like");
  const csp = contentSecurityPolicy(o.cspSource, o.nonce);
  const sections = cardSections(o.card);
  const since = sections.find((s) => s.name === SINCE_PINNED);
  const rest = sections.filter((s) => s !== since);
  const name = typeof o.card.plugin === "string" && o.card.plugin !== "" ? o.card.plugin : "(unnamed plugin)";
  const version = typeof o.card.version === "string" ? o.card.version : "";
  const sp = o.card.sincePinned && typeof o.card.sincePinned === "object" ? (o.card.sincePinned as { missing?: unknown; changes?: unknown }) : {};
  const first = sp.missing === true;
  const widened = Array.isArray(sp.changes) && sp.changes.some((c) => typeof c === "string" && c.startsWith("+"));
  const changesClass = ["changes", first ? "first" : "", widened ? "widened" : ""].filter(Boolean).join(" ");
  const changesHtml = since
    ? markChanges(renderMarkdown(since.markdown))
    : `<p>The server did not compare the plugin with a pinned snapshot.</p>`;
  const verb = first ? "Pin" : "Re-pin";
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${showHtml(`${verb} ${name}`)}</title>
<style nonce="${o.nonce}">${STYLE}</style>
</head>
<body>
<header>
<h1>${verb} the capability snapshot of <span class="plugin">${showHtml(name)}</span> ${showHtml(version)}?</h1>
<p class="hint">Review what you approve. <code>plugin.lock.json</code> is written only when you press <kbd>Pin</kbd>.</p>
</header>
${o.notice ? `<p id="notice" class="notice">${showHtml(o.notice)}</p>\n` : ""}<section id="changes" class="${changesClass}" aria-label="What changed since the pin">
<h2>${first ? "First pin" : "What changed since the pin"}</h2>
${changesHtml}
</section>
<section id="card" aria-label="Review card">
${rest.map((s) => `<div class="card-section" data-section="${escapeHtml(s.name)}">\n${renderMarkdown(s.markdown)}\n</div>`).join("\n")}
</section>
<footer id="actions">
<button id="pin" type="button">Pin</button>
<button id="cancel" type="button" class="secondary">Cancel</button>
<span id="state" role="status"></span>
</footer>
<script nonce="${o.nonce}">${SCRIPT}</script>
</body>
</html>
`;
}

// The page's only script: the two buttons post what was pressed. The
// extension acts on "pin" only from this view (see review.ts).
const SCRIPT = `(function () {
  const vscode = acquireVsCodeApi();
  const pin = document.getElementById("pin");
  const cancel = document.getElementById("cancel");
  const state = document.getElementById("state");
  pin.addEventListener("click", function () {
    pin.disabled = true;
    cancel.disabled = true;
    state.textContent = "Pinning…";
    vscode.postMessage({ type: "pin" });
  });
  cancel.addEventListener("click", function () {
    vscode.postMessage({ type: "cancel" });
  });
  window.addEventListener("message", function (e) {
    const m = e.data;
    if (m && m.type === "failed") {
      pin.disabled = false;
      cancel.disabled = false;
      state.textContent = typeof m.message === "string" ? m.message : "";
    }
  });
})();`;

const STYLE = `
:root { color-scheme: light dark; }
body { font-family: var(--vscode-font-family, system-ui, sans-serif); font-size: var(--vscode-font-size, 13px);
  color: var(--vscode-foreground, #1f1f1f); background: var(--vscode-editor-background, #fff); margin: 0; padding: 0 20px; line-height: 1.45; }
header h1 { font-size: 1.35em; margin: 18px 0 4px; font-weight: 600; overflow-wrap: anywhere; }
.hint { margin: 0 0 14px; opacity: 0.8; }
code { font-family: var(--vscode-editor-font-family, monospace); font-size: 0.95em; overflow-wrap: anywhere; }
kbd { border: 1px solid rgba(128,128,128,0.5); border-radius: 3px; padding: 0 4px; font-family: inherit; }
h2 { font-size: 1.1em; margin: 0 0 6px; }
h3 { font-size: 1.15em; margin: 16px 0 4px; overflow-wrap: anywhere; }
h4 { font-size: 1.02em; margin: 14px 0 4px; overflow-wrap: anywhere; }
p, li { overflow-wrap: anywhere; }
ul { margin: 2px 0 6px; padding-left: 22px; }
.notice { border-left: 4px solid var(--vscode-editorWarning-foreground, #b58900); padding: 6px 10px; background: rgba(181,137,0,0.12); }
.changes { border: 1px solid var(--vscode-focusBorder, #0078d4); border-left-width: 5px; border-radius: 4px; padding: 8px 14px 6px; margin: 0 0 14px;
  background: rgba(0,120,212,0.08); }
.changes.widened { border-color: var(--vscode-editorError-foreground, #c72e2e); background: rgba(199,46,46,0.08); }
.changes h4 { margin-top: 4px; }
.changes li.added { color: var(--vscode-gitDecoration-addedResourceForeground, #1a7f37); font-weight: 600; }
.changes li.removed { color: var(--vscode-gitDecoration-deletedResourceForeground, #b35900); }
.changes .sign { display: inline-block; width: 1.1em; font-family: var(--vscode-editor-font-family, monospace); }
#card .card-section + .card-section { border-top: 1px solid rgba(128,128,128,0.25); }
#actions { position: sticky; bottom: 0; margin: 12px -20px 0; padding: 10px 20px; display: flex; gap: 10px; align-items: center;
  background: var(--vscode-editor-background, #fff); border-top: 1px solid rgba(128,128,128,0.35); }
button { font: inherit; padding: 5px 16px; border: 1px solid transparent; border-radius: 2px; cursor: pointer;
  color: var(--vscode-button-foreground, #fff); background: var(--vscode-button-background, #0078d4); }
button:hover { background: var(--vscode-button-hoverBackground, #026ec1); }
button.secondary { color: var(--vscode-button-secondaryForeground, #1f1f1f); background: var(--vscode-button-secondaryBackground, #e5e5e5); }
button:disabled { opacity: 0.5; cursor: default; }
#state { opacity: 0.85; overflow-wrap: anywhere; }
`;
