// The ids the client registers and the server commands it calls. The
// package.json contributions are checked against this list by a test.

/** Palette commands contributed by the extension. */
export const CLIENT_COMMANDS = {
  runTool: "pluginLsp.runTool",
  showReviewCard: "pluginLsp.showReviewCard",
  restartServer: "pluginLsp.restartServer",
} as const;

/** workspace/executeCommand commands served by `plugin-lsp serve`. */
export const SERVER_COMMANDS = {
  runTool: "plugin.runTool",
  reviewCard: "plugin.reviewCard",
} as const;

/** The documents the server is told about. */
export const DOCUMENT_SELECTOR = [
  { scheme: "file", pattern: "**/plugin.json" },
  { scheme: "file", pattern: "**/fixtures.json" },
  { scheme: "file", language: "typescript" },
  { scheme: "file", language: "javascript" },
];

/** Files whose changes on disk the server hears about. */
export const WATCH_GLOB = "**/{plugin.json,fixtures.json,*.ts,*.js,*.mjs}";

/** Turns whatever plugin.reviewCard returned into Markdown for a preview. */
export function reviewCardMarkdown(result: unknown): string {
  if (typeof result === "string") return result;
  if (result && typeof result === "object") {
    const o = result as Record<string, unknown>;
    for (const key of ["markdown", "text"]) {
      if (typeof o[key] === "string") return o[key] as string;
    }
  }
  return "```json\n" + JSON.stringify(result, null, 2) + "\n```\n";
}
