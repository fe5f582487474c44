// Cross-compiles the plugin-lsp binary a platform .vsix bundles, from the
// repository's cmd/plugin-lsp, stamped with the extension's version:
// bin/<vscode target>/plugin-lsp[.exe]. Pure Go (CGO_ENABLED=0), so every
// target builds on any machine with Go.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** VS Code's platform targets (vsce package --target) and the Go GOOS/GOARCH of each. */
export const TARGETS = {
  "linux-x64": { goos: "linux", goarch: "amd64" },
  "linux-arm64": { goos: "linux", goarch: "arm64" },
  "darwin-x64": { goos: "darwin", goarch: "amd64" },
  "darwin-arm64": { goos: "darwin", goarch: "arm64" },
  "win32-x64": { goos: "windows", goarch: "amd64" },
};

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Builds the server for target into bin/<target>/ and returns its path. */
export function buildServer(target) {
  const t = TARGETS[target];
  if (!t) throw new Error(`build-server: unknown target ${target} (known: ${Object.keys(TARGETS).join(", ")})`);
  const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const out = join(root, "bin", target, t.goos === "windows" ? "plugin-lsp.exe" : "plugin-lsp");
  mkdirSync(dirname(out), { recursive: true });
  execFileSync("go", ["build", "-trimpath", "-ldflags", `-s -w -X main.version=${version}`, "-o", out, "./cmd/plugin-lsp"], {
    cwd: join(root, ".."),
    stdio: "inherit",
    env: { ...process.env, GOOS: t.goos, GOARCH: t.goarch, CGO_ENABLED: "0" },
  });
  console.log(`build-server: ${out}`);
  return out;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const target of process.argv.slice(2).length ? process.argv.slice(2) : ["linux-x64"]) buildServer(target);
}
