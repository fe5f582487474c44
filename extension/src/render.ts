// render turns a run record into the HTML shown in the preview panel. It is
// pure (no vscode import) so Node tests cover it, and it escapes every piece
// of text that came from the record: the tool, its fixtures and its error
// messages are all author- or network-controlled. Clickable `.ts` locations
// are elements with data-file/data-line/data-column attributes; the panel's
// script turns a click on one into an "open" message.

import MarkdownIt from "markdown-it";
import type { ConnectionEntry, FetchEntry, LogEntry, RunError, RunRecord, Usage, Violation } from "./record";

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Escapes text for use in HTML element content and quoted attribute values
 * (any value: objects as JSON, never through their own toString).
 */
export function escapeHtml(value: unknown): string {
  return safeString(value).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/**
 * Escapes text from a plugin or a run for HTML, with its control, format
 * and separator characters shown (`visible`); `block` keeps newlines and
 * tabs (in `<pre>` and messages).
 */
export function showHtml(value: unknown, block = false): string {
  return escapeHtml(visible(safeString(value), block));
}

// The characters `visible` shows, as the Go side does (internal/text,
// Hidden): controls (Cc: C0, DEL, C1), format characters (Cf: the bidi
// embeddings, overrides, isolates and marks, zero-width characters, tags),
// line and paragraph separators (Zl, Zp) and, where Go would see bytes that
// are not UTF-8, lone surrogates (Cs). internal/text/testdata/visible.json
// holds the cases both are tested against.
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/**
 * `s` with every hidden character written as a visible escape: `\n`, `\r`,
 * `\t`, `\x1b` (below U+00A0), `<U+202E>` (the others). `block` keeps "\n",
 * "\t" and the CR of a CRLF, as internal/text's VisibleBlock does.
 */
export function visible(s: string, block = false): string {
  return s.replace(HIDDEN, (c: string, at: number) => {
    if (block && (c === "\n" || c === "\t" || (c === "\r" && s[at + 1] === "\n"))) return c;
    const cp = c.codePointAt(0) ?? 0;
    if (c === "\n") return "\\n";
    if (c === "\r") return "\\r";
    if (c === "\t") return "\\t";
    if (cp < 0xa0) return "\\x" + cp.toString(16).padStart(2, "0");
    return "<U+" + cp.toString(16).toUpperCase().padStart(4, "0") + ">";
  });
}

/**
 * Text for a VS Code notification (showInformationMessage and its kin)
 * that quotes the plugin or an error: one line with its hidden characters
 * shown (visible), and no link. A notification renders `[label](target)`
 * as a link, `command:` targets included, so `](` is written `] (`.
 */
export function noticeText(s: string): string {
  return visible(s).replace(/\]\(/g, "] (");
}

/**
 * Any value as text without running anything of it: strings as they are,
 * other scalars through String, objects and arrays as JSON (whose
 * stringify calls no toString and no toJSON that is not a function; a
 * value too deep or cyclic says why it cannot be shown). Never throws.
 */
export function safeString(v: unknown): string {
  switch (typeof v) {
    case "string":
      return v;
    case "number":
    case "boolean":
    case "bigint":
    case "undefined":
      return String(v);
    case "symbol":
      return v.description ?? "Symbol()";
    case "function":
      return "(function)";
  }
  if (v === null) return "null";
  try {
    return JSON.stringify(v) ?? "(not printable)";
  } catch (e) {
    return `(cannot show this value: ${e instanceof Error ? e.message : "not printable"})`;
  }
}

/** The own property k of o (a key like "constructor" or "toString" is data, never the prototype's). */
function own(o: object, k: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, k) ? (o as Record<string, unknown>)[k] : undefined;
}

// Bounds of what one record shows: a result of a million rows renders the
// first MAX_ITEMS and says how many it left out.
const MAX_ITEMS = 1000;
const MAX_COLUMNS = 100;

function more(n: number, what: string): string {
  return n > 0 ? `<p class="empty">${n} more ${what} not shown.</p>` : "";
}

/**
 * Renders the whole record: status line, result, error, fetch log, logs,
 * usage. Total over any value: what it cannot render is said, not thrown
 * (a throw would hide the record, refused fetches included).
 */
export function renderRecord(record: unknown): string {
  try {
    return renderRecordParts(record);
  } catch (e) {
    return renderFailure(`this record cannot be shown: ${e instanceof Error ? safeString(e.message) : "unknown error"}`);
  }
}

function renderRecordParts(record: unknown): string {
  if (!isObject(record)) {
    return section("result", "Result", rawJson(record)) ;
  }
  const r = record as RunRecord;
  const parts: string[] = [renderStatus(r)];
  if (r.ok !== false || (r.result !== undefined && r.result !== null)) {
    parts.push(section("result", "Result", renderResult(r.result)));
  }
  if (isObject(r.error)) {
    parts.push(section("error", "Error", renderError(r.error as RunError)));
  }
  const native = r.lane === "native";
  if (native) {
    const conns = Array.isArray(r.connections) ? r.connections : [];
    const omitted = typeof r.connectionsOmitted === "number" && r.connectionsOmitted > 0 ? r.connectionsOmitted : 0;
    parts.push(section("connections", `Connections (${conns.length + omitted})`, renderConnections(conns, omitted)));
    if (Array.isArray(r.notifications) && r.notifications.length > 0) {
      parts.push(section("notifications", `Notifications (${r.notifications.length})`, renderNotifications(r.notifications)));
    }
  }
  const fetches = Array.isArray(r.fetches) ? r.fetches : [];
  // A fetch whose error is the run's error (the refusal the tool did not
  // catch) says so instead of repeating the text the Error section shows.
  const runError = isObject(r.error) && typeof (r.error as RunError).message === "string" ? (r.error as RunError).message : undefined;
  if (!native || fetches.length > 0) { // a native tool has no brokered fetch
    parts.push(section("fetches", `Fetches (${fetches.length})`, renderFetches(fetches, runError)));
  }
  const logs = Array.isArray(r.logs) ? r.logs : [];
  parts.push(section("logs", `Logs (${logs.length})`, renderLogs(logs)));
  if (isObject(r.usage)) {
    parts.push(section("usage", "Usage", renderUsage(r.usage as Usage)));
  }
  return parts.join("\n");
}

/** Renders a transport-level failure (the server could not run the tool at all). */
export function renderFailure(message: string): string {
  return `<div class="status failed" role="status"><span class="badge failed">not run</span></div>\n` +
    section("error", "Error", `<pre class="message">${showHtml(message, true)}</pre>`);
}

function renderStatus(r: RunRecord): string {
  const ok = r.ok === true;
  const badge = ok ? `<span class="badge ok">ok</span>` : `<span class="badge failed">failed</span>`;
  const claim = typeof r.claim === "string" && r.claim !== "" ? `<code class="claim">${showHtml(r.claim)}</code>` : "";
  const duration = typeof r.durationMs === "number" ? `<span class="duration">${escapeHtml(formatMs(r.durationMs))}</span>` : "";
  let lane = "";
  let approval = "";
  if (r.lane === "native") {
    lane = `<span class="badge warn lane" title="a native tool: it ran in Node.js with the authority of this machine, not in the sandbox">full trust</span>`;
    if (isObject(r.approval) && typeof r.approval.required === "boolean") {
      approval = r.approval.required
        ? `<span class="approval required" title="needsApproval: the host asks the user before this call">approval required</span>`
        : `<span class="approval none" title="needsApproval: the host runs this call without asking">no approval</span>`;
    }
  }
  return `<div class="status ${ok ? "ok" : "failed"}" role="status">${[badge, lane, claim, approval, duration].filter((x) => x !== "").join(" ")}</div>`;
}

function renderConnections(conns: unknown[], omitted: number): string {
  if (conns.length === 0 && omitted === 0) {
    return `<p class="empty">No outgoing connections.</p>`;
  }
  const rows = conns
    .slice(0, MAX_ITEMS)
    .map((c0) => {
      const c: ConnectionEntry = isObject(c0) ? (c0 as ConnectionEntry) : {};
      const refused = typeof c.refused === "string" && c.refused !== "";
      const status = refused
        ? `<span class="badge failed">refused: ${showHtml(c.refused)}</span>`
        : `<span class="badge ok">allowed</span>`;
      const port = typeof c.port === "number" ? String(c.port) : "–";
      return `<tr class="${refused ? "refused" : ""}">` +
        `<td class="protocol" data-label="Protocol">${showHtml(c.protocol ?? "?")}</td>` +
        `<td class="host" data-label="Host">${showHtml(c.host ?? "")}</td>` +
        `<td class="num" data-label="Port">${escapeHtml(port)}</td>` +
        `<td class="status-cell" data-label="Status">${status}</td>` +
        `</tr>`;
    })
    .join("\n");
  return `<table class="connections"><thead><tr><th>Protocol</th><th>Host</th><th>Port</th><th>Status</th></tr></thead><tbody>\n${rows}\n</tbody></table>` +
    more(conns.length - Math.min(conns.length, MAX_ITEMS) + omitted, "connections");
}

function renderNotifications(notes: unknown[]): string {
  const items = notes.slice(0, MAX_ITEMS).map((n) => `<li>${showHtml(safeString(n))}</li>`).join("");
  return `<ul class="notifications">${items}</ul>` + more(notes.length - Math.min(notes.length, MAX_ITEMS), "notifications");
}

function section(id: string, title: string, body: string): string {
  return `<section id="${id}"><h2>${escapeHtml(title)}</h2>\n${body}\n</section>`;
}

/**
 * Renders a tool's return value as SubUI: stat, table, list and markdown
 * have their own look; anything else (or a malformed SubUI value) is shown
 * as raw JSON.
 */
export function renderResult(result: unknown): string {
  if (isObject(result)) {
    const v = result as Record<string, unknown>;
    switch (v.type) {
      case "stat":
        if ("value" in v && isScalar(v.value) && (v.label === undefined || isScalar(v.label))) {
          return renderStat(v.value, v.label);
        }
        break;
      case "table":
        if (Array.isArray(v.columns) && Array.isArray(v.rows) && v.rows.every((row) => Array.isArray(row) || isObject(row))) {
          return renderTable(v.columns, v.rows as unknown[]);
        }
        break;
      case "list":
        if (Array.isArray(v.items)) {
          return renderList(v.items);
        }
        break;
      case "markdown":
        if (typeof v.text === "string") {
          return `<div class="subui markdown">${renderMarkdown(v.text)}</div>`;
        }
        break;
    }
  }
  return rawJson(result);
}

function renderStat(value: unknown, label: unknown): string {
  const labelHtml = label === undefined || label === null ? "" : `<div class="stat-label">${showHtml(label)}</div>`;
  return `<div class="subui stat">${labelHtml}<div class="stat-value">${showHtml(cellText(value))}</div></div>`;
}

function renderTable(allColumns: unknown[], allRows: unknown[]): string {
  const columns = allColumns.slice(0, MAX_COLUMNS);
  const rows = allRows.slice(0, MAX_ITEMS);
  const head = columns.map((c) => `<th>${showHtml(cellText(c))}</th>`).join("");
  const body = rows
    .map((row) => {
      let cells: unknown[];
      if (Array.isArray(row)) {
        cells = row.slice(0, columns.length);
      } else {
        // A row given as an object is laid out by column name.
        const o = row as object;
        cells = columns.map((c) => own(o, typeof c === "string" ? c : cellText(c)));
      }
      const padded = cells.length < columns.length ? cells.concat(new Array(columns.length - cells.length).fill("")) : cells;
      return `<tr>${padded.map((c) => `<td>${showHtml(cellText(c))}</td>`).join("")}</tr>`;
    })
    .join("\n");
  const empty = rows.length === 0 ? `<p class="empty">No rows.</p>` : "";
  const cut = more(allRows.length - rows.length, "rows") + more(allColumns.length - columns.length, "columns");
  return `<div class="subui table"><table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>${empty}${cut}</div>`;
}

function renderList(allItems: unknown[]): string {
  const items = allItems.slice(0, MAX_ITEMS);
  if (items.length === 0) {
    return `<div class="subui list"><p class="empty">No items.</p></div>`;
  }
  const lis = items
    .map((item) => {
      if (isObject(item)) {
        const title = own(item, "title") ?? own(item, "label") ?? own(item, "name");
        if (isScalar(title)) {
          const sub = own(item, "subtitle") ?? own(item, "description") ?? own(item, "detail");
          const subHtml = isScalar(sub) && sub !== null ? `<div class="item-sub">${showHtml(sub)}</div>` : "";
          return `<li><div class="item-title">${showHtml(cellText(title))}</div>${subHtml}</li>`;
        }
      }
      return `<li>${showHtml(cellText(item))}</li>`;
    })
    .join("\n");
  return `<div class="subui list"><ul>\n${lis}\n</ul>${more(allItems.length - items.length, "items")}</div>`;
}

function rawJson(value: unknown): string {
  let text: string;
  if (value === undefined) {
    text = "undefined";
  } else {
    try {
      text = JSON.stringify(value, null, 2) ?? safeString(value);
    } catch (e) {
      text = `(cannot show this value: ${e instanceof Error ? e.message : "not printable"})`;
    }
  }
  return `<pre class="subui raw json">${showHtml(text, true)}</pre>`;
}

/** A table cell or list item: strings as they are, everything else as JSON. */
function cellText(v: unknown): string {
  return v === undefined ? "" : safeString(v);
}

// A location inside a stack or message is "code/lookup-book.ts:12:5". The
// scan anchors on the extension and walks back over path characters (at most
// MAX_PATH), so it stays linear on hostile text: a regex with a leading
// `[path chars]+` backtracks quadratically on a long "a.a.a.a…" log line.
const LOCATION_TAIL = /\.(?:ts|mts|js|mjs):(\d{1,9})(?::(\d{1,9}))?/g;
const PATH_CHAR = /[A-Za-z0-9_@.\/-]/;
const MAX_PATH = 512;

/**
 * Escapes text (controls shown, newlines kept) and turns each
 * `file.ts:line:col` in it into a clickable location.
 */
export function linkLocations(text: string): string {
  let out = "";
  let last = 0;
  for (const m of text.matchAll(LOCATION_TAIL)) {
    const dot = m.index ?? 0;
    let start = dot;
    while (start > last && dot - start < MAX_PATH && PATH_CHAR.test(text[start - 1])) start--;
    if (start === dot) continue; // ".ts:3" with no name before it
    const file = text.slice(start, dot) + m[0].slice(0, m[0].indexOf(":"));
    const end = dot + m[0].length;
    out += showHtml(text.slice(last, start), true);
    out += locationLink(file, Number(m[1]), m[2] === undefined ? 1 : Number(m[2]), text.slice(start, end));
    last = end;
  }
  return out + showHtml(text.slice(last), true);
}

function locationLink(file: string, line: number, column: number, label: string): string {
  return `<a class="loc" href="#" role="link" data-file="${showHtml(file)}" data-line="${line}" data-column="${column}" title="Open ${showHtml(file)}">${showHtml(label)}</a>`;
}

function renderError(e: RunError): string {
  const name = typeof e.name === "string" && e.name !== "" ? e.name : "Error";
  const message = typeof e.message === "string" ? e.message : "";
  let where = "";
  if (typeof e.file === "string" && e.file !== "" && isPositiveInt(e.line)) {
    const col = isPositiveInt(e.column) ? e.column : 1;
    where = `<div class="where">at ${locationLink(e.file, e.line, col, `${e.file}:${e.line}:${col}`)}</div>`;
  }
  let stack = "";
  if (typeof e.stack === "string" && e.stack.trim() !== "") {
    // The stack's first line usually repeats "Name: message"; keep the frames.
    const lines = e.stack.split("\n");
    const frames = lines[0].trim() === `${name}: ${message}`.trim() ? lines.slice(1) : lines;
    if (frames.join("").trim() !== "") {
      stack = `<pre class="stack">${linkLocations(frames.join("\n"))}</pre>`;
    }
  }
  return `<div class="error-head"><span class="error-name">${showHtml(name)}</span>: <span class="error-message">${linkLocations(message)}</span></div>${where}${renderViolations(e.violations)}${stack}`;
}

/** The input's schema violations, each under its JSON pointer. */
function renderViolations(violations: unknown): string {
  if (!Array.isArray(violations) || violations.length === 0) return "";
  const items = violations
    .map((v0) => {
      const v: Violation = isObject(v0) ? v0 : {};
      const pointer = typeof v.pointer === "string" ? v.pointer : "";
      const at = pointer === "" ? `<span class="pointer whole">(the whole input)</span>` : `<code class="pointer">${showHtml(pointer)}</code>`;
      return `<li>${at} ${showHtml(typeof v.message === "string" ? v.message : "")}</li>`;
    })
    .join("\n");
  return `<ul class="violations">\n${items}\n</ul>`;
}

/**
 * A URL as HTML that may wrap after each `/`, `?`, `&`, `=` and `,` (a `<wbr>`
 * there), so a narrow panel breaks it between its parts rather than
 * anywhere; a part longer than the line still breaks (CSS overflow-wrap).
 */
export function wrappableUrl(url: string): string {
  return showHtml(url).replace(/(\/|\?|&amp;|=|,)/g, "$1<wbr>");
}

/** What the Source cell says: where the response came from, or that nothing was asked. */
function sourceCell(f: FetchEntry): string {
  if (typeof f.source === "string" && f.source !== "") return showHtml(f.source);
  if (typeof f.refused === "string" && f.refused !== "") {
    return `<span class="none" title="refused before any fixture or the network was asked">not asked</span>`;
  }
  return `<span class="none">–</span>`;
}

function renderFetches(fetches: FetchEntry[], runError?: string): string {
  if (fetches.length === 0) {
    return `<p class="empty">No http.fetch calls.</p>`;
  }
  const rows = fetches
    .map((f0) => {
      const f: FetchEntry = isObject(f0) ? f0 : {};
      const refused = typeof f.refused === "string" && f.refused !== "";
      const status = refused
        ? `<span class="badge failed" title="${showHtml(f.error ?? "")}">refused: ${showHtml(f.refused)}</span>`
        : typeof f.status === "number"
          ? `<span class="badge ${f.status >= 200 && f.status < 400 ? "ok" : "warn"}">${f.status}</span>`
          : `<span class="badge failed">error</span>`;
      const creds = Array.isArray(f.credentials) && f.credentials.length > 0
        ? f.credentials.slice(0, MAX_COLUMNS).map((c) => `<span class="cred" title="injected host-side; the value never enters the sandbox">${showHtml(c)} ••••</span>`).join(" ")
        : `<span class="none">none</span>`;
      const bytes = typeof f.bytes === "number" ? formatBytes(f.bytes) : "–";
      const bytesCap = typeof f.maxBytes === "number" && f.maxBytes > 0 ? ` / ${formatBytes(f.maxBytes)}` : "";
      const ms = typeof f.ms === "number" ? formatMs(f.ms) : "–";
      const msCap = typeof f.timeoutMs === "number" && f.timeoutMs > 0 ? ` / ${formatMs(f.timeoutMs)}` : "";
      const hasError = typeof f.error === "string" && f.error !== "";
      const err = !hasError
        ? ""
        : f.error === runError
          ? `<div class="fetch-note">the run's error, shown above</div>`
          : `<div class="fetch-error">${showHtml(f.error)}</div>`;
      const url = safeString(f.url ?? "");
      // Each cell carries its column's name (data-label) for the stacked
      // layout of a narrow panel, where the header row is hidden.
      return `<tr class="${refused ? "refused" : ""}">` +
        `<td class="method" data-label="Method">${showHtml(f.method ?? "GET")}</td>` +
        `<td class="url" data-label="URL"><span class="url-text" title="${showHtml(url)}">${wrappableUrl(url)}</span>${err}</td>` +
        `<td class="status-cell" data-label="Status">${status}</td>` +
        `<td class="num" data-label="Bytes / cap" title="response bytes / fetchMaxBytes cap">${escapeHtml(bytes + bytesCap)}</td>` +
        `<td class="num" data-label="Time / cap" title="time / fetchTimeoutMs cap">${escapeHtml(ms + msCap)}</td>` +
        `<td class="source" data-label="Source">${sourceCell(f)}</td>` +
        `<td class="creds" data-label="Credentials">${creds}</td>` +
        `</tr>`;
    })
    .join("\n");
  return `<table class="fetches"><thead><tr><th>Method</th><th>URL</th><th>Status</th><th>Bytes / cap</th><th>Time / cap</th><th>Source</th><th>Credentials</th></tr></thead><tbody>\n${rows}\n</tbody></table>`;
}

function renderLogs(logs: LogEntry[]): string {
  if (logs.length === 0) {
    return `<p class="empty">Nothing logged.</p>`;
  }
  const items = logs
    .map((l0) => {
      const l: LogEntry = isObject(l0) ? l0 : {};
      const level = typeof l.level === "string" && /^[a-z]+$/.test(l.level) ? l.level : "log";
      return `<li class="log ${level}"><span class="level">${escapeHtml(level)}</span> <span class="msg">${linkLocations(safeString(l.message ?? ""))}</span></li>`;
    })
    .join("\n");
  return `<ol class="logs">\n${items}\n</ol>`;
}

function renderUsage(u: Usage): string {
  const rows: string[] = [];
  const meter = (label: string, used: unknown, cap: unknown, fmt: (n: number) => string) => {
    if (typeof used !== "number") return;
    const capText = typeof cap === "number" && cap > 0 ? ` / ${fmt(cap)}` : "";
    const bar = typeof cap === "number" && cap > 0
      ? `<meter min="0" max="${cap}" low="${cap * 0.75}" high="${cap * 0.9}" optimum="0" value="${Math.min(used, cap)}"></meter>`
      : "";
    rows.push(`<tr><th>${escapeHtml(label)}</th><td class="num">${escapeHtml(fmt(used) + capText)}</td><td>${bar}</td></tr>`);
  };
  meter("Memory peak", u.memoryPeakBytes, u.memoryCapBytes, formatBytes);
  meter("Fetches", u.fetchCount, u.fetchCap, (n) => String(n));
  meter("Fetched bytes", u.fetchBytes, undefined, formatBytes);
  meter("Log bytes", u.logBytes, u.logCapBytes, formatBytes);
  if (typeof u.timeoutMs === "number") {
    rows.push(`<tr><th>Timeout</th><td class="num">${escapeHtml(formatMs(u.timeoutMs))}</td><td></td></tr>`);
  }
  if (rows.length === 0) return `<p class="empty">No usage figures.</p>`;
  return `<table class="usage"><tbody>\n${rows.join("\n")}\n</tbody></table>`;
}

/** 1536 → "1.5 KiB". */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Math.abs(n) < 1024) return `${n} B`;
  const units = ["KiB", "MiB", "GiB"];
  let v = n;
  let i = -1;
  while (Math.abs(v) >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${Number.isInteger(v) ? v : v.toFixed(1)} ${units[i]}`;
}

/** 0.029 → "0.029 ms"; 12.345 → "12.3 ms"; 30000 → "30 s". */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (ms >= 1000) {
    const s = ms / 1000;
    return `${Number.isInteger(s) ? s : s.toFixed(2)} s`;
  }
  if (ms < 1) return `${Number(ms.toPrecision(2))} ms`;
  return `${Number.isInteger(ms) ? ms : ms.toFixed(1)} ms`;
}

// SubUI markdown results are rendered by markdown-it, with raw HTML off
// (a `<script>` or `<img onerror>` in the text is shown as text) and
// images off (the webview's CSP would block them; nothing is loaded). A
// link is shown as text with its target in a tooltip: nothing in the panel
// navigates. Headings move two levels down so that "# x" sits under the
// panel's own h2 section titles.
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false }).disable(["image"]);
markdown.renderer.rules.link_open = (tokens, idx) => `<span class="link" title="${escapeHtml(tokens[idx].attrGet("href") ?? "")}">`;
markdown.renderer.rules.link_close = () => "</span>";
markdown.renderer.rules.heading_open = (tokens, idx) => `<h${headingLevel(tokens[idx].tag)}>`;
markdown.renderer.rules.heading_close = (tokens, idx) => `</h${headingLevel(tokens[idx].tag)}>\n`;

function headingLevel(tag: string): number {
  return Math.min(Number(tag.slice(1)) + 2, 6);
}

/**
 * Renders a SubUI markdown text to inert HTML (see `markdown` above), with
 * its hidden characters shown, those spelt as entities (`&#x202E;`) too:
 * the rendered HTML is passed through `visible`, whose escapes are then
 * made HTML text.
 */
export function renderMarkdown(text: string): string {
  return visibleInHtml(markdown.render(text).trimEnd());
}

/** HTML with each hidden character (but newline and tab) replaced by its visible escape as HTML text. */
function visibleInHtml(html: string): string {
  return html.replace(HIDDEN, (c: string) => (c === "\n" || c === "\t" ? c : escapeHtml(visible(c))));
}

function isObject(v: unknown): v is object {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isScalar(v: unknown): boolean {
  return v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean";
}

function isPositiveInt(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v) && v > 0;
}
