// Who reports what in VS Code, so that each problem, outline and run
// summary shows once. VS Code already has a JSON language service on every
// .json file, and the extension contributes a schema to it for completion
// and hover only (scripts/copy-schema.mjs takes the validation keywords
// out). The split:
//
// - syntax errors of plugin.json and fixtures.json: VS Code's JSON service
//   (it always reports them and cannot be told not to for one file), so the
//   client drops plugin-lsp's `manifest-syntax` there;
// - every schema and plugin problem: plugin-lsp (codes, did-you-mean, quick
//   fixes, the same report as `plugin-lsp check` and every other editor);
// - the outline of a .json file: VS Code's JSON service (one tree, as in
//   every JSON file); plugin-lsp's manifest outline serves other editors;
// - the outcome of a tool's last run: the code lens ("✓ 12 ms · ▶ Run
//   again"); the server's inlay hint with the same text serves editors
//   without lenses.
// Other clients (Neovim, Helix, Emacs, …) get everything the server sends.

/** Diagnostic codes that VS Code's JSON service also reports on a .json file. */
export const JSON_SERVICE_CODES = new Set(["manifest-syntax"]);

/** The code of a VS Code diagnostic: a string or number, or { value, target } when it links to docs. */
export function codeOf(code: unknown): string {
  if (code && typeof code === "object" && "value" in code) return String((code as { value: unknown }).value);
  return code === undefined || code === null ? "" : String(code);
}

export function isJsonPath(path: string): boolean {
  return path.toLowerCase().endsWith(".json");
}

/** Drops the diagnostics of `path` that VS Code's JSON service already shows. */
export function withoutJsonServiceDuplicates<T extends { code?: unknown }>(path: string, diagnostics: readonly T[]): T[] {
  if (!isJsonPath(path)) return [...diagnostics];
  return diagnostics.filter((d) => !JSON_SERVICE_CODES.has(codeOf(d.code)));
}
