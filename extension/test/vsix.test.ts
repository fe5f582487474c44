// The packaged .vsix archives (built by `npm run package`, which
// scripts/ci.sh runs before the tests): one per VS Code platform target,
// each with the client, the webview script, the hints schema, the license,
// the third-party notices, the changelog, the icon and a server whose
// ELF/Mach-O/PE header names that target's OS and CPU; and a universal one
// with no server. Nothing else of the source tree.
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { inflateRawSync } from "node:zlib";
import { TSServer } from "./tsserverclient";
import { EXT_ROOT, REPO_ROOT } from "./util";

interface Entry {
  name: string;
  mode: number;
  data: () => Buffer;
}

/** Reads a zip's central directory (no zip64, which a .vsix of this size never needs). */
function readZip(buf: Buffer): Entry[] {
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  assert.ok(eocd >= 0, "end of central directory");
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const out: Entry[] = [];
  for (let n = 0; n < count; n++) {
    assert.equal(buf.readUInt32LE(p), 0x02014b50, "central directory entry");
    const method = buf.readUInt16LE(p + 10);
    const compressed = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const external = buf.readUInt32LE(p + 38);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString("utf8", p + 46, p + 46 + nameLen);
    out.push({
      name,
      mode: (external >>> 16) & 0o7777,
      data: () => {
        const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
        const raw = Uint8Array.from(buf.subarray(start, start + compressed));
        return method === 8 ? inflateRawSync(raw) : Buffer.from(raw);
      },
    });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}

/** What a binary's header says it runs on: ELF, Mach-O or PE, and the CPU. */
export function binaryPlatform(b: Buffer): { os: string; arch: string } {
  if (b.length >= 20 && b.toString("latin1", 0, 4) === "\x7fELF") {
    assert.equal(b[4], 2, "64-bit ELF");
    assert.equal(b[5], 1, "little-endian ELF");
    const machine = b.readUInt16LE(18);
    return { os: "linux", arch: machine === 0x3e ? "x64" : machine === 0xb7 ? "arm64" : `elf-machine-${machine}` };
  }
  if (b.length >= 8 && b.readUInt32LE(0) === 0xfeedfacf) {
    const cpu = b.readUInt32LE(4);
    return { os: "darwin", arch: cpu === 0x01000007 ? "x64" : cpu === 0x0100000c ? "arm64" : `macho-cpu-${cpu}` };
  }
  if (b.length >= 64 && b.toString("latin1", 0, 2) === "MZ") {
    const pe = b.readUInt32LE(0x3c);
    assert.equal(b.toString("latin1", pe, pe + 4), "PE\0\0", "PE signature");
    const machine = b.readUInt16LE(pe + 4);
    return { os: "win32", arch: machine === 0x8664 ? "x64" : machine === 0xaa64 ? "arm64" : `pe-machine-${machine}` };
  }
  return { os: "unknown", arch: "unknown" };
}

const TARGETS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64"];
const COMMON = [
  "[Content_Types].xml",
  "extension.vsixmanifest",
  "extension/dist/extension.js",
  "extension/dist/webview.js",
  "extension/package.json",
  "extension/readme.md",
  "extension/changelog.md",
  "extension/LICENSE.txt",
  "extension/THIRD_PARTY_NOTICES.md",
  "extension/icon.png",
  "extension/schemas/plugin.hints.schema.json",
  // The TypeScript server plugin, where VS Code's typescriptServerPlugins look for it.
  "extension/node_modules/plugin-lsp-tsserver/package.json",
  "extension/node_modules/plugin-lsp-tsserver/index.js",
];

/** What every archive holds besides the server: the license, notices, changelog and icon as committed, named in the manifest; a README without relative images. */
function checkCommon(entries: Entry[]) {
  const get = (name: string) => entries.find((e) => e.name === name)!;
  const same = (inVsix: string, file: string) => assert.equal(get(inVsix).data().toString("base64"), readFileSync(join(EXT_ROOT, file)).toString("base64"), `${inVsix} is ${file}`);
  same("extension/LICENSE.txt", "LICENSE");
  same("extension/THIRD_PARTY_NOTICES.md", "THIRD_PARTY_NOTICES.md");
  same("extension/changelog.md", "CHANGELOG.md");
  same("extension/icon.png", "icon.png");
  same("extension/node_modules/plugin-lsp-tsserver/index.js", "tsserver-plugin/index.js");
  same("extension/node_modules/plugin-lsp-tsserver/package.json", "tsserver-plugin/package.json");
  const manifest = get("extension.vsixmanifest").data().toString("utf8");
  assert.match(manifest, /<License>extension\/LICENSE\.txt<\/License>/);
  assert.match(manifest, /<Icon>extension\/icon\.png<\/Icon>/);
  assert.match(manifest, /Microsoft\.VisualStudio\.Services\.Content\.Changelog/);
  const readme = get("extension/readme.md").data().toString("utf8");
  for (const m of readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)) assert.match(m[1], /^https:\/\/github\.com\/[^/]+\/[^/]+\/raw\/HEAD\/(?!.*\/\.\.\/)/, `readme image ${m[1]}`);
}

describe("the packaged .vsix archives", () => {
  const pkg = JSON.parse(readFileSync(join(EXT_ROOT, "package.json"), "utf8"));
  const dir = join(EXT_ROOT, "vsix");
  // Skipped in a checkout without a build; in CI (scripts/ci.sh packages first) a missing archive fails.
  const notBuilt = (f: string) => (existsSync(f) || process.env.CI ? false : `${f} not built (npm run package)`);

  for (const target of TARGETS) {
    const vsix = join(dir, `plugin-lsp-${target}-${pkg.version}.vsix`);
    it(`${target}: holds the client, the schema and a ${target} server, nothing else`, { skip: notBuilt(vsix) }, () => {
      const entries = readZip(readFileSync(vsix));
      const exe = target.startsWith("win32") ? "plugin-lsp.exe" : "plugin-lsp";
      assert.deepEqual(entries.map((e) => e.name).sort(), [...COMMON, `extension/bin/${target}/${exe}`].sort());
      checkCommon(entries);
      const get = (name: string) => entries.find((e) => e.name === name)!;
      const server = get(`extension/bin/${target}/${exe}`);
      const [os, arch] = target.split("-");
      assert.deepEqual(binaryPlatform(server.data()), { os, arch }, "the binary's header");
      if (os !== "win32") assert.equal(server.mode & 0o111, 0o111, `server is executable (mode ${server.mode.toString(8)})`);
      const manifest = get("extension.vsixmanifest").data().toString("utf8");
      assert.match(manifest, new RegExp(`TargetPlatform="${target}"`));
      assert.match(manifest, new RegExp(`Version="${pkg.version.replace(/\./g, "\\.")}"`));
      const client = get("extension/dist/extension.js").data().toString("utf8");
      assert.ok(client.includes("plugin.runTool") && client.includes("pluginLsp.restartServer"));
      assert.ok(!/require\("vscode-languageclient/.test(client), "vscode-languageclient is bundled, not required at run time");
    });
  }

  // The host's archive, unpacked as VS Code installs it: tsserver loads the
  // contributed plugin from it, and the plugin finds the bundled server by
  // itself (not configured, nothing on PATH).
  const host = join(dir, `plugin-lsp-${process.platform}-${process.arch}-${pkg.version}.vsix`);
  it("the TypeScript server plugin of the host's archive gives a plugin without .plugin/ its types from the bundled server", { skip: notBuilt(host), timeout: 120_000 }, async () => {
    const work = mkdtempSync(join(tmpdir(), "plugin-lsp-vsix-"));
    const server = { current: undefined as TSServer | undefined };
    try {
      for (const e of readZip(readFileSync(host))) {
        const to = join(work, "installed", e.name);
        mkdirSync(dirname(to), { recursive: true });
        writeFileSync(to, new Uint8Array(e.data()), { mode: e.mode & 0o777 || 0o644 });
      }
      const plugin = join(work, "bare");
      mkdirSync(join(plugin, "code"), { recursive: true });
      cpSync(join(REPO_ROOT, "testdata", "example", "books", "plugin.json"), join(plugin, "plugin.json"));
      cpSync(join(REPO_ROOT, "testdata", "example", "books", "code", "lookup-book.ts"), join(plugin, "code", "lookup-book.ts"));
      const tmp = join(work, "tmp");
      mkdirSync(tmp);
      server.current = new TSServer(["--globalPlugins", "plugin-lsp-tsserver", "--pluginProbeLocations", join(work, "installed", "extension")], { PATH: dirname(process.execPath), TMPDIR: tmp, TMP: tmp, TEMP: tmp });
      const page = join(plugin, "code", "lookup-book.ts");
      server.current.open(page, plugin);
      const problems = await server.current.problems(page);
      assert.deepEqual(problems.map((d) => `${d.start.line}:${d.start.offset} TS${d.code} ${d.text}`), [], server.current.stderr);
      assert.deepEqual(readdirSync(plugin).sort(), ["code", "plugin.json"], "nothing written into the plugin");
      assert.equal(readdirSync(tmp).filter((n) => n.startsWith("plugin-lsp-tsserver-")).length, 1, "the declarations in the private cache");
    } finally {
      server.current?.close();
      rmSync(work, { recursive: true, force: true });
    }
  });

  const universal = join(dir, `plugin-lsp-${pkg.version}.vsix`);
  it("universal: no server, no target platform", { skip: notBuilt(universal) }, () => {
    const entries = readZip(readFileSync(universal));
    assert.deepEqual(entries.map((e) => e.name).sort(), [...COMMON].sort());
    checkCommon(entries);
    const manifest = entries.find((e) => e.name === "extension.vsixmanifest")!.data().toString("utf8");
    assert.doesNotMatch(manifest, /TargetPlatform=/);
  });

  it("reads the header of binaries it did not build the way the archives do", () => {
    // The node binary running this test, and hand-made headers of the other formats.
    const self = readFileSync(process.execPath);
    assert.deepEqual(binaryPlatform(self), { os: process.platform, arch: process.arch });
    const macho = Buffer.alloc(32);
    macho.writeUInt32LE(0xfeedfacf, 0);
    macho.writeUInt32LE(0x0100000c, 4);
    assert.deepEqual(binaryPlatform(macho), { os: "darwin", arch: "arm64" });
    const pe = Buffer.alloc(256);
    pe.write("MZ", 0, "latin1");
    pe.writeUInt32LE(0x80, 0x3c);
    pe.write("PE\0\0", 0x80, "latin1");
    pe.writeUInt16LE(0x8664, 0x84);
    assert.deepEqual(binaryPlatform(pe), { os: "win32", arch: "x64" });
    assert.deepEqual(binaryPlatform(Buffer.from("#!/bin/sh\n")), { os: "unknown", arch: "unknown" });
  });
});
