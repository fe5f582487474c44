// Bundles the client (Node, CommonJS, vscode external) and the webview
// script (browser IIFE) into dist/. scripts/notices.mjs builds the same
// bundles (BUNDLES, production) to list the npm packages they contain.
import * as esbuild from "esbuild";
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** esbuild's options for each file of dist/; production: minified, no source maps. */
export function BUNDLES(production) {
  return [
    {
      entryPoints: ["src/extension.ts"],
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node18",
      external: ["vscode"],
      // jsonc-parser's "main" is a UMD build whose require calls esbuild cannot
      // follow (the bundle would fail at run time); its ESM build bundles cleanly.
      mainFields: ["module", "main"],
      outfile: "dist/extension.js",
      sourcemap: !production,
      minify: production,
      logLevel: "warning",
    },
    {
      entryPoints: ["src/webview/main.ts"],
      bundle: true,
      platform: "browser",
      format: "iife",
      target: "chrome114",
      outfile: "dist/webview.js",
      sourcemap: false,
      minify: production,
      logLevel: "warning",
    },
  ];
}

// Run, not imported (realpath: a checkout reached through a symlink still runs).
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const options of BUNDLES(process.argv.includes("--production"))) await esbuild.build(options);
}
