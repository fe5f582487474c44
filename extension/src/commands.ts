// The ids the client registers and the server commands it calls. The
// package.json contributions are checked against this list by a test.

/** Palette commands contributed by the extension. */
export const CLIENT_COMMANDS = {
  runTool: "pluginLsp.runTool",
  showReviewCard: "pluginLsp.showReviewCard",
  pinSnapshot: "pluginLsp.pinSnapshot",
  restartServer: "pluginLsp.restartServer",
} as const;

/** workspace/executeCommand commands served by `plugin-lsp serve`. */
export const SERVER_COMMANDS = {
  runTool: "plugin.runTool",
  reviewCard: "plugin.reviewCard",
  runTests: "plugin.runTests",
  pin: "plugin.pin",
  /** A native tool's description and inputJsonSchema, read by the server from its module (docs/lsp.md). */
  nativeTool: "plugin.nativeTool",
} as const;

/** The documents the server is told about. */
export const DOCUMENT_SELECTOR = [
  { scheme: "file", pattern: "**/plugin.json" },
  { scheme: "file", pattern: "**/fixtures.json" },
  { scheme: "file", pattern: "**/tests/*.json" },
  { scheme: "file", language: "typescript" },
  { scheme: "file", language: "javascript" },
];

/** Files whose changes on disk the server hears about. */
export const WATCH_GLOB = "**/{plugin.json,fixtures.json,tests/*.json,*.ts,*.js,*.mjs}";
