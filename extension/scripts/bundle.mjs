// Bundles the client (Node, CommonJS, vscode external) and the webview
// script (browser IIFE) into dist/.
import * as esbuild from "esbuild";

const production = process.argv.includes("--production");

await esbuild.build({
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
});

await esbuild.build({
  entryPoints: ["src/webview/main.ts"],
  bundle: true,
  platform: "browser",
  format: "iife",
  target: "chrome114",
  outfile: "dist/webview.js",
  sourcemap: false,
  minify: production,
  logLevel: "warning",
});
