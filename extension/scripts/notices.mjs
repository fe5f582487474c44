// Generates the third-party notices from the real dependency set, never by
// hand:
//
//   ../THIRD_PARTY_NOTICES.md   what the plugin-lsp binary links: every Go
//                               package `go list -deps ./cmd/plugin-lsp`
//                               names for each platform the extension and
//                               scripts/release.sh build, grouped by module,
//                               with the license files of its module (and of
//                               the directories between the package and the
//                               module root) read from the module cache;
//   THIRD_PARTY_NOTICES.md      what a .vsix holds: every npm package esbuild
//                               puts into dist/ (the inputs of the production
//                               bundles of scripts/bundle.mjs that contribute
//                               bytes, from esbuild's metafile) with its
//                               license files, then the binary's notices.
//
//   node scripts/notices.mjs                      writes both files
//   node scripts/notices.mjs --check              exits 1 when a committed file is stale
//   node scripts/notices.mjs --print server|extension   prints one to stdout
//   node scripts/notices.mjs --json                both as JSON {server, extension}
//
// A dependency without a license file stops the generator with its name.
// test/notices.test.ts fails when a committed file differs from the output.
import * as esbuild from "esbuild";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { BUNDLES } from "./bundle.mjs";
import { TARGETS } from "./build-server.mjs";

const extRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const repoRoot = join(extRoot, "..");
export const OUTPUTS = { server: join(repoRoot, "THIRD_PARTY_NOTICES.md"), extension: join(extRoot, "THIRD_PARTY_NOTICES.md") };

/**
 * Code a module embeds in compiled form whose licenses its module zip does
 * not hold. The generator checks that the embedded file `marker` still holds
 * each of `contains` (the version the texts are for), else it stops: a new
 * version of the module needs the texts of what it now embeds. The texts are
 * kept in scripts/embedded-licenses/<dir>/, each copied unchanged from
 * `source`/<file>.
 */
const EMBEDDED = {
  "github.com/fastschema/qjs": [
    {
      marker: "qjs.wasm",
      contains: ["quickjs-ng/%s", "0.10.1"],
      // The module builds qjs.wasm from a quickjs-ng/quickjs submodule its zip leaves out.
      what: "QuickJS-NG 0.10.1, compiled into `qjs.wasm`",
      source: "https://github.com/quickjs-ng/quickjs/blob/v0.10.1",
      dir: "quickjs-ng",
      files: ["LICENSE"],
    },
    {
      marker: "qjs.wasm",
      contains: ["wasisdk://v21.0", "wasi_snapshot_preview1"],
      what: "wasi-libc of wasi-sdk 21 (multi-licensed; used under MIT), linked into `qjs.wasm`",
      source: "https://github.com/WebAssembly/wasi-libc/blob/wasi-sdk-21",
      dir: "wasi-libc",
      files: ["LICENSE", "LICENSE-MIT", "libc-bottom-half/cloudlibc/LICENSE", "libc-top-half/musl/COPYRIGHT"],
    },
  ],
};

/** A license, notice or patents file by its name: LICENSE, LICENSE.md, License.txt, LICENSE-MIT.txt, LICENSE_V8, NOTICE, PATENTS, COPYING, thirdpartynotices.txt. */
const LICENSE_NAME = /^(licen[cs]e|copying|notice|patents|third[-_ ]?party[-_ ]?notices)([-_][^.]*)?(\.(txt|md|markdown|rst))?$/i;

/** The license files that apply to the package in dir: those of dir and of each directory up to root, root's first. */
function licenseFiles(dir, root) {
  const found = [];
  for (let d = dir; ; d = dirname(d)) {
    for (const name of readdirSync(d).sort()) {
      if (LICENSE_NAME.test(name) && statSync(join(d, name)).isFile()) found.push(relative(root, join(d, name)).split(sep).join("/"));
    }
    if (d === root || !d.startsWith(root + sep)) break;
  }
  return found;
}

function text(file) {
  return readFileSync(file, "utf8").replace(/\r\n/g, "\n").replace(/\n*$/, "\n");
}

function go(args, env = {}) {
  return execFileSync("go", args, { cwd: repoRoot, encoding: "utf8", env: { ...process.env, CGO_ENABLED: "0", ...env } });
}

/** The Go components of the binary: the standard library and each module, with their license files. */
export function goComponents() {
  const goroot = go(["env", "GOROOT"]).trim();
  const byKey = new Map();
  const add = (key, name, version, root, dir) => {
    if (!byKey.has(key)) byKey.set(key, { name, version, root, files: new Set() });
    for (const f of licenseFiles(dir, root)) byKey.get(key).files.add(f);
  };
  const format = "{{.Dir}}\t{{.Standard}}\t{{with .Module}}{{.Path}}\t{{.Version}}\t{{.Dir}}\t{{.Main}}{{end}}";
  for (const { goos, goarch } of Object.values(TARGETS)) {
    for (const line of go(["list", "-deps", "-f", format, "./cmd/plugin-lsp"], { GOOS: goos, GOARCH: goarch }).split("\n")) {
      if (!line) continue;
      const [dir, standard, path, version, modDir, main] = line.split("\t");
      if (standard === "true") add("", "Go standard library and runtime", "", goroot, dir);
      else if (!path) throw new Error(`notices: package in ${dir} belongs to no module`);
      else if (main !== "true") add(path, path, version, modDir, dir);
    }
  }
  const out = [];
  for (const [key, c] of [...byKey].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const licenses = [...c.files].sort(byDepth).map((f) => ({ title: f, text: text(join(c.root, f)) }));
    for (const e of EMBEDDED[key] ?? []) {
      const marker = join(c.root, e.marker);
      const bytes = existsSync(marker) ? readFileSync(marker) : Buffer.alloc(0);
      for (const want of e.contains) {
        if (!bytes.includes(want)) throw new Error(`notices: ${key}'s ${e.marker} no longer holds "${want}"; update EMBEDDED in scripts/notices.mjs`);
      }
      for (const f of e.files) {
        licenses.push({ title: `${e.what}: ${e.source}/${f}`, text: text(join(extRoot, "scripts", "embedded-licenses", e.dir, f)) });
      }
    }
    if (!licenses.length) throw new Error(`notices: no license file for ${c.name} (${c.root})`);
    out.push({ name: c.name, version: c.version, licenses });
  }
  return out;
}

function byDepth(a, b) {
  const d = a.split("/").length - b.split("/").length;
  return d || (a < b ? -1 : a > b ? 1 : 0);
}

/** The npm packages esbuild bundles into dist/ (production build), with their license files. */
export async function npmComponents() {
  const byRoot = new Map();
  for (const options of BUNDLES(true)) {
    const result = await esbuild.build({ ...options, absWorkingDir: extRoot, write: false, metafile: true, logLevel: "error" });
    for (const [outFile, output] of Object.entries(result.metafile.outputs)) {
      for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
        const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
        if (!m || bytesInOutput === 0) continue;
        const root = join(extRoot, m[1]);
        if (!byRoot.has(root)) {
          const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
          byRoot.set(root, { name: pkg.name, version: pkg.version, license: pkg.license, in: new Set(), files: new Set() });
        }
        const c = byRoot.get(root);
        c.in.add(outFile);
        for (const f of licenseFiles(dirname(join(extRoot, input)), root)) c.files.add(f);
      }
    }
  }
  const out = [];
  for (const [root, c] of byRoot) {
    if (!c.files.size) throw new Error(`notices: no license file for ${c.name}@${c.version} (${root})`);
    const licenses = [...c.files].sort(byDepth).map((f) => ({ title: f, text: text(join(root, f)) }));
    out.push({ name: c.name, version: c.version, note: `${c.license ?? "no license field"}; in ${[...c.in].sort().join(", ")}`, licenses });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.version < b.version ? -1 : 1));
}

/** A fence longer than any run of backticks in s. */
function fence(s) {
  const longest = Math.max(2, ...[...s.matchAll(/`+/g)].map((m) => m[0].length));
  return "`".repeat(longest + 1);
}

function section(components) {
  let s = "";
  for (const c of components) {
    s += `\n### ${c.name}${c.version ? ` ${c.version}` : ""}\n`;
    if (c.note) s += `\n${c.note}\n`;
    for (const l of c.licenses) {
      const f = fence(l.text);
      s += `\n${l.title}:\n\n${f}text\n${l.text}${f}\n`;
    }
  }
  return s;
}

const GENERATED = "Generated by `extension/scripts/notices.mjs` from the real dependency set; do not edit.";

export async function render() {
  const goc = goComponents();
  const npm = await npmComponents();
  const list = (cs) => cs.map((c) => `- ${c.name}${c.version ? ` ${c.version}` : ""}`).join("\n");
  const server =
    `# Third-party notices: the plugin-lsp binary\n\n${GENERATED}\n\n` +
    `The \`plugin-lsp\` binary links these Go components (for every platform it is built for):\n\n${list(goc)}\n\n` +
    `Their license and notice files follow, each verbatim.\n` +
    section(goc);
  const extension =
    `# Third-party notices: the Plugin LSP extension\n\n${GENERATED}\n\n` +
    `## Bundled into dist/ by esbuild\n\n${list(npm)}\n` +
    section(npm) +
    `\n## The plugin-lsp server\n\nEach platform package holds the \`plugin-lsp\` binary, which links:\n\n${list(goc)}\n` +
    section(goc);
  return { server: server.replace(/\n+$/, "\n"), extension: extension.replace(/\n+$/, "\n") };
}

// Run, not imported (realpath: a checkout reached through a symlink still runs).
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const files = await render();
  if (args[0] === "--json") {
    process.stdout.write(JSON.stringify(files));
  } else if (args[0] === "--print") {
    if (!(args[1] in files)) throw new Error(`notices: --print server|extension, not ${args[1]}`);
    process.stdout.write(files[args[1]]);
  } else if (args[0] === "--check") {
    const stale = Object.keys(files).filter((k) => !existsSync(OUTPUTS[k]) || readFileSync(OUTPUTS[k], "utf8") !== files[k]);
    for (const k of stale) console.error(`notices: ${relative(process.cwd(), OUTPUTS[k])} is stale (node extension/scripts/notices.mjs)`);
    process.exit(stale.length ? 1 : 0);
  } else {
    for (const [k, s] of Object.entries(files)) {
      writeFileSync(OUTPUTS[k], s);
      console.log(`notices: ${OUTPUTS[k]}`);
    }
  }
}
