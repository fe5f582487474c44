// Packages the extension: one .vsix per VS Code platform target, each with
// its own cross-compiled plugin-lsp, plus a universal .vsix without a server
// (it uses pluginLsp.serverPath or plugin-lsp on PATH, and says so when
// neither is there). Output: extension/vsix/plugin-lsp-<target>-<version>.vsix
// and extension/vsix/plugin-lsp-<version>.vsix.
//
//   node scripts/package.mjs                 all five targets and the universal one
//   node scripts/package.mjs linux-x64       only these targets (and no universal)
//
// The client (dist/) and the schema are built once by `npm run build`
// before; this script only builds servers and archives.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { TARGETS, buildServer } from "./build-server.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const asked = process.argv.slice(2);
const targets = asked.length ? asked : Object.keys(TARGETS);
const universal = asked.length === 0 || asked.includes("universal");
const vsce = join(root, "node_modules", "@vscode", "vsce", "vsce");
const outDir = join(root, "vsix");
mkdirSync(outDir, { recursive: true });

// The TypeScript server plugin must sit in node_modules/plugin-lsp-tsserver
// of the installed extension (VS Code's typescriptServerPlugins resolve it
// there). npm installs it there as a copy (.npmrc install-links), vsce packs
// it because it is a production dependency (so no --no-dependencies:
// .vscodeignore still keeps every other package out, the client bundles
// them), and the copy is refreshed here from tsserver-plugin/ first.
function syncTsserverPlugin() {
  const from = join(root, "tsserver-plugin");
  const to = join(root, "node_modules", "plugin-lsp-tsserver");
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true });
  for (const f of TSSERVER_PLUGIN_FILES) copyFileSync(join(from, f), join(to, f));
}
/** What the .vsix holds of the TypeScript server plugin (test/package.test.ts allows exactly these). */
const TSSERVER_PLUGIN_FILES = ["package.json", "index.js"];

function pack(target, file) {
  const args = [
    "package",
    "--baseContentUrl", "https://github.com/plugin-lsp/plugin-lsp/blob/HEAD/extension",
    "--baseImagesUrl", "https://github.com/plugin-lsp/plugin-lsp/raw/HEAD/extension",
    "-o", file,
  ];
  if (target) args.push("--target", target);
  const t0 = Date.now();
  execFileSync(process.execPath, [vsce, ...args], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  console.log(`package: ${file} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}

syncTsserverPlugin();
for (const target of targets.filter((t) => t !== "universal")) {
  rmSync(join(root, "bin"), { recursive: true, force: true }); // only this target's server goes in
  buildServer(target);
  pack(target, join(outDir, `plugin-lsp-${target}-${version}.vsix`));
}
if (universal) {
  rmSync(join(root, "bin"), { recursive: true, force: true });
  pack(undefined, join(outDir, `plugin-lsp-${version}.vsix`));
}
