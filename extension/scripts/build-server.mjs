// Builds the linux-x64 plugin-lsp binary that the .vsix bundles, from the
// repository's cmd/plugin-lsp, stamped with the extension's version.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const out = join(root, "bin", "linux-x64", "plugin-lsp");
mkdirSync(dirname(out), { recursive: true });
execFileSync(
  "go",
  ["build", "-trimpath", "-ldflags", `-s -w -X main.version=${version}`, "-o", out, "./cmd/plugin-lsp"],
  {
    cwd: join(root, ".."),
    stdio: "inherit",
    env: { ...process.env, GOOS: "linux", GOARCH: "amd64", CGO_ENABLED: "0" },
  },
);
console.log(`build-server: ${out}`);
