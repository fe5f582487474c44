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
import { mkdirSync, readFileSync, rmSync } from "node:fs";
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

function pack(target, file) {
  const args = [
    "package", "--no-dependencies",
    "--baseContentUrl", "https://github.com/plugin-lsp/plugin-lsp/blob/HEAD/extension",
    "--baseImagesUrl", "https://github.com/plugin-lsp/plugin-lsp/raw/HEAD/extension",
    "-o", file,
  ];
  if (target) args.push("--target", target);
  const t0 = Date.now();
  execFileSync(process.execPath, [vsce, ...args], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  console.log(`package: ${file} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}

for (const target of targets.filter((t) => t !== "universal")) {
  rmSync(join(root, "bin"), { recursive: true, force: true }); // only this target's server goes in
  buildServer(target);
  pack(target, join(outDir, `plugin-lsp-${target}-${version}.vsix`));
}
if (universal) {
  rmSync(join(root, "bin"), { recursive: true, force: true });
  pack(undefined, join(outDir, `plugin-lsp-${version}.vsix`));
}
