import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DEFAULT_SETTINGS, bundledServerPath, readSettings, resolveServer, serverCommand, serverConfiguration, type ResolveEnv } from "../src/launch";

function env(files: string[], over: Partial<ResolveEnv> = {}): ResolveEnv {
  return {
    extensionPath: "/ext",
    platform: "linux",
    arch: "x64",
    envPath: "/usr/local/bin:/usr/bin",
    home: "/home/me",
    workspaceFolder: "/work/ws",
    isFile: (p) => files.includes(p),
    ...over,
  };
}

describe("resolveServer", () => {
  it("uses the bundled binary by default", () => {
    assert.deepEqual(resolveServer("", env(["/ext/bin/linux-x64/plugin-lsp", "/usr/bin/plugin-lsp"])), {
      ok: true,
      command: "/ext/bin/linux-x64/plugin-lsp",
      source: "bundled",
    });
  });
  it("falls back to plugin-lsp on PATH when nothing is bundled for the platform", () => {
    assert.deepEqual(resolveServer("", env(["/ext/bin/linux-x64/plugin-lsp", "/usr/bin/plugin-lsp"], { arch: "arm64" })), {
      ok: true,
      command: "/usr/bin/plugin-lsp",
      source: "path",
    });
  });
  it("says what to do when there is no binary at all", () => {
    const r = resolveServer("", env([]));
    assert.equal(r.ok, false);
    if (!r.ok) assert.match(r.message, /none is bundled for linux-x64 and none is on PATH.*pluginLsp\.serverPath/);
  });
  it("honours the setting: absolute, ~, ${workspaceFolder}, relative, bare name", () => {
    const files = ["/opt/pl/plugin-lsp", "/home/me/go/bin/plugin-lsp", "/work/ws/bin/plugin-lsp", "/usr/local/bin/my-lsp", "/ext/bin/linux-x64/plugin-lsp"];
    const e = env(files);
    assert.deepEqual(resolveServer("/opt/pl/plugin-lsp", e), { ok: true, command: "/opt/pl/plugin-lsp", source: "setting" });
    assert.deepEqual(resolveServer("~/go/bin/plugin-lsp", e), { ok: true, command: "/home/me/go/bin/plugin-lsp", source: "setting" });
    assert.deepEqual(resolveServer("${workspaceFolder}/bin/plugin-lsp", e), { ok: true, command: "/work/ws/bin/plugin-lsp", source: "setting" });
    assert.deepEqual(resolveServer("bin/plugin-lsp", e), { ok: true, command: "/work/ws/bin/plugin-lsp", source: "setting" });
    assert.deepEqual(resolveServer("my-lsp", e), { ok: true, command: "/usr/local/bin/my-lsp", source: "setting" });
  });
  it("does not fall back when the configured binary is missing", () => {
    const e = env(["/ext/bin/linux-x64/plugin-lsp"]);
    assert.deepEqual(resolveServer("/nope/plugin-lsp", e), { ok: false, message: "pluginLsp.serverPath: no file at /nope/plugin-lsp" });
    assert.deepEqual(resolveServer("nope", e), { ok: false, message: "pluginLsp.serverPath: nope is not on PATH" });
    const r = resolveServer("${workspaceFolder}/x", env([], { workspaceFolder: undefined }));
    assert.equal(r.ok, false);
  });
  it("names the Windows binary with .exe", () => {
    assert.equal(bundledServerPath("/ext", "win32", "x64").endsWith("plugin-lsp.exe"), true);
  });
});

describe("settings", () => {
  it("reads well-typed settings and ignores the rest", () => {
    const values: Record<string, unknown> = { serverPath: " /x ", builtins: ["acme.search", 3, ""], providers: "real", timeout: "5s", debounceMs: 100 };
    assert.deepEqual(readSettings((k) => values[k]), { serverPath: "/x", builtins: ["acme.search"], providers: "real", timeout: "5s", debounceMs: 100 });
    const bad: Record<string, unknown> = { serverPath: 1, builtins: "x", providers: "network", timeout: "", debounceMs: -1 };
    assert.deepEqual(readSettings((k) => bad[k]), DEFAULT_SETTINGS);
  });
  it("sends the server everything but serverPath", () => {
    assert.deepEqual(serverConfiguration({ ...DEFAULT_SETTINGS, serverPath: "/x", builtins: ["a.b"] }), { builtins: ["a.b"], providers: "fake", timeout: "30s", debounceMs: 100 });
  });
  it("starts the server with `serve`", () => {
    assert.deepEqual(serverCommand("/b/plugin-lsp"), { command: "/b/plugin-lsp", args: ["serve"] });
  });
});
