// launch decides which plugin-lsp binary the client starts and how, and
// what configuration it hands the server. Pure (fs and env are passed in),
// so Node tests cover it and the wiring test starts the real server through
// exactly these values.

import * as path from "path";

export interface Settings {
  serverPath: string;
  builtins: string[];
  providers: "fake" | "real";
  timeout: string;
  debounceMs: number;
}

export const DEFAULT_SETTINGS: Settings = {
  serverPath: "",
  builtins: [],
  providers: "fake",
  timeout: "30s",
  debounceMs: 100,
};

/** Reads settings from a getter (vscode's WorkspaceConfiguration.get), keeping only well-typed values. */
export function readSettings(get: (key: string) => unknown): Settings {
  const s = { ...DEFAULT_SETTINGS, builtins: [] as string[] };
  const serverPath = get("serverPath");
  if (typeof serverPath === "string") s.serverPath = serverPath.trim();
  const builtins = get("builtins");
  if (Array.isArray(builtins)) s.builtins = builtins.filter((b): b is string => typeof b === "string" && b !== "");
  const providers = get("providers");
  if (providers === "fake" || providers === "real") s.providers = providers;
  const timeout = get("timeout");
  if (typeof timeout === "string" && timeout.trim() !== "") s.timeout = timeout.trim();
  const debounce = get("debounceMs");
  if (typeof debounce === "number" && Number.isFinite(debounce) && debounce >= 0) s.debounceMs = debounce;
  return s;
}

/** What the server receives as initializationOptions and in didChangeConfiguration (serverPath is client-only). */
export function serverConfiguration(s: Settings): { builtins: string[]; providers: string; timeout: string; debounceMs: number } {
  return { builtins: s.builtins, providers: s.providers, timeout: s.timeout, debounceMs: s.debounceMs };
}

export interface ResolveEnv {
  extensionPath: string;
  platform: string; // process.platform
  arch: string; // process.arch
  envPath: string | undefined; // process.env.PATH
  home: string | undefined;
  workspaceFolder: string | undefined;
  isFile: (p: string) => boolean;
}

export type Resolved =
  | { ok: true; command: string; source: "setting" | "bundled" | "path" }
  | { ok: false; message: string };

/** The binary bundled in the .vsix for this platform. */
export function bundledServerPath(extensionPath: string, platform: string, arch: string): string {
  const exe = platform === "win32" ? "plugin-lsp.exe" : "plugin-lsp";
  return path.join(extensionPath, "bin", `${platform}-${arch}`, exe);
}

/**
 * The server binary: the pluginLsp.serverPath setting when set (with ~ and
 * ${workspaceFolder} expanded, relative paths taken from the workspace
 * folder), else the binary bundled in the package, else plugin-lsp on PATH.
 */
export function resolveServer(setting: string, env: ResolveEnv): Resolved {
  if (setting !== "") {
    let p = setting;
    if (p.includes("${workspaceFolder}")) {
      if (!env.workspaceFolder) return { ok: false, message: `pluginLsp.serverPath uses \${workspaceFolder} but no folder is open: ${setting}` };
      p = p.split("${workspaceFolder}").join(env.workspaceFolder);
    }
    if ((p === "~" || p.startsWith("~/")) && env.home) p = path.join(env.home, p.slice(1));
    if (!path.isAbsolute(p)) {
      if (p.includes("/") || p.includes(path.sep)) {
        p = path.resolve(env.workspaceFolder ?? env.extensionPath, p);
      } else {
        const found = searchPath(p, env);
        if (!found) return { ok: false, message: `pluginLsp.serverPath: ${setting} is not on PATH` };
        return { ok: true, command: found, source: "setting" };
      }
    }
    if (!env.isFile(p)) return { ok: false, message: `pluginLsp.serverPath: no file at ${p}` };
    return { ok: true, command: p, source: "setting" };
  }
  const bundled = bundledServerPath(env.extensionPath, env.platform, env.arch);
  if (env.isFile(bundled)) return { ok: true, command: bundled, source: "bundled" };
  const onPath = searchPath(env.platform === "win32" ? "plugin-lsp.exe" : "plugin-lsp", env);
  if (onPath) return { ok: true, command: onPath, source: "path" };
  return {
    ok: false,
    message: `No plugin-lsp binary: none is bundled for ${env.platform}-${env.arch} and none is on PATH. Install it (go install ./cmd/plugin-lsp in a checkout of plugin-lsp) or set pluginLsp.serverPath.`,
  };
}

function searchPath(name: string, env: ResolveEnv): string | undefined {
  const delimiter = env.platform === "win32" ? ";" : ":";
  for (const dir of (env.envPath ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, name);
    if (env.isFile(candidate)) return candidate;
  }
  return undefined;
}

/** How the client starts the server: `<binary> serve` over stdio. */
export function serverCommand(binary: string): { command: string; args: string[] } {
  return { command: binary, args: ["serve"] };
}
