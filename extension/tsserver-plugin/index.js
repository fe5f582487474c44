// The TypeScript server plugin of the Plugin LSP extension (contributed
// through package.json contributes.typescriptServerPlugins). For a page of a
// plugin (a .ts/.js file with plugin.json in a folder above it) it adds the
// plugin's declarations to the page's project, so that `http`, `Input<"tool">`
// and the web globals type-check with no command run:
//
//   - the plugin's own .plugin/types.d.ts when it has one (also when no
//     tsconfig.json includes it);
//   - else what `plugin-lsp types --stdout DIR` prints: the one generator of
//     the declarations is the Go binary (internal/checker/tstypes), and this plugin
//     only runs it. Its output goes to a private cache file outside the
//     plugin (opening a plugin never writes into it), rewritten when
//     plugin.json changes on disk.
//
// In a project TypeScript infers (no tsconfig.json) made only of plugin
// files, the library is the sandbox's: ES2022 without DOM, no @types.
"use strict";
const childProcess = require("child_process");
const crypto = require("crypto");
const fs = require("fs");
const os = require("os");
const path = require("path");

const MANIFEST = "plugin.json";
const TYPES = path.join(".plugin", "types.d.ts");
/** How many folders above a page plugin.json is looked for. */
const MAX_UP = 32;
const PAGE = /\.(ts|mts|cts|tsx|js|mjs|cjs|jsx)$/;

// tsserver calls init once per project: what is shared lives here.
/** Set by the extension (configurePlugin; a project created later gets it as info.config): the binary it runs. */
let configured = { command: "", args: [], cacheDir: "" };
/** plugin dir → { key, file }: the generated declarations, by plugin.json's mtime and size. */
const generated = new Map();
/** Every project the plugin is enabled in. */
const projects = new Set();

function configure(config) {
  const next = {
    command: typeof config?.command === "string" ? config.command : "",
    args: Array.isArray(config?.args) ? config.args.filter((a) => typeof a === "string") : [],
    cacheDir: typeof config?.cacheDir === "string" ? config.cacheDir : "",
  };
  const same = JSON.stringify(next) === JSON.stringify(configured);
  configured = next;
  return !same;
}

function init(modules) {
  const ts = modules.typescript;

  function log(project, msg) {
    try {
      project.projectService.logger.info(`[plugin-lsp] ${msg}`);
    } catch {
      // no logger: nothing to say it to
    }
  }

  function statOrUndefined(p) {
    try {
      return fs.lstatSync(p);
    } catch {
      return undefined;
    }
  }

  /** pluginDirOf's answers, by file, for a few seconds (a plugin.json created later is found then). */
  const dirOf = new Map();
  function pluginDirOf(file) {
    const now = Date.now();
    const hit = dirOf.get(file);
    if (hit && now - hit.at < 5000) return hit.dir;
    if (dirOf.size > 10000) dirOf.clear();
    const dir = findPluginDir(file);
    dirOf.set(file, { dir, at: now });
    return dir;
  }

  /** The plugin folder a file is in (plugin.json at or above it), or undefined. */
  function findPluginDir(file) {
    if (!PAGE.test(file) || /\.d\.[cm]?ts$/.test(file) || file.split(/[\\/]/).includes("node_modules")) return undefined;
    let dir = path.dirname(file);
    for (let i = 0; i < MAX_UP; i++) {
      const m = statOrUndefined(path.join(dir, MANIFEST));
      if (m && m.isFile()) return dir;
      const up = path.dirname(dir);
      if (up === dir) return undefined;
      dir = up;
    }
    return undefined;
  }

  /** The binary: the extension's choice, else the one bundled beside this plugin, else plugin-lsp on PATH. */
  function binary() {
    if (configured.command) return { command: configured.command, args: configured.args };
    const exe = process.platform === "win32" ? "plugin-lsp.exe" : "plugin-lsp";
    const bundled = path.join(__dirname, "..", "..", "bin", `${process.platform}-${process.arch}`, exe);
    const b = statOrUndefined(bundled);
    if (b && b.isFile()) return { command: bundled, args: [] };
    // PATH resolved here, absolute entries only: a bare name would let
    // Windows run a plugin-lsp.exe from the current folder (the workspace).
    for (const d of (process.env.PATH || "").split(path.delimiter)) {
      if (!path.isAbsolute(d)) continue;
      const st = statOrUndefined(path.join(d, exe));
      if (st && st.isFile()) return { command: path.join(d, exe), args: [] };
    }
    return undefined;
  }

  /** A private folder for the generated files: created 0700, refused when it is a link or not ours. */
  function cacheDir() {
    const uid = typeof process.getuid === "function" ? process.getuid() : -1;
    const dir = configured.cacheDir || path.join(os.tmpdir(), `plugin-lsp-tsserver-${uid >= 0 ? uid : "user"}`);
    try {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch {
      // checked below
    }
    const st = statOrUndefined(dir);
    if (!st || !st.isDirectory() || st.isSymbolicLink()) throw new Error(`${dir} is not a directory`);
    if (uid >= 0 && (st.uid !== uid || (st.mode & 0o077) !== 0)) throw new Error(`${dir} is not a private folder of this user`);
    return dir;
  }

  /** The declarations of a plugin without .plugin/types.d.ts, as a file path (regenerated when plugin.json changed). */
  function generatedFile(project, dir) {
    const m = statOrUndefined(path.join(dir, MANIFEST));
    if (!m) return undefined;
    const bin = binary();
    if (!bin) {
      log(project, "no plugin-lsp binary (none configured, bundled or on PATH): no declarations");
      return undefined;
    }
    const key = `${m.mtimeMs}:${m.size}:${bin.command}`;
    const have = generated.get(dir);
    if (have && have.key === key && (!have.file || statOrUndefined(have.file))) return have.file;
    let text;
    try {
      text = childProcess.execFileSync(bin.command, [...bin.args, "types", "--stdout", dir], {
        encoding: "utf8",
        timeout: 10000,
        maxBuffer: 16 << 20,
        stdio: ["ignore", "pipe", "pipe"],
        windowsHide: true,
      });
    } catch (e) {
      const why = e && e.stderr ? String(e.stderr).trim() : String(e && e.message);
      log(project, `${bin.command} types --stdout ${dir}: ${why}`);
      generated.set(dir, { key, file: undefined });
      return undefined;
    }
    let file;
    try {
      // Named by the plugin folder and the content: new declarations are a
      // new file, which TypeScript reads afresh (a rewritten file it holds
      // open would be re-read only when its watcher fires).
      const cache = cacheDir();
      const dirHash = crypto.createHash("sha256").update(dir).digest("hex").slice(0, 16);
      const textHash = crypto.createHash("sha256").update(text).digest("hex").slice(0, 16);
      file = path.join(cache, `${dirHash}-${textHash}.d.ts`);
      if (!statOrUndefined(file)) {
        const tmp = `${file}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, text, { mode: 0o600 });
        fs.renameSync(tmp, file);
      }
      // Older versions of this plugin's declarations: kept a day (another
      // window's TypeScript may still read one), then removed.
      for (const name of fs.readdirSync(cache)) {
        const old = path.join(cache, name);
        if (!name.startsWith(`${dirHash}-`) || old === file) continue;
        const st = statOrUndefined(old);
        if (st && st.isFile() && Date.now() - st.mtimeMs > 24 * 3600 * 1000) fs.rmSync(old, { force: true });
      }
    } catch (e) {
      log(project, `types for ${dir}: ${e && e.message}`);
      file = undefined;
    }
    generated.set(dir, { key, file });
    return file;
  }

  /** The declaration files the project's pages need, one per plugin. */
  function extraFiles(project, roots) {
    const dirs = new Set();
    for (const r of roots) {
      const d = pluginDirOf(r);
      if (d) dirs.add(d);
    }
    const out = [];
    for (const dir of dirs) {
      watch(project, dir);
      const own = statOrUndefined(path.join(dir, TYPES));
      if (own && own.isFile() && inside(dir, path.join(dir, TYPES))) {
        out.push(path.join(dir, TYPES));
        continue;
      }
      const f = generatedFile(project, dir);
      if (f) out.push(f);
    }
    return { dirs, files: out };
  }

  /** Whether file is inside dir once symlinks are resolved (a .plugin/ linking elsewhere is not the plugin's). */
  function inside(dir, file) {
    try {
      return fs.realpathSync(file).startsWith(fs.realpathSync(dir) + path.sep);
    } catch {
      return false;
    }
  }

  /** Watches plugin.json and .plugin/types.d.ts of dir: a change re-checks the project. */
  const watched = new Map(); // project → Set(dir)
  function watch(project, dir) {
    let set = watched.get(project);
    if (!set) watched.set(project, (set = new Set()));
    if (set.has(dir)) return;
    set.add(dir);
    const host = project.projectService.host;
    const changed = () => {
      project.markAsDirty();
      project.refreshDiagnostics();
    };
    try {
      host.watchFile(path.join(dir, MANIFEST), changed, 500);
      host.watchFile(path.join(dir, TYPES), changed, 500);
    } catch (e) {
      log(project, `watch ${dir}: ${e && e.message}`);
    }
  }

  function create(info) {
    const project = info.project;
    if (info.config && typeof info.config.command === "string" && configure(info.config)) generated.clear();
    projects.add(project);
    const host = info.languageServiceHost;
    const rootNames = host.getScriptFileNames.bind(host);
    const settings = host.getCompilationSettings.bind(host);
    host.getScriptFileNames = () => {
      const roots = rootNames();
      try {
        const { files } = extraFiles(project, roots);
        const have = new Set(roots);
        return roots.concat(files.filter((f) => !have.has(f)));
      } catch (e) {
        log(project, `getScriptFileNames: ${e && e.message}`);
        return roots;
      }
    };
    host.getCompilationSettings = () => {
      const options = settings();
      if (project.projectKind !== ts.server.ProjectKind.Inferred) return options;
      // Every page of an inferred project inside a plugin: the sandbox's language.
      const roots = rootNames().filter((r) => PAGE.test(r) && !/\.d\.[cm]?ts$/.test(r));
      if (roots.length === 0 || !roots.every((r) => pluginDirOf(r))) return options;
      return {
        ...options,
        target: ts.ScriptTarget.ES2022,
        lib: ["lib.es2022.d.ts"],
        types: [],
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        resolveJsonModule: true,
      };
    };
    log(project, `enabled for ${project.getProjectName()}`);
    return info.languageService;
  }

  function onConfigurationChanged(config) {
    if (!configure(config)) return;
    generated.clear();
    dirOf.clear();
    for (const p of projects) {
      p.markAsDirty();
      p.refreshDiagnostics();
    }
  }

  return { create, onConfigurationChanged };
}

module.exports = init;
