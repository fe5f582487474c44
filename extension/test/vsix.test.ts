// The packaged .vsix (built by `npm run package`, which scripts/ci.sh runs
// before the tests) holds the client, the webview script, the schema and an
// executable linux-x64 server, and nothing else of the source tree.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { inflateRawSync } from "node:zlib";
import { EXT_ROOT } from "./util";

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

describe("the packaged .vsix", () => {
  const pkg = JSON.parse(readFileSync(join(EXT_ROOT, "package.json"), "utf8"));
  const vsix = join(EXT_ROOT, `plugin-lsp-${pkg.version}.vsix`);

  it("holds the client, the webview script, the schema and the linux-x64 server", { skip: existsSync(vsix) ? false : `${vsix} not built (npm run package)` }, () => {
    const entries = readZip(readFileSync(vsix));
    assert.deepEqual(entries.map((e) => e.name).sort(), [
      "[Content_Types].xml",
      "extension.vsixmanifest",
      "extension/bin/linux-x64/plugin-lsp",
      "extension/dist/extension.js",
      "extension/dist/webview.js",
      "extension/package.json",
      "extension/readme.md",
      "extension/schemas/plugin.schema.json",
    ]);
    const get = (name: string) => entries.find((e) => e.name === name)!;
    const server = get("extension/bin/linux-x64/plugin-lsp");
    assert.equal(server.mode & 0o111, 0o111, `server is executable (mode ${server.mode.toString(8)})`);
    assert.equal(server.data().subarray(0, 4).toString("latin1"), "\x7fELF");
    const schema = JSON.parse(get("extension/schemas/plugin.schema.json").data().toString("utf8"));
    assert.deepEqual(schema, JSON.parse(readFileSync(join(EXT_ROOT, "..", "analysis", "schema", "plugin.schema.json"), "utf8")), "the schema is the Go tree's, not a fork");
    const client = get("extension/dist/extension.js").data().toString("utf8");
    assert.ok(client.includes("plugin.runTool") && client.includes("pluginLsp.restartServer"));
    assert.ok(!/require\("vscode-languageclient/.test(client), "vscode-languageclient is bundled, not required at run time");
    const manifest = get("extension.vsixmanifest").data().toString("utf8");
    assert.match(manifest, new RegExp(`Version="${pkg.version.replace(/\./g, "\\.")}"`));
  });
});
